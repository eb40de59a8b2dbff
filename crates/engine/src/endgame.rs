//! Endgame knowledge that level 8's static evaluation lacks: which king and pawn against king
//! endings are won (a table computed once), and which endings with material to spare seldom
//! are (no pawn left to the side ahead and at most a minor piece more; bishops on squares of
//! opposite colours). The network learnt from our own searches' scores, which knew neither.
//!
//! Only the search's leaves use this; moves are still the core's, so a verdict here can make
//! the search prefer or avoid a line but never play an illegal or a wrong-rule move.

use std::sync::LazyLock;

use rookery_core::attacks::{king_attacks, pawn_attacks};
use rookery_core::{Bitboard, Board, Color, Position, Role, Square};

use crate::search::see_value;

/// A won king and pawn ending scores this, plus [`KPK_RANK_STEP`] for each rank the pawn has
/// advanced: about a queen's worth, far below a mate.
const KPK_WIN: i32 = 900;
const KPK_RANK_STEP: i32 = 20;

/// Pawn squares a2-d7 (the table keeps the pawn on the queen's side; the king's side is its
/// mirror image), both kings anywhere, either side to move.
const PAWN_SQUARES: usize = 24;
const KPK_SIZE: usize = 2 * PAWN_SQUARES * 64 * 64;

/// For each placement with White having the pawn, whether White wins.
static KPK: LazyLock<Vec<bool>> = LazyLock::new(solve_kpk);

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Unknown,
    Invalid,
    Draw,
    Win,
}

/// The table's slot for White (pawn on `pawn`, king on `wk`) against a lone king on `bk`.
fn kpk_index(white_to_move: bool, pawn: Square, wk: Square, bk: Square) -> usize {
    let p = (pawn.rank().index() as usize - 1) * 4 + pawn.file().index() as usize;
    ((usize::from(!white_to_move) * PAWN_SQUARES + p) * 64 + wk.index()) * 64 + bk.index()
}

fn pawn_squares() -> impl Iterator<Item = Square> {
    Square::ALL[8..56]
        .iter()
        .copied()
        .filter(|sq| sq.file().index() < 4)
}

