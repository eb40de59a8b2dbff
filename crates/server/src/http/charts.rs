//! The pictures, drawn on the server as SVG so they need no script: a speed's rating history
//! (dates along the bottom, each game a point whose tooltip names it and which links to it)
//! and the ladder of classes with how many players stand on each rung. Only geometry here;
//! the templates write the elements.

use rookery_core::rating::Class;
use rookery_core::rating::ladder::LadderPoints;

use crate::export::utc_date_time;

/// The drawing area of a rating chart, in SVG units.
pub(crate) const CHART_WIDTH: f64 = 640.0;
pub(crate) const CHART_HEIGHT: f64 = 220.0;
const LEFT: f64 = 48.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 28.0;
/// At most this many of the latest games are drawn.
const MAX_POINTS: usize = 500;

/// One game on a chart.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Dot {
    pub(crate) x: String,
    pub(crate) y: String,
    /// The tooltip: date, rating, the game.
    pub(crate) label: String,
    pub(crate) href: String,
}

/// A label on an axis, at `at` (x for dates, y for ratings).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Tick {
    pub(crate) at: String,
    pub(crate) text: String,
}

/// One speed's rating history, ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RatingChart {
    /// The speed's word (`blitz`), for ids.
    pub(crate) speed: &'static str,
    /// The speed's name in the reader's language.
    pub(crate) name: String,
    pub(crate) line: String,
    pub(crate) dots: Vec<Dot>,
    pub(crate) dates: Vec<Tick>,
    pub(crate) ratings: Vec<Tick>,
}

/// A game of a player's history: when it ended (ms), the rating after it, and how the
/// tooltip names it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Played {
    pub(crate) at: i64,
    pub(crate) rating: f64,
    pub(crate) game_id: String,
    pub(crate) label: String,
}

fn fmt(v: f64) -> String {
    format!("{v:.1}")
}

/// Lays out one speed's history (in time order; only the latest [`MAX_POINTS`] are drawn).
pub(crate) fn rating_chart(speed: &'static str, name: String, games: &[Played]) -> RatingChart {
    let games = &games[games.len().saturating_sub(MAX_POINTS)..];
    let (first, last) = match (games.first(), games.last()) {
        (Some(f), Some(l)) => (f.at, l.at),
        _ => (0, 0),
    };
    let low = games.iter().map(|g| g.rating).fold(f64::INFINITY, f64::min);
    let high = games
        .iter()
        .map(|g| g.rating)
        .fold(f64::NEG_INFINITY, f64::max);
    // Whole fifties around the ratings, at least 100 apart, so a flat line sits mid-chart.
    let mut bottom = (low / 50.0).floor() * 50.0;
    let mut top = (high / 50.0).ceil() * 50.0;
    if top - bottom < 100.0 {
        let middle = ((low + high) / 2.0 / 50.0).round() * 50.0;
        bottom = middle - 50.0;
        top = middle + 50.0;
    }
    let inner_w = CHART_WIDTH - LEFT - RIGHT;
    let inner_h = CHART_HEIGHT - TOP - BOTTOM;
    let x_of = |at: i64| {
        if last > first {
            LEFT + inner_w * (at - first) as f64 / (last - first) as f64
        } else {
            LEFT + inner_w / 2.0
        }
    };
    let y_of = |rating: f64| TOP + inner_h * (top - rating) / (top - bottom);
    let dots: Vec<Dot> = games
        .iter()
        .map(|g| Dot {
            x: fmt(x_of(g.at)),
            y: fmt(y_of(g.rating)),
            label: g.label.clone(),
            href: format!("/game/{}", g.game_id),
        })
        .collect();
    let line = dots
        .iter()
        .map(|d| format!("{},{}", d.x, d.y))
        .collect::<Vec<_>>()
        .join(" ");
    let mut dates = vec![Tick {
        at: fmt(x_of(first)),
        text: utc_date_time(first).0,
    }];
    if last > first && utc_date_time(last).0 != dates[0].text {
        dates.push(Tick {
            at: fmt(x_of(last)),
            text: utc_date_time(last).0,
        });
    }
    let ratings = [bottom, (bottom + top) / 2.0, top]
        .into_iter()
        .map(|r| Tick {
            at: fmt(y_of(r)),
            text: format!("{r:.0}"),
        })
        .collect();
    RatingChart {
        speed,
        name,
        line,
        dots,
        dates,
        ratings,
    }
}

/// One rung of the ladder picture: a class, how many stand on it, and the first few names.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Rung {
    pub(crate) y: String,
    /// Where the rung's text sits (a little below the rung's top).
    pub(crate) text_y: String,
    pub(crate) class: Class,
    pub(crate) label: String,
    pub(crate) count: usize,
    pub(crate) bar: String,
    pub(crate) names: String,
}

/// The ladder picture's size.
pub(crate) const RUNG_HEIGHT: f64 = 20.0;
pub(crate) const LADDER_WIDTH: f64 = 640.0;
const BAR_LEFT: f64 = 150.0;
const BAR_MAX: f64 = 200.0;

