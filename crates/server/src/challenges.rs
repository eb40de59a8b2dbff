//! Challenges between accounts (lichess's challenge API, docs/API.md): kept in memory while
//! they wait for an answer (a restart forgets them, as a closed lobby page forgets a seek);
//! accepted, they become a game with both seats taken; declined or cancelled, the other side's
//! event stream hears it. A challenge nobody answers goes after 20 minutes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

/// How long a challenge waits for an answer.
const EXPIRES_MS: i64 = 20 * 60 * 1000;

/// One side of a challenge, as the challenge's JSON names it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Party {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) title: Option<&'static str>,
    pub(crate) rating: Option<i64>,
    pub(crate) provisional: bool,
}

impl Party {
    fn json(&self) -> Value {
        let mut v = json!({ "id": self.id, "name": self.name });
        if let Some(t) = self.title {
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

/// A challenge waiting for an answer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Challenge {
    pub(crate) id: String,
    pub(crate) challenger: Party,
    pub(crate) dest: Party,
    pub(crate) rated: bool,
    /// Seconds and increment in seconds; `None`: no clock.
    pub(crate) clock: Option<(u64, u64)>,
    /// The challenger's choice: `white`, `black` or `random`.
    pub(crate) color: &'static str,
    pub(crate) fen: Option<String>,
    pub(crate) created_at: i64,
    /// lichess's speed key of the clock.
    pub(crate) speed: &'static str,
}

impl Challenge {
    /// lichess's `ChallengeJson`; `direction` is `in` for the challenged, `out` for the
    /// challenger.
    pub(crate) fn json(&self, origin: &str, direction: Option<&str>) -> Value {
        let time_control = match self.clock {
            Some((limit, increment)) => json!({
                "type": "clock",
                "limit": limit,
                "increment": increment,
                "show": format!("{}+{increment}", show_minutes(limit)),
            }),
            None => json!({ "type": "unlimited" }),
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

/// The challenges waiting: a cheap-to-clone handle; the std `Mutex` guards map updates.
#[derive(Debug, Clone, Default)]
pub(crate) struct Challenges {
    waiting: Arc<Mutex<HashMap<String, Challenge>>>,
}

impl Challenges {
    fn map(&self, now: i64) -> std::sync::MutexGuard<'_, HashMap<String, Challenge>> {
        let mut map = self
            .waiting
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.retain(|_, c| now - c.created_at < EXPIRES_MS);
        map
    }

    pub(crate) fn add(&self, challenge: Challenge) {
        let now = challenge.created_at;
        self.map(now).insert(challenge.id.clone(), challenge);
    }

    /// Takes a challenge out (accepted, declined or cancelled).
    pub(crate) fn take(&self, id: &str, now: i64) -> Option<Challenge> {
        self.map(now).remove(id)
    }

    pub(crate) fn get(&self, id: &str, now: i64) -> Option<Challenge> {
        self.map(now).get(id).cloned()
    }

    /// Challenges to and from `user`: (incoming, outgoing).
    pub(crate) fn of(&self, user: &str, now: i64) -> (Vec<Challenge>, Vec<Challenge>) {
        let map = self.map(now);
        let mut incoming: Vec<Challenge> = map
            .values()
            .filter(|c| c.dest.id == user)
            .cloned()
            .collect();
        let mut outgoing: Vec<Challenge> = map
            .values()
            .filter(|c| c.challenger.id == user)
            .cloned()
            .collect();
        incoming.sort_by_key(|c| c.created_at);
        outgoing.sort_by_key(|c| c.created_at);
        (incoming, outgoing)
    }

    /// The `challenge` events a new event stream of `user` begins with.
    pub(crate) fn pending_for(&self, user: &str) -> Vec<Value> {
        let now = crate::room::now_ms() as i64;
        self.of(user, now)
            .0
            .iter()
            .map(|c| json!({ "type": "challenge", "challenge": c.json("", Some("in")) }))
            .collect()
    }
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

    #[test]
    fn challenges_wait_then_expire() {
        let c = Challenge {
            id: "abc".into(),
            challenger: party("anna"),
            dest: party("bo"),
            rated: false,
            clock: Some((180, 2)),
            color: "random",
            fen: None,
            created_at: 1_000,
            speed: "blitz",
        };
        let all = Challenges::default();
        all.add(c.clone());
        let v = c.json("http://x", Some("out"));
        assert_eq!(v["timeControl"]["show"], "3+2");
        assert_eq!(v["destUser"]["id"], "bo");
        assert_eq!(v["url"], "http://x/abc");
        let (incoming, outgoing) = all.of("bo", 2_000);
        assert_eq!((incoming.len(), outgoing.len()), (1, 0));
        assert_eq!(all.pending_for("anna").len(), 0);
        assert!(
            all.get("abc", 1_000 + EXPIRES_MS).is_none(),
            "gone after 20 minutes"
        );
        assert_eq!(show_minutes(30), "½");
        assert_eq!(show_minutes(90), "1.5");
    }
}
