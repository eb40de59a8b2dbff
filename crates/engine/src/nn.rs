//! The evaluation network: a small neural network trained on the engine's own games
//! (`examples/datagen.rs` writes the positions, `tests/python/train.py` fits the weights).
//! `net.bin` is the third network: `train.py net.bin D201 D202 --epochs 20` over 2,984,954
//! positions from `datagen D SEED 1500000 5000 --openings FENS --network` (seeds 201 and 202,
//! each starting from every other line of `openings.py`'s 10,207 positions, stopped after an
//! hour at 1,488,903 and 1,496,051 positions), searched with the second network (trained on
//! the classic evaluation's games and the first network's; the layout before this one, with
//! plain clipped units and one set of output weights). Level 8 plays with it: against
//! Stockfish 2400 it scored 38.0% over 100 games, 13.0 ± 8.7 points more than the classic
//! evaluation on the same openings (docs/benchmarks-log.md, "A third network"). A fourth, fitted for 30
//! epochs on 2,993,495 positions of this network's own play, scored 35.0% on those openings
//! and was not kept ("A fourth network").
//!
//! 768 inputs, one per (colour, role, square) seen from one side: "ours" or "theirs", and the
//! square flipped top to bottom when that side is Black. A hidden layer of [`HIDDEN`] units is
//! computed twice with the same weights, from the side to move's view and from the other's;
//! one output reads both halves, each unit clipped to 0..1 and squared, with one of
//! [`BUCKETS`] sets of output weights chosen by the number of pieces on the board. Weights are
//! integers: the hidden layer in units of 1/[`QA`], the output's in 1/[`QB`]; the output is the
//! score divided by 400.

use std::sync::LazyLock;

use rookery_core::{Board, Color, Position, Role, Square};

/// Hidden units per side.
pub(crate) const HIDDEN: usize = 128;
const INPUTS: usize = 768;
/// Output weight sets, chosen by the number of pieces on the board (2-5 the first, 30-32 the
/// last): an opening and an ending weigh the same hidden units differently.
const BUCKETS: usize = 8;
const QA: i32 = 255;
const QB: i32 = 1024;
/// The output is the score in these centipawns.
const SCALE: i64 = 400;

struct Net {
    w1: Vec<[i16; HIDDEN]>,
    b1: [i16; HIDDEN],
    w2: [[i16; 2 * HIDDEN]; BUCKETS],
    b2: [i32; BUCKETS],
}

static NET: LazyLock<Net> = LazyLock::new(|| Net::read(include_bytes!("net.bin")));

impl Net {
    /// Reads the trained weights (little-endian: u32 hidden size, u32 buckets, i16 w1, i16 b1,
    /// i16 w2 a bucket after another, i32 b2 for each bucket). The file is part of the build,
    /// so a wrong one is a build defect, not input.
    fn read(bytes: &[u8]) -> Net {
        let mut at = 0;
        let mut take = |n: usize| {
            let out = &bytes[at..at + n];
            at += n;
            out
        };
        let hidden = u32::from_le_bytes(take(4).try_into().expect("4 bytes"));
        assert_eq!(hidden as usize, HIDDEN, "net.bin has another hidden size");
        let buckets = u32::from_le_bytes(take(4).try_into().expect("4 bytes"));
        assert_eq!(
            buckets as usize, BUCKETS,
            "net.bin has another number of buckets"
        );
        let mut w1 = vec![[0i16; HIDDEN]; INPUTS];
        for row in &mut w1 {
            for w in row.iter_mut() {
                *w = i16::from_le_bytes(take(2).try_into().expect("2 bytes"));
            }
        }
        let mut b1 = [0i16; HIDDEN];
        for b in &mut b1 {
            *b = i16::from_le_bytes(take(2).try_into().expect("2 bytes"));
        }
        let mut w2 = [[0i16; 2 * HIDDEN]; BUCKETS];
        for w in w2.iter_mut().flatten() {
            *w = i16::from_le_bytes(take(2).try_into().expect("2 bytes"));
        }
        let mut b2 = [0i32; BUCKETS];
        for b in &mut b2 {
            *b = i32::from_le_bytes(take(4).try_into().expect("4 bytes"));
        }
        assert_eq!(at, bytes.len(), "net.bin has trailing bytes");
        Net { w1, b1, w2, b2 }
    }
}

/// The input of a `color` `role` on `sq`, seen from `side`.
fn input(side: Color, color: Color, role: Role, sq: Square) -> usize {
    let theirs = usize::from(color != side);
    let sq = match side {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    theirs * 384 + (role as usize) * 64 + sq
}

fn add(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*w);
    }
}

fn sub(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(*w);
    }
}

/// The hidden units `acc`, clipped to 0..=QA and squared, times the output weights `w`. The
/// square is taken in units of QA * QA / 256 (shifted right by 8) so that 256 products of at
/// most 254 times |w| <= 8 * QB add up within 32 bits. One straight loop over fixed lengths,
/// which the compiler turns into vector instructions.
fn dot(acc: &[i16; HIDDEN], w: &[i16]) -> i32 {
    let mut sum = 0i32;
    for (h, w) in acc.iter().zip(&w[..HIDDEN]) {
        let c = i32::from((*h).clamp(0, QA as i16));
        sum += ((c * c) >> 8) * i32::from(*w);
    }
    sum
}

