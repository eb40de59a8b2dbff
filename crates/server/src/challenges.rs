//! Challenges between accounts (lichess's challenge API, docs/API.md): stored while they
//! wait for an answer (migration 0016: every node of a cluster sees them, and a restart
//! keeps them); accepted, they become a game with both seats taken; declined or cancelled,
//! the other side's event stream hears it. A challenge nobody answers goes after 20 minutes.
//! Taking one out is a single delete, so two nodes cannot both accept it.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use rookery_core::clock::TimeControl;

use crate::new_game::{ColorChoice, GameSpec, SeatSpec, Source, SpecError, parse_start};
use crate::store::challenges::NewChallenge;
use crate::store::{Store, StoreError};

/// How long a challenge waits for an answer.
pub(crate) const EXPIRES_MS: i64 = 20 * 60 * 1000;
/// The challenges one account may have waiting (lichess: `maxPlayingRealtime`, 100); a new
/// one past it takes the place of the oldest.
pub(crate) const MAX_OUTGOING: usize = 100;
/// The challenges to an account that are listed (and replayed on its event stream): the
/// newest 50, as lichess's `allFor`.
pub(crate) const MAX_INCOMING_SHOWN: usize = 50;

/// One side of a challenge, as the challenge's JSON names it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Party {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) title: Option<String>,
    pub(crate) rating: Option<i64>,
    pub(crate) provisional: bool,
}

impl Party {
    fn json(&self) -> Value {
        let mut v = json!({ "id": self.id, "name": self.name });
        if let Some(t) = &self.title {
            v["title"] = json!(t);
        }
        if let Some(r) = self.rating {
            v["rating"] = json!(r);
        }
        if self.provisional {
            v["provisional"] = json!(true);
        }
        v
    }
}

/// A challenge waiting for an answer (stored as this, in JSON).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Challenge {
    pub(crate) id: String,
    pub(crate) challenger: Party,
    pub(crate) dest: Party,
    pub(crate) rated: bool,
    /// Seconds and increment in seconds; `None`: no clock.
    pub(crate) clock: Option<(u64, u64)>,
    /// Correspondence: days a move (then `clock` is `None`).
    #[serde(default)]
    pub(crate) days: Option<u32>,
    /// The challenger's choice: `white`, `black` or `random`.
    pub(crate) color: String,
    pub(crate) fen: Option<String>,
    pub(crate) created_at: i64,
    /// lichess's speed key of the clock.
    pub(crate) speed: String,
}

impl Challenge {
    /// The time control asked for: a clock, days a move, or none.
    pub(crate) fn control(&self) -> TimeControl {
        control_of((self.clock, self.days))
    }

    /// The game this challenge asks for, both seats taken, its id the challenge's (as on
    /// lichess, where an accepted challenge's id is its game's): checked when the challenge
    /// is made, and made when it is accepted.
    ///
    /// # Errors
    /// The challenge asks for a game that cannot be made ([`GameSpec::validate`] says why
    /// when it is made).
    pub(crate) fn spec(&self) -> Result<GameSpec, SpecError> {
        let color = ColorChoice::parse(Some(&self.color))?;
        let seat = |p: &Party| SeatSpec::person(p.name.clone(), Some(p.id.clone()));
        let seats = GameSpec::seats_for(color.resolve(), seat(&self.challenger), seat(&self.dest));
        let mut spec = GameSpec::new(Source::Challenge, seats, self.control());
        spec.id = Some(self.id.clone());
        spec.start = parse_start(self.fen.as_deref())?;
        spec.rated = self.rated;
        Ok(spec)
    }

    /// lichess's `ChallengeJson`; `direction` is `in` for the challenged, `out` for the
    /// challenger.
    pub(crate) fn json(&self, origin: &str, direction: Option<&str>) -> Value {
        let time_control = match (self.clock, self.days) {
            (Some((limit, increment)), _) => json!({
                "type": "clock",
                "limit": limit,
                "increment": increment,
                "show": format!("{}+{increment}", show_minutes(limit)),
            }),
            (None, Some(days)) => json!({ "type": "correspondence", "daysPerTurn": days }),
            (None, None) => json!({ "type": "unlimited" }),
        };
        let mut v = json!({
            "id": self.id,
            "url": format!("{origin}/{}", self.id),
            "status": "created",
            "challenger": self.challenger.json(),
            "destUser": self.dest.json(),
            "variant": { "key": "standard", "name": "Standard", "short": "Std" },
            "rated": self.rated,
            "speed": self.speed,
            "timeControl": time_control,
            "color": self.color,
            "perf": { "icon": "", "name": self.speed },
        });
        if let Some(d) = direction {
            v["direction"] = json!(d);
        }
        if let Some(fen) = &self.fen {
            v["initialFen"] = json!(fen);
        }
        v
    }
}

