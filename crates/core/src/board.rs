//! Piece placement: which piece stands on which square, nothing about whose turn it is.

use crate::attacks;
use crate::{Bitboard, ByColor, Color, Piece, Role, Square};

/// Where the pieces stand.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// Squares of each role, both colors together.
    by_role: [Bitboard; 6],
    /// Squares of each color.
    by_color: [Bitboard; 2],
}

impl Board {
    /// An empty board.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
        }
    }

    /// The set-up of R1.
    pub const fn standard() -> Board {
        Board {
            by_role: [
                Bitboard(0x00ff_0000_0000_ff00),
                Bitboard(0x4200_0000_0000_0042),
                Bitboard(0x2400_0000_0000_0024),
                Bitboard(0x8100_0000_0000_0081),
                Bitboard(0x0800_0000_0000_0008),
                Bitboard(0x1000_0000_0000_0010),
            ],
            by_color: [Bitboard(0xffff), Bitboard(0xffff_0000_0000_0000)],
        }
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color as usize]
    }

    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_color(piece.color) & self.by_role(piece.role)
    }

    #[inline]
    pub fn pawns(&self) -> Bitboard {
        self.by_role[Role::Pawn.index()]
    }

    #[inline]
    pub fn knights(&self) -> Bitboard {
        self.by_role[Role::Knight.index()]
    }

    #[inline]
    pub fn bishops(&self) -> Bitboard {
        self.by_role[Role::Bishop.index()]
    }

    #[inline]
    pub fn rooks(&self) -> Bitboard {
        self.by_role[Role::Rook.index()]
    }

    #[inline]
    pub fn queens(&self) -> Bitboard {
        self.by_role[Role::Queen.index()]
    }

    #[inline]
    pub fn kings(&self) -> Bitboard {
        self.by_role[Role::King.index()]
    }

    /// Bishops and queens: the pieces that attack along diagonals.
    #[inline]
    pub fn diagonal_sliders(&self) -> Bitboard {
        self.bishops() | self.queens()
    }

    /// Rooks and queens: the pieces that attack along ranks and files.
    #[inline]
    pub fn line_sliders(&self) -> Bitboard {
        self.rooks() | self.queens()
    }

    /// The king of `color`, if there is exactly one... or the lowest one otherwise.
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.kings() & self.by_color(color)).first()
    }

    /// The color of the piece on `sq`.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on `sq`.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|r| self.by_role[r.index()].contains(sq))
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Some(Piece {
            color: self.color_at(sq)?,
            role: self.role_at(sq)?,
        })
    }

    /// Moves a piece of `color` from `from` to `to`, where it becomes `placed` (itself, or
    /// a promotion piece); `to` must be empty. Each bitboard word is written once.
    #[inline]
    pub(crate) fn move_piece(
        &mut self,
        color: Color,
        role: Role,
        placed: Role,
        from: Square,
        to: Square,
    ) {
        let (from, to) = (Bitboard::from_square(from), Bitboard::from_square(to));
        self.by_color[color as usize] ^= from | to;
        if role == placed {
            self.by_role[role.index()] ^= from | to;
        } else {
            self.by_role[role.index()] ^= from;
            self.by_role[placed.index()] ^= to;
        }
    }

    /// Puts `piece` on `sq`, replacing whatever stood there.
    pub fn set_piece_at(&mut self, sq: Square, piece: Piece) {
        self.discard_piece_at(sq);
        self.toggle(piece, sq);
    }

    /// Empties `sq`, returning what stood there.
    pub fn discard_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.toggle(piece, sq);
        Some(piece)
    }

    /// Adds or removes `piece` on `sq`; the caller knows which.
    #[inline]
    pub(crate) fn toggle(&mut self, piece: Piece, sq: Square) {
        self.by_color[piece.color as usize].toggle(sq);
        self.by_role[piece.role.index()].toggle(sq);
    }

    /// Every piece of `attacker` color that attacks `sq`, with the given occupancy.
    #[inline]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        self.by_color(attacker)
            & ((attacks::rook_attacks(sq, occupied) & self.line_sliders())
                | (attacks::bishop_attacks(sq, occupied) & self.diagonal_sliders())
                | (attacks::knight_attacks(sq) & self.knights())
                | (attacks::king_attacks(sq) & self.kings())
                | (attacks::pawn_attacks(!attacker, sq) & self.pawns()))
    }

    /// How many pieces of each color.
    pub fn material_count(&self) -> ByColor<u32> {
        ByColor::new_with(|c| self.by_color(c).count())
    }

    /// Each side's material in points (R7 values, [`Role::value`]: pawn 1, knight and bishop
    /// 3, rook 5, queen 9).
    pub fn points(&self) -> ByColor<u32> {
        let mut points = ByColor::<u32>::default();
        for (_, piece) in self.pieces() {
            points[piece.color] += piece.role.value();
        }
        points
    }

    /// Every piece with its square, a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied()
            .map(move |sq| (sq, self.piece_at(sq).expect("occupied square")))
    }

    /// The piece-placement field of FEN.
    pub fn board_fen(&self) -> String {
        let mut out = String::with_capacity(72);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let sq = Square::new(rank * 8 + file);
                match self.piece_at(sq) {
                    Some(p) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::standard()
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", self.board_fen())
    }
}
