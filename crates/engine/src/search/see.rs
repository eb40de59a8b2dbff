//! Static exchange evaluation: what a capture wins once both sides have recaptured on its
//! square as long as it pays, used to prune quiescence and to order losing captures last.

use rookery_core::{Bitboard, Color, Move, Position, Role};

/// Material values for exchanges, in centipawns.
pub(crate) fn see_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight | Role::Bishop => 325,
        Role::Rook => 500,
        Role::Queen => 975,
        Role::King => 20_000,
    }
}

/// What `m` wins at once (the piece it takes, and what a promotion adds), and the piece it
/// leaves on the target square: where an exchange starts.
pub(super) fn first_gain(pos: &Position, m: Move) -> (i32, Role) {
    let taken = pos.captured_role(m).map_or(0, see_value);
    match m.promotion() {
        Some(p) => (taken + see_value(p) - see_value(Role::Pawn), p),
        None => (taken, m.role()),
    }
}

/// Whether quiescence should try the capture (or promotion) `m` standing at `stand`: not if
/// it loses material by exchanges, nor if winning all it can would not reach `alpha`. The
/// exchange (`gain`, when ordering already worked it out) is computed only where its bounds
/// leave the answer open: it wins at most what it takes at once, and at least that less the
/// piece it leaves on the square.
pub(super) fn worth_capturing(
    pos: &Position,
    m: Move,
    gain: Option<i32>,
    stand: i32,
    alpha: i32,
) -> bool {
    let worth = |gain: i32| gain >= 0 && stand + gain + 200 > alpha;
    if let Some(gain) = gain {
        return worth(gain);
    }
    let (most, on_square) = first_gain(pos, m);
    if !worth(most) {
        return false;
    }
    worth(most - see_value(on_square)) || worth(see(pos, m))
}

/// Static exchange evaluation: what the side to move wins (in centipawns) if both sides keep
/// recapturing on the target square with their least valuable piece, each free to stop.
pub(super) fn see(pos: &Position, m: Move) -> i32 {
    let board = pos.board();
    let to = m.to();
    let mut occupied = board.occupied() ^ Bitboard::from_square(m.from());
    let mut gain = [0i32; 34];
    if m.is_en_passant() {
        let behind = if pos.turn() == Color::White { -8 } else { 8 };
        if let Some(sq) = to.offset(behind) {
            occupied ^= Bitboard::from_square(sq);
        }
    }
    let (first, mut on_square) = first_gain(pos, m);
    gain[0] = first;
    let mut side = !pos.turn();
    let mut d = 0;
    loop {
        let attackers = board.attackers_to(to, side, occupied) & occupied;
        let Some((sq, role)) = Role::ALL.iter().find_map(|&role| {
            (attackers & board.by_role(role))
                .first()
                .map(|sq| (sq, role))
        }) else {
            break;
        };
        d += 1;
        if d >= gain.len() {
            break;
        }
        gain[d] = see_value(on_square) - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 {
            break;
        }
        occupied ^= Bitboard::from_square(sq);
        on_square = role;
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

pub(super) fn role_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight => 3,
        Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 20,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exchanges_are_counted_to_the_end() {
        let gain = |fen: &str, uci: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let m = uci
                .parse::<rookery_core::UciMove>()
                .unwrap()
                .to_move(&pos)
                .unwrap();
            see(&pos, m)
        };
        // A free pawn.
        assert_eq!(gain("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), 100);
        // Rook takes a pawn defended by a pawn: loses the exchange.
        assert_eq!(
            gain("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"),
            100 - 500
        );
        // Pawn takes a knight defended by a pawn: wins a knight for a pawn.
        assert_eq!(
            gain("4k3/8/4p3/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"),
            325 - 100
        );
        // Two rooks against one defender (the rook behind counts once the first has gone).
        assert_eq!(gain("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 100);
    }
}
