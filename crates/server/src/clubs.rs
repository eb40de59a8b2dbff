//! Clubs (docs/TOURNAMENTS.md "Clubs"; lichess's teams): the one way a club is made and
//! changed, whatever the door (lichess's team API in `http/clubs.rs`, the club's page), and
//! the club's own ladder (R8).
//!
//! A club is open (anyone joins) or by request (a leader accepts or declines), with a
//! password or not. Its leaders accept, decline and remove members, make other members
//! leaders, change its rules and write a message to every member (shown on their lobby);
//! its only leader cannot leave it.

use rookery_core::rating::ladder::{self, LadderPoints, LadderResult};

use crate::store::clubs::Club;
use crate::store::{Store, StoreError};
use crate::wallclock::now_ms;

/// The longest club name, description, request message and message to the members.
pub(crate) const MAX_NAME: usize = 60;
pub(crate) const MAX_DESCRIPTION: usize = 2_000;
const MAX_REQUEST: usize = 500;
const MAX_MESSAGE: usize = 1_000;

/// Why a club's change was refused.
#[derive(Debug)]
pub(crate) enum ClubError {
    NotFound,
    /// Only its leaders may.
    NotLeader,
    /// What is wrong, in words.
    Invalid(String),
    /// The address is taken.
    Taken(String),
    Store(StoreError),
}

impl From<StoreError> for ClubError {
    fn from(e: StoreError) -> ClubError {
        ClubError::Store(e)
    }
}

/// A new club, as its maker asks for it.
#[derive(Debug, Clone, Default)]
pub(crate) struct NewClub {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) open: bool,
    pub(crate) password: Option<String>,
}

/// One change to a club, by one account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ClubAction {
    /// Join (an open club), or ask to (one by request), with the password if it has one.
    Join {
        message: Option<String>,
        password: Option<String>,
    },
    /// Leave it (a request waiting is taken back too).
    Quit,
    /// A leader lets account `.0` in.
    Accept(String),
    /// A leader turns account `.0`'s request down.
    Decline(String),
    /// A leader removes member `.0`.
    Kick(String),
    /// A leader makes member `user` a leader, or no longer one.
    Leader { user: String, leader: bool },
    /// A leader writes to every member (an empty text takes the message away).
    Message(String),
    /// A leader changes the club's rules.
    Rules {
        description: String,
        open: bool,
        password: Option<String>,
    },
}

/// What a join did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Done {
    /// The caller is a member now (or was).
    Member,
    /// The caller's request waits for a leader.
    Requested,
    /// Any other change was made.
    Changed,
}

/// A club's id from its name, as lichess makes a team's: lower case letters and digits,
/// words joined by `-` (`Thursday Club` is `thursday-club`); `None` when nothing is left.
fn slug(name: &str) -> Option<String> {
    let words: Vec<String> = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let id: String = words.join("-").chars().take(MAX_NAME).collect();
    let id = id.trim_end_matches('-').to_owned();
    (!id.is_empty()).then_some(id)
}

fn checked_description(description: &str) -> Result<String, ClubError> {
    let d = description.trim();
    if d.chars().count() > MAX_DESCRIPTION {
        return Err(ClubError::Invalid(format!(
            "description: at most {MAX_DESCRIPTION} characters"
        )));
    }
    Ok(d.to_owned())
}

fn checked_password(password: Option<&str>) -> Option<String> {
    password
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
}

