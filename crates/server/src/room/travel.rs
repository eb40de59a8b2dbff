//! How a room's values travel between nodes in few words: a [`View`] as its position (the
//! receiving node works out legal moves and material with its own core), a [`Game`] as its
//! moves with what each was charged (replayed through the core on arrival, as a restart
//! does).

use std::time::Duration;

use rookery_core::clock::TimeControl;
use rookery_core::game::{Command, DrawOffers, Game, Gift, MoveText, MoveTiming, Termination};
use rookery_core::pgn::GameResult;
use rookery_core::{ByColor, Color, Position};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Can, Moment, View};

/// A [`View`] on the wire.
#[derive(Debug, Serialize, Deserialize)]
struct ViewForm {
    fen: String,
    /// Whether the side to move may move (not when the game is over or waits).
    playable: bool,
    can: ByColor<Can>,
    moment: Moment,
    /// The opening's ECO code and name.
    opening: Option<(String, String)>,
}

impl Serialize for View {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ViewForm {
            fen: self.position.fen().to_string(),
            playable: !self.legal.is_empty(),
            can: self.can,
            moment: self.moment,
            opening: self.opening.map(|o| (o.eco.to_owned(), o.name.to_owned())),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for View {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<View, D::Error> {
        let form = ViewForm::deserialize(d)?;
        let position = Position::from_fen(&form.fen).map_err(serde::de::Error::custom)?;
        let opening = form.opening.and_then(|(eco, name)| opening(&eco, &name));
        Ok(View {
            legal: if form.playable {
                position.legal_moves().to_vec()
            } else {
                Vec::new()
            },
            turn: position.turn(),
            can: form.can,
            moment: form.moment,
            opening,
            position,
        })
    }
}

/// An opening of the book by its ECO code and name.
pub(crate) fn opening(eco: &str, name: &str) -> Option<&'static rookery_openings::Opening> {
    rookery_openings::book()
        .openings()
        .iter()
        .find(|o| o.eco == eco && o.name == name)
}

/// A running game, exactly: its moves with what each was charged, the rule state they do
/// not show, and when the running clock started.
#[derive(Debug, Serialize, Deserialize)]
struct GameForm {
    start: String,
    control: String,
    /// Each move: UCI, thinking time and credited lag (ms).
    moves: Vec<(String, i64, i64)>,
    offers: String,
    end: Option<(GameResult, Termination)>,
    turn_started: Option<u64>,
    /// Who went berserk (White, Black); a node that does not know it sends none.
    #[serde(default)]
    berserk: (bool, bool),
    /// Time given, as the store keeps it (`w12 b13`).
    #[serde(default)]
    gifts: String,
}

/// `#[serde(with = "travel::game")]`: a [`Game`] as its moves, rebuilt through the core.
pub(crate) mod game {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(game: &Game, s: S) -> Result<S::Ok, S::Error> {
        GameForm {
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
            berserk: (
                game.clock().is_berserk(Color::White),
                game.clock().is_berserk(Color::Black),
            ),
            gifts: crate::store::gifts_text(game.gifts()),
        }
        .serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Game, D::Error> {
        let form = GameForm::deserialize(d)?;
        let start = Position::from_fen(&form.start).map_err(serde::de::Error::custom)?;
        let control = TimeControl::from_pgn(&form.control).map_err(serde::de::Error::custom)?;
        let moves = form.moves.iter().map(|(uci, elapsed_ms, lag_ms)| Replayed {
            uci,
            elapsed_ms: *elapsed_ms,
            lag_ms: *lag_ms,
        });
        let berserk = ByColor {
            white: form.berserk.0,
            black: form.berserk.1,
        };
        let gifts = crate::store::parse_gifts(&form.gifts)
            .ok_or_else(|| serde::de::Error::custom("unreadable gifts"))?;
        let mut game = rebuild(
            "(from another node)",
            start,
            control,
            berserk,
            &gifts,
            moves,
        );
        if let Some(offers) = DrawOffers::parse(&form.offers) {
            game.restore_draw_offers(offers);
        }
        if let Some((result, termination)) = form.end {
            game.restore_end(result, termination);
        }
        if let Some(at) = form.turn_started {
            // The owner's clock start, kept as it is (nodes share the wall clock).
            game.resume(at, at);
        }
        Ok(game)
    }
}

/// A move as stored (or as another node sends it): what a replay needs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Replayed<'a> {
    pub(crate) uci: &'a str,
    pub(crate) elapsed_ms: i64,
    pub(crate) lag_ms: i64,
}

/// Replays `moves` through the core from `start`, each charged exactly the thinking time it
/// was and credited the lag it was (which rebuilds the lag quotas, R6), on a timeline of
/// their own, and each gift of time at its place among them; the caller restores what the
/// moves do not show and resumes the clock.
pub(crate) fn rebuild<'a>(
    id: &str,
    start: Position,
    control: TimeControl,
    berserk: ByColor<bool>,
    gifts: &[Gift],
    moves: impl Iterator<Item = Replayed<'a>>,
) -> Game {
    let mut game = Game::new(start, control);
    // Berserk comes before one's first move: before every move, replayed.
    for by in [Color::White, Color::Black] {
        if berserk[by] && game.apply(Command::Berserk { by }, 0).is_err() {
            tracing::error!(game = %id, ?by, "stored berserk refused");
        }
    }
    let mut t = 0u64;
    let give = |game: &mut Game, plies: usize, t: u64| {
        for gift in gifts.iter().filter(|g| g.plies == plies) {
            if game.apply(Command::GiveTime { by: gift.by }, t).is_err() {
                tracing::error!(game = %id, ?gift, "stored gift of time refused");
            }
        }
    };
    for (i, m) in moves.enumerate() {
        give(&mut game, i, t);
        t += (m.elapsed_ms + m.lag_ms).max(0) as u64;
        let by = game.position().turn();
        let command = Command::Move {
            by,
            text: MoveText::Uci(m.uci.to_owned()),
            offer_draw: false,
            timing: MoveTiming {
                think: None,
                round_trip: Some(Duration::from_millis(m.lag_ms.max(0) as u64)),
            },
        };
        if let Err(e) = game.apply(command, t) {
            // A row the rules refuse (stored before they were checked on import): the game
            // stands at its last good move rather than failing every page.
            tracing::error!(game = %id, ply = i + 1, error = %e, "stored move refused");
            break;
        }
    }
    let played = game.moves().len();
    give(&mut game, played, t);
    game
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stored berserk is replayed before the moves: the clock is halved and has no
    /// increment, as it had; the game travelling to another node keeps it too.
    #[test]
    fn berserk_is_replayed_before_the_moves() {
        let control = TimeControl::from_friendly("3+2").unwrap();
        let moves = [("e2e4", 0, 0), ("e7e5", 0, 0), ("g1f3", 1000, 0)];
        let replayed = || {
            moves.iter().map(|&(uci, elapsed_ms, lag_ms)| Replayed {
                uci,
                elapsed_ms,
                lag_ms,
            })
        };
        let berserk = ByColor {
            white: true,
            black: false,
        };
        let game = rebuild(
            "t",
            Position::new(),
            control.clone(),
            berserk,
            &[],
            replayed(),
        );
        assert!(game.clock().is_berserk(Color::White));
        assert!(!game.clock().is_berserk(Color::Black));
        // 90 s, one second charged, no increment: 89 s; Black's 180 s and his increment.
        assert_eq!(
            game.clock().remaining(Color::White),
            Duration::from_secs(89)
        );
        assert_eq!(
            game.clock().remaining(Color::Black),
            Duration::from_secs(182)
        );
        let plain = rebuild(
            "t",
            Position::new(),
            control.clone(),
            ByColor::default(),
            &[],
            replayed(),
        );
        assert_eq!(
            plain.clock().remaining(Color::White),
            Duration::from_secs(183)
        );
        #[derive(Serialize, Deserialize)]
        struct Carried(#[serde(with = "game")] Game);
        let text = serde_json::to_string(&Carried(game.clone())).unwrap();
        let Carried(back) = serde_json::from_str(&text).unwrap();
        assert!(back.clock().is_berserk(Color::White));
        assert_eq!(
            back.clock().remaining(Color::White),
            Duration::from_secs(89)
        );
    }

    /// Time given is replayed where it was given: Black's 70-second move after White gave
    /// him 15 s stands in a one-minute game (without the gift it would fall, R6), and a game
    /// travelling to another node keeps it.
    #[test]
    fn gifts_of_time_are_replayed_at_their_place() {
        #[derive(Serialize, Deserialize)]
        struct Carried(#[serde(with = "game")] Game);
        let control = TimeControl::from_friendly("1+0").unwrap();
        let moves = [
            ("e2e4", 0, 0),
            ("e7e5", 0, 0),
            ("g1f3", 1000, 0),
            ("b8c6", 70_000, 0),
        ];
        let replayed = || {
            moves.iter().map(|&(uci, elapsed_ms, lag_ms)| Replayed {
                uci,
                elapsed_ms,
                lag_ms,
            })
        };
        let gifts = [Gift {
            by: Color::White,
            plies: 3,
        }];
        let game = rebuild(
            "t",
            Position::new(),
            control.clone(),
            ByColor::default(),
            &gifts,
            replayed(),
        );
        assert!(!game.is_over(), "{:?}", game.result());
        assert_eq!(game.moves().len(), 4);
        assert_eq!(game.gifts(), gifts);
        assert_eq!(game.clock().remaining(Color::Black), Duration::from_secs(5));
        let without = rebuild(
            "t",
            Position::new(),
            control,
            ByColor::default(),
            &[],
            replayed(),
        );
        assert!(without.moves().len() < 4 || without.is_over());
        let text = serde_json::to_string(&Carried(game)).unwrap();
        let Carried(back) = serde_json::from_str(&text).unwrap();
        assert_eq!(back.gifts(), gifts);
        assert_eq!(back.clock().remaining(Color::Black), Duration::from_secs(5));
    }
}
