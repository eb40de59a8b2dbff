//! Who plays whom in the quick-pairing pools: a pure book of waiting players, paired by
//! rating with an allowed gap that widens the longer they wait, and colours that even out
//! each player's recent games. No IO, no clock of its own: the caller says what time it is,
//! so the pairing can be simulated (the test below runs 1,000 players through it).

use std::collections::HashMap;

/// One pool of the grid: a time control (its friendly form, as `TimeControl::from_friendly`
/// reads it) and whether its games are rated (logged-in players) or casual (anonymous).
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub(crate) struct PoolId {
    pub(crate) control: String,
    pub(crate) rated: bool,
}

/// A player waiting in a pool.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Waiter {
    /// Who: an account id, or a ticket's own key for an anonymous player. Nobody is paired
    /// with the same `who`, and a `who` waits in one pool at a time.
    pub(crate) who: String,
    /// The rating at the pool's speed (1500 for anonymous players).
    pub(crate) rating: f64,
    /// When they joined (ms).
    pub(crate) since: i64,
    /// Whites minus blacks over their recent games: positive wants black.
    pub(crate) colour_lean: i32,
}

/// The widest gap allowed right after joining, and how much it widens each second of waiting.
pub(crate) const START_GAP: f64 = 100.0;
pub(crate) const GAP_PER_SECOND: f64 = 25.0;

/// The rating gap a player who has waited `waited_ms` accepts.
pub(crate) fn allowed_gap(waited_ms: i64) -> f64 {
    START_GAP + GAP_PER_SECOND * waited_ms.max(0) as f64 / 1000.0
}

/// Two waiters that were paired: the ticket keys of white and black.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pairing {
    pub(crate) pool: PoolId,
    pub(crate) white: String,
    pub(crate) black: String,
}

/// The waiting players of every pool, by ticket key.
#[derive(Debug, Default)]
pub(crate) struct Book {
    waiting: HashMap<String, (PoolId, Waiter)>,
}

impl Book {
    /// Puts `waiter` in `pool` under `ticket`; any other ticket of the same player leaves
    /// (one pool at a time). Returns the tickets that left.
    pub(crate) fn join(&mut self, ticket: &str, pool: PoolId, waiter: Waiter) -> Vec<String> {
        let gone: Vec<String> = self
            .waiting
            .iter()
            .filter(|(t, (_, w))| w.who == waiter.who && t.as_str() != ticket)
            .map(|(t, _)| t.clone())
            .collect();
        for t in &gone {
            self.waiting.remove(t);
        }
        self.waiting.insert(ticket.to_owned(), (pool, waiter));
        gone
    }

    /// Takes `ticket` out of its pool; false if it was not waiting.
    pub(crate) fn leave(&mut self, ticket: &str) -> bool {
        self.waiting.remove(ticket).is_some()
    }

    /// The pool and the waiter of a waiting ticket.
    pub(crate) fn waiting(&self, ticket: &str) -> Option<&(PoolId, Waiter)> {
        self.waiting.get(ticket)
    }

    #[cfg(test)]
    pub(crate) fn contains(&self, ticket: &str) -> bool {
        self.waiting.contains_key(ticket)
    }

    /// How many wait in each pool.
    pub(crate) fn counts(&self) -> HashMap<PoolId, usize> {
        let mut out = HashMap::new();
        for (pool, _) in self.waiting.values() {
            *out.entry(pool.clone()).or_insert(0) += 1;
        }
        out
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.waiting.len()
    }

