//! The game socket's frames as types (docs/PROTOCOL.md), and the one conversion from a client
//! frame or an HTTP action to a core [`Command`]. Every frame is `{"t": type, "d": data}`
//! (server events add the room version `"v"`); client frames are read into [`ClientFrame`]
//! and server frames written from [`ServerFrame`], never built by hand.

use crate::refusal::Code;
use std::time::Duration;

use rookery_core::game::{Command, Event, Game, MoveText, MoveTiming};
use rookery_core::{Bitboard, ByColor, Color, Role, Square};
use serde::de::IgnoredAny;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Serialize, Serializer};

use crate::room::{Can, RoomError, RoomEvent, Snapshot, Versioned, View};
use crate::wallclock::now_ms;

// ---- client -> server ----------------------------------------------------------------------

/// A frame as a client sends it. The variant names are the frame types, and the same names
/// serve the HTTP actions (`POST /api/games/{id}/resign`).
#[derive(Debug, Deserialize)]
#[serde(tag = "t", content = "d", rename_all = "kebab-case")]
enum ClientFrame {
    Move(MoveData),
    OfferDraw(Option<AckOnly>),
    AcceptDraw(Option<AckOnly>),
    DeclineDraw(Option<AckOnly>),
    ClaimDraw(Option<ClaimData>),
    Resign(Option<AckOnly>),
    ClaimVictory(Option<AckOnly>),
    Abort(Option<AckOnly>),
    /// lichess's arenas: half one's clock, no increment (where the arena allows it).
    Berserk(Option<AckOnly>),
    /// lichess's "+15 seconds": time given to the opponent.
    Moretime(Option<AckOnly>),
    #[expect(
        dead_code,
        reason = "a ping's data, if any, is read only to be ignored"
    )]
    Ping(Option<IgnoredAny>),
}

/// The client's id for a command, echoed in its `ack` or `error`.
#[derive(Debug, Default, Deserialize)]
struct AckOnly {
    #[serde(default)]
    a: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(try_from = "MoveFields")]
struct MoveData {
    text: MoveText,
    a: Option<u64>,
    draw: bool,
    think: Option<u32>,
}

/// A move frame's fields as sent: the move in `u` or in `s`, exactly one of them.
#[derive(Debug, Deserialize)]
struct MoveFields {
    /// The move in UCI (what the board sends).
    #[serde(default)]
    u: Option<String>,
    /// Or the move as a player typed it: SAN, the seeds' long form (`Ng1-f3`, `0-0`) or UCI,
    /// read by the core's lenient reader (the move box, issue 54).
    #[serde(default)]
    s: Option<String>,
    #[serde(default)]
    a: Option<u64>,
    /// A draw offer made with the move (R5.1).
    #[serde(default)]
    draw: bool,
    /// The player's own thinking time on the move, in milliseconds, as the page measured
    /// it: the server counts the rest of its watch as lag (R6).
    #[serde(default)]
    think: Option<u32>,
}

impl TryFrom<MoveFields> for MoveData {
    type Error = &'static str;

    fn try_from(f: MoveFields) -> Result<MoveData, &'static str> {
        let text = match (f.u, f.s) {
            (Some(uci), None) => MoveText::Uci(uci),
            (None, Some(typed)) => MoveText::San(typed),
            _ => return Err("a move has the move in `u` (UCI) or in `s` (as typed), one of them"),
        };
        Ok(MoveData {
            text,
            a: f.a,
            draw: f.draw,
            think: f.think,
        })
    }
}

#[derive(Debug, Default, Deserialize)]
struct ClaimData {
    /// The move to claim on, in UCI (R4.4, R4.5).
    #[serde(default)]
    u: Option<String>,
    #[serde(default)]
    a: Option<u64>,
}

/// What a player asks of the game, whichever door it came through: a core [`Command`] less
/// the color, which the caller's seat supplies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Action {
    Move {
        text: MoveText,
        offer_draw: bool,
        /// What the client and the connection measured, for lag compensation (R6).
        timing: MoveTiming,
    },
    OfferDraw,
    AcceptDraw,
    /// Accept the opponent's offer if one stands, else offer (lichess's `draw/yes`).
    AgreeDraw,
    DeclineDraw,
    ClaimDraw {
        with_move: Option<MoveText>,
    },
    Resign,
    /// The room measures how long the opponent has been away.
    ClaimVictory,
    Abort,
    Berserk,
    GiveTime,
}