/// Solves every king and pawn against king position by working back from the ones decided at
/// once. White wins where it has a move to a won position; Black holds where it has a move to
/// a held one, or takes the pawn. What is still open when nothing changes is a draw: White
/// cannot force progress. A promotion counts as a win when the new queen cannot be taken (the
/// rule Stockfish's table uses; the rare stalemates and rook promotions it ignores do not
/// matter to an evaluation).
fn solve_kpk() -> Vec<bool> {
    let mut state = vec![State::Unknown; KPK_SIZE];
    for white_to_move in [true, false] {
        for pawn in pawn_squares() {
            for wk in Square::ALL {
                for bk in Square::ALL {
                    state[kpk_index(white_to_move, pawn, wk, bk)] =
                        first_verdict(white_to_move, pawn, wk, bk);
                }
            }
        }
    }
    loop {
        let mut changed = false;
        for white_to_move in [true, false] {
            for pawn in pawn_squares() {
                for wk in Square::ALL {
                    for bk in Square::ALL {
                        let i = kpk_index(white_to_move, pawn, wk, bk);
                        if state[i] != State::Unknown {
                            continue;
                        }
                        let next = if white_to_move {
                            white_verdict(&state, pawn, wk, bk)
                        } else {
                            black_verdict(&state, pawn, wk, bk)
                        };
                        if next != State::Unknown {
                            state[i] = next;
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    state.into_iter().map(|s| s == State::Win).collect()
}

/// What a position is known to be before looking at its moves' results.
fn first_verdict(white_to_move: bool, pawn: Square, wk: Square, bk: Square) -> State {
    if wk == bk || wk == pawn || bk == pawn || king_attacks(wk).contains(bk) {
        return State::Invalid;
    }
    let pawn_hits = pawn_attacks(Color::White, pawn);
    if white_to_move {
        if pawn_hits.contains(bk) {
            // Black would be in check with White to move.
            return State::Invalid;
        }
        if pawn.rank().index() == 6 {
            let queen = Square::new(pawn.index() as u32 + 8);
            if queen != wk
                && queen != bk
                && (!king_attacks(bk).contains(queen) || king_attacks(wk).contains(queen))
            {
                return State::Win;
            }
        }
        return State::Unknown;
    }
    let flights = king_attacks(bk) & !king_attacks(wk) & !pawn_hits;
    if flights.is_empty() {
        // Mate or stalemate.
        return if pawn_hits.contains(bk) {
            State::Win
        } else {
            State::Draw
        };
    }
    if flights.contains(pawn) {
        // The pawn is lost.
        return State::Draw;
    }
    State::Unknown
}

fn white_verdict(state: &[State], pawn: Square, wk: Square, bk: Square) -> State {
    let mut children = Vec::with_capacity(10);
    for to in king_attacks(wk) & !king_attacks(bk) & !Bitboard::from_square(pawn) {
        children.push(state[kpk_index(false, pawn, to, bk)]);
    }
    // Pushes short of promotion (a promotion that wins was found at once; one that loses the
    // new queen draws).
    if pawn.rank().index() < 6 {
        let one = Square::new(pawn.index() as u32 + 8);
        if one != wk && one != bk {
            children.push(state[kpk_index(false, one, wk, bk)]);
            let two = Square::new(pawn.index() as u32 + 16);
            if pawn.rank().index() == 1 && two != wk && two != bk {
                children.push(state[kpk_index(false, two, wk, bk)]);
            }
        }
    }
    if children.contains(&State::Win) {
        State::Win
    } else if children.iter().all(|&s| s == State::Draw) {
        // Every move draws (or there is none: stalemate).
        State::Draw
    } else {
        State::Unknown
    }
}

fn black_verdict(state: &[State], pawn: Square, wk: Square, bk: Square) -> State {
    let flights = king_attacks(bk) & !king_attacks(wk) & !pawn_attacks(Color::White, pawn);
    let mut all_lose = true;
    for to in flights {
        match state[kpk_index(true, pawn, wk, to)] {
            State::Draw => return State::Draw,
            State::Win => {}
            _ => all_lose = false,
        }
    }
    if all_lose { State::Win } else { State::Unknown }
}

/// Solves the king and pawn table now (under 0.1 s, once a process) rather than in the middle
/// of a timed search.
pub(crate) fn prepare() {
    LazyLock::force(&KPK);
}

/// Whether the side with the pawn wins the king and pawn against king position `board` (two
/// kings and one pawn) with `turn` to move.
fn kpk_wins(board: &Board, turn: Color) -> bool {
    let pawn = board.pawns().first().expect("one pawn");
    let strong = board.color_at(pawn).expect("a pawn's colour");
    let strong_king = board.king_of(strong).expect("a king");
    let weak_king = board.king_of(!strong).expect("a king");
    // Seen as White with the pawn on the queen's side.
    let view = |sq: Square| {
        let sq = if strong == Color::White {
            sq
        } else {
            sq.flip_vertical()
        };
        if pawn.file().index() >= 4 {
            Square::new(sq.index() as u32 ^ 7)
        } else {
            sq
        }
    };
    KPK[kpk_index(
        turn == strong,
        view(pawn),
        view(strong_king),
        view(weak_king),
    )]
}

/// Material other than pawns and kings, in the exchange values' centipawns (a minor piece
/// 325).
fn pieces_value(board: &Board, color: Color) -> i32 {
    let ours = board.by_color(color);
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .map(|role| (ours & board.by_role(role)).count() as i32 * see_value(role))
        .sum()
}

/// `value`, the static evaluation of `pos` for the side to move, with what the endings above
/// are known to be worth.
pub(crate) fn adjust(pos: &Position, value: i32) -> i32 {
    let board = pos.board();
    let us = pos.turn();
    if board.occupied().count() == 3 && board.pawns().count() == 1 {
        let pawn = board.pawns().first().expect("one pawn");
        let strong = board.color_at(pawn).expect("a pawn's colour");
        if !kpk_wins(board, us) {
            return 0;
        }
        let rank = pawn.rank().relative_to(strong).index() as i32;
        let score = KPK_WIN + KPK_RANK_STEP * rank;
        return if strong == us { score } else { -score };
    }
    let strong = if value >= 0 { us } else { !us };
    if (board.pawns() & board.by_color(strong)).is_empty() {
        let strong_pieces = pieces_value(board, strong);
        if strong_pieces - pieces_value(board, !strong) <= 325 {
            // Without a pawn, a minor piece more (a rook against a bishop, a bishop against
            // pawns) seldom wins, and less than a rook cannot mate.
            return value / if strong_pieces < 500 { 8 } else { 4 };
        }
    }
    let bishops = board.bishops();
    let others = board.knights() | board.rooks() | board.queens();
    if others.is_empty()
        && (bishops & board.by_color(Color::White)).count() == 1
        && (bishops & board.by_color(Color::Black)).count() == 1
    {
        let dark = bishops.into_iter().filter(|sq| sq.is_dark()).count();
        if dark == 1 {
            // Bishops on squares of opposite colours: the side behind blockades on the
            // squares its bishop holds.
            return value / 2;
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(fen: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        adjust(&pos, 123)
    }

    /// Textbook king and pawn endings.
    #[test]
    fn king_and_pawn_endings() {
        // White's king in front of its pawn, Black's facing it: the side to move gives way.
        assert_eq!(value("8/8/3k4/8/3K4/3P4/8/8 w - - 0 1"), 0);
        assert!(value("8/8/3k4/8/3K4/3P4/8/8 b - - 0 1") < -KPK_WIN);
        // A rook's pawn with the defender's king in the corner is drawn.
        assert_eq!(value("k7/8/8/8/8/8/P7/K7 w - - 0 1"), 0);
        assert_eq!(value("k7/8/8/K7/P7/8/8/8 w - - 0 1"), 0);
        // The rule of the square: the pawn runs from a king outside it, not from one inside.
        assert!(value("8/8/8/8/P7/8/6k1/K7 w - - 0 1") > KPK_WIN);
        assert_eq!(value("8/8/8/8/P3k3/8/8/K7 w - - 0 1"), 0);
        // Black's pawn, White far away: Black wins, so White to move scores below zero.
        assert!(value("8/8/8/8/8/2kp4/8/7K w - - 0 1") < -KPK_WIN);
        // From a game: Stockfish 15.1 at depth 30 holds this a draw (its classical search at
        // depth 2-4 called it won).
        assert_eq!(value("8/6k1/4K3/6P1/8/8/8/8 w - - 1 70"), 0);
        // The further the pawn, the more it is worth.
        assert!(value("8/8/8/8/P7/8/6k1/K7 w - - 0 1") > value("8/8/8/8/8/P7/6k1/K7 w - - 0 1"));
    }

    /// Exchanging the colours (board upside down, the other side to move) or mirroring the
    /// files keeps the value for the side to move.
    #[test]
    fn symmetric_positions_agree() {
        for (a, flipped, mirrored) in [
            (
                "8/8/3k4/8/3K4/3P4/8/8 w - - 0 1",
                "8/8/3p4/3k4/8/3K4/8/8 b - - 0 1",
                "8/8/4k3/8/4K3/4P3/8/8 w - - 0 1",
            ),
            (
                "8/8/3k4/8/3K4/3P4/8/8 b - - 0 1",
                "8/8/3p4/3k4/8/3K4/8/8 w - - 0 1",
                "8/8/4k3/8/4K3/4P3/8/8 b - - 0 1",
            ),
            (
                "8/8/8/8/P7/8/6k1/K7 w - - 0 1",
                "k7/6K1/8/p7/8/8/8/8 b - - 0 1",
                "8/8/8/8/7P/8/1k6/7K w - - 0 1",
            ),
        ] {
            assert_eq!(value(a), value(flipped), "{a} / {flipped}");
            assert_eq!(value(a), value(mirrored), "{a} / {mirrored}");
        }
    }

    /// Every one of 3,000 random king and pawn against king positions gets Stockfish 15.1's
    /// verdict (`tests/python/kpk_reference.py`, which wrote the file from Stockfish's own
    /// table, one ply deep): won for the side to move, lost, or drawn.
    #[test]
    fn agrees_with_stockfish_on_king_and_pawn() {
        let data = include_str!("../tests/data/kpk-stockfish.txt");
        let mut checked = 0;
        for line in data.lines() {
            let (fen, verdict) = line.split_once(';').unwrap();
            let v = value(fen);
            let ours = match v {
                0 => "D",
                v if v > KPK_WIN => "W",
                v if v < -KPK_WIN => "L",
                _ => panic!("{fen}: {v} is no verdict"),
            };
            assert_eq!(ours, verdict, "{fen}");
            checked += 1;
        }
        assert_eq!(checked, 3000);
    }

    #[test]
    fn drawish_material_is_scaled_down() {
        // A rook against a bishop, no pawns.
        let pos = Position::from_fen("8/8/3kb3/8/8/3KR3/8/8 w - - 0 1").unwrap();
        assert_eq!(adjust(&pos, 400), 100);
        // A bishop against pawns cannot mate.
        let pos = Position::from_fen("8/p7/3k4/8/8/3KB3/8/8 w - - 0 1").unwrap();
        assert_eq!(adjust(&pos, 200), 25);
        // But a rook more with pawns is not.
        let pos = Position::from_fen("8/p7/3k4/8/8/3KR3/P7/8 w - - 0 1").unwrap();
        assert_eq!(adjust(&pos, 500), 500);
        // Bishops on squares of opposite colours halve the edge; on the same colour not.
        let pos = Position::from_fen("8/5p2/3k2b1/8/8/3KBP2/5P2/8 w - - 0 1").unwrap();
        assert_eq!(adjust(&pos, 100), 50);
        let pos = Position::from_fen("8/5p2/3k2b1/8/8/3K1P2/5P2/5B2 w - - 0 1").unwrap();
        assert_eq!(adjust(&pos, 100), 100);
    }
}
