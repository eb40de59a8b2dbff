// Positions the move readers are fuzzed in: the first input byte picks one. They hold every
// kind of move (castling both ways, en passant, promotions with and without capture, checks,
// pins, several pieces that can reach one square).
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "1k6/1P6/8/8/8/8/6p1/4K2R b K - 0 1",
];

pub fn pick(data: &[u8]) -> Option<(rookery_core::Position, &[u8])> {
    let (first, rest) = data.split_first()?;
    let fen = POSITIONS[*first as usize % POSITIONS.len()];
    Some((
        rookery_core::Position::from_fen(fen).expect("a good FEN"),
        rest,
    ))
}