    /// Pairs whoever can be paired at `now` and takes them out of the book. In each pool the
    /// waiters are sorted by rating and, repeatedly, the closest neighbours whose gap the
    /// longer-waiting of the two accepts are paired (closest first, so a near opponent is not
    /// given away to a far one). `coin` breaks a colour tie.
    pub(crate) fn pair(&mut self, now: i64, mut coin: impl FnMut() -> bool) -> Vec<Pairing> {
        let mut by_pool: HashMap<PoolId, Vec<(String, Waiter)>> = HashMap::new();
        for (ticket, (pool, waiter)) in &self.waiting {
            by_pool
                .entry(pool.clone())
                .or_default()
                .push((ticket.clone(), waiter.clone()));
        }
        let mut pools: Vec<_> = by_pool.into_iter().collect();
        // A fixed order, so that a simulation with a seeded coin repeats itself.
        pools.sort_by(|a, b| (&a.0.control, a.0.rated).cmp(&(&b.0.control, b.0.rated)));
        let mut out = Vec::new();
        for (pool, mut list) in pools {
            list.sort_by(|a, b| {
                a.1.rating
                    .total_cmp(&b.1.rating)
                    .then_with(|| a.0.cmp(&b.0))
            });
            loop {
                let best = list
                    .windows(2)
                    .enumerate()
                    .filter(|(_, w)| w[0].1.who != w[1].1.who)
                    .map(|(i, w)| {
                        let gap = (w[1].1.rating - w[0].1.rating).abs();
                        let waited = now - w[0].1.since.min(w[1].1.since);
                        (i, gap, gap <= allowed_gap(waited))
                    })
                    .filter(|(_, _, ok)| *ok)
                    .min_by(|a, b| a.1.total_cmp(&b.1));
                let Some((i, _, _)) = best else { break };
                let (b_ticket, b) = list.remove(i + 1);
                let (a_ticket, a) = list.remove(i);
                let a_white = white_first(&a, &b, &mut coin);
                let (white, black) = if a_white {
                    (a_ticket, b_ticket)
                } else {
                    (b_ticket, a_ticket)
                };
                self.waiting.remove(&white);
                self.waiting.remove(&black);
                out.push(Pairing {
                    pool: pool.clone(),
                    white,
                    black,
                });
            }
        }
        out
    }
}