/// Every class from 1级 at the top down to unclassed, with the players on each (given most
/// points first); `label` names a class in the reader's language.
pub(crate) fn ladder_rungs(
    players: &[(String, LadderPoints)],
    label: impl Fn(Class) -> String,
) -> Vec<Rung> {
    let all: Vec<Class> = (1..=30)
        .map(Class::Grade)
        .chain([Class::Unclassed])
        .collect();
    let on = |class: Class| players.iter().filter(move |(_, p)| p.class() == class);
    // From the highest class anyone is in down to unclassed; the empty ones above are folded
    // (the page says so), the empty ones between stay, to show the gaps.
    let top = all
        .iter()
        .position(|c| on(*c).next().is_some())
        .unwrap_or(all.len() - 1);
    let classes = &all[top..];
    let most = classes.iter().map(|c| on(*c).count()).max().unwrap_or(0);
    classes
        .iter()
        .enumerate()
        .map(|(i, &class)| {
            let count = on(class).count();
            let mut names: Vec<&str> = on(class).take(3).map(|(n, _)| n.as_str()).collect();
            if count > 3 {
                names.push("…");
            }
            let top = i as f64 * RUNG_HEIGHT;
            Rung {
                y: fmt(top),
                text_y: fmt(top + RUNG_HEIGHT * 0.7),
                class,
                label: label(class),
                count,
                bar: fmt(if most == 0 {
                    0.0
                } else {
                    BAR_MAX * count as f64 / most as f64
                }),
                names: names.join(", "),
            }
        })
        .collect()
}

/// The x where the bars begin, for the template.
pub(crate) const LADDER_BAR_LEFT: f64 = BAR_LEFT;

#[cfg(test)]
mod tests {
    use super::*;

    fn played(at: i64, rating: f64) -> Played {
        Played {
            at,
            rating,
            game_id: format!("g{at}"),
            label: format!("{rating}"),
        }
    }

    #[test]
    fn a_history_spans_the_chart_oldest_left_and_highest_up() {
        let day = 86_400_000;
        let chart = rating_chart(
            "blitz",
            "Blitz".into(),
            &[
                played(0, 1500.0),
                played(day, 1620.0),
                played(3 * day, 1410.0),
            ],
        );
        let xs: Vec<f64> = chart.dots.iter().map(|d| d.x.parse().unwrap()).collect();
        let ys: Vec<f64> = chart.dots.iter().map(|d| d.y.parse().unwrap()).collect();
        assert_eq!(xs[0], LEFT);
        assert_eq!(xs[2], CHART_WIDTH - RIGHT);
        assert!(xs[0] < xs[1] && xs[1] < xs[2]);
        // 1620 is highest (smallest y), 1410 lowest; all within the drawing area.
        assert!(ys[1] < ys[0] && ys[0] < ys[2]);
        assert!(ys.iter().all(|y| (TOP..=CHART_HEIGHT - BOTTOM).contains(y)));
        assert_eq!(
            chart
                .ratings
                .iter()
                .map(|t| t.text.as_str())
                .collect::<Vec<_>>(),
            ["1400", "1525", "1650"]
        );
        assert_eq!(chart.dates[0].text, "1970.01.01");
        assert_eq!(chart.dates[1].text, "1970.01.04");
        assert_eq!(chart.dots[1].href, format!("/game/g{day}"));
        assert_eq!(chart.line.split(' ').count(), 3);
    }

    #[test]
    fn one_game_sits_in_the_middle() {
        let chart = rating_chart("blitz", "Blitz".into(), &[played(5, 1500.0)]);
        assert_eq!(chart.dots.len(), 1);
        let y: f64 = chart.dots[0].y.parse().unwrap();
        assert!((y - (TOP + (CHART_HEIGHT - TOP - BOTTOM) / 2.0)).abs() < 0.1);
        assert_eq!(chart.dates.len(), 1);
    }

    #[test]
    fn the_ladder_has_every_class_and_its_players() {
        let players = vec![
            ("ann".to_owned(), LadderPoints(300_050)),
            ("bo".to_owned(), LadderPoints(12_000)),
            ("cy".to_owned(), LadderPoints(11_000)),
            ("di".to_owned(), LadderPoints(0)),
            ("ed".to_owned(), LadderPoints(-500)),
        ];
        let rungs = ladder_rungs(&players, |c| c.en());
        assert_eq!(rungs.len(), 31, "someone in grade 1: every class shows");
        assert_eq!(rungs[0].label, "grade 1");
        assert_eq!(rungs[30].label, "unclassed");
        assert_eq!((rungs[0].count, rungs[0].names.as_str()), (1, "ann"));
        // 110 and 120 points: grade 30, the lowest rung above unclassed.
        assert_eq!((rungs[29].count, rungs[29].names.as_str()), (2, "bo, cy"));
        assert_eq!((rungs[30].count, rungs[30].names.as_str()), (2, "di, ed"));
        assert_eq!(rungs[29].bar, fmt(BAR_MAX));
        assert_eq!(rungs[5].bar, "0.0");
    }

    #[test]
    fn the_empty_classes_above_the_best_player_are_folded() {
        let players = vec![
            ("bo".to_owned(), LadderPoints(12_000)),
            ("di".to_owned(), LadderPoints(0)),
        ];
        let rungs = ladder_rungs(&players, |c| c.en());
        let labels: Vec<&str> = rungs.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(labels, ["grade 30", "unclassed"]);
        let nobody: Vec<(String, LadderPoints)> = Vec::new();
        let rungs = ladder_rungs(&nobody, |c| c.en());
        assert_eq!(rungs.len(), 1, "nobody yet: the first rung only");
        assert_eq!(rungs[0].label, "unclassed");
    }
}
