//! The reader's preferences: kept in a cookie, and on the account when logged in.

use super::*;

/// A reader's preferences: the account's (kept across devices) or, for anonymous readers,
/// the `rk-prefs` cookie's. Pages give them to scripts as JSON.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default)]
pub(crate) struct Prefs {
    /// Move sounds.
    pub(crate) sound: bool,
    /// Piece letters in the move list: "auto" (the page's language), "latin" or "zh".
    pub(crate) letters: String,
    /// Resigning asks for a second click.
    pub(crate) confirm_resign: bool,
    /// Board orientation: "auto" (one's own side at the bottom) or "white".
    pub(crate) orientation: String,
    /// Language: "" (the browser's), "en" or "zh".
    pub(crate) lang: String,
    /// Board colours: "green", "brown" or "blue".
    pub(crate) theme: String,
    /// Light or dark pages: "auto" (the system's), "light" or "dark".
    pub(crate) dark: String,
    /// Piece set: "classic" or "discs" (the seeds' Chinese piece names on discs).
    pub(crate) pieces: String,
    /// Coordinates on the board's edge.
    pub(crate) coords: bool,
    /// Zen mode: the game page shows only the board, the players and the clocks.
    pub(crate) zen: bool,
    /// Move confirmation: "never", "correspondence" (games of days a move), "touch" (on a
    /// touch screen) or "always".
    pub(crate) confirm_move: String,
    /// Game chat shown.
    pub(crate) chat: bool,
    /// A browser notification when the opponent moves while the page is in the background.
    pub(crate) notify: bool,
}

impl Default for Prefs {
    fn default() -> Prefs {
        Prefs {
            sound: true,
            letters: "auto".into(),
            confirm_resign: true,
            orientation: "auto".into(),
            lang: String::new(),
            theme: "green".into(),
            dark: "auto".into(),
            pieces: "classic".into(),
            coords: true,
            zen: false,
            confirm_move: "never".into(),
            chat: true,
            notify: false,
        }
    }
}

/// A change of preferences: the settings form sends every field, the game page one.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct PrefsPatch {
    sound: Option<String>,
    letters: Option<String>,
    confirm_resign: Option<String>,
    orientation: Option<String>,
    lang: Option<String>,
    theme: Option<String>,
    dark: Option<String>,
    pieces: Option<String>,
    coords: Option<String>,
    zen: Option<String>,
    confirm_move: Option<String>,
    chat: Option<String>,
    notify: Option<String>,
}

pub(super) const PREFS_COOKIE: &str = "rk-prefs";

impl Prefs {
    /// The caller's preferences.
    pub(crate) fn of(caller: &Caller, headers: &HeaderMap) -> Prefs {
        if let Some(account) = &caller.account {
            return serde_json::from_str(&account.user.settings).unwrap_or_default();
        }
        crate::http::identity::cookies(headers)
            .find_map(|(k, v)| (k == PREFS_COOKIE).then_some(v))
            .and_then(|v| serde_urlencoded::from_str(v).ok())
            .unwrap_or_default()
    }

    /// Applies a change; `Err` names the field that holds no allowed value.
    pub(crate) fn apply(&mut self, patch: &PrefsPatch) -> Result<(), String> {
        fn flag(text: &str) -> Option<bool> {
            match text {
                "on" | "true" | "1" => Some(true),
                "off" | "false" | "0" => Some(false),
                _ => None,
            }
        }
        fn one_of(text: &str, allowed: &[&str]) -> Option<String> {
            allowed.contains(&text).then(|| text.to_owned())
        }
        let bad = |field: &str| format!("{field}: not an allowed value");
        let flags = [
            (&patch.sound, &mut self.sound, "sound"),
            (
                &patch.confirm_resign,
                &mut self.confirm_resign,
                "confirm_resign",
            ),
            (&patch.coords, &mut self.coords, "coords"),
            (&patch.zen, &mut self.zen, "zen"),
            (&patch.chat, &mut self.chat, "chat"),
            (&patch.notify, &mut self.notify, "notify"),
        ];
        for (value, field, name) in flags {
            if let Some(v) = value {
                *field = flag(v).ok_or_else(|| bad(name))?;
            }
        }
        let choices: [(&Option<String>, &mut String, &str, &[&str]); 4] = [
            (
                &patch.theme,
                &mut self.theme,
                "theme",
                &["green", "brown", "blue"],
            ),
            (
                &patch.dark,
                &mut self.dark,
                "dark",
                &["auto", "light", "dark"],
            ),
            (
                &patch.pieces,
                &mut self.pieces,
                "pieces",
                &["classic", "discs"],
            ),
            (
                &patch.confirm_move,
                &mut self.confirm_move,
                "confirm_move",
                &["never", "correspondence", "touch", "always"],
            ),
        ];
        for (value, field, name, allowed) in choices {
            if let Some(v) = value {
                *field = one_of(v, allowed).ok_or_else(|| bad(name))?;
            }
        }
        if let Some(v) = &patch.letters {
            self.letters = one_of(v, &["auto", "latin", "zh"]).ok_or_else(|| bad("letters"))?;
        }
        if let Some(v) = &patch.orientation {
            self.orientation = one_of(v, &["auto", "white"]).ok_or_else(|| bad("orientation"))?;
        }
        if let Some(v) = &patch.lang {
            self.lang = one_of(v, &["", "en", "zh"]).ok_or_else(|| bad("lang"))?;
        }
        Ok(())
    }

    /// The `lang` cookie the pages read, when a language is chosen.
    pub(super) fn lang_cookie(&self) -> Option<(HeaderName, HeaderValue)> {
        (!self.lang.is_empty()).then(|| {
            let value = format!("lang={}; Path=/; Max-Age=31536000; SameSite=Lax", self.lang);
            set_cookie(&value)
        })
    }
}

/// `POST /account/preferences` (the settings form, or JSON from the game page): saved to
/// the account, or to the `rk-prefs` cookie for an anonymous reader.
pub(crate) async fn save_prefs(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    body: String,
) -> Result<Response, ApiError> {
    let json = headers
        .get(CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    let patch: PrefsPatch = if json {
        serde_json::from_str(&body).map_err(|e| ApiError::new(Code::BadRequest, e.to_string()))?
    } else {
        serde_urlencoded::from_str(&body)
            .map_err(|e| ApiError::new(Code::BadRequest, e.to_string()))?
    };
    let mut prefs = Prefs::of(&caller, &headers);
    prefs
        .apply(&patch)
        .map_err(|e| ApiError::new(Code::BadRequest, e))?;
    let mut cookies = Vec::new();
    match caller.account.as_ref().filter(|a| a.session_id().is_some()) {
        Some(account) => {
            let text = serde_json::to_string(&prefs).unwrap_or_else(|_| "{}".into());
            state.store.set_settings(&account.user.id, &text).await?;
        }
        None => {
            let text = serde_urlencoded::to_string(&prefs).unwrap_or_default();
            let value =
                format!("{PREFS_COOKIE}={text}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly");
            cookies.push(set_cookie(&value));
        }
    }
    cookies.extend(prefs.lang_cookie());
    if json {
        let mut response = axum::Json(serde_json::json!({ "ok": true })).into_response();
        for (name, value) in cookies {
            response.headers_mut().append(name, value);
        }
        return Ok(response);
    }
    Ok(see_other("/account?done=saved", cookies))
}