impl Action {
    /// The core command for the player of `by`.
    pub(crate) fn by(self, by: Color) -> Command {
        match self {
            Action::Move {
                text,
                offer_draw,
                timing,
            } => Command::Move {
                by,
                text,
                offer_draw,
                timing,
            },
            Action::OfferDraw => Command::OfferDraw { by },
            Action::AcceptDraw => Command::AcceptDraw { by },
            Action::AgreeDraw => Command::AgreeDraw { by },
            Action::DeclineDraw => Command::DeclineDraw { by },
            Action::ClaimDraw { with_move } => Command::ClaimDraw { by, with_move },
            Action::Resign => Command::Resign { by },
            Action::ClaimVictory => Command::ClaimVictory {
                by,
                opponent_away: Duration::ZERO,
            },
            Action::Abort => Command::Abort { by },
            Action::Berserk => Command::Berserk { by },
            Action::GiveTime => Command::GiveTime { by },
        }
    }

    /// The action an HTTP path names (`resign`, `offer-draw`, ...): a frame type of the
    /// socket read with no data, so both doors share one table of names. Moves have their
    /// own route (they carry a body).
    pub(crate) fn named(name: &str) -> Option<Action> {
        let fields = [("t", name)].into_iter();
        let deserializer =
            serde::de::value::MapDeserializer::<_, serde::de::value::Error>::new(fields);
        match ClientFrame::deserialize(deserializer).ok()? {
            ClientFrame::Move(_) | ClientFrame::Ping(_) => None,
            frame => match Request::from(frame) {
                Request::Act { action, .. } => Some(action),
                Request::Ping => None,
            },
        }
    }
}

/// A client frame, read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Request {
    /// A game action, with the client's id for its answer.
    Act {
        action: Action,
        ack: Option<u64>,
    },
    Ping,
}

impl From<ClientFrame> for Request {
    fn from(frame: ClientFrame) -> Request {
        let act = |action, ack: Option<AckOnly>| Request::Act {
            action,
            ack: ack.and_then(|a| a.a),
        };
        match frame {
            ClientFrame::Move(d) => Request::Act {
                action: Action::Move {
                    text: d.text,
                    offer_draw: d.draw,
                    timing: MoveTiming {
                        think: d.think.map(|ms| Duration::from_millis(ms.into())),
                        round_trip: None,
                    },
                },
                ack: d.a,
            },
            ClientFrame::ClaimDraw(d) => {
                let d = d.unwrap_or_default();
                Request::Act {
                    action: Action::ClaimDraw {
                        with_move: d.u.map(MoveText::Uci),
                    },
                    ack: d.a,
                }
            }
            ClientFrame::OfferDraw(a) => act(Action::OfferDraw, a),
            ClientFrame::AcceptDraw(a) => act(Action::AcceptDraw, a),
            ClientFrame::DeclineDraw(a) => act(Action::DeclineDraw, a),
            ClientFrame::Resign(a) => act(Action::Resign, a),
            ClientFrame::ClaimVictory(a) => act(Action::ClaimVictory, a),
            ClientFrame::Abort(a) => act(Action::Abort, a),
            ClientFrame::Berserk(a) => act(Action::Berserk, a),
            ClientFrame::Moretime(a) => act(Action::GiveTime, a),
            ClientFrame::Ping(_) => Request::Ping,
        }
    }
}

/// A frame that could not be read: what was wrong, and the client's id if one was found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Refused {
    pub(crate) message: String,
    pub(crate) ack: Option<u64>,
}

// ---- refusals ------------------------------------------------------------------------------

pub(crate) use crate::refusal::Problem;

impl From<&RoomError> for Problem {
    fn from(e: &RoomError) -> Problem {
        let message = e.to_string();
        match e {
            RoomError::Game(g) => Problem::from(g),
            RoomError::Store(_) => Problem::new(Code::NotSaved, message),
            RoomError::Closed => Problem::new(Code::RoomClosed, message),
            RoomError::NotOver => Problem::new(Code::NotOver, message),
            RoomError::Waiting => Problem::new(Code::Waiting, message),
            RoomError::SeatsTaken => Problem::new(Code::SeatsTaken, message),
            RoomError::Remote(p) => p.clone(),
            RoomError::Unavailable => Problem::new(Code::Unavailable, message),
        }
    }
}

