//! Standard algebraic notation (R7): writing it exactly, reading it leniently.
//!
//! Reading accepts what players and old score sheets write: `0-0`, `e8Q`, `e8=Q`, `exd6e.p.`,
//! annotations like `!?`, over-disambiguated `Ngf3`, long algebraic `Ng1-f3` and `Ra1xa7`,
//! the seeds' `×` and `—`, and UCI (`g1f3`).

use crate::uci::{IllegalMoveReason, MoveError, explain};
use crate::{
    Bitboard, CastlingSide, Color, File, Move, MoveKind, MoveList, Position, Rank, Role, Square,
    UciMove, attacks,
};

/// Whether `c` is one of the dashes and hyphens found in the wild in place of `-`
/// (the seeds' `—`, en dash, non-breaking hyphen, minus sign, ...).
pub(crate) fn is_dash(c: char) -> bool {
    matches!(c, '‐' | '‑' | '‒' | '–' | '—' | '―' | '−' | '﹣' | '－')
}

/// A parsed but unchecked SAN move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move, with whatever disambiguation was written.
    Normal {
        role: Role,
        file: Option<File>,
        rank: Option<Rank>,
        capture: bool,
        to: Square,
        promotion: Option<Role>,
    },
    Castle(CastlingSide),
    /// A from-to pair without a piece letter (UCI, or long algebraic like `e2-e4`).
    FromTo(UciMove),
}

/// Why a SAN move was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SanError {
    /// The text is not SAN at all.
    Syntax(String),
    /// A letter where a piece belongs that names no piece.
    UnknownPiece(char),
    /// No move of that kind exists in the position.
    NoSuchMove(String),
    /// More than one legal move fits; the candidates are listed in SAN.
    Ambiguous {
        san: String,
        candidates: Vec<String>,
    },
    /// Such a move exists but breaks a rule here.
    Illegal(MoveError),
}

impl std::fmt::Display for SanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SanError::Syntax(s) => write!(f, "{s:?} is not a move in algebraic notation"),
            SanError::UnknownPiece(c) => write!(f, "unknown piece {c:?} (use K, Q, R, B or N)"),
            SanError::NoSuchMove(s) => write!(f, "no legal move matches {s}"),
            SanError::Ambiguous { san, candidates } => {
                write!(
                    f,
                    "{san} is ambiguous: it could be {}",
                    candidates.join(" or ")
                )
            }
            SanError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SanError {}

/// Trailing text that carries no move information: check/mate marks, annotation glyphs,
/// the "e.p." some sheets add.
fn strip_suffixes(mut s: &str) -> &str {
    loop {
        let before = s.len();
        s = s.trim_end_matches(['+', '#', '!', '?', '‼', '⁇', '⁉', '⁈', ' ']);
        for tail in ["e.p.", "e.p", "ep", "(ep)"] {
            if let Some(rest) = s.strip_suffix(tail).map(str::trim_end) {
                // Only after a destination square, so that no real move text is eaten.
                if rest.ends_with(|c: char| c.is_ascii_digit()) {
                    s = rest;
                }
            }
        }
        if s.len() == before {
            return s;
        }
    }
}

impl San {
    /// Parses SAN leniently (see the module docs).
    ///
    /// # Errors
    /// [`SanError::Syntax`] or [`SanError::UnknownPiece`].
    pub fn parse(text: &str) -> Result<San, SanError> {
        let syntax = || SanError::Syntax(text.to_owned());
        let trimmed = text.trim();
        // Plain ASCII SAN, the usual case, needs no rewriting (and no allocation).
        let norm: std::borrow::Cow<'_, str> = if trimmed.is_ascii() && !trimmed.contains(':') {
            trimmed.into()
        } else {
            trimmed
                .chars()
                .map(|ch| match ch {
                    '×' | ':' => 'x',
                    c if is_dash(c) => '-',
                    c => c,
                })
                .collect::<String>()
                .into()
        };
        let s = strip_suffixes(&norm);
        match s {
            "O-O" | "0-0" | "o-o" | "OO" | "00" => return Ok(San::Castle(CastlingSide::KingSide)),
            "O-O-O" | "0-0-0" | "o-o-o" | "OOO" | "000" => {
                return Ok(San::Castle(CastlingSide::QueenSide));
            }
            "" => return Err(syntax()),
            _ => {}
        }
        if !s.is_ascii() {
            let first = s.chars().next().unwrap_or(' ');
            return Err(if first.is_alphabetic() && !first.is_ascii() {
                SanError::UnknownPiece(first)
            } else {
                syntax()
            });
        }
        let bytes = s.as_bytes();
        let (role, body) = match bytes[0] {
            b'K' | b'Q' | b'R' | b'B' | b'N' => (
                Role::from_char(bytes[0] as char).unwrap_or(Role::Pawn),
                &bytes[1..],
            ),
            b'P' => (Role::Pawn, &bytes[1..]),
            b'a'..=b'h' => (Role::Pawn, bytes),
            c if c.is_ascii_uppercase() => return Err(SanError::UnknownPiece(c as char)),
            _ => return Err(syntax()),
        };

