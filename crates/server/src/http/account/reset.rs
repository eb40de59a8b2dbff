//! Password reset links: made by an admin, used once.

use super::*;

/// How long a reset link works.
pub(crate) const RESET_LIFETIME_MS: i64 = 3600 * 1000;

/// A one-time reset link's token for account `id` (`rookery user reset-password`).
pub(crate) async fn make_reset(
    store: &crate::store::Store,
    id: &str,
) -> Result<String, crate::store::StoreError> {
    let (token, hash) = tokens::new("rkr_");
    store
        .create_reset(id, &hash, now() + RESET_LIFETIME_MS)
        .await?;
    Ok(token)
}

#[derive(Template)]
#[template(path = "reset.html")]
pub(super) struct ResetPage {
    chrome: Chrome,
    tr: Tr,
    token: String,
    name: Option<String>,
    error: Option<String>,
}

/// `GET /reset/{token}`: the form for a new password, if the link is good.
pub(crate) async fn reset_form(
    State(state): State<AppState>,
    chrome: Chrome,
    Path(token): Path<String>,
) -> Result<Response, ApiError> {
    let id = if crate::store::storable(&token) {
        state.store.reset(&tokens::hash(&token), now()).await?
    } else {
        None
    };
    let user = match id {
        Some(id) => state.store.user(&id).await?.map(|u| u.name),
        None => None,
    };
    let tr = chrome.tr;
    let mut response = render(&ResetPage {
        chrome,
        tr,
        name: user,
        error: None,
        token,
    });
    response.headers_mut().insert(
        axum::http::header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    Ok(response)
}

/// `POST /reset/{token}`: sets the password once; the link, and every session of the
/// account, end with it.
pub(crate) async fn reset(
    State(state): State<AppState>,
    chrome: Chrome,
    Path(token): Path<String>,
    Form(form): Form<Confirm>,
) -> Result<Response, ApiError> {
    let tr = chrome.tr;
    let fail = |chrome: Chrome, e: ApiError, name: Option<String>, token: String| {
        let mut page = render(&ResetPage {
            chrome,
            tr,
            token,
            name,
            error: Some(tr.problem(&e.problem)),
        });
        *page.status_mut() = e.status;
        page
    };
    let invalid = || {
        ApiError::new(
            Code::ResetInvalid,
            "this reset link has expired or was used",
        )
    };
    if !crate::store::storable(&token) {
        return Ok(fail(chrome, invalid(), None, token));
    }
    let hash = tokens::hash(&token);
    let Some(user) = state.store.reset(&hash, now()).await? else {
        return Ok(fail(chrome, invalid(), None, token));
    };
    if let Err((code, message)) = password::check_new(&form.password) {
        return Ok(fail(
            chrome,
            ApiError::new(code, message),
            Some(user),
            token,
        ));
    }
    let new_hash = state.passwords.hash(&form.password).await;
    match state.store.use_reset(&hash, &new_hash, now()).await? {
        Some(id) => {
            tracing::info!(user = %id, "password reset by link");
            state.revoke(&id, crate::events::Revoked::Sessions { except: None });
            state.revoke(&id, crate::events::Revoked::Tokens);
            Ok(see_other("/login?done=reset", Vec::new()))
        }
        None => Ok(fail(chrome, invalid(), None, token)),
    }
}
