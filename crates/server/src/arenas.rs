//! Arenas (docs/TOURNAMENTS.md "Arenas"): a start time and a length; players join and leave
//! at will and are paired again as soon as their game ends, by lichess's rules (the pairing
//! crate's `arena`: who meets whom, and how each game scores). Stored as JSON in the
//! `tournaments` table (kind `arena`) with a version, changed only through
//! [`tournaments::update_kind`]; every node's keeper (`keeper.rs`) brings each arena under
//! way up to date ([`keep_one`]): the results of ended games taken in, the waiting players
//! paired, their games made through the one game request every door uses.

use std::collections::HashMap;

use rookery_core::ByColor;
use rookery_core::pgn::GameResult as PgnResult;
use rookery_core::rating::Speed;
use rookery_pairing::arena::{self, Colours, Game, Outcome, Sheet, Waiting, Wave};
use serde::{Deserialize, Serialize};

use crate::new_game::SeatSpec;
use crate::rooms::Rooms;
use crate::store::tournaments::StoredTournament;
use crate::store::{ClubRecord, Store};
use crate::tournaments::{self, Actor, TournamentError};
use crate::wallclock::now_ms;

/// The kind of the `tournaments` rows this module keeps.
pub(crate) const KIND: &str = "arena";
/// The longest arena, in minutes (lichess's twelve hours).
const MAX_MINUTES: u32 = 720;
/// The most players an arena takes.
const MAX_PLAYERS: usize = 10_000;
/// The longest name and description.
const MAX_NAME: usize = 80;
const MAX_DESCRIPTION: usize = 2_000;

/// An arena as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Arena {
    pub(crate) name: String,
    /// The games' clock, in the lobby's friendly form (`3+2`).
    pub(crate) clock: String,
    pub(crate) minutes: u32,
    /// When it begins (ms since the epoch).
    pub(crate) starts_at: i64,
    pub(crate) rated: bool,
    pub(crate) berserkable: bool,
    pub(crate) streakable: bool,
    #[serde(default)]
    pub(crate) description: Option<String>,
    #[serde(default)]
    pub(crate) password: Option<String>,
    /// Only the club's members join.
    #[serde(default)]
    pub(crate) club: Option<String>,
    /// Who may join: a rating at the arena's speed within these bounds, so many rated games.
    #[serde(default)]
    pub(crate) min_rating: Option<u32>,
    #[serde(default)]
    pub(crate) max_rating: Option<u32>,
    #[serde(default)]
    pub(crate) min_rated_games: Option<u32>,
    #[serde(default)]
    pub(crate) players: Vec<Player>,
    /// Every game made, oldest first.
    #[serde(default)]
    pub(crate) games: Vec<Pairing>,
    /// Ended early by its creator.
    #[serde(default)]
    pub(crate) terminated_at: Option<i64>,
}

/// A player, in the order they joined.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Player {
    pub(crate) account: String,
    pub(crate) name: String,
    /// His rating at the arena's speed when he joined.
    pub(crate) rating: u32,
    /// Paused (withdrawn while the arena runs): kept in the standings, not paired until he
    /// joins again, which he may only after the pause's delay.
    #[serde(default)]
    pub(crate) withdrawn: bool,
    /// His pauses as the delay counts them ([`arena::Pauses`]).
    #[serde(default)]
    pub(crate) pauses: u32,
    #[serde(default)]
    pub(crate) paused_at: i64,
}

impl Player {
    fn pauses(&self) -> arena::Pauses {
        arena::Pauses {
            count: self.pauses,
            at: self.paused_at,
        }
    }
}

/// A game of the arena: its id, the players (indexes into `players`), its result once ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Pairing {
    pub(crate) game: String,
    pub(crate) white: usize,
    pub(crate) black: usize,
    /// `1-0`, `0-1`, `1/2-1/2`, or `aborted` (it counts for nobody).
    #[serde(default)]
    pub(crate) result: Option<String>,
    #[serde(default)]
    pub(crate) plies: u32,
    /// Each side went berserk.
    #[serde(default)]
    pub(crate) berserk: [bool; 2],
}

