//! Rematches, in one place: the state a finished game's room keeps ([`Rematch`], an offer
//! that the opponent's agreement turns into a new game, once), and [`request`], which a
//! player's request goes through: it asks the room, lets a bot agree at once, and makes the
//! new game (colors swapped, same start and time control) when both agreed.

use rookery_core::game::Game;
use rookery_core::{ByColor, Color};
use rookery_engine::Level;

use crate::new_game::{GameSpec, MakeError, Person, SeatSpec, Source, make};
use crate::room::{RoomError, RoomEvent};
use crate::rooms::{Rooms, bot_levels};
use crate::store::{GameRow, Store, StoreError};

/// Where a finished game's rematch stands.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) enum Rematch {
    /// Nobody asked.
    #[default]
    None,
    /// A player asked; the offer stands until the opponent agrees or either declines.
    Offered(Color),
    /// Both agreed, and the agreeing request is making the game (its offerer, should that
    /// fail and the offer stand again).
    Making { offerer: Color },
    /// The rematch is game `id`.
    Made(String),
}

/// What a request for a rematch came to, in the room (serde: as the owner answers another
/// node, cluster mode).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum RematchAnswer {
    /// The offer stands until the opponent agrees.
    Offered,
    /// The opponent had offered already: the caller makes the game, then reports it with
    /// [`Rematch::made`].
    Agreed,
    /// The rematch exists already.
    Made(String),
}

impl Rematch {
    /// A player of the finished game asks; the event to publish, if any.
    pub(crate) fn ask(&mut self, by: Color) -> (RematchAnswer, Option<RoomEvent>) {
        match self {
            Rematch::None => {
                *self = Rematch::Offered(by);
                (
                    RematchAnswer::Offered,
                    Some(RoomEvent::RematchOffered { by }),
                )
            }
            Rematch::Offered(offerer) if *offerer != by => {
                *self = Rematch::Making { offerer: *offerer };
                (RematchAnswer::Agreed, None)
            }
            // Asking twice, or while the other request makes the game (its event follows).
            Rematch::Offered(_) | Rematch::Making { .. } => (RematchAnswer::Offered, None),
            Rematch::Made(id) => (RematchAnswer::Made(id.clone()), None),
        }
    }

    /// A player declines the opponent's offer or withdraws their own.
    pub(crate) fn decline(&mut self, by: Color) -> Option<RoomEvent> {
        if matches!(self, Rematch::Offered(_)) {
            *self = Rematch::None;
            Some(RoomEvent::RematchDeclined { by })
        } else {
            None
        }
    }

    /// The agreed game was made as `id` (`None`: it could not be; the offer stands again).
    pub(crate) fn made(&mut self, id: Option<String>) -> Option<RoomEvent> {
        let Rematch::Making { offerer } = *self else {
            return None;
        };
        match id {
            Some(id) => {
                *self = Rematch::Made(id.clone());
                Some(RoomEvent::Rematch { id })
            }
            None => {
                *self = Rematch::Offered(offerer);
                None
            }
        }
    }
}

/// What a player's rematch request came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Requested {
    /// The offer stands; the opponent has been told.
    Offered,
    /// The caller's seat in the rematch, game `id` (`created`: by this request).
    Seat { id: String, created: bool },
}

/// A player (`by`) of the finished game `row` asks for a rematch. A bot always wants
/// another game, so it agrees at once.
///
/// # Errors
/// The game is not over, its room closed, or the store failed.
pub(crate) async fn request(
    rooms: &Rooms,
    store: &Store,
    row: &GameRow,
    by: Color,
) -> Result<Requested, RoomError> {
    let id = &row.game.id;
    if let Some(next) = store.rematch_of(id).await.map_err(RoomError::Store)? {
        return Ok(Requested::Seat {
            id: next.game.id,
            created: false,
        });
    }
    let room = rooms
        .get(id)
        .await
        .map_err(RoomError::Store)?
        .ok_or(RoomError::Closed)?;
    let mut answer = room.rematch(by).await?;
    if answer == RematchAnswer::Offered && bot_levels(&row.game)[!by].is_some() {
        answer = room.rematch(!by).await?;
    }
    match answer {
        RematchAnswer::Offered => Ok(Requested::Offered),
        RematchAnswer::Made(id) => Ok(Requested::Seat { id, created: false }),
        RematchAnswer::Agreed => {
            let (_, old) = rooms.game_of(row).await.map_err(RoomError::Store)?;
            let made = make(rooms, swapped(row, &old)).await;
            room.rematch_made(made.as_ref().ok().map(|m| m.id.clone()))
                .await;
            let made = made.map_err(|e| match e {
                MakeError::Store(e) => RoomError::Store(e),
                // The finished game passed these checks when it was made.
                MakeError::Spec(e) => RoomError::Store(StoreError::Corrupt(format!(
                    "game {id}: its rematch is refused: {e}"
                ))),
            })?;
            Ok(Requested::Seat {
                id: made.id,
                created: true,
            })
        }
    }
}

/// The rematch of `row` (whose game is `old`): the seats (and their tokens) swapped, the
/// same start, time control, rating and event.
fn swapped(row: &GameRow, old: &Game) -> GameSpec {
    let g = &row.game;
    let seat =
        |name: &str, token: &Option<String>, bot: Option<i64>, user: &Option<String>| match bot
            .and_then(|l| u8::try_from(l).ok())
            .and_then(Level::new)
        {
            Some(level) => SeatSpec::Bot(level),
            None => SeatSpec::Person(Person {
                name: name.to_owned(),
                account: user.clone(),
                token: token.clone(),
            }),
        };
    let seats = ByColor {
        white: seat(&g.black_name, &g.black_seat, g.black_bot, &g.black_user),
        black: seat(&g.white_name, &g.white_seat, g.white_bot, &g.white_user),
    };
    let mut spec = GameSpec::new(Source::Rematch, seats, old.clock().control().clone());
    spec.start = *old.start();
    spec.rated = g.rated;
    spec.rematch_of = Some(g.id.clone());
    spec.club.event.clone_from(&g.club.event);
    spec
}

#[cfg(test)]
mod tests {
    use rookery_core::Color::{Black, White};

    use super::*;

    #[test]
    fn an_offer_is_agreed_once_and_declined_only_while_it_stands() {
        let mut r = Rematch::default();
        assert_eq!(r.decline(White), None);
        assert_eq!(
            r.ask(White),
            (
                RematchAnswer::Offered,
                Some(RoomEvent::RematchOffered { by: White })
            )
        );
        assert_eq!(r.ask(White), (RematchAnswer::Offered, None));
        assert_eq!(r.ask(Black), (RematchAnswer::Agreed, None));
        // While it is being made, neither a second agreement nor a decline changes it.
        assert_eq!(r.ask(Black), (RematchAnswer::Offered, None));
        assert_eq!(r.decline(White), None);
        // Making it failed: the offer stands again.
        assert_eq!(r.made(None), None);
        assert_eq!(r, Rematch::Offered(White));
        assert_eq!(r.ask(Black), (RematchAnswer::Agreed, None));
        assert_eq!(
            r.made(Some("next".into())),
            Some(RoomEvent::Rematch { id: "next".into() })
        );
        assert_eq!(r.ask(White), (RematchAnswer::Made("next".into()), None));
        assert_eq!(r.made(Some("other".into())), None);
        // A declined offer is gone; either may offer again.
        let mut d = Rematch::Offered(Black);
        assert_eq!(
            d.decline(White),
            Some(RoomEvent::RematchDeclined { by: White })
        );
        assert_eq!(d, Rematch::None);
    }
}
