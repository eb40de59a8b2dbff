//! A finished game's rematch, as its room keeps it (STYLE.md 11: the room dispatches, this
//! helper owns the flow's state): an offer that the opponent's agreement turns into a new
//! game, once. Making the game is `crate::rematch::request`'s.

use rookery_core::Color;

use super::RoomEvent;

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