/// Whether `a` takes white against `b`: the player who has had more whites lately takes
/// black; on a tie, the coin.
fn white_first(a: &Waiter, b: &Waiter, coin: &mut impl FnMut() -> bool) -> bool {
    match a.colour_lean.cmp(&b.colour_lean) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => coin(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(control: &str) -> PoolId {
        PoolId {
            control: control.to_owned(),
            rated: true,
        }
    }

    fn waiter(who: &str, rating: f64, since: i64, lean: i32) -> Waiter {
        Waiter {
            who: who.to_owned(),
            rating,
            since,
            colour_lean: lean,
        }
    }

    #[test]
    fn the_allowed_gap_widens_with_waiting() {
        let mut book = Book::default();
        book.join("a", pool("3+2"), waiter("ann", 1500.0, 0, 0));
        book.join("b", pool("3+2"), waiter("bob", 1800.0, 0, 0));
        // 300 points apart: 100 allowed at once, 300 after 8 s.
        assert!(book.pair(0, || true).is_empty());
        assert!(book.pair(7_000, || true).is_empty());
        let paired = book.pair(8_000, || true);
        assert_eq!(paired.len(), 1);
        assert_eq!(book.len(), 0);
    }

    #[test]
    fn the_closest_pair_goes_first_and_pools_do_not_mix() {
        let mut book = Book::default();
        book.join("a", pool("3+2"), waiter("ann", 1500.0, 0, 0));
        book.join("b", pool("3+2"), waiter("bob", 1560.0, 0, 0));
        book.join("c", pool("3+2"), waiter("cid", 1590.0, 0, 0));
        book.join("d", pool("5+0"), waiter("dan", 1500.0, 0, 0));
        let casual = PoolId {
            control: "3+2".to_owned(),
            rated: false,
        };
        book.join("e", casual, waiter("t-e", 1500.0, 0, 0));
        let paired = book.pair(0, || true);
        assert_eq!(paired.len(), 1, "{paired:?}");
        let p = &paired[0];
        let mut two = [p.white.as_str(), p.black.as_str()];
        two.sort();
        assert_eq!(two, ["b", "c"], "the 30-point pair, not the 60-point one");
        assert!(book.contains("a") && book.contains("d") && book.contains("e"));
    }

    #[test]
    fn one_pool_at_a_time_and_never_oneself() {
        let mut book = Book::default();
        book.join("a1", pool("3+2"), waiter("ann", 1500.0, 0, 0));
        // The same player in another tab, in another pool: the first ticket leaves.
        assert_eq!(
            book.join("a2", pool("5+0"), waiter("ann", 1500.0, 0, 0)),
            ["a1"]
        );
        assert!(!book.contains("a1"));
        book.join("a3", pool("5+0"), waiter("ann", 1500.0, 0, 0));
        assert!(book.pair(60_000, || true).is_empty());
    }

    #[test]
    fn colours_even_out_recent_games() {
        let mut book = Book::default();
        book.join("a", pool("3+2"), waiter("ann", 1500.0, 0, 2));
        book.join("b", pool("3+2"), waiter("bob", 1500.0, 0, -1));
        let p = book.pair(0, || true).remove(0);
        assert_eq!((p.white.as_str(), p.black.as_str()), ("b", "a"));
    }

    /// 1,000 players join pools over a minute (virtual time, a seeded generator): ratings
    /// spread as a club's (mean 1500, sd 300), each picks one of the grid's pools and a rated
    /// or casual game. The book pairs once a second. Everyone is paired but at most one
    /// player per pool left with nobody (an odd count); nobody with themselves, nobody twice.
    /// Prints the mean and 95th percentile of the rating gap and of the wait.
    #[test]
    fn a_thousand_players_over_a_minute() {
        let controls = [
            "1+0", "2+1", "3+0", "3+2", "5+0", "5+3", "10+0", "10+5", "15+10", "30+0", "30+20",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut uniform = {
            let mut n = next;
            move || (n() >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut joins = Vec::new();
        for i in 0..1000 {
            let at = (uniform() * 60_000.0) as i64;
            // A normal rating by Box-Muller.
            let (u1, u2) = (uniform().max(1e-12), uniform());
            let z = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
            let rating = (1500.0 + 300.0 * z).clamp(400.0, 2900.0);
            // Popular pools more often: blitz and bullet as on a busy server.
            let control = controls[((uniform().powf(1.6)) * controls.len() as f64) as usize];
            let rated = uniform() < 0.7;
            joins.push((at, i, rating, control, rated));
        }
        joins.sort_by_key(|j| j.0);
        let mut book = Book::default();
        let mut joined_at = HashMap::new();
        let mut rating_of = HashMap::new();
        let mut per_pool: HashMap<PoolId, usize> = HashMap::new();
        let mut paired_ever = std::collections::HashSet::new();
        let (mut gaps, mut waits) = (Vec::new(), Vec::new());
        let mut coin_state = 7u32;
        let mut coin = move || {
            coin_state = coin_state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            coin_state & 0x8000 != 0
        };
        let mut next_join = 0;
        let mut now = 0;
        while now <= 180_000 {
            while next_join < joins.len() && joins[next_join].0 <= now {
                let (at, i, rating, control, rated) = joins[next_join];
                let ticket = format!("t{i}");
                let pool = PoolId {
                    control: control.to_owned(),
                    rated,
                };
                *per_pool.entry(pool.clone()).or_default() += 1;
                let lean = (i % 5) - 2;
                assert!(
                    book.join(&ticket, pool, waiter(&format!("p{i}"), rating, at, lean))
                        .is_empty()
                );
                joined_at.insert(ticket.clone(), at);
                rating_of.insert(ticket, rating);
                next_join += 1;
            }
            for p in book.pair(now, &mut coin) {
                assert_ne!(p.white, p.black, "paired with themselves");
                for t in [&p.white, &p.black] {
                    assert!(paired_ever.insert(t.clone()), "{t} paired twice");
                    waits.push((now - joined_at[t]) as f64 / 1000.0);
                }
                // The pair was within the gap the longer-waiting of the two accepts.
                let gap = (rating_of[&p.white] - rating_of[&p.black]).abs();
                let waited = now - joined_at[&p.white].min(joined_at[&p.black]);
                assert!(
                    gap <= allowed_gap(waited),
                    "{} and {} paired {gap:.0} apart after {waited} ms",
                    p.white,
                    p.black
                );
                gaps.push(gap);
            }
            now += 1000;
        }
        let odd_pools = per_pool.values().filter(|n| *n % 2 == 1).count();
        assert_eq!(book.len(), odd_pools, "left waiting: one per odd pool only");
        assert_eq!(paired_ever.len() + book.len(), 1000);
        let stats = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            let mean = v.iter().sum::<f64>() / v.len() as f64;
            let p95 = v[(v.len() * 95 / 100).min(v.len() - 1)];
            (mean, p95)
        };
        let (gap_mean, gap_p95) = stats(&mut gaps);
        let (wait_mean, wait_p95) = stats(&mut waits);
        println!(
            "pairing simulation: 1000 players in {} pools, {} paired ({} games), {} left alone \
             (odd pools); rating gap mean {gap_mean:.0} p95 {gap_p95:.0}; wait mean \
             {wait_mean:.1} s p95 {wait_p95:.1} s",
            per_pool.len(),
            paired_ever.len(),
            gaps.len(),
            book.len(),
        );
    }
}
