//! What nodes say to each other about a game, as JSON over NATS: requests to the game's
//! owner (`game.{id}.cmd`) and its events for every node with watchers (`game.{id}.ev`).
//! The core's commands and events travel as they are (its `serde` feature); the server's
//! own types have their wire forms here, turned back into the same values on arrival.

use std::sync::Arc;
use std::time::Duration;

use rookery_core::clock::TimeControl;
use rookery_core::game::{Command, DrawOffers, Event, Game, Termination};
use rookery_core::pgn::GameResult;
use rookery_core::{ByColor, Color, Position};
use serde::{Deserialize, Serialize};

use crate::events::UserEvent;
use crate::lobby::Listing;
use crate::room::{Can, Moment, RoomEvent, Snapshot, TakeSeat, Versioned, View};
use crate::rooms::{Replayed, rebuild};
use crate::store::chat::ChatLine;

/// A request to a game's owner.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum Ask {
    Apply(Command),
    Subscribe { since: u64 },
    Snapshot,
    Presence { color: Color, connected: bool },
    Watcher { joined: bool, name: Option<String> },
    Rematch { by: Color },
    RematchDecline { by: Color },
    TakeSeat(TakeSeat),
    RematchMade { id: Option<String> },
    Chat(ChatLine),
}

/// What goes out on a game's event subject.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum Broadcast {
    /// An event of the room, with its version.
    Event(Box<WireVersioned>),
    /// A node has just loaded the game (a takeover): what other nodes heard from the old
    /// owner may have a gap, so their connections start again from the new one.
    Moved,
}

#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct WireSubscription {
    pub(crate) v: u64,
    pub(crate) missed: Option<Vec<WireVersioned>>,
}

/// An account title by its abbreviation (titles are a fixed list).
pub(crate) fn title(text: Option<&str>) -> Option<&'static str> {
    crate::accounts::Title::parse(text?).map(crate::accounts::Title::as_str)
}

#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum WireEvent {
    Game(Event),
    Presence {
        color: Color,
        connected: bool,
        claim_after_ms: u64,
    },
    Watchers {
        n: u32,
        names: Vec<String>,
    },
    Seated {
        color: Color,
        name: String,
        title: Option<String>,
    },
    RematchOffered {
        by: Color,
    },
    RematchDeclined {
        by: Color,
    },
    Rematch {
        id: String,
    },
    Chat(ChatLine),
}

impl From<&RoomEvent> for WireEvent {
    fn from(e: &RoomEvent) -> WireEvent {
        match e {
            RoomEvent::Game(e) => WireEvent::Game(e.clone()),
            RoomEvent::Presence {
                color,
                connected,
                claim_after,
            } => WireEvent::Presence {
                color: *color,
                connected: *connected,
                claim_after_ms: claim_after.as_millis() as u64,
            },
            RoomEvent::Watchers { n, names } => WireEvent::Watchers {
                n: *n,
                names: names.to_vec(),
            },
            RoomEvent::Seated { color, name, title } => WireEvent::Seated {
                color: *color,
                name: name.clone(),
                title: title.map(str::to_owned),
            },
            RoomEvent::RematchOffered { by } => WireEvent::RematchOffered { by: *by },
            RoomEvent::RematchDeclined { by } => WireEvent::RematchDeclined { by: *by },
            RoomEvent::Rematch { id } => WireEvent::Rematch { id: id.clone() },
            RoomEvent::Chat(line) => WireEvent::Chat(line.as_ref().clone()),
        }
    }
}

impl From<WireEvent> for RoomEvent {
    fn from(e: WireEvent) -> RoomEvent {
        match e {
            WireEvent::Game(e) => RoomEvent::Game(e),
            WireEvent::Presence {
                color,
                connected,
                claim_after_ms,
            } => RoomEvent::Presence {
                color,
                connected,
                claim_after: Duration::from_millis(claim_after_ms),
            },
            WireEvent::Watchers { n, names } => RoomEvent::Watchers {
                n,
                names: names.into(),
            },
            WireEvent::Seated { color, name, title } => RoomEvent::Seated {
                color,
                name,
                title: self::title(title.as_deref()),
            },
            WireEvent::RematchOffered { by } => RoomEvent::RematchOffered { by },
            WireEvent::RematchDeclined { by } => RoomEvent::RematchDeclined { by },
            WireEvent::Rematch { id } => RoomEvent::Rematch { id },
            WireEvent::Chat(line) => RoomEvent::Chat(Arc::new(line)),
        }
    }
}