/// Makes a club, account `by` its first leader: the club.
///
/// # Errors
/// A name out of its range, a description too long, the address taken.
pub(crate) async fn create(store: &Store, by: &str, new: &NewClub) -> Result<Club, ClubError> {
    let name = new.name.trim();
    if !crate::tournaments::one_line(name, MAX_NAME) {
        return Err(ClubError::Invalid(format!(
            "name: 1 to {MAX_NAME} characters, on one line"
        )));
    }
    // A name without a letter of A-Z or a digit (象棋俱乐部) gets an address by lot.
    let id = slug(name).unwrap_or_else(|| crate::ids::game_id().to_ascii_lowercase());
    let club = Club {
        id,
        name: name.to_owned(),
        description: checked_description(&new.description)?,
        created_at: now_ms() as i64,
        created_by: by.to_owned(),
        open: new.open,
        password: checked_password(new.password.as_deref()),
        message: None,
    };
    if !store.add_club(&club).await? {
        return Err(ClubError::Taken(format!(
            "a club with the address {} exists already",
            club.id
        )));
    }
    Ok(club)
}

/// Applies `action` to club `id` for account `by`.
///
/// # Errors
/// No such club, a leader's change by someone else, a wrong password, the only leader
/// leaving, a member named who is not one.
pub(crate) async fn act(
    store: &Store,
    id: &str,
    by: &str,
    action: &ClubAction,
) -> Result<Done, ClubError> {
    let club = store.club(id).await?.ok_or(ClubError::NotFound)?;
    let me = store.membership(id, by).await?;
    let now = now_ms() as i64;
    let leader = me == Some(true);
    let invalid = |m: &str| Err(ClubError::Invalid(m.to_owned()));
    match action {
        ClubAction::Join { message, password } => {
            if me.is_some() {
                return Ok(Done::Member);
            }
            if let Some(word) = &club.password {
                if password.as_deref().map(str::trim) != Some(word.as_str()) {
                    return invalid("this club needs its password to join");
                }
            }
            if club.open {
                store.join_club(id, by, now).await?;
                return Ok(Done::Member);
            }
            let message = message.as_deref().map_or("", str::trim);
            if message.chars().count() > MAX_REQUEST {
                return Err(ClubError::Invalid(format!(
                    "message: at most {MAX_REQUEST} characters"
                )));
            }
            store.add_club_request(id, by, message, now).await?;
            Ok(Done::Requested)
        }
        ClubAction::Quit => {
            let asked = store.remove_club_request(id, by).await?;
            if leader && leaders(store, id).await? == 1 {
                return invalid("the club's only leader cannot leave it");
            }
            if !store.leave_club(id, by).await? && !asked {
                return invalid("you are not in this club");
            }
            Ok(Done::Changed)
        }
        _ if !leader => Err(ClubError::NotLeader),
        ClubAction::Accept(user) => {
            if !store.remove_club_request(id, user).await? {
                return invalid("no such request");
            }
            store.join_club(id, user, now).await?;
            Ok(Done::Changed)
        }
        ClubAction::Decline(user) => {
            if !store.remove_club_request(id, user).await? {
                return invalid("no such request");
            }
            Ok(Done::Changed)
        }
        ClubAction::Kick(user) => {
            if user == by {
                return invalid("a leader leaves his club, he does not remove himself");
            }
            if !store.leave_club(id, user).await? {
                return invalid("not a member of this club");
            }
            Ok(Done::Changed)
        }
        ClubAction::Leader { user, leader } => {
            if !leader && user == by && leaders(store, id).await? == 1 {
                return invalid("the club needs a leader: make another one first");
            }
            if !store.set_leader(id, user, *leader).await? {
                return invalid("not a member of this club");
            }
            Ok(Done::Changed)
        }
        ClubAction::Message(text) => {
            let text = text.trim();
            if text.chars().count() > MAX_MESSAGE {
                return Err(ClubError::Invalid(format!(
                    "message: at most {MAX_MESSAGE} characters"
                )));
            }
            let text = (!text.is_empty()).then_some(text);
            store.set_club_message(id, text, now).await?;
            Ok(Done::Changed)
        }
        ClubAction::Rules {
            description,
            open,
            password,
        } => {
            let description = checked_description(description)?;
            let password = checked_password(password.as_deref());
            store
                .set_club_rules(id, &description, *open, password.as_deref())
                .await?;
            Ok(Done::Changed)
        }
    }
}