/// Reads a client frame.
///
/// # Errors
/// The frame is not JSON, or not a frame this protocol knows: [`Refused`] says why.
pub(crate) fn read(text: &str) -> Result<Request, Refused> {
    serde_json::from_str::<ClientFrame>(text)
        .map(Request::from)
        .map_err(|e| {
            // The id, if the frame has one where it belongs, so the client can match the
            // refusal to what it sent.
            #[derive(Deserialize)]
            struct Envelope {
                d: Option<AckOnly>,
            }
            let ack = serde_json::from_str::<Envelope>(text)
                .ok()
                .and_then(|e| e.d)
                .and_then(|d| d.a);
            let message = if e.is_syntax() || e.is_eof() {
                "malformed frame: expected {\"t\": type, \"d\": data}".to_owned()
            } else {
                format!("malformed frame: {e}")
            };
            Refused { message, ack }
        })
}

// ---- server -> client ----------------------------------------------------------------------

/// A frame as the server sends it: an event with its room version, or an answer to the
/// sender (no version).
#[derive(Debug, Serialize)]
pub(crate) struct Outgoing<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    v: Option<u64>,
    #[serde(flatten)]
    frame: ServerFrame<'a>,
}

impl Outgoing<'_> {
    /// The frame as JSON text.
    pub(crate) fn text(&self) -> String {
        // Strings, numbers and maps with string keys: writing cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Every frame type the server sends (docs/PROTOCOL.md).
#[derive(Debug, Serialize)]
#[serde(tag = "t", content = "d", rename_all = "kebab-case")]
enum ServerFrame<'a> {
    State(Box<StateData>),
    Move(MoveFrame<'a>),
    DrawOffered {
        #[serde(serialize_with = "color_name")]
        by: Color,
        #[serde(flatten)]
        after: Option<After>,
    },
    DrawDeclined {
        #[serde(serialize_with = "color_name")]
        by: Color,
        #[serde(flatten)]
        after: Option<After>,
    },
    Berserk {
        #[serde(serialize_with = "color_name")]
        by: Color,
        #[serde(skip_serializing_if = "Option::is_none")]
        clocks: Option<Clocks>,
    },
    /// Time given to `by`'s opponent: the clocks as they now stand.
    Moretime {
        #[serde(serialize_with = "color_name")]
        by: Color,
        clocks: Clocks,
    },
    End {
        #[serde(flatten)]
        over: Over,
        /// The clocks as the game ended: a fallen flag's reads zero.
        clocks: Option<Clocks>,
        #[serde(flatten)]
        after: Option<After>,
    },
    Presence {
        #[serde(serialize_with = "color_name")]
        color: Color,
        connected: bool,
        claim_after_ms: u64,
    },
    Watchers {
        n: u32,
        /// The logged-in spectators' names (the rest are anonymous).
        names: &'a [String],
    },
    Seated {
        #[serde(serialize_with = "color_name")]
        color: Color,
        name: &'a str,
        /// The account's title (GM, IM, ...), if any.
        #[serde(skip_serializing_if = "Option::is_none")]
        title: Option<&'static str>,
        /// What the recipient may now play and do: the game can begin.
        #[serde(flatten)]
        moves: Playable,
        #[serde(flatten)]
        after: Option<After>,
    },
    RematchOffered {
        #[serde(serialize_with = "color_name")]
        by: Color,
    },
    RematchDeclined {
        #[serde(serialize_with = "color_name")]
        by: Color,
    },
    Rematch {
        id: &'a str,
    },
    /// A line of the recipient's chat room (players' or spectators').
    Chat {
        id: &'a str,
        room: &'static str,
        name: &'a str,
        text: &'a str,
    },
    Ack {
        a: Option<u64>,
        v: u64,
    },
    Error {
        #[serde(flatten)]
        problem: &'a Problem,
        a: Option<u64>,
    },
    Pong,
}

fn color_name<S: Serializer>(color: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(color.name())
}

fn color_names<S: Serializer>(color: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
    match color {
        Some(c) => s.serialize_str(c.name()),
        None => s.serialize_none(),
    }
}

fn square_name<S: Serializer>(sq: &Option<Square>, s: S) -> Result<S::Ok, S::Error> {
    match sq {
        Some(sq) => s.collect_str(sq),
        None => s.serialize_none(),
    }
}

/// The result of a finished game.
#[derive(Debug, Clone, Copy, Serialize)]
struct Over {
    result: &'static str,
    termination: &'static str,
}

/// The game as it stands after a game event: whose clock runs, and (for a player) what the
/// rules allow them now.
#[derive(Debug, Serialize)]
struct After {
    #[serde(serialize_with = "color_names")]
    running: Option<Color>,
    can: Option<Can>,
}

impl After {
    fn of(view: &View, seat: Option<Color>) -> After {
        After {
            running: view.moment.running,
            can: seat.map(|c| *view.can.get(c)),
        }
    }
}

/// Each side's time left in milliseconds (`null` untimed).
#[derive(Debug, Clone, Copy, Serialize)]
struct Clocks {
    white: Option<u64>,
    black: Option<u64>,
}

impl Clocks {
    fn of(clocks: ByColor<Option<Duration>>) -> Clocks {
        let ms = |d: Option<Duration>| d.map(|d| d.as_millis() as u64);
        Clocks {
            white: ms(clocks.white),
            black: ms(clocks.black),
        }
    }
}

/// The moves a player may make, for the page to offer without knowing a rule: destinations
/// by origin square (`{"e2": ["e3", "e4"]}`; a castling king lists both its destination and
/// its rook's square, the two ways UCI names the move), and the promotions, by origin and
/// destination, with the pieces a pawn may become there (`{"e7e8": ["q", "r", "b", "n"]}`).
#[derive(Debug)]
struct Moves {
    dests: [Bitboard; 64],
    promotions: Vec<(Square, Square, Role)>,
}

/// The legal moves of `position` as a game frame carries them: `{"dests": {...},
/// "promotions": {...}}` (the analysis board's frames use the same form).
pub(crate) fn playable(position: &rookery_core::Position) -> serde_json::Value {
    let legal = position.legal_moves();
    let moves = (!legal.is_empty()).then(|| Moves::from_legal(&legal, position.turn()));
    serde_json::to_value(Playable(moves)).unwrap_or(serde_json::Value::Null)
}

impl Moves {
    /// What `seat` may play now: nothing unless it is their move.
    fn of(view: &View, seat: Option<Color>) -> Option<Box<Moves>> {
        if view.legal.is_empty() || seat != Some(view.turn) {
            return None;
        }
        Some(Moves::from_legal(&view.legal, view.turn))
    }

    fn from_legal(legal: &[rookery_core::Move], turn: Color) -> Box<Moves> {
        let mut dests = [Bitboard::EMPTY; 64];
        let mut promotions = Vec::new();
        for m in legal {
            let to = &mut dests[m.from().index()];
            to.set(m.to());
            if let Some(side) = m.castling_side() {
                to.set(side.rook_from(turn));
            }
            if let Some(role) = m.promotion() {
                promotions.push((m.from(), m.to(), role));
            }
        }
        Box::new(Moves { dests, promotions })
    }
}

/// `dests`, written straight from the bitboards (this runs for every move).
struct Dests<'a>(&'a Moves);