/// The output weights' bucket for a board with `pieces` pieces (kings included).
fn bucket(pieces: u32) -> usize {
    (pieces.saturating_sub(2) as usize / 4).min(BUCKETS - 1)
}

/// The hidden layer's sums before clipping, from White's view and from Black's. A search keeps
/// one per ply and updates it from the previous ply's with the few pieces a move changes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Accumulator {
    views: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// Computed from every piece on `board`.
    pub(crate) fn new(board: &Board) -> Accumulator {
        let net = &*NET;
        let mut acc = Accumulator { views: [net.b1; 2] };
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in board.by_color(color) & board.by_role(role) {
                    acc.put(net, color, role, sq);
                }
            }
        }
        acc
    }

    fn put(&mut self, net: &Net, color: Color, role: Role, sq: Square) {
        for side in Color::ALL {
            add(
                &mut self.views[side as usize],
                &net.w1[input(side, color, role, sq)],
            );
        }
    }

    fn take(&mut self, net: &Net, color: Color, role: Role, sq: Square) {
        for side in Color::ALL {
            sub(
                &mut self.views[side as usize],
                &net.w1[input(side, color, role, sq)],
            );
        }
    }

    /// This accumulator (that of `before`) changed into that of `after`: only the pieces
    /// that differ between the two boards are taken off or put on.
    pub(crate) fn update(&mut self, before: &Board, after: &Board) {
        let net = &*NET;
        for color in Color::ALL {
            for role in Role::ALL {
                let was = before.by_color(color) & before.by_role(role);
                let is = after.by_color(color) & after.by_role(role);
                for sq in was & !is {
                    self.take(net, color, role, sq);
                }
                for sq in is & !was {
                    self.put(net, color, role, sq);
                }
            }
        }
    }

    /// The value of `pos` (whose sums these are) for the side to move, in centipawns.
    pub(crate) fn evaluate(&self, pos: &Position) -> i32 {
        let net = &*NET;
        let turn = pos.turn();
        let ours = &self.views[turn as usize];
        let theirs = &self.views[!turn as usize];
        let k = bucket(pos.board().occupied().count());
        let (w_ours, w_theirs) = net.w2[k].split_at(HIDDEN);
        let sum = dot(ours, w_ours) + dot(theirs, w_theirs);
        // The hidden units are in units of QA * QA / 256, b2 in QA * QB.
        let hidden = i64::from(sum) * 256 / i64::from(QA);
        ((hidden + i64::from(net.b2[k])) * SCALE / i64::from(QA * QB)) as i32
    }
}

/// The position's value for the side to move, in centipawns.
pub(crate) fn evaluate(pos: &Position) -> i32 {
    Accumulator::new(pos.board()).evaluate(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    /// The same position with the colours exchanged (board turned upside down, case swapped,
    /// the other side to move).
    fn colour_flipped(fen: &str) -> String {
        let fields: Vec<&str> = fen.split(' ').collect();
        let swap = |s: &str| -> String {
            s.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        };
        let board: Vec<String> = fields[0].split('/').rev().map(swap).collect();
        let turn = if fields[1] == "w" { "b" } else { "w" };
        let mut castling: Vec<char> = swap(fields[2]).chars().collect();
        castling.sort_unstable();
        let castling: String = castling.into_iter().collect();
        let ep = match fields[3].as_bytes() {
            [file, b'3'] => format!("{}6", *file as char),
            [file, b'6'] => format!("{}3", *file as char),
            _ => "-".to_string(),
        };
        format!(
            "{} {turn} {castling} {ep} {} {}",
            board.join("/"),
            fields[4],
            fields[5]
        )
    }

    const FENS: [&str; 4] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];

    #[test]
    fn exchanging_the_colours_keeps_the_value() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            let flipped = Position::from_fen(&colour_flipped(fen)).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&flipped), "{fen}");
        }
    }

    #[test]
    fn a_queen_more_is_better() {
        let even = Position::new();
        let up =
            Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let down =
            Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert!(evaluate(&even).abs() < 100, "{}", evaluate(&even));
        assert!(evaluate(&up) > 500, "{}", evaluate(&up));
        assert!(evaluate(&down) < -500, "{}", evaluate(&down));
    }

    /// The buckets as `train.py` counts them: four piece counts each from two pieces on, the
    /// last also holding 30 to 32.
    #[test]
    fn buckets_by_piece_count() {
        let got: Vec<usize> = (2..=32).map(bucket).collect();
        let mut want = Vec::new();
        for k in 0..BUCKETS {
            want.extend(std::iter::repeat_n(k, 4));
        }
        want.truncate(28);
        want.extend([7, 7, 7]);
        assert_eq!(got, want);
    }

    /// Updating with the pieces a move changes gives the sums counted afresh, through
    /// captures, castling, en passant and promotion.
    #[test]
    fn updates_match_a_fresh_count() {
        let mut rng = Rng::new(7);
        for fen in FENS {
            let mut pos = Position::from_fen(fen).unwrap();
            let mut acc = Accumulator::new(pos.board());
            for _ in 0..200 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
                let next = pos.after(m);
                acc.update(pos.board(), next.board());
                pos = next;
                assert_eq!(acc.evaluate(&pos), evaluate(&pos), "{}", pos.fen());
            }
        }
    }
}
