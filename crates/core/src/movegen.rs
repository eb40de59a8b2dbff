//! Legal move generation (R2, R3): pins, checks, double checks, en passant with its
//! horizontal-pin case, promotion, castling under all six conditions.
//!
//! The generator emits moves in groups (one piece with a set of targets, or a set of pawn
//! moves sharing a direction) to a [`MoveSink`]. Counting only needs popcounts of those
//! groups; a [`MoveList`] expands them. Nothing here allocates.

use arrayvec::ArrayVec;

use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks,
    queen_attacks, rook_attacks, rook_rays,
};
use crate::{Bitboard, Board, CastlingSide, Color, Move, MoveKind, Position, Rank, Role, Square};

/// The most legal moves any position has is 218; this leaves room.
pub const MAX_LEGAL_MOVES: usize = 256;

/// A list of moves on the stack.
pub type MoveList = ArrayVec<Move, MAX_LEGAL_MOVES>;

/// Receives generated moves in groups.
pub(crate) trait MoveSink {
    /// One move of `role` from `from` to every square of `to` (no promotion).
    fn piece(&mut self, role: Role, from: Square, to: Bitboard);
    /// A pawn move to every square of `to`, each from `to - delta` (no promotion).
    fn pawns(&mut self, to: Bitboard, delta: i32);
    /// Four promotions for every square of `to`, each from `to - delta`.
    fn promotions(&mut self, to: Bitboard, delta: i32);
    /// A single en passant capture or castling move.
    fn special(&mut self, m: Move);
}

impl MoveSink for MoveList {
    #[inline]
    fn piece(&mut self, role: Role, from: Square, to: Bitboard) {
        for to in to {
            self.push(Move::new(role, from, to, MoveKind::Normal));
        }
    }

    #[inline]
    fn pawns(&mut self, to: Bitboard, delta: i32) {
        for to in to {
            let from = Square::new((to as i32 - delta) as u32);
            self.push(Move::new(Role::Pawn, from, to, MoveKind::Normal));
        }
    }

    #[inline]
    fn promotions(&mut self, to: Bitboard, delta: i32) {
        for to in to {
            let from = Square::new((to as i32 - delta) as u32);
            for role in Role::PROMOTIONS {
                self.push(Move::new(Role::Pawn, from, to, MoveKind::Promotion(role)));
            }
        }
    }

    #[inline]
    fn special(&mut self, m: Move) {
        self.push(m);
    }
}

/// Keeps only the noisy moves of a generation: captures (en passant and promotions
/// included) and pawn pushes that promote to a queen.
pub(crate) struct NoisySink<'a> {
    pub(crate) list: &'a mut MoveList,
    pub(crate) theirs: Bitboard,
}

impl MoveSink for NoisySink<'_> {
    #[inline]
    fn piece(&mut self, role: Role, from: Square, to: Bitboard) {
        self.list.piece(role, from, to & self.theirs);
    }

    #[inline]
    fn pawns(&mut self, to: Bitboard, delta: i32) {
        self.list.pawns(to & self.theirs, delta);
    }

    #[inline]
    fn promotions(&mut self, to: Bitboard, delta: i32) {
        // Captures promote to anything; pushes only to a queen.
        self.list.promotions(to & self.theirs, delta);
        for to in to & !self.theirs {
            let from = Square::new((to as i32 - delta) as u32);
            self.list.push(Move::new(
                Role::Pawn,
                from,
                to,
                MoveKind::Promotion(Role::Queen),
            ));
        }
    }

    #[inline]
    fn special(&mut self, m: Move) {
        if m.is_en_passant() {
            self.list.push(m);
        }
    }
}

/// Counts moves without listing them.
#[derive(Debug, Default)]
pub(crate) struct MoveCounter(pub(crate) u64);

impl MoveSink for MoveCounter {
    #[inline]
    fn piece(&mut self, _: Role, _: Square, to: Bitboard) {
        self.0 += u64::from(to.count());
    }