/// Minutes as lichess shows them in `3+2`: whole, or a fraction (`½`, `¾`, `1.5`).
fn show_minutes(seconds: u64) -> String {
    match seconds {
        15 => "¼".to_owned(),
        30 => "½".to_owned(),
        45 => "¾".to_owned(),
        s if s % 60 == 0 => (s / 60).to_string(),
        s => format!("{:.1}", s as f64 / 60.0),
    }
}

/// A time control as lichess's fields ask for it: a clock (seconds, increment in seconds) or
/// days a move; neither is no clock.
pub(crate) type AskedClock = (Option<(u64, u64)>, Option<u32>);

/// The time control of lichess's fields (a clock wins over days; the doors refuse both).
pub(crate) fn control_of(asked: AskedClock) -> TimeControl {
    match asked {
        (Some((limit, increment)), _) => TimeControl::fischer(
            std::time::Duration::from_secs(limit),
            std::time::Duration::from_secs(increment),
        ),
        (None, Some(days)) => TimeControl::Correspondence(days),
        (None, None) => TimeControl::Untimed,
    }
}

/// The challenges waiting, in the database: a cheap-to-clone handle.
#[derive(Debug, Clone)]
pub(crate) struct Challenges {
    store: Store,
}

impl Challenges {
    pub(crate) fn new(store: Store) -> Challenges {
        Challenges { store }
    }

    /// Stores a challenge; answers those it replaced (the challenger's earlier one to the
    /// same account, and the oldest past [`MAX_OUTGOING`]), now cancelled.
    pub(crate) async fn add(&self, challenge: &Challenge) -> Result<Vec<Challenge>, StoreError> {
        let body =
            serde_json::to_string(challenge).map_err(|e| StoreError::Failed(e.to_string()))?;
        let gone = self
            .store
            .add_challenge(
                &NewChallenge {
                    id: &challenge.id,
                    challenger: &challenge.challenger.id,
                    dest: &challenge.dest.id,
                    created_at: challenge.created_at,
                    body: &body,
                },
                challenge.created_at - EXPIRES_MS,
                MAX_OUTGOING,
            )
            .await?;
        Ok(gone.iter().filter_map(|b| read(b)).collect())
    }

    /// Takes a challenge out (accepted, declined or cancelled): `None` if it is not waiting
    /// (answered already, through this node or another, or expired).
    pub(crate) async fn take(&self, id: &str, now: i64) -> Result<Option<Challenge>, StoreError> {
        let body = self.store.take_challenge(id, now - EXPIRES_MS).await?;
        Ok(body.as_deref().and_then(read))
    }

    pub(crate) async fn get(&self, id: &str, now: i64) -> Result<Option<Challenge>, StoreError> {
        let body = self.store.challenge(id, now - EXPIRES_MS).await?;
        Ok(body.as_deref().and_then(read))
    }

    /// Challenges to `user` (the newest [`MAX_INCOMING_SHOWN`]) and from `user`, oldest
    /// first: (incoming, outgoing).
    pub(crate) async fn of(
        &self,
        user: &str,
        now: i64,
    ) -> Result<(Vec<Challenge>, Vec<Challenge>), StoreError> {
        let (incoming, outgoing) = self
            .store
            .challenges_of(user, now - EXPIRES_MS, MAX_INCOMING_SHOWN, MAX_OUTGOING)
            .await?;
        Ok((
            incoming.iter().filter_map(|b| read(b)).collect(),
            outgoing.iter().filter_map(|b| read(b)).collect(),
        ))
    }

    /// The `challenge` events a new event stream of `user` begins with.
    pub(crate) async fn pending_for(&self, user: &str) -> Result<Vec<Value>, StoreError> {
        let now = crate::wallclock::now_ms() as i64;
        Ok(self
            .of(user, now)
            .await?
            .0
            .iter()
            .map(|c| json!({ "type": "challenge", "challenge": c.json("", Some("in")) }))
            .collect())
    }
}

