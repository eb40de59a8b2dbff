//! Zobrist hashing keys, fixed at compile time so hashes are stable across runs and builds.

use crate::{Color, Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const KEY_COUNT: usize = 12 * 64 + 16 + 8 + 1;

const KEYS: [u64; KEY_COUNT] = {
    let mut keys = [0u64; KEY_COUNT];
    let mut state = 0x726f_6f6b_6572_7921; // "rookery!"
    let mut i = 0;
    while i < KEY_COUNT {
        let (s, k) = splitmix(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    keys
};

const CASTLING_BASE: usize = 12 * 64;
const EP_BASE: usize = CASTLING_BASE + 16;
const TURN: usize = EP_BASE + 8;

#[inline]
pub(crate) fn piece(piece: Piece, sq: Square) -> u64 {
    KEYS[(piece.color as usize * 6 + piece.role as usize) * 64 + sq.index()]
}

/// One key per combination of the four rights, so an update is two lookups.
#[inline]
pub(crate) fn castling(bits: u8) -> u64 {
    KEYS[CASTLING_BASE + (bits & 15) as usize]
}

#[inline]
pub(crate) fn en_passant(sq: Square) -> u64 {
    KEYS[EP_BASE + sq.file() as usize]
}

/// XORed in when Black is to move.
#[inline]
pub(crate) fn black_to_move(turn: Color) -> u64 {
    match turn {
        Color::White => 0,
        Color::Black => KEYS[TURN],
    }
}

/// The difference between the same position with White and with Black to move.
#[inline]
pub(crate) fn side_to_move_changed() -> u64 {
    KEYS[TURN]
}