        // Promotion at the end: `=Q`, `Q`, `q` or `(Q)` after the destination.
        let mut body = body;
        let mut promotion = None;
        let unbracketed = body.strip_suffix(b")").unwrap_or(body);
        if let Some((&last, rest)) = unbracketed.split_last() {
            if last.is_ascii_alphabetic() {
                let p =
                    Role::from_char(last as char).ok_or(SanError::UnknownPiece(last as char))?;
                promotion = Some(p);
                let rest = rest.strip_suffix(b"(").unwrap_or(rest);
                body = rest.strip_suffix(b"=").unwrap_or(rest);
            }
        }

        if body.len() < 2 {
            return Err(syntax());
        }
        let (head, dest) = body.split_at(body.len() - 2);
        let to = Square::from_ascii(dest).ok_or_else(syntax)?;
        let (head, capture) = match head.split_last() {
            Some((b'x', rest)) => (rest, true),
            Some((b'-', rest)) => (rest, false),
            _ => (head, false),
        };
        let (file, rank) = match *head {
            [] => (None, None),
            [c] if (b'a'..=b'h').contains(&c) => (File::from_char(c as char), None),
            [c] if (b'1'..=b'8').contains(&c) => (None, Rank::from_char(c as char)),
            [f, r] => {
                let sq = Square::from_ascii(&[f, r]).ok_or_else(syntax)?;
                if role == Role::Pawn && bytes[0] != b'P' {
                    // No piece letter and a full from-square: UCI or pawn long algebraic.
                    return Ok(San::FromTo(UciMove {
                        from: sq,
                        to,
                        promotion,
                    }));
                }
                (Some(sq.file()), Some(sq.rank()))
            }
            _ => return Err(syntax()),
        };
        Ok(San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        })
    }

    /// The legal move this names in `pos`.
    ///
    /// # Errors
    /// No such move, ambiguous (with candidates), or illegal with the reason.
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        match *self {
            San::FromTo(uci) => uci.to_move(pos).map_err(SanError::Illegal),
            San::Castle(side) => pos.castling_move(side).ok_or_else(|| {
                let from = side.king_from(pos.turn());
                let reason = explain(pos, from, side.king_to(pos.turn()), None, Some(side));
                SanError::Illegal(MoveError {
                    text: side.san().to_owned(),
                    reason,
                })
            }),
            San::Normal {
                role,
                file,
                rank,
                to,
                promotion,
                ..
            } => {
                if let Some(m) = quick_match(pos, role, file, rank, to, promotion) {
                    return Ok(m);
                }
                let fits = |m: &Move| {
                    m.role() == role
                        && m.to() == to
                        && m.castling_side().is_none()
                        && file.is_none_or(|f| m.from().file() == f)
                        && rank.is_none_or(|r| m.from().rank() == r)
                };
                let legal = pos.legal_moves();
                let mut found = legal
                    .iter()
                    .filter(|m| fits(m) && m.promotion() == promotion);
                match (found.next(), found.next()) {
                    (Some(&m), None) => Ok(m),
                    (Some(_), Some(_)) => Err(SanError::Ambiguous {
                        san: self.to_string(),
                        candidates: legal
                            .iter()
                            .filter(|m| fits(m) && m.promotion() == promotion)
                            .map(|&m| SanPlus::of(pos, m).to_string())
                            .collect(),
                    }),
                    (None, _) => Err(self.why_not(pos, role, file, rank, to, promotion)),
                }
            }
        }
    }

    /// The error for a piece move that matched nothing legal.
    fn why_not(
        &self,
        pos: &Position,
        role: Role,
        file: Option<File>,
        rank: Option<Rank>,
        to: Square,
        promotion: Option<Role>,
    ) -> SanError {
        let b = pos.board();
        let ours = b.by_color(pos.turn()) & b.by_role(role);
        for from in ours {
            if file.is_some_and(|f| from.file() != f) || rank.is_some_and(|r| from.rank() != r) {
                continue;
            }
            let reason = explain(pos, from, to, promotion, None);
            if !matches!(reason, IllegalMoveReason::CannotMoveThere { .. }) {
                return SanError::Illegal(MoveError {
                    text: self.to_string(),
                    reason,
                });
            }
        }
        SanError::NoSuchMove(self.to_string())
    }
}