/// Where an arena stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    Created,
    Started,
    Finished,
}

/// A player's line of the standings.
#[derive(Debug, Clone)]
pub(crate) struct Standing {
    /// Index into `players`.
    pub(crate) player: usize,
    pub(crate) rank: usize,
    pub(crate) sheet: Sheet,
    pub(crate) performance: Option<i64>,
    pub(crate) on_fire: bool,
}

/// A new arena, as its creator asks for it (lichess's `POST /api/tournament`).
#[derive(Debug, Clone, Default)]
pub(crate) struct NewArena {
    pub(crate) name: String,
    pub(crate) clock: String,
    pub(crate) minutes: u32,
    pub(crate) starts_at: i64,
    pub(crate) rated: bool,
    pub(crate) berserkable: bool,
    pub(crate) streakable: bool,
    pub(crate) description: Option<String>,
    pub(crate) password: Option<String>,
    pub(crate) club: Option<String>,
    pub(crate) min_rating: Option<u32>,
    pub(crate) max_rating: Option<u32>,
    pub(crate) min_rated_games: Option<u32>,
}

/// One change to an arena.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Action {
    /// The caller joins (or comes back from a pause), with the password if it has one.
    Join { password: Option<String> },
    /// The caller withdraws: before the start he leaves it; while it runs he pauses (kept
    /// in the standings, not paired until he joins again after the pause's delay).
    Withdraw,
    /// Its creator ends it now; games under way still count when they end.
    Terminate,
}

impl Arena {
    /// When it ends (ms), its length after its start unless ended early.
    pub(crate) fn ends_at(&self) -> i64 {
        let planned = self.starts_at + i64::from(self.minutes) * 60_000;
        self.terminated_at.map_or(planned, |t| t.min(planned))
    }

    pub(crate) fn phase(&self, now: i64) -> Phase {
        if now >= self.ends_at() {
            Phase::Finished
        } else if now >= self.starts_at {
            Phase::Started
        } else {
            Phase::Created
        }
    }

    /// Its games under way.
    fn running(&self) -> impl Iterator<Item = &Pairing> {
        self.games.iter().filter(|g| g.result.is_none())
    }

    /// The keeper looks at it: not finished, or a game still under way.
    fn active(&self, now: i64) -> bool {
        self.phase(now) != Phase::Finished || self.running().next().is_some()
    }

    /// How long player `i` must still wait at `now` before coming back from his pause (0:
    /// he may), by the pause rule and the arena's clock.
    pub(crate) fn pause_wait_ms(&self, i: usize, now: i64) -> i64 {
        let estimate = rookery_core::clock::TimeControl::from_friendly(&self.clock)
            .ok()
            .and_then(|c| c.estimated_duration())
            .map_or(0, |d| d.as_secs());
        let p = &self.players[i];
        if p.withdrawn {
            p.pauses().remaining_ms(now, estimate)
        } else {
            0
        }
    }

    /// The player of account `account`, if he joined.
    pub(crate) fn index_of(&self, account: &str) -> Option<usize> {
        self.players.iter().position(|p| p.account == account)
    }

