//! Property tests: untrusted text never panics the core. Random byte strings, and random
//! mutations of valid FEN, SAN and UCI, go through every parser; whatever parses must then
//! behave (legal moves play, FEN round-trips).

use rookery_core::{Position, San, UciMove, fen};

/// A small deterministic generator, so a failure reproduces from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const ALPHABET: &[u8] =
    b"KQRBNPkqrbnp12345678abcdefgh/ -wWxX=+#!?O0()e.:;\t\0\xc3\x97\xe2\x80\x94\xff";

fn mutate(rng: &mut Rng, text: &str) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(4) {
            0 if at < bytes.len() => {
                bytes.remove(at);
            }
            1 if at < bytes.len() => bytes[at] = ALPHABET[rng.below(ALPHABET.len())],
            2 => bytes.insert(at, ALPHABET[rng.below(ALPHABET.len())]),
            _ => {
                let from = rng.below(bytes.len());
                let to = (from + rng.below(8)).min(bytes.len());
                let piece = bytes[from..to].to_vec();
                bytes.splice(at..at, piece);
            }
        }
    }
    bytes
}

/// Whatever parses must be usable: every legal move plays, and the FEN reads back.
fn exercise(pos: &Position) {
    for m in pos.legal_moves() {
        let next = pos.after(m);
        let _ = pos.san(m);
        let _ = next.outcome();
    }
    assert_eq!(Position::from_fen(&pos.fen()).as_ref(), Ok(pos));
}

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
];

const SANS: &[&str] = &[
    "e4", "Nf3", "exd6e.p.", "O-O-O", "0-0", "e8=Q+", "Ng1-f3", "Ra1xa7", "Qh4e1#", "b1c3",
    "e7e8q", "Nbd2!?", "R1a4", "Kxe2",
];

#[test]
fn random_bytes_never_panic_any_parser() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let positions: Vec<Position> = FENS
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    for _ in 0..100_000 {
        let len = rng.below(40);
        let bytes: Vec<u8> = (0..len)
            .map(|_| ALPHABET[rng.below(ALPHABET.len())])
            .collect();
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(p) = Position::from_fen(&text) {
            exercise(&p);
        }
        let _ = fen::parse_setup(&text);
        let _ = UciMove::from_ascii(&bytes);
        let _ = San::parse(&text);
        let pos = &positions[rng.below(positions.len())];
        if let Ok(m) = pos.parse_san(&text) {
            assert!(pos.is_legal(m));
        }
    }
}

#[test]
fn mutated_fens_never_panic_and_what_parses_is_sound() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let mut accepted = 0;
    for _ in 0..50_000 {
        let seed = FENS[rng.below(FENS.len())];
        let bytes = mutate(&mut rng, seed);
        if let Ok(p) = Position::from_fen(&String::from_utf8_lossy(&bytes)) {
            accepted += 1;
            exercise(&p);
        }
    }
    assert!(
        accepted > 100,
        "mutations too destructive to test anything: {accepted}"
    );
}

#[test]
fn mutated_san_and_uci_never_panic_and_what_parses_is_legal() {
    let mut rng = Rng(0xfeed_face_1234_5678);
    let positions: Vec<Position> = FENS
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    for _ in 0..100_000 {
        let seed = SANS[rng.below(SANS.len())];
        let bytes = mutate(&mut rng, seed);
        let text = String::from_utf8_lossy(&bytes);
        let pos = &positions[rng.below(positions.len())];
        if let Ok(m) = pos.parse_san(&text) {
            assert!(pos.is_legal(m), "{text}");
        }
        if let Ok(u) = UciMove::from_ascii(&bytes) {
            if let Ok(m) = u.to_move(pos) {
                assert!(pos.is_legal(m));
            }
        }
    }
}