/// The one legal move a piece move names, found without generating every legal move:
/// the pieces of that kind that reach `to`, each tried for the safety of its own king.
/// `None` when there is not exactly one (the caller then finds out why, slowly).
fn quick_match(
    pos: &Position,
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
) -> Option<Move> {
    let b = pos.board();
    let us = pos.turn();
    let ours = b.by_color(us);
    if ours.contains(to) {
        return None;
    }
    let occupied = b.occupied();
    let mut from_mask = ours & b.by_role(role);
    if let Some(f) = file {
        from_mask &= Bitboard::from_file(f);
    }
    if let Some(r) = rank {
        from_mask &= Bitboard::from_rank(r);
    }
    let last_rank = Bitboard::BACKRANKS.contains(to);
    let mut kind = MoveKind::Normal;
    let candidates = if role == Role::Pawn {
        // A promotion needs its piece, and only a promotion may name one.
        match (last_rank, promotion) {
            (true, Some(p)) if Role::PROMOTIONS.contains(&p) => kind = MoveKind::Promotion(p),
            (false, None) => {}
            _ => return None,
        }
        let up: i32 = if us == Color::White { 8 } else { -8 };
        let captures = attacks::pawn_attacks(!us, to) & from_mask;
        if b.by_color(!us).contains(to) {
            captures
        } else if pos.ep_square() == Some(to) && kind == MoveKind::Normal {
            kind = MoveKind::EnPassant;
            captures
        } else if occupied.contains(to) {
            Bitboard::EMPTY
        } else {
            let one = to.offset(-up).filter(|s| from_mask.contains(*s));
            let two = to
                .offset(-2 * up)
                .filter(|s| from_mask.contains(*s) && s.rank() == Rank::Second.relative_to(us))
                .filter(|_| to.offset(-up).is_some_and(|mid| !occupied.contains(mid)));
            one.or(two).map_or(Bitboard::EMPTY, Bitboard::from_square)
        }
    } else {
        if promotion.is_some() {
            return None;
        }
        attacks::attacks(role.of(us), to, occupied) & from_mask
    };
    let mut found = None;
    for from in candidates {
        let m = Move::new(role, from, to, kind);
        let next = pos.after(m);
        let king = next.king_of(us);
        if next
            .board()
            .attackers_to(king, !us, next.board().occupied())
            .is_empty()
        {
            if found.is_some() {
                return None;
            }
            found = Some(m);
        }
    }
    found
}

impl std::str::FromStr for San {
    type Err = SanError;

    fn from_str(s: &str) -> Result<San, SanError> {
        San::parse(s)
    }
}

impl std::fmt::Display for San {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            San::Castle(side) => f.write_str(side.san()),
            San::FromTo(uci) => uci.fmt(f),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    write!(f, "{}", role.upper_char())?;
                }
                if let Some(file) = file {
                    write!(f, "{file}")?;
                }
                if let Some(rank) = rank {
                    write!(f, "{rank}")?;
                }
                if capture {
                    f.write_str("x")?;
                }
                write!(f, "{to}")?;
                if let Some(p) = promotion {
                    write!(f, "={}", p.upper_char())?;
                }
                Ok(())
            }
        }
    }
}

/// SAN of a legal move with its check or mate mark, exactly as R7 writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SanPlus {
    pub san: San,
    pub check: bool,
    pub mate: bool,
}