    /// The standings, best first: every player's sheet by lichess's scoring, his
    /// performance, his rank.
    pub(crate) fn standings(&self) -> Vec<Standing> {
        let n = self.players.len();
        let mut sheets = vec![Sheet::default(); n];
        let mut met: Vec<Vec<(u32, Outcome)>> = vec![Vec::new(); n];
        for g in &self.games {
            let Some(white_outcome) = g.result.as_deref().and_then(|r| match r {
                "1-0" => Some(Outcome::Win),
                "0-1" => Some(Outcome::Loss),
                "1/2-1/2" => Some(Outcome::Draw),
                _ => None,
            }) else {
                continue;
            };
            let black_outcome = match white_outcome {
                Outcome::Win => Outcome::Loss,
                Outcome::Loss => Outcome::Win,
                Outcome::Draw => Outcome::Draw,
            };
            for (me, them, outcome, berserk) in [
                (g.white, g.black, white_outcome, g.berserk[0]),
                (g.black, g.white, black_outcome, g.berserk[1]),
            ] {
                sheets[me].add(
                    Game {
                        outcome,
                        plies: g.plies,
                        berserk,
                    },
                    self.streakable,
                );
                met[me].push((self.players[them].rating, outcome));
            }
        }
        let performances: Vec<Option<i64>> = met.iter().map(|m| arena::performance(m)).collect();
        let keys: Vec<(u32, Option<i64>, u32)> = (0..n)
            .map(|i| (sheets[i].total, performances[i], self.players[i].rating))
            .collect();
        arena::standings(&keys)
            .into_iter()
            .enumerate()
            .map(|(k, i)| Standing {
                player: i,
                rank: k + 1,
                on_fire: self.streakable && sheets[i].on_fire(),
                sheet: sheets[i].clone(),
                performance: performances[i],
            })
            .collect()
    }

    /// Pairs the players waiting now (joined, not withdrawn, no game under way): the new
    /// games, with new ids. `coin` settles colours.
    fn pair_waiting(&self, coin: &mut dyn FnMut() -> bool) -> Vec<Pairing> {
        let mut busy = vec![false; self.players.len()];
        for g in self.running() {
            busy[g.white] = true;
            busy[g.black] = true;
        }
        let active = self.players.iter().filter(|p| !p.withdrawn).count();
        let ranks: Vec<usize> = {
            let mut r = vec![0; self.players.len()];
            for s in self.standings() {
                r[s.player] = s.rank;
            }
            r
        };
        let mut colours = vec![Colours::default(); self.players.len()];
        let mut last = vec![None; self.players.len()];
        for g in &self.games {
            colours[g.white] = colours[g.white].after(true);
            colours[g.black] = colours[g.black].after(false);
            last[g.white] = Some(g.black as u64);
            last[g.black] = Some(g.white as u64);
        }
        let waiting: Vec<Waiting> = self
            .players
            .iter()
            .enumerate()
            .filter(|(i, p)| !p.withdrawn && !busy[*i])
            .map(|(i, p)| Waiting {
                id: i as u64,
                rank: ranks[i] as u32,
                rating: p.rating,
                last_opponent: last[i],
                colours: colours[i],
            })
            .collect();
        if waiting.len() < 2 {
            return Vec::new();
        }
        let wave = if active == 2 {
            Wave::TwoAlone
        } else if self.games.is_empty() {
            Wave::First
        } else {
            Wave::Later
        };
        arena::pair(&waiting, wave, coin)
            .into_iter()
            .map(|(w, b)| Pairing {
                game: crate::ids::game_id(),
                white: w as usize,
                black: b as usize,
                result: None,
                plies: 0,
                berserk: [false; 2],
            })
            .collect()
    }
}

fn body_of(a: &Arena) -> (String, bool) {
    (
        serde_json::to_string(a).expect("an arena writes as JSON"),
        a.active(now_ms() as i64),
    )
}

/// The arena a stored body holds.
///
/// # Errors
/// A body this version cannot read.
pub(crate) fn parse(body: &str) -> Result<Arena, TournamentError> {
    serde_json::from_str(body).map_err(|_| {
        TournamentError::Store(crate::store::StoreError::Corrupt(
            "an arena this version cannot read".into(),
        ))
    })
}

/// An arena's clock, checked: minutes and seconds, not days.
///
/// # Errors
/// Not a clock, or one of days a move.
pub(crate) fn arena_clock(
    clock: &str,
) -> Result<rookery_core::clock::TimeControl, TournamentError> {
    let control = tournaments::control_of(clock)?;
    if Speed::of_control(&control).is_none_or(|s| s == Speed::Correspondence) {
        return Err(TournamentError::Invalid(
            "clock: an arena is played with a clock of minutes, not days".into(),
        ));
    }
    Ok(control)
}

