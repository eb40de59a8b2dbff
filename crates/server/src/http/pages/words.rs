//! The pages' words: the catalogues of `web/i18n.json`, the reader's language, and how a
//! time control, a speed or a clock is said.

use super::*;

/// Every page's strings, by language then key (`web/i18n.json`).
pub(super) static CATALOGUES: LazyLock<HashMap<String, HashMap<String, String>>> =
    LazyLock::new(|| {
        // Checked by the tests below: a broken catalogue never ships.
        serde_json::from_str(include_str!("../../../../../web/i18n.json")).unwrap_or_default()
    });

/// A page's language.
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub(crate) enum Lang {
    En,
    Zh,
}

impl Lang {
    fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The `lang` cookie if set, else the first English or Chinese entry of
    /// `Accept-Language` (browsers list them by preference), else English.
    pub(crate) fn of(headers: &HeaderMap) -> Lang {
        let cookie =
            crate::http::identity::cookies(headers).find_map(|(k, v)| (k == "lang").then_some(v));
        match cookie {
            Some("zh") => return Lang::Zh,
            Some("en") => return Lang::En,
            _ => {}
        }
        let accept = headers
            .get(ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        for tag in accept.split(',') {
            let tag = tag
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            if tag.starts_with("zh") {
                return Lang::Zh;
            }
            if tag.starts_with("en") {
                return Lang::En;
            }
        }
        Lang::En
    }
}

/// The catalogue key of how a game ended: `end_` and the core's name of the termination,
/// anything but a letter as `_` (`end_insufficient_material`); `endingWords` in i18n.js builds
/// the same.
pub(crate) fn ending_key(how: rookery_core::game::Termination) -> String {
    let key: String = how
        .as_str()
        .chars()
        .map(|c| if c.is_ascii_lowercase() { c } else { '_' })
        .collect();
    format!("end_{key}")
}

/// Translations for templates: `{{ tr.t("key") }}`.
#[derive(Debug, Copy, Clone)]
pub(crate) struct Tr {
    pub(super) lang: Lang,
}

impl Tr {
    pub(crate) fn new(lang: Lang) -> Tr {
        Tr { lang }
    }

    /// The text of `key` in this language (English, then the key itself, if missing).
    pub(crate) fn t<'a>(&self, key: &'a str) -> &'a str {
        let find = |lang: Lang| {
            CATALOGUES
                .get(lang.code())
                .and_then(|c| c.get(key))
                .map(String::as_str)
        };
        find(self.lang).or_else(|| find(Lang::En)).unwrap_or(key)
    }

    /// The text of `key` in this language, if the catalogue has it.
    fn find(&self, key: &str) -> Option<&'static str> {
        CATALOGUES
            .get(self.lang.code())
            .and_then(|c| c.get(key))
            .map(String::as_str)
    }

    /// A player's name in the reader's words, as `playerName` in i18n.js says it: a bot's
    /// ("Rookery bot level 3": "Rookery 电脑 3 级") and a guest's generated one ("Quiet Heron
    /// 42"); any other name is the player's own.
    pub(crate) fn player_name(&self, name: &str) -> String {
        let digits = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
        if let Some(n) = name
            .strip_prefix("Rookery bot level ")
            .filter(|n| digits(n))
        {
            return self.t("bot_name").replace("{n}", n);
        }
        if let [adj, animal, n] = name.split(' ').collect::<Vec<_>>()[..] {
            let words = (
                self.find(&format!("guest:{adj}")),
                self.find(&format!("guest:{animal}")),
            );
            if let ((Some(adj), Some(animal)), true) = (words, digits(n)) {
                return self
                    .t("guest_name")
                    .replace("{adj}", adj)
                    .replace("{animal}", animal)
                    .replace("{n}", n);
            }
        }
        name.to_owned()
    }

    /// An opening's name in the reader's words, as `openingName` in i18n.js says it: the
    /// family (before the colon) by its common name where it has one.
    pub(crate) fn opening_name(&self, name: &str) -> String {
        let (family, rest) = match name.split_once(':') {
            Some((family, rest)) => (family, Some(rest.trim())),
            None => (name, None),
        };
        match (self.find(&format!("opening:{family}")), rest) {
            (None, _) => name.to_owned(),
            (Some(said), None) => said.to_owned(),
            (Some(said), Some(rest)) if self.lang == Lang::Zh => format!("{said}：{rest}"),
            (Some(said), Some(rest)) => format!("{said}: {rest}"),
        }
    }

    /// How a game ended, in the reader's words (`end_checkmate`: "Checkmate"), the key built
    /// from the core's name of the termination as the pages' scripts build it.
    pub(crate) fn ending(&self, how: rookery_core::game::Termination) -> String {
        self.t(&ending_key(how)).to_owned()
    }

    pub(crate) fn html_lang(&self) -> &'static str {
        match self.lang {
            Lang::En => "en",
            Lang::Zh => "zh-Hans",
        }
    }

    /// The catalogue for scripts, as JSON safe inside a `<script>` element.
    pub(super) fn json(&self) -> String {
        script_json(&CATALOGUES.get(self.lang.code()))
    }

    /// A refusal in this language (`err_<code>`, its figure filled in), as the pages'
    /// `problemText` says it.
    pub(crate) fn problem(&self, problem: &crate::protocol::Problem) -> String {
        let key = format!("err_{}", problem.code);
        let text = self.t(&key);
        if text == key {
            return problem.message.clone();
        }
        text.replace("{n}", &problem.n.map(|n| n.to_string()).unwrap_or_default())
    }
}