impl Serialize for Dests<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Targets(Bitboard);
        impl Serialize for Targets {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut seq = s.serialize_seq(Some(self.0.count() as usize))?;
                for sq in self.0 {
                    seq.serialize_element(&sq.to_string())?;
                }
                seq.end()
            }
        }
        let mut map = s.serialize_map(None)?;
        for (from, to) in Square::ALL.iter().zip(self.0.dests) {
            if !to.is_empty() {
                map.serialize_entry(&from.to_string(), &Targets(to))?;
            }
        }
        map.end()
    }
}

/// `promotions`: `{"e7e8": ["q", "r", "b", "n"]}`.
struct Promotions<'a>(&'a Moves);

impl Serialize for Promotions<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let moves = &self.0.promotions;
        let mut map = s.serialize_map(None)?;
        let mut i = 0;
        while i < moves.len() {
            let (from, to, _) = moves[i];
            let same = moves[i..]
                .iter()
                .take_while(|(f, t, _)| (*f, *t) == (from, to))
                .count();
            let roles: Vec<char> = moves[i..i + same].iter().map(|m| m.2.char()).collect();
            map.serialize_entry(&format!("{from}{to}"), &roles)?;
            i += same;
        }
        map.end()
    }
}

/// `dests` and `promotions` as two fields of the frame they are flattened into (both `null`
/// when the player may not move).
#[derive(Debug)]
struct Playable(Option<Box<Moves>>);