/// The owner of the site's own arenas (`--hourly-arenas`): no account has this id (account
/// ids are names, which cannot hold `:`).
pub(crate) const SITE: &str = "rookery:site";
/// An hourly arena's length: it ends before the next begins (lichess's 57 minutes).
const HOURLY_MINUTES: u32 = 57;
const HOUR_MS: i64 = 3_600_000;

/// Makes the site's arena of the coming hour for each of `clocks` that has none yet (and of
/// the hour under way, when its arena is still to be made in its first half). The keeper's
/// director calls it each time round; the arenas the site made are looked up first, so it
/// makes each once.
///
/// # Errors
/// The store failed.
pub(crate) async fn make_hourly(
    store: &Store,
    clocks: &[String],
    now: i64,
) -> Result<(), TournamentError> {
    if clocks.is_empty() {
        return Ok(());
    }
    let made: Vec<(String, i64)> = store
        .tournaments(crate::store::tournaments::Which::Owner(SITE), KIND, 200)
        .await?
        .iter()
        .filter_map(|row| parse(&row.body).ok())
        .map(|a| (a.clock, a.starts_at))
        .collect();
    let this_hour = now - now.rem_euclid(HOUR_MS);
    let mut hours = vec![this_hour + HOUR_MS];
    if now - this_hour < HOUR_MS / 2 {
        hours.push(this_hour);
    }
    for clock in clocks {
        for &at in &hours {
            if made.iter().any(|(c, s)| c == clock && *s == at) {
                continue;
            }
            let new = NewArena {
                name: format!("Hourly {clock}"),
                clock: clock.clone(),
                minutes: HOURLY_MINUTES,
                starts_at: at,
                rated: true,
                berserkable: true,
                streakable: true,
                ..NewArena::default()
            };
            create(store, SITE, &new, at.min(now)).await?;
        }
    }
    Ok(())
}

/// Makes an arena run by account `owner`; answers its id.
///
/// # Errors
/// A field out of its range (named), a club the owner does not lead.
pub(crate) async fn create(
    store: &Store,
    owner: &str,
    new: &NewArena,
    now: i64,
) -> Result<String, TournamentError> {
    let invalid = |m: String| Err(TournamentError::Invalid(m));
    let name = new.name.trim();
    if !tournaments::one_line(name, MAX_NAME) {
        return invalid(format!("name: 1 to {MAX_NAME} characters, on one line"));
    }
    arena_clock(&new.clock)?;
    if new.minutes == 0 || new.minutes > MAX_MINUTES {
        return invalid(format!("minutes: 1 to {MAX_MINUTES}"));
    }
    if new
        .description
        .as_ref()
        .is_some_and(|d| d.chars().count() > MAX_DESCRIPTION)
    {
        return invalid(format!("description: at most {MAX_DESCRIPTION} characters"));
    }
    if let (Some(lo), Some(hi)) = (new.min_rating, new.max_rating) {
        if lo > hi {
            return invalid("conditions: the least rating is above the most".into());
        }
    }
    if let Some(club) = &new.club {
        if store.membership(club, owner).await? != Some(true) {
            return Err(TournamentError::NotArbiter);
        }
    }
    let arena = Arena {
        name: name.to_owned(),
        clock: new.clock.trim().to_owned(),
        minutes: new.minutes,
        starts_at: new.starts_at.max(now),
        rated: new.rated,
        berserkable: new.berserkable,
        streakable: new.streakable,
        description: new.description.clone().filter(|d| !d.trim().is_empty()),
        password: new.password.clone().filter(|p| !p.trim().is_empty()),
        club: new.club.clone(),
        min_rating: new.min_rating,
        max_rating: new.max_rating,
        min_rated_games: new.min_rated_games,
        players: Vec::new(),
        games: Vec::new(),
        terminated_at: None,
    };
    let id = crate::ids::game_id();
    let (body, active) = body_of(&arena);
    let row = StoredTournament {
        id: id.clone(),
        owner: owner.to_owned(),
        created_at: now,
        version: 1,
        body,
        club: new.club.clone(),
        kind: KIND.to_owned(),
    };
    // Active from the start: the keeper pairs it when it begins.
    store.add_tournament(&row, active).await?;
    Ok(id)
}

