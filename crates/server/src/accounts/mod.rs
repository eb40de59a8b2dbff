//! Accounts: the name rule, passwords, secret tokens, titles and API scopes (docs/ACCOUNTS.md).
//! The store keeps the rows (`store/accounts.rs`); the HTTP side (`http/account.rs`) the
//! pages and the cookie.

pub(crate) mod names;
pub(crate) mod password;
pub(crate) mod tokens;

/// A title, as the seeds list them (seed 004: 特級大師、國際大師、棋聯大師、棋協大師、
/// 候補大師、女子特級大師、女子國際大師; seed 000 on how FIDE grants the five international
/// ones). Granted and removed by an admin; shown before the name and in PGN
/// (`WhiteTitle`/`BlackTitle`, lichess's abbreviations).
#[derive(Debug, Copy, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub(crate) enum Title {
    Gm,
    Im,
    Fm,
    Wgm,
    Wim,
    /// National master (棋协大师).
    Nm,
    /// Candidate master (候补大师).
    Cm,
    /// An engine's account (lichess's BOT): it plays through the Bot API, by challenge only.
    /// Not granted by an admin: an account with no games becomes one itself.
    Bot,
}

impl Title {
    pub(crate) const ALL: [Title; 7] = [
        Title::Gm,
        Title::Im,
        Title::Fm,
        Title::Wgm,
        Title::Wim,
        Title::Nm,
        Title::Cm,
    ];

    /// The abbreviation shown before a name and written in PGN.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Title::Bot => "BOT",
            Title::Gm => "GM",
            Title::Im => "IM",
            Title::Fm => "FM",
            Title::Wgm => "WGM",
            Title::Wim => "WIM",
            Title::Nm => "NM",
            Title::Cm => "CM",
        }
    }

    /// A title as stored: one of the grantable ones, or BOT.
    pub(crate) fn parse(text: &str) -> Option<Title> {
        Title::ALL
            .into_iter()
            .chain([Title::Bot])
            .find(|t| t.as_str().eq_ignore_ascii_case(text))
    }

    /// One an admin may grant (not BOT).
    pub(crate) fn grantable(text: &str) -> Option<Title> {
        Title::parse(text).filter(|t| *t != Title::Bot)
    }

    /// The title's full name in the page's language (catalogue key).
    pub(crate) fn key(self) -> &'static str {
        match self {
            Title::Gm => "title_gm",
            Title::Im => "title_im",
            Title::Fm => "title_fm",
            Title::Wgm => "title_wgm",
            Title::Wim => "title_wim",
            Title::Nm => "title_nm",
            Title::Cm => "title_cm",
            Title::Bot => "title_bot",
        }
    }
}

/// What an API token may do, by lichess's scope names (so that programs written for lichess
/// ask for the same ones).
pub(crate) const SCOPES: &[&str] = &[
    "board:play",
    "bot:play",
    "challenge:read",
    "challenge:write",
    "follow:read",
    "follow:write",
    "preference:read",
    "preference:write",
    "team:lead",
    "team:read",
    "team:write",
    "tournament:write",
];

/// The scopes of a comma- or space-separated list, each known, without repeats; `Err` names
/// the first unknown one.
pub(crate) fn parse_scopes(text: &str) -> Result<Vec<&'static str>, String> {
    let mut scopes = Vec::new();
    for word in text.split([',', ' ']).filter(|w| !w.is_empty()) {
        let known = SCOPES
            .iter()
            .find(|s| **s == word)
            .ok_or_else(|| format!("unknown scope {word:?} (known: {})", SCOPES.join(", ")))?;
        if !scopes.contains(known) {
            scopes.push(*known);
        }
    }
    Ok(scopes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_and_scopes_read_back() {
        for t in Title::ALL {
            assert_eq!(Title::parse(t.as_str()), Some(t));
        }
        assert_eq!(Title::parse("wgm"), Some(Title::Wgm));
        assert_eq!(Title::parse("XM"), None);
        assert_eq!(
            parse_scopes("board:play,challenge:read board:play"),
            Ok(vec!["board:play", "challenge:read"])
        );
        assert!(parse_scopes("board:play,root").is_err());
        assert_eq!(parse_scopes(""), Ok(vec![]));
    }
}
