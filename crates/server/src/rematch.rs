//! A rematch asked for: [`request`], which a player's request goes through: it asks the room
//! (whose state of the offer is `room::rematch`), lets a bot agree at once, and makes the new
//! game (colors swapped, same start and time control) when both agreed.

use rookery_core::game::Game;
use rookery_core::{ByColor, Color};

use crate::new_game::{GameSpec, MakeError, Person, SeatSpec, Source, make};
use crate::room::{RematchAnswer, RoomError};
use crate::rooms::{Rooms, bot_levels};
use crate::store::{GameRow, Store, StoreError};

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
            room.tell(crate::room::Request::RematchMade {
                id: made.as_ref().ok().map(|m| m.id.clone()),
            })
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
    let bots = bot_levels(g);
    // Each player (or bot) plays the other colour, with the seat (and token) they had.
    let seat = |was: Color| match bots[was] {
        Some(level) => SeatSpec::Bot(level),
        None => SeatSpec::Person(Person {
            name: g.name(was).to_owned(),
            account: g.user(was).map(str::to_owned),
            token: g.seat(was).map(str::to_owned),
        }),
    };
    let seats = ByColor {
        white: seat(Color::Black),
        black: seat(Color::White),
    };
    let mut spec = GameSpec::new(Source::Rematch, seats, old.clock().control().clone());
    spec.start = *old.start();
    spec.rated = g.rated;
    spec.rematch_of = Some(g.id.clone());
    spec.club.event.clone_from(&g.club.event);
    spec
}
