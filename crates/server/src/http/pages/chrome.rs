//! What every page carries (the reader's account, language and preferences) and rendering.

use super::*;

/// The logged-in reader, as the page header shows them.
#[derive(Debug, Clone)]
pub(crate) struct Me {
    /// The account's id.
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) admin: bool,
}

/// What every page carries besides its own content: the language and its catalogue, the
/// reader (for the header) and their preferences (for the scripts).
#[derive(Debug, Clone)]
pub(crate) struct Chrome {
    pub(crate) tr: Tr,
    pub(crate) i18n_json: String,
    pub(crate) me: Option<Me>,
    pub(crate) prefs: crate::http::account::Prefs,
    pub(crate) prefs_json: String,
    /// The static files' content-hashed URLs and the import map.
    pub(crate) assets: Assets,
}

impl Chrome {
    /// For a reader whose account is not known (or who has none).
    pub(crate) fn anonymous(headers: &HeaderMap) -> Chrome {
        Chrome::of(&crate::http::identity::Caller::of(headers), headers)
    }

    pub(crate) fn of(caller: &crate::http::identity::Caller, headers: &HeaderMap) -> Chrome {
        let tr = Tr::new(Lang::of(headers));
        let prefs = crate::http::account::Prefs::of(caller, headers);
        Chrome {
            tr,
            i18n_json: tr.json(),
            me: caller.account.as_ref().map(|a| Me {
                id: a.user.id.clone(),
                name: a.user.name.clone(),
                admin: a.user.admin,
            }),
            prefs_json: script_json(&prefs),
            prefs,
            assets: Assets,
        }
    }

    /// A move (SAN or the seeds' long form) with the reader's piece letters, as `moveText` in
    /// i18n.js writes it: 马f3 where the reader letters in Chinese (their choice, or by default
    /// a Chinese page), Nf3 otherwise.
    pub(crate) fn move_text(&self, san: &str) -> String {
        let zh = match self.prefs.letters.as_str() {
            "zh" => true,
            "latin" => false,
            _ => self.tr.html_lang().starts_with("zh"),
        };
        if !zh {
            return san.to_owned();
        }
        san.chars()
            .map(|c| match c {
                'K' => '王',
                'Q' => '后',
                'R' => '车',
                'B' => '象',
                'N' => '马',
                other => other,
            })
            .collect()
    }
}

impl axum::extract::FromRequestParts<AppState> for Chrome {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> Result<Chrome, Self::Rejection> {
        // A refused token still gets a page: the page is the same for everyone.
        let caller = crate::http::identity::Caller::resolve(parts, &state.store)
            .await
            .unwrap_or_else(|_| crate::http::identity::Caller::of(&parts.headers));
        Ok(Chrome::of(&caller, &parts.headers))
    }
}

/// JSON that can sit inside `<script type="application/json">`: `<` is escaped, so no
/// `</script>` can close the element early.
pub(crate) fn script_json(value: &impl Serialize) -> String {
    serde_json::to_string(value)
        .unwrap_or_else(|_| "null".into())
        .replace('<', "\\u003c")
}

pub(crate) fn render(page: &impl Template) -> Response {
    match page.render() {
        Ok(html) => Html(html).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "template failed");
            (StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response()
        }
    }
}