/// A [`View`] in few words: the position it was worked out on, from which this node works
/// out the rest with the core (legal moves, check, material), and the event's moment (its
/// fields beside the view's, as before the moment had a name).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct WireView {
    fen: String,
    /// Whether the side to move may move (not when the game is over or waits).
    playable: bool,
    can: ByColor<Can>,
    #[serde(flatten)]
    moment: WireMoment,
    /// The opening's ECO code and name.
    opening: Option<(String, String)>,
}

impl WireView {
    pub(crate) fn of(view: &View) -> WireView {
        WireView {
            fen: view.position.fen().to_string(),
            playable: !view.legal.is_empty(),
            can: view.can,
            moment: WireMoment::of(&view.moment),
            opening: view.opening.map(|o| (o.eco.to_owned(), o.name.to_owned())),
        }
    }

    /// The view again; `None` if the position does not read (a newer node's FEN).
    pub(crate) fn into_view(self) -> Option<View> {
        let position = Position::from_fen(&self.fen).ok()?;
        let turn = position.turn();
        let opening = self.opening.and_then(|(eco, name)| opening(&eco, &name));
        let mut moment = self.moment.into_moment();
        // What the position shows, this node's core says.
        moment.check = position.is_check().then(|| position.king_of(turn));
        moment.material = View::material(&position);
        Some(View {
            legal: if self.playable {
                position.legal_moves().to_vec()
            } else {
                Vec::new()
            },
            turn,
            can: self.can,
            moment,
            opening,
            position,
        })
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct WireVersioned {
    pub(crate) v: u64,
    event: WireEvent,
    view: Option<WireView>,
    /// The event's own moment (in a history that fills a gap there is no view).
    #[serde(default)]
    moment: Option<WireMoment>,
}

/// A [`Moment`]: the check as the square's index, clocks in milliseconds. Fields a view's
/// position also shows may be absent (an older node's view).
#[derive(Debug, Serialize, Deserialize)]
struct WireMoment {
    #[serde(rename = "last_capture")]
    capture: bool,
    #[serde(default)]
    material: i32,
    #[serde(default)]
    check: Option<u32>,
    running: Option<Color>,
    clocks_ms: ByColor<Option<u64>>,
    #[serde(default)]
    offer: Option<Color>,
    #[serde(default)]
    end: Option<(GameResult, Termination)>,
}

impl WireMoment {
    fn of(m: &Moment) -> WireMoment {
        WireMoment {
            capture: m.capture,
            material: m.material,
            check: m.check.map(|s| s.index() as u32),
            running: m.running,
            clocks_ms: m.clocks.map(|c| c.map(|d| d.as_millis() as u64)),
            offer: m.offer,
            end: m.end,
        }
    }

    fn into_moment(self) -> Moment {
        Moment {
            capture: self.capture,
            material: self.material,
            check: self.check.and_then(rookery_core::Square::try_new),
            running: self.running,
            clocks: self.clocks_ms.map(|c| c.map(Duration::from_millis)),
            offer: self.offer,
            end: self.end,
        }
    }
}

impl WireVersioned {
    pub(crate) fn of(e: &Versioned) -> WireVersioned {
        WireVersioned {
            v: e.v,
            event: WireEvent::from(&e.event),
            view: e.view.as_deref().map(WireView::of),
            moment: e.moment.as_ref().map(WireMoment::of),
        }
    }
}

impl From<WireVersioned> for Versioned {
    fn from(e: WireVersioned) -> Versioned {
        let view = e.view.and_then(WireView::into_view).map(Arc::new);
        let moment = e
            .moment
            .map(WireMoment::into_moment)
            .or_else(|| view.as_deref().map(|v| v.moment));
        Versioned {
            v: e.v,
            event: e.event.into(),
            view,
            moment,
        }
    }
}

/// A running game, exactly: its moves with what each was charged, the rule state they do
/// not show, and when the running clock started. Rebuilt through the core on arrival.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct WireGame {
    start: String,
    control: String,
    /// Each move: UCI, thinking time and credited lag (ms).
    moves: Vec<(String, i64, i64)>,
    offers: String,
    end: Option<(GameResult, Termination)>,
    turn_started: Option<u64>,
}

impl WireGame {
    pub(crate) fn of(game: &Game) -> WireGame {
        WireGame {
            start: game.start().fen().to_string(),
            control: game.clock().control().to_pgn(),
            moves: game
                .moves()
                .iter()
                .map(|p| {
                    (
                        p.m.to_uci().to_string(),
                        p.elapsed.as_millis() as i64,
                        p.lag.as_millis() as i64,
                    )
                })
                .collect(),
            offers: game.draw_offers().to_text(),
            end: game.result(),
            turn_started: game.turn_started(),
        }
    }

