//! Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), with lichess's constants:
//! a new player is 1500 with deviation 500 and volatility 0.09; the system constant tau is
//! 0.75; the deviation stays within [45, 500], the volatility at most 0.1, the rating within
//! [400, 4000], and one game moves it at most 700 points; a rating is provisional while its
//! deviation is 110 or more (shown `1500?`). Each game is a rating period of one result, as
//! lichess rates them; between games the deviation grows with time, 0.21436 rating periods a
//! day (lichess's figure), applied whenever a rating is read or updated.

use std::f64::consts::PI;

/// The factor between the Glicko and the Glicko-2 scales (Glickman: 173.7178).
const SCALE: f64 = 173.7178;
/// The rating a new player starts with.
pub const START_RATING: f64 = 1500.0;
/// A new player's deviation, also the largest a deviation becomes.
pub const MAX_DEVIATION: f64 = 500.0;
/// The smallest deviation (lichess: no rating is ever that sure).
pub const MIN_DEVIATION: f64 = 45.0;
/// A new player's volatility.
pub const START_VOLATILITY: f64 = 0.09;
/// The largest volatility (lichess: past it a rating might never settle again).
pub const MAX_VOLATILITY: f64 = 0.1;
/// The lowest rating.
pub const MIN_RATING: f64 = 400.0;
/// The highest rating.
pub const MAX_RATING: f64 = 4000.0;
/// The most one game moves a rating, either way.
pub const MAX_RATING_DELTA: f64 = 700.0;
/// lichess's system constant: how much volatility may change.
pub const TAU: f64 = 0.75;
/// A rating is provisional while its deviation is at least this.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Rating periods that pass in a day without games (lichess: 0.21436).
pub const PERIODS_PER_DAY: f64 = 0.21436;
/// The volatility iteration stops when the bracket is this narrow (Glickman: 0.000001).
const CONVERGENCE: f64 = 0.000_001;

/// A rating: the estimate, its deviation and the volatility, on the familiar scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glicko {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// A game's result for the rated player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }

    /// The same game from the opponent's side.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

impl Default for Glicko {
    fn default() -> Glicko {
        Glicko {
            rating: START_RATING,
            deviation: MAX_DEVIATION,
            volatility: START_VOLATILITY,
        }
    }
}

/// Glickman's g(phi): how much a result against an uncertain opponent counts.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// The expected score against one opponent (Glicko-2 scale).
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Glicko {
    /// Whether the rating is still provisional (deviation 110 or more).
    pub fn provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    /// The rating as a whole number, as shown (`1500`, or `1500?` when provisional).
    pub fn shown(&self) -> String {
        let r = self.rating.round() as i64;
        if self.provisional() {
            format!("{r}?")
        } else {
            r.to_string()
        }
    }

    /// The same rating after `days` without games: the deviation grows as over
    /// `days x 0.21436` rating periods (Glickman's step 6 with no games), up to 500.
    pub fn after_idle(self, days: f64) -> Glicko {
        let periods = days * PERIODS_PER_DAY;
        if periods.is_nan() || periods <= 0.0 {
            return self;
        }
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + periods * self.volatility * self.volatility).sqrt() * SCALE;
        Glicko {
            deviation: grown.clamp(MIN_DEVIATION, MAX_DEVIATION),
            ..self
        }
    }

    /// The rating after one rating period with these results, with lichess's tau and
    /// bounds: the change at most [`MAX_RATING_DELTA`], the rating within [`MIN_RATING`] and
    /// [`MAX_RATING`], the deviation within [`MIN_DEVIATION`] and [`MAX_DEVIATION`], the
    /// volatility at most [`MAX_VOLATILITY`].
    pub fn update(self, games: &[(Glicko, Outcome)]) -> Glicko {
        let updated = self.update_with(games, TAU);
        let rating = updated
            .rating
            .clamp(
                self.rating - MAX_RATING_DELTA,
                self.rating + MAX_RATING_DELTA,
            )
            .clamp(MIN_RATING, MAX_RATING);
        Glicko {
            rating,
            deviation: updated.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: updated.volatility.min(MAX_VOLATILITY),
        }
    }

    /// Glickman's steps 2-8, with system constant `tau` and no bounds (the paper's example
    /// uses tau = 0.5).
    pub fn update_with(self, games: &[(Glicko, Outcome)], tau: f64) -> Glicko {
        let mu = (self.rating - START_RATING) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if games.is_empty() {
            // Step 6 alone: only the deviation grows.
            let phi_star = (phi * phi + sigma * sigma).sqrt();
            return Glicko {
                deviation: phi_star * SCALE,
                ..self
            };
        }
        // Steps 3 and 4: the estimated variance and the improvement.
        let mut v_inverse = 0.0;
        let mut sum = 0.0;
        for (opponent, outcome) in games {
            let mu_j = (opponent.rating - START_RATING) / SCALE;
            let phi_j = opponent.deviation / SCALE;
            let e = expected(mu, mu_j, phi_j);
            let gj = g(phi_j);
            v_inverse += gj * gj * e * (1.0 - e);
            sum += gj * (outcome.score() - e);
        }
        let v = 1.0 / v_inverse;
        let delta = v * sum;
        // Step 5: the new volatility (the Illinois algorithm).
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let (mut f_a, mut f_b) = (f(big_a), f(big_b));
        let mut steps = 0;
        while (big_b - big_a).abs() > CONVERGENCE && steps < 100 {
            let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(big_c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = big_c;
            f_b = f_c;
            steps += 1;
        }
        let sigma_new = (big_a / 2.0).exp();
        // Steps 6-8.
        let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        Glicko {
            rating: SCALE * mu_new + START_RATING,
            deviation: SCALE * phi_new,
            volatility: sigma_new,
        }
    }
}
