//! FEN: reading (with every fault named) and writing.

use crate::{
    Board, CastlingRights, CastlingSide, Color, Piece, Position, PositionError, Setup, Square,
};

/// Why a FEN was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// The text is empty.
    Empty,
    /// Not 4 to 6 space-separated fields.
    FieldCount(usize),
    /// The board does not have 8 ranks.
    RankCount(usize),
    /// A rank does not describe exactly 8 squares (rank numbered 1-8).
    RankLength {
        rank: u32,
        squares: u32,
    },
    /// A character in the board field that is no piece letter or digit 1-8.
    BadBoardChar(char),
    BadTurn(String),
    BadCastling(String),
    /// A Shredder-FEN castling letter for a rook that standard chess never castles with.
    Chess960Castling(char),
    BadEpSquare(String),
    BadHalfmoves(String),
    BadFullmoves(String),
    /// The text parses but is not a legal position.
    Position(PositionError),
}

impl std::fmt::Display for FenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FenError::Empty => f.write_str("empty FEN"),
            FenError::FieldCount(n) => {
                write!(
                    f,
                    "FEN has {n} fields; expected 6 (or at least the first 4)"
                )
            }
            FenError::RankCount(n) => write!(f, "the board has {n} ranks, not 8"),
            FenError::RankLength { rank, squares } => {
                write!(f, "rank {rank} has {squares} squares")
            }
            FenError::BadBoardChar(c) => write!(f, "{c:?} is not a piece letter or a digit 1-8"),
            FenError::BadTurn(s) => write!(f, "side to move {s:?} is not w or b"),
            FenError::BadCastling(s) => write!(f, "castling field {s:?} is not - or KQkq"),
            FenError::Chess960Castling(c) => write!(
                f,
                "castling right {c} names a rook on the {}-file: Chess960 castling is not supported",
                c.to_ascii_lowercase()
            ),
            FenError::BadEpSquare(s) => write!(f, "en passant field {s:?} is not - or a square"),
            FenError::BadHalfmoves(s) => write!(f, "half-move clock {s:?} is not a number"),
            FenError::BadFullmoves(s) => write!(f, "move number {s:?} is not a number"),
            FenError::Position(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FenError {}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

/// Reads the piece-placement field.
///
/// # Errors
/// A wrong rank count or length, or an unknown character.
pub fn parse_board(field: &str) -> Result<Board, FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut board = Board::empty();
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u32;
        let mut file = 0u32;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d;
            } else if let Some(piece) = Piece::from_char(ch) {
                if file < 8 {
                    board.set_piece_at(Square::new(rank * 8 + file), piece);
                }
                file += 1;
            } else {
                return Err(FenError::BadBoardChar(ch));
            }
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: rank + 1,
                squares: file,
            });
        }
    }
    Ok(board)
}

fn parse_castling(field: &str) -> Result<CastlingRights, FenError> {
    let bad = || FenError::BadCastling(field.to_owned());
    let mut rights = CastlingRights::NONE;
    if field == "-" {
        return Ok(rights);
    }
    if field.is_empty() || field.len() > 4 {
        return Err(bad());
    }
    for ch in field.chars() {
        let color = Color::from_white(ch.is_ascii_uppercase());
        let side = match ch.to_ascii_lowercase() {
            'k' => CastlingSide::KingSide,
            'q' => CastlingSide::QueenSide,
            // Shredder-FEN names the rook's file; in standard chess only a and h mean anything,
            // and only with the king on e1/e8 (checked with the rest of the position).
            'h' => CastlingSide::KingSide,
            'a' => CastlingSide::QueenSide,
            'b'..='g' => return Err(FenError::Chess960Castling(ch)),
            _ => return Err(bad()),
        };
        if rights.has(color, side) {
            return Err(bad());
        }
        rights.add(color, side);
    }
    Ok(rights)
}

fn parse_counter(
    field: Option<&str>,
    default: u32,
    err: fn(String) -> FenError,
) -> Result<u32, FenError> {
    match field {
        None => Ok(default),
        Some(s) => s.parse::<u32>().map_err(|_| err(s.to_owned())),
    }
}

/// Reads a FEN into an unchecked setup.
///
/// # Errors
/// The first syntax fault found.
pub fn parse_setup(fen: &str) -> Result<Setup, FenError> {
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    match fields.len() {
        0 => return Err(FenError::Empty),
        4..=6 => {}
        n => return Err(FenError::FieldCount(n)),
    }
    let board = parse_board(fields[0])?;
    let turn = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        s => return Err(FenError::BadTurn(s.to_owned())),
    };
    let castling = parse_castling(fields[2])?;
    let ep_square = match fields[3] {
        "-" => None,
        s => Some(
            Square::from_ascii(s.as_bytes()).ok_or_else(|| FenError::BadEpSquare(s.to_owned()))?,
        ),
    };
    let halfmoves = parse_counter(fields.get(4).copied(), 0, FenError::BadHalfmoves)?;
    let fullmoves = parse_counter(fields.get(5).copied(), 1, FenError::BadFullmoves)?;
    Ok(Setup {
        board,
        turn,
        castling,
        ep_square,
        halfmoves,
        fullmoves,
    })
}

/// Writes a setup as FEN.
pub fn write(setup: &Setup) -> String {
    let ep = setup
        .ep_square
        .map_or_else(|| "-".to_owned(), |sq| sq.to_string());
    format!(
        "{} {} {} {} {} {}",
        setup.board.board_fen(),
        setup.turn.char(),
        setup.castling,
        ep,
        setup.halfmoves,
        setup.fullmoves
    )
}

impl Position {
    /// Reads and checks a FEN (4 to 6 fields; missing counters default to `0 1`).
    ///
    /// # Errors
    /// A [`FenError`] naming the fault: bad syntax, or a position that cannot arise
    /// ("white has 2 kings", "castling right K but no rook on h1", ...).
    ///
    /// # Examples
    /// ```
    /// use rookery_core::Position;
    /// let pos = Position::from_fen("8/8/8/8/8/8/8/K6k w - - 0 1").unwrap();
    /// assert!(pos.is_insufficient_material());
    /// let err = Position::from_fen("8/8/8/8/8/8/8/K5kk w - - 0 1").unwrap_err();
    /// assert_eq!(err.to_string(), "black has 2 kings");
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Ok(Position::from_setup(parse_setup(fen)?)?)
    }
}

impl std::str::FromStr for Position {
    type Err = FenError;

    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}