    #[inline]
    fn pawns(&mut self, to: Bitboard, _: i32) {
        self.0 += u64::from(to.count());
    }

    #[inline]
    fn promotions(&mut self, to: Bitboard, _: i32) {
        self.0 += 4 * u64::from(to.count());
    }

    #[inline]
    fn special(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// The enemy pieces giving check, and our pieces that stand alone between our king and an
/// enemy slider aiming at it (pinned), found together from one x-ray of the king's lines.
#[inline]
pub(crate) fn checkers_and_pinned(pos: &Position, king: Square, us: Color) -> (Bitboard, Bitboard) {
    let b = pos.board();
    let theirs = b.by_color(!us);
    let occupied = b.occupied();
    // Only sliders on the king's empty-board lines can check or pin; often there are none.
    let lines = theirs & b.line_sliders() & rook_rays(king);
    let diagonals = theirs & b.diagonal_sliders() & bishop_rays(king);
    let mut snipers = Bitboard::EMPTY;
    if lines.nonempty() {
        snipers |= rook_attacks(king, theirs) & lines;
    }
    if diagonals.nonempty() {
        snipers |= bishop_attacks(king, theirs) & diagonals;
    }
    let mut checkers =
        theirs & (knight_attacks(king) & b.knights() | pawn_attacks(us, king) & b.pawns());
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        // The rays stopped at enemy pieces, so whatever stands between is ours.
        let blockers = between(king, sniper) & occupied;
        if blockers.is_empty() {
            checkers |= sniper;
        } else if !blockers.more_than_one() {
            pinned |= blockers;
        }
    }
    (checkers, pinned)
}

/// Whether one of the `lines` (rooks, queens) or `diagonals` (bishops, queens) attacks `sq`.
/// The empty-board rays rule most squares out before any magic lookup.
#[inline]
fn slider_attacks(sq: Square, occupied: Bitboard, lines: Bitboard, diagonals: Bitboard) -> bool {
    let lines = lines & rook_rays(sq);
    let diagonals = diagonals & bishop_rays(sq);
    (lines.nonempty() && (rook_attacks(sq, occupied) & lines).nonempty())
        || (diagonals.nonempty() && (bishop_attacks(sq, occupied) & diagonals).nonempty())
}

/// Squares attacked by `by`'s pawns, knights and king.
#[inline]
fn leaper_attacks(pos: &Position, by: Color) -> Bitboard {
    let b = pos.board();
    let theirs = b.by_color(by);
    let pawns = b.pawns() & theirs;
    let mut out = match by {
        Color::White => Bitboard((pawns & NOT_FILE_A).0 << 7 | (pawns & NOT_FILE_H).0 << 9),
        Color::Black => Bitboard((pawns & NOT_FILE_A).0 >> 9 | (pawns & NOT_FILE_H).0 >> 7),
    };
    for sq in b.knights() & theirs {
        out |= knight_attacks(sq);
    }
    if let Some(k) = (b.kings() & theirs).first() {
        out |= king_attacks(k);
    }
    out
}

/// Emits every legal move of the side to move.
#[inline]
pub(crate) fn generate<S: MoveSink>(pos: &Position, sink: &mut S) {
    generate_from(pos, sink, Bitboard::FULL);
}

/// Emits the legal moves of the side to move's pieces on `from` (checks and pins are still
/// found from the whole board).
#[inline]
pub(crate) fn generate_from<S: MoveSink>(pos: &Position, sink: &mut S, from: Bitboard) {
    let us = pos.turn();
    let them = !us;
    let b = pos.board();
    let ours = b.by_color(us);
    let theirs = b.by_color(them);
    let occupied = ours | theirs;
    let Some(king) = (b.kings() & ours).first() else {
        return;
    };
    let (checkers, pinned) = checkers_and_pinned(pos, king, us);
    let king_moves = from.contains(king);

    // King steps: off squares the enemy attacks, where sliders see through the king itself
    // (so it cannot step back along a checking line).
    let leaper_danger = if king_moves {
        leaper_attacks(pos, them)
    } else {
        Bitboard::EMPTY
    };
    if king_moves {
        let mut king_targets = king_attacks(king) & !ours & !leaper_danger;
        if king_targets.nonempty() {
            let without_king = occupied.toggled(king);
            let lines = b.line_sliders() & theirs;
            let diagonals = b.diagonal_sliders() & theirs;
            for to in king_targets {
                if slider_attacks(to, without_king, lines, diagonals) {
                    king_targets.clear(to);
                }
            }
        }
        sink.piece(Role::King, king, king_targets);
    }
    if checkers.more_than_one() {
        return;
    }

    let target = match checkers.first() {
        Some(checker) => between(king, checker) | checker,
        None => {
            if king_moves {
                castling(pos, king, us, leaper_danger, sink);
            }
            !ours
        }
    };

    let ours_from = ours & from;
    for from in b.knights() & ours_from & !pinned {
        sink.piece(Role::Knight, from, knight_attacks(from) & target);
    }
    for from in b.bishops() & ours_from {
        let to = bishop_attacks(from, occupied) & target;
        sink.piece(Role::Bishop, from, pin_filter(to, from, king, pinned));
    }
    for from in b.rooks() & ours_from {
        let to = rook_attacks(from, occupied) & target;
        sink.piece(Role::Rook, from, pin_filter(to, from, king, pinned));
    }
    for from in b.queens() & ours_from {
        let to = queen_attacks(from, occupied) & target;
        sink.piece(Role::Queen, from, pin_filter(to, from, king, pinned));
    }

    pawn_moves(pos, king, target, pinned, checkers, from, sink);
}

#[inline]
fn pin_filter(to: Bitboard, from: Square, king: Square, pinned: Bitboard) -> Bitboard {
    if pinned.contains(from) {
        to & line(king, from)
    } else {
        to
    }
}

const NOT_FILE_A: Bitboard = Bitboard(!0x0101_0101_0101_0101);
const NOT_FILE_H: Bitboard = Bitboard(!0x8080_8080_8080_8080);

/// The moves of the side to move's pawns on `from`.
#[inline]
fn pawn_moves<S: MoveSink>(
    pos: &Position,
    king: Square,
    target: Bitboard,
    pinned: Bitboard,
    checkers: Bitboard,
    from: Bitboard,
    sink: &mut S,
) {
    let us = pos.turn();
    let b = pos.board();
    let ours = b.by_color(us);
    let theirs = b.by_color(!us);
    let empty = !(ours | theirs);
    let pawns = b.pawns() & ours & from;
    let (up, third_rank) = match us {
        Color::White => (8, Bitboard::from_rank(Rank::Third)),
        Color::Black => (-8, Bitboard::from_rank(Rank::Sixth)),
    };
    let free = pawns & !pinned;

    let push1 = free.shift_ranks(up / 8) & empty;
    let push2 = (push1 & third_rank).shift_ranks(up / 8) & empty & target;
    emit_pawns(push1 & target, up, sink);
    sink.pawns(push2, 2 * up);

    let capturable = theirs & target;
    // Toward the h-file, then toward the a-file.
    let (east, west) = match us {
        Color::White => (
            Bitboard((free & NOT_FILE_H).0 << 9),
            Bitboard((free & NOT_FILE_A).0 << 7),
        ),
        Color::Black => (
            Bitboard((free & NOT_FILE_H).0 >> 7),
            Bitboard((free & NOT_FILE_A).0 >> 9),
        ),
    };
    emit_pawns(east & capturable, up + 1, sink);
    emit_pawns(west & capturable, up - 1, sink);

    // A pinned pawn may only move along its pin line.
    for from in pawns & pinned {
        let one = Bitboard::from_square(from).shift_ranks(up / 8) & empty;
        let two = (one & third_rank).shift_ranks(up / 8) & empty;
        let to = (one | two | (pawn_attacks(us, from) & theirs)) & target & line(king, from);
        for to in to {
            emit_pawns(Bitboard::from_square(to), to as i32 - from as i32, sink);
        }
    }

    if let Some(ep) = pos.ep_square() {
        en_passant(pos.board(), king, us, ep, checkers, pawns, sink);
    }
}

#[inline]
fn emit_pawns<S: MoveSink>(to: Bitboard, delta: i32, sink: &mut S) {
    sink.pawns(to & !Bitboard::BACKRANKS, delta);
    let promoting = to & Bitboard::BACKRANKS;
    if promoting.nonempty() {
        sink.promotions(promoting, delta);
    }
}

/// En passant (R3) by one of `pawns`: legal only if the king is safe once both pawns have
/// left their squares, which catches the horizontal pin where both leave the king's rank.
#[inline]
fn en_passant<S: MoveSink>(
    b: &Board,
    king: Square,
    us: Color,
    ep: Square,
    checkers: Bitboard,
    pawns: Bitboard,
    sink: &mut S,
) {
    let captured = Square::new(ep as u32 ^ 8);
    let them = !us;
    let theirs = b.by_color(them);
    // A knight or pawn check is only answered by taking the checker.
    let leaper_checkers = checkers & !(b.line_sliders() | b.diagonal_sliders());
    if leaper_checkers.without(captured).nonempty() {
        return;
    }
    for from in pawn_attacks(them, ep) & pawns {
        let occupied = b.occupied().toggled(from).toggled(captured).with(ep);
        let safe = (rook_attacks(king, occupied) & b.line_sliders() & theirs).is_empty()
            && (bishop_attacks(king, occupied) & b.diagonal_sliders() & theirs).is_empty();
        if safe {
            sink.special(Move::new(Role::Pawn, from, ep, MoveKind::EnPassant));
        }
    }
}

/// Castling (R3): rights (conditions 1 and 6), empty path (2), not in check (3, checked by
/// the caller), crossed and landing squares unattacked (4, 5). `leaper_danger` holds the
/// squares enemy pawns, knights and king attack.
#[inline]
fn castling<S: MoveSink>(
    pos: &Position,
    king: Square,
    us: Color,
    leaper_danger: Bitboard,
    sink: &mut S,
) {
    let rights = pos.castling_rights();
    if !rights.has_color(us) {
        return;
    }
    let b = pos.board();
    let occupied = b.occupied();
    let theirs = b.by_color(!us);
    for side in CastlingSide::ALL {
        if !rights.has(us, side) {
            continue;
        }
        // Invariant of Position: a right means king and rook stand on their start squares.
        let rook = side.rook_from(us);
        if (between(king, rook) & occupied).nonempty() {
            continue;
        }
        let to = side.king_to(us);
        let king_path = between(king, to).with(to);
        if (king_path & leaper_danger).nonempty() {
            continue;
        }
        let (lines, diagonals) = (b.line_sliders() & theirs, b.diagonal_sliders() & theirs);
        let attacked = king_path
            .into_iter()
            .any(|sq| slider_attacks(sq, occupied, lines, diagonals));
        if !attacked {
            sink.special(Move::new(Role::King, king, to, MoveKind::Castle));
        }
    }
}

/// Whether a pawn of `us` stands ready to take en passant onto `ep`, pins and checks aside.
#[inline(always)]
pub(crate) fn en_passant_capturer_beside(b: &Board, us: Color, ep: Square) -> bool {
    (pawn_attacks(!us, ep) & b.pawns() & b.by_color(us)).nonempty()
}

/// Whether `us`, to move on board `b`, has a legal en passant capture onto `ep`. Called only
/// right after a double step (and on reading FEN), so its cost stays off the common path.
pub(crate) fn en_passant_is_legal(b: &Board, us: Color, ep: Square) -> bool {
    if (pawn_attacks(!us, ep) & b.pawns() & b.by_color(us)).is_empty() {
        return false;
    }
    let Some(king) = (b.kings() & b.by_color(us)).first() else {
        return false;
    };
    let checkers = b.attackers_to(king, !us, b.occupied());
    let mut counter = MoveCounter::default();
    let pawns = b.pawns() & b.by_color(us);
    en_passant(b, king, us, ep, checkers, pawns, &mut counter);
    counter.0 > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// chessprogramming.org's perft positions (and position 4 mirrored), as the perft test
    /// data holds them.
    fn perft_fens() -> impl Iterator<Item = &'static str> {
        include_str!("../tests/data/perft/cpw-positions.epd")
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .map(|line| line.split(';').next().unwrap_or_default().trim())
    }