async fn leaders(store: &Store, id: &str) -> Result<usize, ClubError> {
    Ok(store
        .club_members(id)
        .await?
        .iter()
        .filter(|m| m.leader)
        .count())
}

/// A member's line of the club's ladder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LadderLine {
    pub(crate) user_id: String,
    pub(crate) points: LadderPoints,
    pub(crate) games: u32,
}

/// The most of a club's tournaments its ladder reads.
const LADDER_EVENTS: i64 = 1_000;

/// The club's own ladder (R8, seed 004), best first: every member starts unclassed (0
/// points) and each rated game between two members, oldest first, moves both players'
/// points by R8's table: the site's rated games between them, and the games of the club's
/// rated tournaments over the board (both players entered with their accounts; a tournament's
/// games count at its start, round by round). Members without a game follow, by the date
/// they joined. It is the club's, beside the site's ladder and Glicko-2: the same table,
/// counted only among the members.
///
/// # Errors
/// The store failed.
pub(crate) async fn ladder(store: &Store, id: &str) -> Result<Vec<LadderLine>, ClubError> {
    let members = store.club_members(id).await?;
    let mut lines: Vec<LadderLine> = members
        .iter()
        .map(|m| LadderLine {
            user_id: m.user_id.clone(),
            points: LadderPoints(0),
            games: 0,
        })
        .collect();
    let at = |lines: &[LadderLine], user: &str| lines.iter().position(|l| l.user_id == user);
    let mut games = store.club_games(id).await?;
    for row in store
        .tournaments(
            crate::store::tournaments::Which::Club(id),
            crate::tournaments::KIND,
            LADDER_EVENTS,
        )
        .await?
    {
        let Ok(t) = crate::tournaments::parse(&row.body) else {
            continue;
        };
        if !t.settings.ladder {
            continue;
        }
        let account = |n: u32| t.accounts.get(n as usize - 1).cloned().flatten();
        for (r, round) in t.event.paired.iter().enumerate() {
            for b in round {
                use rookery_pairing::event::Result as R;
                let (Some(black), Some(result)) = (b.black, b.result) else {
                    continue;
                };
                let result = match result {
                    R::WhiteWins => "1-0",
                    R::BlackWins => "0-1",
                    R::Draw => "1/2-1/2",
                    _ => continue,
                };
                if let (Some(white), Some(black)) = (account(b.white), account(black)) {
                    games.push(crate::store::clubs::LadderGame {
                        white,
                        black,
                        result: result.to_owned(),
                        finished_at: row.created_at + r as i64,
                    });
                }
            }
        }
    }
    games.sort_by_key(|g| g.finished_at);
    for g in games {
        let (Some(w), Some(b)) = (at(&lines, &g.white), at(&lines, &g.black)) else {
            continue;
        };
        let result = match g.result.as_str() {
            "1-0" => LadderResult::AWins,
            "0-1" => LadderResult::BWins,
            _ => LadderResult::Draw,
        };
        let (dw, db) = ladder::change(lines[w].points, lines[b].points, result);
        lines[w].points.0 += dw;
        lines[b].points.0 += db;
        lines[w].games += 1;
        lines[b].games += 1;
    }
    // Stable: members with equal points keep the order they joined in.
    lines.sort_by(|a, b| {
        (b.games > 0)
            .cmp(&(a.games > 0))
            .then(b.points.0.cmp(&a.points.0))
    });
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::slug;

    #[test]
    fn a_clubs_id_is_made_from_its_name() {
        assert_eq!(slug("Thursday Club").as_deref(), Some("thursday-club"));
        assert_eq!(
            slug("  Rook & Pawn, 1975 ").as_deref(),
            Some("rook-pawn-1975")
        );
        assert_eq!(slug("象棋俱乐部"), None);
        assert_eq!(slug("---"), None);
    }
}
