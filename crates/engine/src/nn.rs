//! The evaluation network: a small neural network trained on the engine's own games
//! (`examples/datagen.rs` writes the positions, `tests/python/train.py` fits the weights).
//! `net.bin` is the second network: `train.py net.bin D101 D102 D103 D104 --epochs 20` over
//! 2,489,149 positions, where D101 and D102 are `datagen D SEED 700000 5000` (seeds 101, 102:
//! random openings, classic evaluation) and D103 and D104 `datagen D SEED 700000 5000
//! --openings FENS --network` (seeds 103, 104, stopped at 590,572 and 498,488 positions; FENS
//! from `openings.py`; searched with the first network, trained on D101 and D102 alone). An
//! experiment, off unless chosen: no measured gain against Stockfish yet (BENCHMARKS.md).
//!
//! 768 inputs, one per (colour, role, square) seen from one side: "ours" or "theirs", and the
//! square flipped top to bottom when that side is Black. A hidden layer of [`HIDDEN`]
//! clipped-ReLU units is computed twice with the same weights, from the side to move's view and
//! from the other's; one output reads both halves. Weights are integers: the hidden layer in
//! units of 1/[`QA`], the output's in 1/[`QB`]; the output is the score divided by 400.

use std::sync::LazyLock;

use rookery_core::{Board, Color, Position, Role, Square};

/// Hidden units per side.
pub(crate) const HIDDEN: usize = 128;
const INPUTS: usize = 768;
const QA: i32 = 255;
const QB: i32 = 1024;
/// The output is the score in these centipawns.
const SCALE: i64 = 400;

struct Net {
    w1: Vec<[i16; HIDDEN]>,
    b1: [i16; HIDDEN],
    w2: [i16; 2 * HIDDEN],
    b2: i32,
}

static NET: LazyLock<Net> = LazyLock::new(|| Net::read(include_bytes!("net.bin")));

impl Net {
    /// Reads the trained weights (little-endian: u32 hidden size, i16 w1, i16 b1, i16 w2, i32
    /// b2). The file is part of the build, so a wrong one is a build defect, not input.
    fn read(bytes: &[u8]) -> Net {
        let mut at = 0;
        let mut take = |n: usize| {
            let out = &bytes[at..at + n];
            at += n;
            out
        };
        let hidden = u32::from_le_bytes(take(4).try_into().expect("4 bytes"));
        assert_eq!(hidden as usize, HIDDEN, "net.bin has another hidden size");
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
        let mut w2 = [0i16; 2 * HIDDEN];
        for w in &mut w2 {
            *w = i16::from_le_bytes(take(2).try_into().expect("2 bytes"));
        }
        let b2 = i32::from_le_bytes(take(4).try_into().expect("4 bytes"));
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

/// The clipped hidden units `acc` times the output weights `w` (one straight loop over fixed
/// lengths, which the compiler turns into vector instructions).
fn dot(acc: &[i16; HIDDEN], w: &[i16]) -> i32 {
    let mut sum = 0i32;
    for (h, w) in acc.iter().zip(&w[..HIDDEN]) {
        sum += i32::from((*h).clamp(0, QA as i16)) * i32::from(*w);
    }
    sum
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

    /// The value for `turn`, the side to move, in centipawns.
    pub(crate) fn evaluate(&self, turn: Color) -> i32 {
        let net = &*NET;
        let ours = &self.views[turn as usize];
        let theirs = &self.views[!turn as usize];
        // Products of 16-bit numbers summed in 32 bits: the weights are kept small enough
        // (|w2| <= 8 * QB) for 256 of them not to overflow.
        let (w_ours, w_theirs) = net.w2.split_at(HIDDEN);
        let sum = dot(ours, w_ours) + dot(theirs, w_theirs);
        ((i64::from(sum) + i64::from(net.b2)) * SCALE / i64::from(QA * QB)) as i32
    }
}

/// The position's value for the side to move, in centipawns.
pub(crate) fn evaluate(pos: &Position) -> i32 {
    Accumulator::new(pos.board()).evaluate(pos.turn())
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
                assert_eq!(acc.evaluate(pos.turn()), evaluate(&pos), "{}", pos.fen());
            }
        }
    }
}