    /// Calls `visit` with each position (and its legal moves) of `games` random games of up
    /// to `plies` plies from each perft position; the same ones for the same `seed`.
    fn random_play(
        mut seed: u64,
        games: usize,
        plies: usize,
        mut visit: impl FnMut(&Position, &MoveList),
    ) {
        for fen in perft_fens() {
            for _ in 0..games {
                let mut pos = Position::from_fen(fen).unwrap();
                for _ in 0..plies {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    visit(&pos, &moves);
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
                }
            }
        }
    }

    /// `is_legal`, which generates only the moving piece's moves, agrees with the full list
    /// on every move any piece could be asked to make (each role, every target, every kind),
    /// in the perft positions and positions played at random from them (castling, en
    /// passant, promotion, pins and checks all come up).
    #[test]
    fn is_legal_agrees_with_the_full_list() {
        let (mut checked, mut legal) = (0u64, 0u64);
        random_play(0x9e37_79b9_7f4a_7c15, 20, 30, |pos, moves| {
            for from in pos.board().by_color(pos.turn()) {
                for role in Role::ALL {
                    let mut kinds = vec![MoveKind::Normal];
                    match role {
                        Role::Pawn => {
                            kinds.push(MoveKind::EnPassant);
                            kinds.extend(Role::PROMOTIONS.map(MoveKind::Promotion));
                        }
                        Role::King => kinds.push(MoveKind::Castle),
                        _ => {}
                    }
                    for to in Square::ALL {
                        for &kind in &kinds {
                            let m = Move::new(role, from, to, kind);
                            let listed = moves.contains(&m);
                            assert_eq!(pos.is_legal(m), listed, "{m:?} in {}", pos.fen());
                            checked += 1;
                            legal += u64::from(listed);
                        }
                    }
                }
            }
        });
        assert!(checked > 1_000_000 && legal > 50_000, "{checked} {legal}");
    }

    /// `gives_check`, which does not play the move, agrees with playing it, for every legal
    /// move of positions played at random from the perft positions (discovered checks,
    /// checks by castling, en passant and promotion come up).
    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        let mut kinds = [0u64; 5];
        random_play(0x2545_f491_4f6c_dd1d, 200, 60, |pos, moves| {
            for &m in moves {
                let check = pos.after(m).is_check();
                assert_eq!(pos.gives_check(m), check, "{m:?} in {}", pos.fen());
                if check {
                    let discovered = !crate::attacks::attacks(
                        m.promotion().unwrap_or(m.role()).of(pos.turn()),
                        m.to(),
                        pos.after(m).board().occupied(),
                    )
                    .contains(pos.king_of(!pos.turn()));
                    let kind = match m.kind() {
                        MoveKind::Castle => 0,
                        MoveKind::EnPassant => 1,
                        MoveKind::Promotion(_) => 2,
                        MoveKind::Normal if discovered => 3,
                        MoveKind::Normal => 4,
                    };
                    kinds[kind] += 1;
                }
            }
        });
        // Checks by castling, en passant, promotion, discovery and directly all came up.
        assert!(kinds.iter().all(|&n| n > 0), "{kinds:?}");
    }
}