/// Minutes, or seconds under a minute, of a duration: "5 min", "30 s", "1.5 min".
pub(super) fn amount(tr: Tr, d: std::time::Duration) -> String {
    let secs = d.as_secs_f64();
    if secs >= 60.0 {
        let min = secs / 60.0;
        let min = if min.fract() == 0.0 {
            format!("{min}")
        } else {
            format!("{min:.1}")
        };
        tr.t("tc_minutes").replace("{n}", &min)
    } else {
        tr.t("tc_seconds")
            .replace("{n}", &format!("{}", secs.round()))
    }
}

/// A time control in words, in the page's language: "5 min + 3 s a move", "5 min, 3 s
/// delay", "90 min for 40 moves + 30 s a move, then 30 min + 30 s a move", "no clock".
pub(crate) fn describe(tr: Tr, control: &rookery_core::clock::TimeControl) -> String {
    use rookery_core::clock::{DelayKind, TimeControl};
    match control {
        TimeControl::Untimed => tr.t("tc_untimed").to_owned(),
        TimeControl::Sandclock(d) => tr.t("tc_sandclock").replace("{t}", &amount(tr, *d)),
        TimeControl::Correspondence(days) => tr
            .t(if *days == 1 {
                "tc_correspondence_one"
            } else {
                "tc_correspondence"
            })
            .replace("{n}", &days.to_string()),
        TimeControl::Periods(periods) => periods
            .iter()
            .map(|p| {
                let mut text = match p.moves {
                    Some(n) => tr
                        .t("tc_for_moves")
                        .replace("{t}", &amount(tr, p.base))
                        .replace("{n}", &n.to_string()),
                    None => amount(tr, p.base),
                };
                if !p.increment.is_zero() {
                    text.push_str(
                        &tr.t("tc_increment")
                            .replace("{t}", &amount(tr, p.increment)),
                    );
                }
                if let Some(delay) = p.delay {
                    let key = match delay.kind {
                        DelayKind::Simple => "tc_delay",
                        DelayKind::Bronstein => "tc_bronstein",
                    };
                    text.push_str(&tr.t(key).replace("{t}", &amount(tr, delay.time)));
                }
                text
            })
            .collect::<Vec<_>>()
            .join(tr.t("tc_then")),
    }
}

/// A speed's name in the reader's language ("Blitz", "超快棋").
pub(crate) fn speed_name(tr: Tr, speed: rookery_core::rating::Speed) -> String {
    tr.t(&format!("speed_{}", speed.as_str())).to_owned()
}

/// A clock's reading: days and hours from a day up, else h:mm:ss or m:ss.
pub(super) fn clock_words(tr: Tr, left: std::time::Duration) -> String {
    let s = left.as_secs();
    let (d, h, m, sec) = (s / 86_400, s / 3600 % 24, s / 60 % 60, s % 60);
    if d > 0 {
        tr.t("days_short")
            .replace("{d}", &d.to_string())
            .replace("{h}", &h.to_string())
    } else if h > 0 {
        format!("{h}:{m:02}:{sec:02}")
    } else {
        format!("{m}:{sec:02}")
    }
}
