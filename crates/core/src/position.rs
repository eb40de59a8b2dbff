//! A checked position: the board plus whose turn it is, castling rights, the en passant
//! square and the move counters; playing moves on it; what the position says of the game.

use crate::attacks;
use crate::movegen::{self, MoveCounter, MoveList};
use crate::{
    Bitboard, Board, CastlingRights, CastlingSide, Color, Move, MoveKind, PositionError, Role,
    Square, zobrist,
};

/// Unchecked position data, as read from FEN. Becomes a [`Position`] through
/// [`Position::from_setup`], which checks that it could arise in a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    pub board: Board,
    pub turn: Color,
    pub castling: CastlingRights,
    pub ep_square: Option<Square>,
    /// Plies since the last capture or pawn move (R4.5).
    pub halfmoves: u32,
    /// Starts at 1, grows after each Black move.
    pub fullmoves: u32,
}

impl Setup {
    /// Drops every castling right whose king or rook is not on its start square.
    pub fn discard_impossible_castling_rights(&mut self) {
        for (color, side) in self.castling.iter() {
            let b = &self.board;
            let king_home = b
                .by_piece(Role::King.of(color))
                .contains(side.king_from(color));
            let rook_home = b
                .by_piece(Role::Rook.of(color))
                .contains(side.rook_from(color));
            if !(king_home && rook_home) {
                self.castling.remove(color, side);
            }
        }
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            board: Board::standard(),
            turn: Color::White,
            castling: CastlingRights::ALL,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}

/// A legal chess position.
///
/// Invariants (checked by [`Position::from_setup`], kept by [`Position::play`]): one king per
/// side; the side not to move is not in check; no pawn on a back rank; every castling right
/// has its king and rook on their start squares; the en passant square is set only right
/// after a double step and only when the en passant capture is legal.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    turn: Color,
    castling: CastlingRights,
    /// Set only when an en passant capture onto it is legal (R3, R4.4), so that equal
    /// positions have equal FEN, hash and repetition identity.
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    /// Zobrist hash of board, turn, castling rights and the en passant square above.
    zobrist: u64,
}

/// How a game ends on the board itself (R4).
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move is checkmated; `winner` gave mate (R4).
    Checkmate { winner: Color },
    /// The side to move has no legal move and is not in check (R4.3).
    Stalemate,
    /// Neither side can mate by any series of legal moves (R4.2).
    InsufficientMaterial,
}

impl Outcome {
    /// The winner, if the outcome is decisive.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Checkmate { winner } => Some(winner),
            _ => None,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(self) -> &'static str {
        match self {
            Outcome::Checkmate {
                winner: Color::White,
            } => "1-0",
            Outcome::Checkmate {
                winner: Color::Black,
            } => "0-1",
            _ => "1/2-1/2",
        }
    }
}

/// What makes two positions "the same" for repetition (R4.4): pieces, side to move,
/// castling rights, and the en passant square only if the capture is legal.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RepetitionKey {
    pub board: Board,
    pub turn: Color,
    pub castling: CastlingRights,
    pub ep_square: Option<Square>,
}

/// A move that is not legal in the position where it was played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMoveError {
    pub played: Move,
}

impl std::fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "illegal move {}", self.played)
    }
}

impl std::error::Error for IllegalMoveError {}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl Position {
    /// The starting position (R1).
    pub fn new() -> Position {
        Position::from_trusted(Setup::default())
    }