impl SanPlus {
    /// The SAN of legal move `m` in `pos`.
    pub fn of(pos: &Position, m: Move) -> SanPlus {
        SanPlus::of_and_play(&mut pos.clone(), m)
    }

    /// The SAN of legal move `m`, which is then played on `pos`.
    pub fn of_and_play(pos: &mut Position, m: Move) -> SanPlus {
        let san = san_without_suffix(pos, m);
        pos.play_unchecked(m);
        let check = pos.is_check();
        let mate = check && pos.count_legal_moves() == 0;
        SanPlus { san, check, mate }
    }
}

impl std::fmt::Display for SanPlus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.san.fmt(f)?;
        if self.mate {
            f.write_str("#")
        } else if self.check {
            f.write_str("+")
        } else {
            Ok(())
        }
    }
}

/// SAN without `+`/`#`: minimal disambiguation, file first, then rank, then both (R7).
fn san_without_suffix(pos: &Position, m: Move) -> San {
    if let Some(side) = m.castling_side() {
        return San::Castle(side);
    }
    let capture = pos.is_capture(m);
    let role = m.role();
    let (file, rank) = if role == Role::Pawn {
        (capture.then(|| m.from().file()), None)
    } else if role == Role::King {
        (None, None)
    } else {
        // Other pieces of the same kind that attack the target; only if there are any is
        // the (rarer, dearer) question asked which of them may legally go there.
        let b = pos.board();
        let others = b.by_piece(role.of(pos.turn())).without(m.from());
        let mut candidates = Bitboard::EMPTY;
        for sq in others {
            if crate::attacks::attacks(role.of(pos.turn()), sq, b.occupied()).contains(m.to()) {
                candidates.set(sq);
            }
        }
        let legal = if candidates.is_empty() {
            MoveList::new()
        } else {
            pos.legal_moves()
        };
        let rivals = legal
            .into_iter()
            .filter(|o| o.role() == role && o.to() == m.to() && candidates.contains(o.from()));
        let (mut any, mut same_file, mut same_rank) = (false, false, false);
        for o in rivals {
            any = true;
            same_file |= o.from().file() == m.from().file();
            same_rank |= o.from().rank() == m.from().rank();
        }
        match (any, same_file, same_rank) {
            (false, _, _) => (None, None),
            (true, false, _) => (Some(m.from().file()), None),
            (true, true, false) => (None, Some(m.from().rank())),
            (true, true, true) => (Some(m.from().file()), Some(m.from().rank())),
        }
    };
    San::Normal {
        role,
        file,
        rank,
        capture,
        to: m.to(),
        promotion: m.promotion(),
    }
}

impl Position {
    /// The SAN (with `+`/`#`) of a legal move.
    pub fn san(&self, m: Move) -> String {
        SanPlus::of(self, m).to_string()
    }

    /// The seeds' long form of a legal move (R7, seed 000's 完整記錄): the piece's letter
    /// (none for a pawn), the square it leaves, `-` for a move or `×` for a capture, the square
    /// it reaches, `=Q` for a promotion, and `+`/`#`: `Ng1-f3`, `Ra1×a7`, `e5×d6`, `e7-e8=Q+`.
    /// Castling is `0-0` and `0-0-0`, as the seeds write it. The SAN reader reads it back.
    pub fn long_form(&self, m: Move) -> String {
        let plus = SanPlus::of(self, m);
        let mut out = String::new();
        match m.castling_side() {
            Some(CastlingSide::KingSide) => out.push_str("0-0"),
            Some(CastlingSide::QueenSide) => out.push_str("0-0-0"),
            None => {
                if m.role() != Role::Pawn {
                    out.push(m.role().upper_char());
                }
                out.push_str(&m.from().to_string());
                out.push(if self.is_capture(m) { '×' } else { '-' });
                out.push_str(&m.to().to_string());
                if let Some(p) = m.promotion() {
                    out.push('=');
                    out.push(p.upper_char());
                }
            }
        }
        if plus.mate {
            out.push('#');
        } else if plus.check {
            out.push('+');
        }
        out
    }

    /// Reads a move in SAN (leniently) or UCI and returns the legal move it names.
    ///
    /// # Errors
    /// [`SanError`] naming what was wrong.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        San::parse(text)?.to_move(self)
    }
}
