//! The username rule: 2 to 20 characters, ASCII letters, digits, `_` and `-`, starting with
//! a letter or digit; unique without regard to case (an account's id is its name in lower
//! case); and not one of the names the server keeps for itself.

use crate::refusal::Code;
/// Names nobody may take: the server's own words, roles people would trust, and the bots'.
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "root",
    "system",
    "rookery",
    "anonymous",
    "anon",
    "guest",
    "moderator",
    "mod",
    "staff",
    "support",
    "help",
    "api",
    "bot",
    "bots",
    "stockfish",
    "null",
    "undefined",
    "me",
    "settings",
    "account",
    "login",
    "logout",
    "signup",
];

/// Why a name is refused (each a refusal code of `protocol::CODES`).
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub(crate) enum NameProblem {
    /// Shorter than 2 or longer than 20 characters.
    Length,
    /// A character other than letters, digits, `_` and `-`, or a first one that is no
    /// letter or digit.
    Characters,
    /// Kept by the server.
    Reserved,
}

impl NameProblem {
    pub(crate) fn code(self) -> Code {
        match self {
            NameProblem::Length => Code::NameLength,
            NameProblem::Characters => Code::NameCharacters,
            NameProblem::Reserved => Code::NameReserved,
        }
    }

    pub(crate) fn message(self) -> &'static str {
        match self {
            NameProblem::Length => "a username has 2 to 20 characters",
            NameProblem::Characters => {
                "a username has only letters, digits, _ and -, and starts with a letter or digit"
            }
            NameProblem::Reserved => "this username is kept by the server",
        }
    }
}

/// The account id of `name` (its lower case) if `name` may be an account's name.
pub(crate) fn check(name: &str) -> Result<String, NameProblem> {
    if !(2..=20).contains(&name.chars().count()) {
        return Err(NameProblem::Length);
    }
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if !name.chars().all(allowed) || !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err(NameProblem::Characters);
    }
    let id = name.to_ascii_lowercase();
    if reserved(&id) {
        return Err(NameProblem::Reserved);
    }
    Ok(id)
}

/// Whether the lower-case `id` is kept: a listed word, or a bot's name ("Rookery bot 3",
/// "rookery-bot-3" and "level8" alike).
fn reserved(id: &str) -> bool {
    let bare: String = id.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    RESERVED.contains(&id)
        || RESERVED.contains(&bare.as_str())
        || bare.starts_with("rookery")
        || bare.starts_with("admin")
        || (bare.starts_with("level") && bare[5..].chars().all(|c| c.is_ascii_digit()))
        || (bare.starts_with("bot") && bare[3..].chars().all(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_rule() {
        assert_eq!(check("Magnus").as_deref(), Ok("magnus"));
        assert_eq!(check("a1").as_deref(), Ok("a1"));
        assert_eq!(check("x_y-z").as_deref(), Ok("x_y-z"));
        assert_eq!(
            check("12345678901234567890").as_deref().map(str::len),
            Ok(20)
        );
        assert_eq!(check("a"), Err(NameProblem::Length));
        assert_eq!(check("123456789012345678901"), Err(NameProblem::Length));
        assert_eq!(check(""), Err(NameProblem::Length));
        for bad in [
            "a b", "-ab", "_ab", "é1", "<script>", "a\"b", "a'b", "a&b", "a/b", "a\0b", "车手",
        ] {
            assert!(check(bad).is_err(), "{bad:?}");
        }
        for kept in [
            "admin",
            "Admin",
            "ADMINISTRATOR",
            "rookery",
            "Rookery-bot-3",
            "anonymous",
            "level8",
            "bot_1",
            "Stockfish",
        ] {
            assert_eq!(check(kept), Err(NameProblem::Reserved), "{kept}");
        }
        // Near the kept names but not one of them.
        assert!(check("botvinnik").is_ok());
        assert!(check("levelheaded").is_ok());
    }
}