/// Arena `id`, with its creator's account id and when it was made.
///
/// # Errors
/// No such arena.
pub(crate) async fn read(store: &Store, id: &str) -> Result<(Arena, String, i64), TournamentError> {
    let row = store
        .tournament(id)
        .await?
        .filter(|t| t.kind == KIND)
        .ok_or(TournamentError::NotFound)?;
    Ok((parse(&row.body)?, row.owner, row.created_at))
}

/// Applies `action` to arena `id` for `by`; the arena after it.
///
/// # Errors
/// No such arena, a condition the caller does not meet, not its creator (terminate).
pub(crate) async fn act(
    rooms: &Rooms,
    id: &str,
    by: Actor<'_>,
    action: &Action,
) -> Result<Arena, TournamentError> {
    let store = rooms.store();
    let now = now_ms() as i64;
    let mut rating = 0;
    if let Action::Join { .. } = action {
        let (current, _, _) = read(store, id).await?;
        rating = admissible(store, &current, by.id, now).await?;
    }
    tournaments::update_kind(store, id, KIND, parse, body_of, |a, owner| {
        match action {
            Action::Join { password } => {
                if a.phase(now) == Phase::Finished {
                    return Err(TournamentError::Invalid("the arena is over".into()));
                }
                if let Some(word) = &a.password {
                    if password.as_deref().map(str::trim) != Some(word.trim()) {
                        return Err(TournamentError::Invalid(
                            "this arena needs its password to join".into(),
                        ));
                    }
                }
                match a.index_of(by.id) {
                    Some(i) => {
                        let wait = a.pause_wait_ms(i, now);
                        if wait > 0 {
                            return Err(TournamentError::Invalid(format!(
                                "you paused: you may come back in {} s",
                                (wait + 999) / 1000
                            )));
                        }
                        a.players[i].withdrawn = false;
                    }
                    None if a.players.len() >= MAX_PLAYERS => {
                        return Err(TournamentError::Invalid(format!(
                            "an arena takes at most {MAX_PLAYERS} players"
                        )));
                    }
                    None => a.players.push(Player {
                        account: by.id.to_owned(),
                        name: by.name.to_owned(),
                        rating,
                        withdrawn: false,
                        pauses: 0,
                        paused_at: 0,
                    }),
                }
            }
            Action::Withdraw => {
                let i = a
                    .index_of(by.id)
                    .ok_or_else(|| TournamentError::Invalid("you are not in this arena".into()))?;
                match a.phase(now) {
                    Phase::Finished => {
                        return Err(TournamentError::Invalid("the arena is over".into()));
                    }
                    // Before the start nobody has a game: he leaves it.
                    Phase::Created if a.games.is_empty() => {
                        a.players.remove(i);
                    }
                    _ if a.players[i].withdrawn => {}
                    _ => {
                        let p = &mut a.players[i];
                        let pauses = p.pauses().paused(now);
                        p.withdrawn = true;
                        p.pauses = pauses.count;
                        p.paused_at = pauses.at;
                    }
                }
            }
            Action::Terminate => {
                if by.id != owner {
                    return Err(TournamentError::NotArbiter);
                }
                if a.terminated_at.is_none() {
                    a.terminated_at = Some(now);
                }
            }
        }
        Ok(())
    })
    .await?;
    // The keeper pairs whoever waits within its next round (every 2 s): a join costs one
    // write however big the arena.
    Ok(read(store, id).await?.0)
}