impl Serialize for Playable {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(2))?;
        match &self.0 {
            Some(m) => {
                map.serialize_entry("dests", &Dests(m))?;
                map.serialize_entry("promotions", &Promotions(m))?;
            }
            None => {
                map.serialize_entry("dests", &())?;
                map.serialize_entry("promotions", &())?;
            }
        }
        map.end()
    }
}

/// The whole game for one connection: on connect, and whenever it fell behind.
#[derive(Debug, Serialize)]
struct StateData {
    fen: String,
    start_fen: String,
    /// How many plies came before the start position in a game from the standard start
    /// (so a game from a FEN with Black to move numbers its first move `N...`).
    start_ply: u32,
    /// The position after each ply, so a client can show earlier positions without rules.
    fens: Vec<String>,
    /// Material ([`View::material`]) of the start position and after each ply.
    material: Vec<i32>,
    #[serde(serialize_with = "color_name")]
    turn: Color,
    san: Vec<String>,
    uci: Vec<String>,
    clocks: Clocks,
    #[serde(serialize_with = "color_names")]
    running: Option<Color>,
    #[serde(serialize_with = "square_name")]
    check: Option<Square>,
    #[serde(serialize_with = "color_names")]
    offer: Option<Color>,
    over: Option<Over>,
    #[serde(serialize_with = "color_names")]
    you: Option<Color>,
    /// Nobody has taken the other seat yet: nothing to play until someone does.
    waiting: bool,
    #[serde(flatten)]
    moves: Playable,
    can: Option<Can>,
    opening: Option<OpeningName>,
    /// The sides that went berserk (an arena's game), when any did.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    berserk: Vec<&'static str>,
}

/// The opening played so far, as lichess names it.
#[derive(Debug, Serialize)]
struct OpeningName {
    eco: &'static str,
    name: &'static str,
}

impl OpeningName {
    fn of(view: &View) -> Option<OpeningName> {
        view.opening.map(|o| OpeningName {
            eco: o.eco,
            name: o.name,
        })
    }
}

/// A `move` event, the frame sent most.
#[derive(Debug, Serialize)]
struct MoveFrame<'a> {
    #[serde(serialize_with = "color_name")]
    by: Color,
    ply: usize,
    san: &'a str,
    uci: &'a str,
    fen: &'a str,
    clocks: Clocks,
    /// Whether the move took a piece, and the material after it.
    capture: bool,
    material: i32,
    #[serde(serialize_with = "square_name")]
    check: Option<Square>,
    #[serde(serialize_with = "color_names")]
    running: Option<Color>,
    #[serde(flatten)]
    moves: Playable,
    can: Option<Can>,
    opening: Option<OpeningName>,
}

/// Every move of `game` in SAN.
pub(crate) fn san_list(game: &Game) -> Vec<String> {
    game.moves().iter().map(|m| m.san.to_string()).collect()
}

/// Every move of `game` in UCI.
pub(crate) fn uci_list(game: &Game) -> Vec<String> {
    game.moves()
        .iter()
        .map(|m| m.m.to_uci().to_string())
        .collect()
}