    /// The game again, through the core.
    pub(crate) fn into_game(self, id: &str) -> Result<Game, String> {
        let start = Position::from_fen(&self.start).map_err(|e| e.to_string())?;
        let control = TimeControl::from_pgn(&self.control).map_err(|e| e.to_string())?;
        let moves = self.moves.iter().map(|(uci, elapsed_ms, lag_ms)| Replayed {
            uci,
            elapsed_ms: *elapsed_ms,
            lag_ms: *lag_ms,
        });
        let mut game = rebuild(id, start, control, moves);
        if let Some(offers) = DrawOffers::parse(&self.offers) {
            game.restore_draw_offers(offers);
        }
        if let Some((result, termination)) = self.end {
            game.restore_end(result, termination);
        }
        if let Some(at) = self.turn_started {
            // The owner's clock start, kept as it is (nodes share the wall clock).
            game.resume(at, at);
        }
        Ok(game)
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct WireSnapshot {
    v: u64,
    game: WireGame,
    open_seat: Option<Color>,
    bots: ByColor<bool>,
}

impl WireSnapshot {
    pub(crate) fn of(s: &Snapshot) -> WireSnapshot {
        WireSnapshot {
            v: s.v,
            game: WireGame::of(&s.game),
            open_seat: s.open_seat,
            bots: s.bots,
        }
    }

    pub(crate) fn into_snapshot(self, id: &str) -> Result<Snapshot, String> {
        Ok(Snapshot {
            v: self.v,
            game: self.game.into_game(id)?,
            open_seat: self.open_seat,
            bots: self.bots,
        })
    }
}

/// What a node tells the others every second: how its rooms list in the lobby, and which
/// accounts have a socket open on it.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct NodeNews {
    pub(crate) node: String,
    /// This run of the node (its name and when it started): a node started again under
    /// its name is another run, whose old connections are gone.
    pub(crate) run: String,
    pub(crate) rooms: Vec<(String, WireListing)>,
    pub(crate) online: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct WireListing {
    seek: bool,
    open: bool,
    creator_here: bool,
    moves: usize,
    opening: Option<(String, String)>,
    watchers: u32,
}

/// An opening of the book by its ECO code and name.
fn opening(eco: &str, name: &str) -> Option<&'static rookery_openings::Opening> {
    rookery_openings::book()
        .openings()
        .iter()
        .find(|o| o.eco == eco && o.name == name)
}

impl From<&Listing> for WireListing {
    fn from(l: &Listing) -> WireListing {
        WireListing {
            seek: l.seek,
            open: l.open,
            creator_here: l.creator_here,
            moves: l.moves,
            opening: l.opening.map(|o| (o.eco.to_owned(), o.name.to_owned())),
            watchers: l.watchers,
        }
    }
}

impl From<WireListing> for Listing {
    fn from(l: WireListing) -> Listing {
        Listing {
            seek: l.seek,
            open: l.open,
            creator_here: l.creator_here,
            moves: l.moves,
            opening: l.opening.and_then(|(eco, name)| opening(&eco, &name)),
            watchers: l.watchers,
        }
    }
}

/// An account's event (`events.rs`) on its way round the nodes.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct WireUserEvent {
    user: String,
    /// A game of theirs began: its id.
    game_start: Option<String>,
    /// Else a challenge event, ready to send.
    challenge: Option<serde_json::Value>,
}

impl WireUserEvent {
    pub(crate) fn of(user: String, event: &UserEvent) -> WireUserEvent {
        let (game_start, challenge) = match event {
            UserEvent::GameStart(id) => (Some(id.clone()), None),
            UserEvent::Challenge(v) => (None, Some(serde_json::Value::clone(v))),
        };
        WireUserEvent {
            user,
            game_start,
            challenge,
        }
    }

    pub(crate) fn into_event(self) -> (String, UserEvent) {
        let event = match self.game_start {
            Some(id) => UserEvent::GameStart(id),
            None => UserEvent::Challenge(Arc::new(self.challenge.unwrap_or_default())),
        };
        (self.user, event)
    }
}