/// A stored challenge; one that does not read (never written by this server) is skipped.
fn read(body: &str) -> Option<Challenge> {
    serde_json::from_str(body)
        .map_err(|e| tracing::warn!(error = %e, "a stored challenge does not read"))
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn party(id: &str) -> Party {
        Party {
            id: id.into(),
            name: id.into(),
            title: None,
            rating: Some(1500),
            provisional: true,
        }
    }

    #[tokio::test]
    async fn challenges_wait_then_expire() {
        let dir = std::env::temp_dir().join(format!("rookery-challenges-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}", dir.join("c.db").display());
        let all = Challenges::new(Store::open(&url).await.unwrap());
        let c = Challenge {
            id: "abc".into(),
            challenger: party("anna"),
            dest: party("bo"),
            rated: false,
            clock: Some((180, 2)),
            days: None,
            color: "random".into(),
            fen: None,
            created_at: 1_000,
            speed: "blitz".into(),
        };
        all.add(&c).await.unwrap();
        let v = c.json("http://x", Some("out"));
        assert_eq!(v["timeControl"]["show"], "3+2");
        assert_eq!(v["destUser"]["id"], "bo");
        assert_eq!(v["url"], "http://x/abc");
        let (incoming, outgoing) = all.of("bo", 2_000).await.unwrap();
        assert_eq!((incoming, outgoing.len()), (vec![c.clone()], 0));
        let (incoming, outgoing) = all.of("anna", 2_000).await.unwrap();
        assert_eq!((incoming.len(), outgoing.len()), (0, 1));
        assert_eq!(all.pending_for("anna").await.unwrap().len(), 0);
        assert!(
            all.get("abc", 1_000 + EXPIRES_MS).await.unwrap().is_none(),
            "gone after 20 minutes"
        );
        // Taken once: a second answer (through any node) finds nothing.
        assert_eq!(all.take("abc", 2_000).await.unwrap(), Some(c));
        assert_eq!(all.take("abc", 2_000).await.unwrap(), None);
        assert_eq!(show_minutes(30), "½");
        assert_eq!(show_minutes(90), "1.5");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Issue 50: one challenger keeps at most [`MAX_OUTGOING`] challenges (the oldest go,
    /// answered as cancelled); an account's list shows the newest [`MAX_INCOMING_SHOWN`].
    #[tokio::test]
    async fn a_challenger_keeps_a_hundred_and_a_list_shows_fifty() {
        let dir =
            std::env::temp_dir().join(format!("rookery-challenge-cap-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}", dir.join("c.db").display());
        let all = Challenges::new(Store::open(&url).await.unwrap());
        let to = |dest: &str, n: i64| Challenge {
            id: format!("c{n:04}"),
            challenger: party(&format!("from{}", n % 7)),
            dest: party(dest),
            rated: false,
            clock: Some((180, 2)),
            days: None,
            color: "random".into(),
            fen: None,
            created_at: 1_000 + n,
            speed: "blitz".into(),
        };
        // 120 from one challenger to 120 accounts: the 20 oldest go, one at a time.
        let mut gone = Vec::new();
        for n in 0..120 {
            let mut c = to(&format!("dest{n}"), n);
            c.challenger = party("flood");
            gone.extend(all.add(&c).await.unwrap());
        }
        let ids: Vec<_> = gone.iter().map(|c| c.id.as_str()).collect();
        let expected: Vec<_> = (0..20).map(|n| format!("c{n:04}")).collect();
        assert_eq!(ids, expected);
        let (_, outgoing) = all.of("flood", 2_000).await.unwrap();
        assert_eq!(outgoing.len(), MAX_OUTGOING);
        assert_eq!(outgoing[0].id, "c0020", "oldest first");
        // 60 to one account from 7 challengers, several each: one from each stays.
        for n in 200..260 {
            all.add(&to("popular", n)).await.unwrap();
        }
        let (incoming, _) = all.of("popular", 2_000).await.unwrap();
        assert_eq!(incoming.len(), 7);
        // From 60 different challengers: the list shows the newest 50, oldest first.
        for n in 300..360 {
            let mut c = to("star", n);
            c.challenger = party(&format!("fan{n}"));
            all.add(&c).await.unwrap();
        }
        let (incoming, _) = all.of("star", 2_000).await.unwrap();
        assert_eq!(incoming.len(), MAX_INCOMING_SHOWN);
        assert_eq!(incoming[0].id, "c0310");
        assert_eq!(incoming[49].id, "c0359");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