/// Whether account `account` may join arena `a` (its club, its rating and rated games at
/// the arena's speed): his rating there when he may.
async fn admissible(
    store: &Store,
    a: &Arena,
    account: &str,
    now: i64,
) -> Result<u32, TournamentError> {
    let invalid = |m: String| Err(TournamentError::Invalid(m));
    if let Some(club) = &a.club {
        if store.membership(club, account).await?.is_none() {
            return invalid("only the club's members join its arenas".into());
        }
    }
    let control = tournaments::control_of(&a.clock)?;
    let (speed, rating, games) = tournaments::standing_at(store, account, &control, now).await?;
    let Some(speed) = speed else {
        return Ok(rating);
    };
    if a.min_rating.is_some_and(|lo| rating < lo) || a.max_rating.is_some_and(|hi| rating > hi) {
        return invalid(format!(
            "your {} rating ({rating}) is outside this arena's range",
            speed.as_str()
        ));
    }
    if let Some(nb) = a.min_rated_games {
        if games < i64::from(nb) {
            return invalid(format!(
                "this arena needs {nb} rated {} games; you have {games}",
                speed.as_str()
            ));
        }
    }
    Ok(rating)
}

/// Brings arena `id` up to date: the results of its ended games taken in, its waiting
/// players paired while it runs, every game made. Every node's keeper calls it for each
/// active arena; two nodes at once change it once (the version) and make each game once
/// (its id is written with its pairing).
///
/// # Errors
/// The store failed.
pub(crate) async fn keep_one(rooms: &Rooms, id: &str) -> Result<(), TournamentError> {
    let store = rooms.store();
    let (a, _, _) = read(store, id).await?;
    let now = now_ms() as i64;
    // The results of games that have ended, asked about all at once.
    let running: Vec<&str> = a.running().map(|g| g.game.as_str()).collect();
    let over: HashMap<String, (String, i64, i64)> = store
        .ended_games(&running)
        .await?
        .into_iter()
        .map(|(id, result, plies, berserk)| (id, (result, plies, berserk)))
        .collect();
    let mut ended = Vec::new();
    for (k, g) in a.games.iter().enumerate() {
        let Some((result, plies, berserk)) = over.get(&g.game).filter(|_| g.result.is_none())
        else {
            continue;
        };
        let result = match PgnResult::parse(result) {
            Some(PgnResult::WhiteWins) => "1-0",
            Some(PgnResult::BlackWins) => "0-1",
            Some(PgnResult::Draw) => "1/2-1/2",
            _ => "aborted",
        };
        let berserk = ByColor {
            white: berserk & 1 != 0,
            black: berserk & 2 != 0,
        };
        ended.push((k, g.game.clone(), result, *plies as u32, berserk));
    }
    let pairing = a.phase(now) == Phase::Started;
    if ended.is_empty() && !pairing {
        // Nothing to take in nor to pair: written again only to settle whether it is still
        // active (a finished arena with no game left leaves the keeper's list).
        if !a.active(now) {
            tournaments::update_kind(store, id, KIND, parse, body_of, |_, _| Ok(())).await?;
        }
        return Ok(());
    }
    let a = tournaments::update_kind(store, id, KIND, parse, body_of, |a, _| {
        for (k, game, result, plies, berserk) in &ended {
            if let Some(g) = a.games.get_mut(*k).filter(|g| g.game == *game) {
                if g.result.is_none() {
                    g.result = Some((*result).to_owned());
                    g.plies = *plies;
                    g.berserk = [berserk.white, berserk.black];
                }
            }
        }
        if a.phase(now) == Phase::Started {
            let mut coin = || crate::ids::coin();
            let new = a.pair_waiting(&mut coin);
            a.games.extend(new);
        }
        Ok(())
    })
    .await?;
    make_games(rooms, id, &a).await
}

/// Makes the arena's games not made yet.
async fn make_games(rooms: &Rooms, id: &str, a: &Arena) -> Result<(), TournamentError> {
    let control = tournaments::control_of(&a.clock)?;
    for g in a.running() {
        let seat = |i: usize| {
            let p = &a.players[i];
            SeatSpec::person(p.name.clone(), Some(p.account.clone()))
        };
        let club = ClubRecord {
            event: Some(a.name.chars().take(64).collect()),
            round: None,
            table: None,
            tournament: Some(id.to_owned()),
        };
        let seats = ByColor {
            white: seat(g.white),
            black: seat(g.black),
        };
        tournaments::make_game(
            rooms,
            &g.game,
            seats,
            &control,
            (a.rated, a.berserkable),
            club,
        )
        .await?;
    }
    Ok(())
}