    /// Checks a setup and makes it a position.
    ///
    /// # Errors
    /// The first fault found, e.g. "white has 2 kings" or "the side not to move is in check".
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        Position::from_validated(setup, false)
    }

    /// Like [`Position::from_setup`], but accepts checks that no legal last move could have
    /// given (two checkers on one line, an en passant square that contradicts the check).
    /// Move generation stays exact on such positions; perft suites use them.
    ///
    /// # Errors
    /// Every other fault [`Position::from_setup`] reports.
    pub fn from_setup_allowing_impossible_check(setup: Setup) -> Result<Position, PositionError> {
        Position::from_validated(setup, true)
    }

    fn from_validated(
        setup: Setup,
        allow_impossible_check: bool,
    ) -> Result<Position, PositionError> {
        crate::validate::validate(&setup, allow_impossible_check)?;
        Ok(Position::from_trusted(setup))
    }

    /// A position from a setup already known to be valid.
    fn from_trusted(setup: Setup) -> Position {
        let Setup {
            board,
            turn,
            castling,
            ep_square,
            halfmoves,
            fullmoves,
        } = setup;
        let mut pos = Position {
            board,
            turn,
            castling,
            ep_square: None,
            halfmoves,
            fullmoves: fullmoves.max(1),
            zobrist: 0,
        };
        // Keep the square only if the capture is legal, as after a double step in play.
        pos.ep_square = ep_square.filter(|&ep| movegen::en_passant_is_legal(&pos.board, turn, ep));
        pos.zobrist = pos.compute_zobrist();
        pos
    }

    /// The unchecked data of this position.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            castling: self.castling,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    #[inline]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The en passant square, set only while an en passant capture is legal (R3, R4.4).
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Plies since the last capture or pawn move (R4.5).
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Plies played before this position in a game from the standard start, as its move
    /// number and side to move say (R7's numbering): 0 at the start, 59 at move 30 with Black
    /// to move.
    pub fn plies_before(&self) -> u32 {
        2 * (self.fullmoves.max(1) - 1) + u32::from(self.turn == Color::Black)
    }

    /// The Zobrist hash of pieces, turn, castling rights and en passant square, kept up to
    /// date move by move: the hash of [`Position::repetition_key`] (R4.4).
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.zobrist
    }

    /// What counts for repetition (R4.4).
    pub fn repetition_key(&self) -> RepetitionKey {
        RepetitionKey {
            board: self.board,
            turn: self.turn,
            castling: self.castling,
            ep_square: self.ep_square,
        }
    }

    /// The king of `color`.
    #[inline]
    pub fn king_of(&self, color: Color) -> Square {
        // Invariant: one king per side.
        self.board.king_of(color).unwrap_or(Square::A1)
    }

    /// Enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        let king = self.king_of(self.turn);
        self.board
            .attackers_to(king, !self.turn, self.board.occupied())
    }

    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().nonempty()
    }

    /// Every legal move.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        movegen::generate(self, &mut list);
        list
    }

    /// Replaces the contents of `list` with every legal move (for callers that keep a
    /// buffer, such as search and perft: no list is moved around).
    #[inline]
    pub fn fill_legal_moves(&self, list: &mut MoveList) {
        list.clear();
        movegen::generate(self, list);
    }

    /// Replaces the contents of `list` with the legal captures (en passant and capturing
    /// promotions included) and the pawn pushes that promote to a queen: the moves a
    /// quiescence search looks at.
    #[inline]
    pub fn fill_noisy_moves(&self, list: &mut MoveList) {
        list.clear();
        let theirs = self.board.by_color(!self.turn);
        movegen::generate(self, &mut movegen::NoisySink { list, theirs });
    }

    /// How many legal moves, without listing them.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = MoveCounter::default();
        movegen::generate(self, &mut counter);
        counter.0
    }

    /// Legal moves of the piece on `from`.
    pub fn legal_moves_from(&self, from: Square) -> MoveList {
        let mut list = self.legal_moves();
        list.retain(|m| m.from() == from);
        list
    }

    /// Whether `m` is legal here (only the moving piece's moves are generated: an engine
    /// asks this of a remembered move before it generates the rest).
    pub fn is_legal(&self, m: Move) -> bool {
        // Cheap rejections before generating.
        let us = self.board.by_color(self.turn);
        if !us.contains(m.from()) || self.board.role_at(m.from()) != Some(m.role()) {
            return false;
        }
        let mut list = MoveList::new();
        movegen::generate_from(self, &mut list, Bitboard::from_square(m.from()));
        list.contains(&m)
    }

    /// Plays a legal move.
    ///
    /// # Errors
    /// [`IllegalMoveError`] when `m` is not legal here; the position is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        if !self.is_legal(m) {
            return Err(IllegalMoveError { played: m });
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move known to be legal here (from [`Position::legal_moves`] or parsed
    /// against this position). An illegal move leaves an unspecified but memory-safe state.
    #[inline(always)]
    pub fn play_unchecked(&mut self, m: Move) {
        // Fields are computed in locals and each written once at the end: editing them in
        // place costs store-to-load round trips on the hottest path of search and perft.
        let us = self.turn;
        let them = !us;
        let (from, to) = (m.from(), m.to());
        let mut hash = self.zobrist ^ zobrist::castling(self.castling.bits());
        if let Some(ep) = self.ep_square {
            hash ^= zobrist::en_passant(ep);
        }
        let mut castling = self.castling;
        let mut halfmoves = self.halfmoves + 1;
        let mut double_step = None;

        match m.kind() {
            MoveKind::Castle => {
                let side = CastlingSide::from_king_to(to).unwrap_or(CastlingSide::KingSide);
                let (rook_from, rook_to) = (side.rook_from(us), side.rook_to(us));
                self.board.move_piece(us, Role::King, Role::King, from, to);
                self.board
                    .move_piece(us, Role::Rook, Role::Rook, rook_from, rook_to);
                hash ^= zobrist::piece(Role::King.of(us), from)
                    ^ zobrist::piece(Role::King.of(us), to)
                    ^ zobrist::piece(Role::Rook.of(us), rook_from)
                    ^ zobrist::piece(Role::Rook.of(us), rook_to);
                castling.discard_color(us);
            }
            MoveKind::EnPassant => {
                let captured = Square::new(to as u32 ^ 8);
                self.board.toggle(Role::Pawn.of(them), captured);
                self.board.move_piece(us, Role::Pawn, Role::Pawn, from, to);
                hash ^= zobrist::piece(Role::Pawn.of(them), captured)
                    ^ zobrist::piece(Role::Pawn.of(us), from)
                    ^ zobrist::piece(Role::Pawn.of(us), to);
                halfmoves = 0;
            }
            kind => {
                let role = m.role();
                let placed = match kind {
                    MoveKind::Promotion(p) => p,
                    _ => role,
                };
                if self.board.by_color(them).contains(to) {
                    let captured = self.board.role_at(to).unwrap_or(Role::Pawn);
                    self.board.toggle(captured.of(them), to);
                    hash ^= zobrist::piece(captured.of(them), to);
                    halfmoves = 0;
                }
                self.board.move_piece(us, role, placed, from, to);
                hash ^= zobrist::piece(role.of(us), from) ^ zobrist::piece(placed.of(us), to);
                if role == Role::Pawn {
                    halfmoves = 0;
                    if from as u32 ^ to as u32 == 16 {
                        double_step = Some(Square::new((from as u32 + to as u32) / 2));
                    }
                }
                castling.touch(from);
                castling.touch(to);
            }
        }

        hash ^= zobrist::castling(castling.bits()) ^ zobrist::side_to_move_changed();
        self.turn = them;
        self.castling = castling;
        self.halfmoves = halfmoves;
        self.fullmoves += u32::from(us == Color::Black);
        self.ep_square = None;
        self.zobrist = hash;
        // Rare: a double step beside an enemy pawn; the square stays only if the capture
        // is legal (R3, R4.4).
        if let Some(ep) = double_step {
            if movegen::en_passant_capturer_beside(&self.board, them, ep)
                && movegen::en_passant_is_legal(&self.board, them, ep)
            {
                self.ep_square = Some(ep);
                self.zobrist ^= zobrist::en_passant(ep);
            }
        }
    }

    /// The position after a legal move, leaving this one as it is.
    #[inline]
    pub fn after(&self, m: Move) -> Position {
        let mut next = *self;
        next.play_unchecked(m);
        next
    }

    /// Passes the turn without moving (for engines' null-move search). `None` in check.
    pub fn null_move(&self) -> Option<Position> {
        if self.is_check() {
            return None;
        }
        let mut next = *self;
        if let Some(ep) = next.ep_square.take() {
            next.zobrist ^= zobrist::en_passant(ep);
        }
        next.turn = !next.turn;
        next.zobrist ^= zobrist::side_to_move_changed();
        Some(next)
    }

    /// The Zobrist hash computed from scratch.
    pub(crate) fn compute_zobrist(&self) -> u64 {
        let mut hash = zobrist::castling(self.castling.bits()) ^ zobrist::black_to_move(self.turn);
        for (sq, piece) in self.board.pieces() {
            hash ^= zobrist::piece(piece, sq);
        }
        if let Some(ep) = self.ep_square {
            hash ^= zobrist::en_passant(ep);
        }
        hash
    }

    /// The side to move is in check and has no legal move (R4).
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && self.count_legal_moves() == 0
    }

    /// The side to move is not in check and has no legal move (R4.3).
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && self.count_legal_moves() == 0
    }

    /// Whether `color` lacks the material to ever mate, by the rules python-chess's
    /// `has_insufficient_material(color)` uses (R4.2, R6): no pawn, rook or queen, and
    /// either a lone knight against nothing that could help a self-mate, or only bishops
    /// that all stand, with every other bishop on the board, on one colour of square and
    /// no pawn or knight anywhere.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let b = &self.board;
        let ours = b.by_color(color);
        if (ours & (b.pawns() | b.rooks() | b.queens())).nonempty() {
            return false;
        }
        if (ours & b.knights()).nonempty() {
            return ours.count() <= 2 && (b.by_color(!color) & !b.kings() & !b.queens()).is_empty();
        }
        if (ours & b.bishops()).nonempty() {
            let same_colour = (b.bishops() & Bitboard::DARK_SQUARES).is_empty()
                || (b.bishops() & Bitboard::LIGHT_SQUARES).is_empty();
            return same_colour && b.pawns().is_empty() && b.knights().is_empty();
        }
        true
    }

    /// Whether `color` can still mate by some series of legal moves (R6: decides whether a
    /// flag fall by the other side loses or draws).
    pub fn can_mate(&self, color: Color) -> bool {
        !self.has_insufficient_material(color)
    }

    /// Neither side can mate (R4.2): a dead position, drawn at once.
    pub fn is_insufficient_material(&self) -> bool {
        self.has_insufficient_material(Color::White) && self.has_insufficient_material(Color::Black)
    }

    /// How the game ends on this position, if it does: checkmate, then insufficient
    /// material, then stalemate (the order python-chess reports them in).
    pub fn outcome(&self) -> Option<Outcome> {
        let no_moves = self.count_legal_moves() == 0;
        if no_moves && self.is_check() {
            return Some(Outcome::Checkmate { winner: !self.turn });
        }
        if self.is_insufficient_material() {
            return Some(Outcome::InsufficientMaterial);
        }
        if no_moves {
            return Some(Outcome::Stalemate);
        }
        None
    }

    /// The legal castling move on `side`, if there is one.
    pub fn castling_move(&self, side: CastlingSide) -> Option<Move> {
        let king_from = side.king_from(self.turn);
        self.legal_moves_from(king_from)
            .into_iter()
            .find(|m| m.castling_side() == Some(side))
    }

    /// Whether `m` captures something.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        m.is_en_passant()
            || (m.kind() != MoveKind::Castle && self.board.by_color(!self.turn).contains(m.to()))
    }

    /// The role `m` captures, if any.
    pub fn captured_role(&self, m: Move) -> Option<Role> {
        if m.is_en_passant() {
            Some(Role::Pawn)
        } else if self.is_capture(m) {
            self.board.role_at(m.to())
        } else {
            None
        }
    }

    /// Whether the legal move `m` gives check: by the piece it places (a rook, for
    /// castling), or by one of ours behind the square it leaves (or behind the pawn taken en
    /// passant). Cheaper than playing it: engines ask this of moves they may not play.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.turn;
        let b = &self.board;
        let king = self.king_of(!us);
        let (from, to) = (m.from(), m.to());
        let mut occupied = b.occupied().without(from).with(to);
        // Our sliders that stay where they are.
        let mut stay = b.by_color(us).without(from);
        let placed = m.promotion().unwrap_or(m.role());
        match m.kind() {
            MoveKind::Castle => {
                let side = CastlingSide::from_king_to(to).unwrap_or(CastlingSide::KingSide);
                let (rook_from, rook_to) = (side.rook_from(us), side.rook_to(us));
                occupied = occupied.without(rook_from).with(rook_to).with(to);
                stay = stay.without(rook_from);
                if attacks::rook_attacks(rook_to, occupied).contains(king) {
                    return true;
                }
            }
            MoveKind::EnPassant => occupied = occupied.without(Square::new(to as u32 ^ 8)),
            _ => {}
        }
        if attacks::attacks(placed.of(us), to, occupied).contains(king) {
            return true;
        }
        (attacks::rook_attacks(king, occupied) & b.line_sliders() & stay).nonempty()
            || (attacks::bishop_attacks(king, occupied) & b.diagonal_sliders() & stay).nonempty()
    }

    /// Whether the piece on `sq` of the side to move is pinned against its king.
    pub fn is_pinned(&self, sq: Square) -> bool {
        movegen::checkers_and_pinned(self, self.king_of(self.turn), self.turn)
            .1
            .contains(sq)
    }

    /// Squares attacked by `color`.
    pub fn attacked_by(&self, color: Color) -> Bitboard {
        let occupied = self.board.occupied();
        let mut out = Bitboard::EMPTY;
        for sq in self.board.by_color(color) {
            if let Some(piece) = self.board.piece_at(sq) {
                out |= attacks::attacks(piece, sq, occupied);
            }
        }
        out
    }

    /// The FEN of this position (en passant square only when the capture is legal, as
    /// shakmaty and python-chess write it by default).
    pub fn fen(&self) -> String {
        crate::fen::write(&self.to_setup())
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.fen())
    }
}