/// The `state` frame of the room as `snapshot` shows it, for the holder of `seat`.
pub(crate) fn state(snapshot: &Snapshot, seat: Option<Color>) -> String {
    let (v, game) = (snapshot.v, &snapshot.game);
    let view = View::of(
        game,
        snapshot.open_seat.is_some(),
        snapshot.bots,
        snapshot.berserkable,
        snapshot.gifts,
    );
    let start = game.start();
    let mut fens = Vec::with_capacity(game.moves().len());
    let mut material_after = Vec::with_capacity(game.moves().len() + 1);
    material_after.push(View::material(start));
    let mut pos = *start;
    for played in game.moves() {
        pos = pos.after(played.m);
        fens.push(pos.fen());
        material_after.push(View::material(&pos));
    }
    let data = StateData {
        fen: game.position().fen(),
        start_fen: start.fen(),
        start_ply: start.plies_before(),
        fens,
        material: material_after,
        turn: game.position().turn(),
        san: san_list(game),
        uci: uci_list(game),
        clocks: Clocks::of(game.clocks_at(now_ms())),
        running: view.moment.running,
        check: view.moment.check,
        offer: game.draw_offer(),
        over: game.result().map(|(r, t)| Over {
            result: r.as_str(),
            termination: t.as_str(),
        }),
        you: seat,
        waiting: snapshot.open_seat.is_some(),
        moves: Playable(Moves::of(&view, seat)),
        can: seat.map(|c| *view.can.get(c)),
        opening: OpeningName::of(&view),
        berserk: [Color::White, Color::Black]
            .into_iter()
            .filter(|&c| game.clock().is_berserk(c))
            .map(|c| if c == Color::White { "white" } else { "black" })
            .collect(),
    };
    Outgoing {
        v: Some(v),
        frame: ServerFrame::State(Box::new(data)),
    }
    .text()
}

/// The frame of a room event for the holder of `seat`. `view` is the game as it stands
/// after a game event (`None`: not known, and the frame says less). `None` for an event this
/// connection is not shown: a chat line of the other room (players and spectators each see
/// their own chat only).
pub(crate) fn event(e: &Versioned, seat: Option<Color>, view: Option<&View>) -> Option<String> {
    let after = || view.map(|view| After::of(view, seat));
    // The event's own facts (a replayed move shows its own capture and check); what a
    // player may do comes from `view`, the game as it is.
    let moment = e.moment.or_else(|| view.map(|v| v.moment));
    let frame = match &e.event {
        RoomEvent::Chat(line) => {
            let players = line.room == crate::store::chat::ChatRoom::Players;
            if players != seat.is_some() {
                return None;
            }
            ServerFrame::Chat {
                id: &line.id,
                room: line.room.as_str(),
                name: &line.name,
                text: &line.text,
            }
        }
        RoomEvent::Game(Event::MovePlayed {
            by,
            ply,
            san,
            uci,
            fen,
            clocks,
        }) => ServerFrame::Move(MoveFrame {
            by: *by,
            ply: *ply,
            san,
            uci,
            fen,
            clocks: Clocks::of(*clocks),
            capture: moment.is_some_and(|m| m.capture),
            material: moment.map_or(0, |m| m.material),
            check: moment.and_then(|m| m.check),
            running: moment.and_then(|m| m.running),
            moves: Playable(view.and_then(|view| Moves::of(view, seat))),
            can: view.zip(seat).map(|(view, color)| *view.can.get(color)),
            opening: view.and_then(OpeningName::of),
        }),
        RoomEvent::Game(Event::DrawOffered { by }) => ServerFrame::DrawOffered {
            by: *by,
            after: after(),
        },
        RoomEvent::Game(Event::DrawDeclined { by }) => ServerFrame::DrawDeclined {
            by: *by,
            after: after(),
        },
        RoomEvent::Game(Event::Berserked { by }) => ServerFrame::Berserk {
            by: *by,
            clocks: moment.map(|m| Clocks::of(m.clocks)),
        },
        RoomEvent::Game(Event::TimeGiven { by, clocks }) => ServerFrame::Moretime {
            by: *by,
            clocks: Clocks::of(*clocks),
        },
        RoomEvent::Game(Event::GameOver {
            result,
            termination,
        }) => ServerFrame::End {
            over: Over {
                result: result.as_str(),
                termination: termination.as_str(),
            },
            clocks: moment.map(|m| Clocks::of(m.clocks)),
            after: after(),
        },
        RoomEvent::Watchers { n, names } => ServerFrame::Watchers { n: *n, names },
        RoomEvent::Seated { color, name, title } => ServerFrame::Seated {
            color: *color,
            name,
            title: title.map(crate::accounts::Title::as_str),
            moves: Playable(view.and_then(|view| Moves::of(view, seat))),
            after: after(),
        },
        RoomEvent::RematchOffered { by } => ServerFrame::RematchOffered { by: *by },
        RoomEvent::RematchDeclined { by } => ServerFrame::RematchDeclined { by: *by },
        RoomEvent::Rematch { id } => ServerFrame::Rematch { id },
        RoomEvent::Presence {
            color,
            connected,
            claim_after,
        } => ServerFrame::Presence {
            color: *color,
            connected: *connected,
            claim_after_ms: claim_after.as_millis() as u64,
        },
    };
    Some(
        Outgoing {
            v: Some(e.v),
            frame,
        }
        .text(),
    )
}

