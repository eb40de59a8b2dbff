//! Rematches, in one place: the state a finished game's room keeps ([`Rematch`], an offer
//! that the opponent's agreement turns into a new game, once), and [`request`], which a
//! player's request goes through: it asks the room, lets a bot agree at once, and makes the
//! new game (colors swapped, same start and time control) when both agreed.

use rookery_core::Color;
use rookery_core::game::Game;

use crate::ids;
use crate::room::{RoomError, RoomEvent, now_ms};
use crate::rooms::{Rooms, bot_levels};
use crate::store::{GameRow, NewGame, Store};

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
            let next = swapped(row);
            let (_, old) = rooms.game_of(row).await.map_err(RoomError::Store)?;
            let game = Game::new(*old.start(), old.clock().control().clone());
            let made = rooms.create(&next, game).await;
            room.rematch_made(made.as_ref().ok().map(|()| next.id.clone()))
                .await;
            made.map_err(RoomError::Store)?;
            Ok(Requested::Seat {
                id: next.id,
                created: true,
            })
        }
    }
}

/// The rematch of `row`: a new id, the seats (and their tokens) swapped.
fn swapped(row: &GameRow) -> NewGame {
    let g = &row.game;
    NewGame {
        id: ids::game_id(),
        created_at: now_ms() as i64,
        start_fen: g.start_fen.clone(),
        time_control: g.time_control.clone(),
        white_name: g.black_name.clone(),
        black_name: g.white_name.clone(),
        white_seat: g.black_seat.clone(),
        black_seat: g.white_seat.clone(),
        white_bot: g.black_bot,
        black_bot: g.white_bot,
        rematch_of: Some(g.id.clone()),
        // Both players are seated: nothing to list.
        seek: false,
        white_user: g.black_user.clone(),
        black_user: g.white_user.clone(),
        rated: g.rated,
        rating_range: None,
        club: crate::store::ClubRecord {
            event: g.club.event.clone(),
            ..Default::default()
        },
    }
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