/// The answer to an accepted command: the room version after all it caused.
pub(crate) fn ack(a: Option<u64>, v: u64) -> String {
    answer(ServerFrame::Ack { a, v })
}

/// The answer to a refused frame or command.
pub(crate) fn error(problem: &Problem, a: Option<u64>) -> String {
    answer(ServerFrame::Error { problem, a })
}

pub(crate) fn pong() -> String {
    answer(ServerFrame::Pong)
}

fn answer(frame: ServerFrame<'_>) -> String {
    Outgoing { v: None, frame }.text()
}

#[cfg(test)]
mod tests {
    use rookery_core::Position;
    use rookery_core::clock::TimeControl;
    use rookery_core::game::GameError;

    use super::*;

    #[test]
    fn every_client_frame_reads_into_one_request() {
        let act = |action, ack| Ok(Request::Act { action, ack });
        assert_eq!(
            read(r#"{"t":"move","d":{"u":"e2e4","a":7,"draw":true}}"#),
            act(
                Action::Move {
                    text: MoveText::Uci("e2e4".into()),
                    offer_draw: true,
                    timing: MoveTiming::default(),
                },
                Some(7)
            )
        );
        // The page's own thinking time travels with the move (R6, lag compensation).
        assert_eq!(
            read(r#"{"t":"move","d":{"u":"e2e4","think":1234}}"#),
            act(
                Action::Move {
                    text: MoveText::Uci("e2e4".into()),
                    offer_draw: false,
                    timing: MoveTiming {
                        think: Some(Duration::from_millis(1234)),
                        round_trip: None
                    },
                },
                None
            )
        );
        assert!(read(r#"{"t":"move","d":{"u":"e2e4","think":-5}}"#).is_err());
        assert_eq!(read(r#"{"t":"resign"}"#), act(Action::Resign, None));
        assert_eq!(
            read(r#"{"t":"offer-draw","d":{"a":2}}"#),
            act(Action::OfferDraw, Some(2))
        );
        assert_eq!(
            read(r#"{"t":"claim-draw","d":{"u":"g1f3","a":3}}"#),
            act(
                Action::ClaimDraw {
                    with_move: Some(MoveText::Uci("g1f3".into()))
                },
                Some(3)
            )
        );
        assert_eq!(
            read(r#"{"t":"claim-draw","d":{}}"#),
            act(Action::ClaimDraw { with_move: None }, None)
        );
        assert_eq!(read(r#"{"t":"ping"}"#), Ok(Request::Ping));
        assert_eq!(read(r#"{"t":"ping","d":{}}"#), Ok(Request::Ping));
    }

    #[test]
    fn unknown_and_malformed_frames_are_refused_with_the_reason_and_the_id() {
        let unknown = read(r#"{"t":"dance","d":{"a":4}}"#).unwrap_err();
        assert!(
            unknown.message.contains("unknown variant `dance`"),
            "{unknown:?}"
        );
        assert_eq!(unknown.ack, Some(4));
        let no_move = read(r#"{"t":"move","d":{"a":5}}"#).unwrap_err();
        assert!(
            no_move.message.contains("`u` (UCI) or in `s`"),
            "{no_move:?}"
        );
        assert_eq!(no_move.ack, Some(5));
        let both = read(r#"{"t":"move","d":{"u":"e2e4","s":"e4","a":6}}"#).unwrap_err();
        assert!(both.message.contains("one of them"), "{both:?}");
        // Issue 54: a typed move is the core's to read.
        assert!(matches!(
            read(r#"{"t":"move","d":{"s":"Ng1-f3","a":7}}"#),
            Ok(Request::Act {
                action: Action::Move { text: MoveText::San(t), .. },
                ack: Some(7),
            }) if t == "Ng1-f3"
        ));
        for junk in ["", "{", "[1,2]", "null", "\"move\"", r#"{"d":{}}"#] {
            let refused = read(junk).unwrap_err();
            assert!(refused.message.starts_with("malformed frame"), "{junk}");
            assert_eq!(refused.ack, None);
        }
        assert!(read(r#"{"t":"move","d":{"u":3}}"#).is_err());
    }

    #[test]
    fn http_actions_use_the_socket_frame_names() {
        assert_eq!(Action::named("resign"), Some(Action::Resign));
        assert_eq!(Action::named("offer-draw"), Some(Action::OfferDraw));
        assert_eq!(Action::named("accept-draw"), Some(Action::AcceptDraw));
        assert_eq!(Action::named("decline-draw"), Some(Action::DeclineDraw));
        assert_eq!(
            Action::named("claim-draw"),
            Some(Action::ClaimDraw { with_move: None })
        );
        assert_eq!(Action::named("claim-victory"), Some(Action::ClaimVictory));
        assert_eq!(Action::named("abort"), Some(Action::Abort));
        for not_an_action in ["move", "ping", "draw/offer", "Resign", "", "dance"] {
            assert_eq!(Action::named(not_an_action), None, "{not_an_action}");
        }
    }

    #[test]
    fn answers_and_events_have_the_documented_shape() {
        let v = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap();
        assert_eq!(v(&ack(Some(3), 9)), v(r#"{"t":"ack","d":{"a":3,"v":9}}"#));
        assert_eq!(
            v(&error(&Problem::new(Code::Spectator, "no"), None)),
            v(r#"{"t":"error","d":{"code":"spectator","message":"no","a":null}}"#)
        );
        let wait = Problem::from(&GameError::OpponentNotGone {
            wait: Duration::from_secs(30),
        });
        assert_eq!(
            v(&error(&wait, Some(4))),
            v(&format!(
                r#"{{"t":"error","d":{{"code":"opponent_not_gone","message":"{}","n":30,"a":4}}}}"#,
                wait.message
            ))
        );
        assert_eq!(v(&pong()), v(r#"{"t":"pong"}"#));
        let watchers = Versioned {
            v: 5,
            event: RoomEvent::Watchers {
                n: 2,
                names: vec!["ada".to_owned()].into(),
            },
            view: None,
            moment: None,
        };
        assert_eq!(
            v(&event(&watchers, None, None).unwrap()),
            v(r#"{"t":"watchers","v":5,"d":{"n":2,"names":["ada"]}}"#)
        );
    }

    #[test]
    fn the_page_gets_promotions_move_numbers_and_material_from_the_server() {
        // Black to move at move 30, a pawn on b2 about to promote (capturing on a1 or not).
        let start = Position::from_fen("r3k3/8/8/8/8/8/1p6/R3K3 b - - 0 30").unwrap();
        let game = Game::new(start, TimeControl::Untimed);
        let snapshot = Snapshot {
            v: 1,
            game,
            open_seat: None,
            bots: ByColor::default(),
            berserkable: false,
            gifts: true,
        };
        let frame = v(&state(&snapshot, Some(Color::Black)));
        assert_eq!(frame["d"]["start_ply"], 59);
        // Rook and rook each; the pawn is Black's one point.
        assert_eq!(frame["d"]["material"], serde_json::json!([-1]));
        assert_eq!(
            frame["d"]["promotions"]["b2b1"],
            serde_json::json!(["q", "r", "b", "n"])
        );
        assert_eq!(
            frame["d"]["promotions"]["b2a1"],
            serde_json::json!(["q", "r", "b", "n"])
        );
        assert!(
            frame["d"]["dests"]["b2"]
                .as_array()
                .unwrap()
                .contains(&"a1".into())
        );
        // Not their move: nothing to offer.
        let white = v(&state(&snapshot, Some(Color::White)));
        assert!(white["d"]["dests"].is_null() && white["d"]["promotions"].is_null());
    }

    fn v(text: &str) -> serde_json::Value {
        serde_json::from_str(text).unwrap()
    }
}
