//! One error type for the HTTP API: a status and a refusal (`protocol::Problem`), as JSON
//! `{"error": sentence, "code": code}`. Server faults get a generic sentence; the cause goes to the log.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::protocol::Problem;
use crate::room::RoomError;
use crate::store::StoreError;

#[derive(Debug)]
pub(crate) struct ApiError {
    pub(crate) status: StatusCode,
    pub(crate) problem: Problem,
}

impl ApiError {
    /// `code` is one of the protocol's refusal codes ([`crate::protocol::CODES`]).
    pub(crate) fn new(
        status: StatusCode,
        code: &'static str,
        message: impl Into<String>,
    ) -> ApiError {
        ApiError {
            status,
            problem: Problem::new(code, message),
        }
    }

    pub(crate) fn not_found(what: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no such {what}"),
        )
    }

    /// 400 with `code` and the sentence.
    pub(crate) fn bad(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }
}

/// `{"error": sentence, "code": code, "n": figure}` (docs/API.md).
#[derive(serde::Serialize)]
struct Body<'a> {
    error: &'a str,
    code: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    n: Option<u64>,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(Body {
                error: &self.problem.message,
                code: self.problem.code,
                n: self.problem.n,
            }),
        )
            .into_response()
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        tracing::error!(error = %e, "store error");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "internal error",
        )
    }
}

impl From<crate::new_game::SpecError> for ApiError {
    fn from(e: crate::new_game::SpecError) -> ApiError {
        ApiError::bad(e.code(), e.to_string())
    }
}

impl From<crate::new_game::MakeError> for ApiError {
    fn from(e: crate::new_game::MakeError) -> ApiError {
        match e {
            crate::new_game::MakeError::Spec(e) => e.into(),
            crate::new_game::MakeError::Store(e) => e.into(),
        }
    }
}

impl From<RoomError> for ApiError {
    fn from(e: RoomError) -> ApiError {
        let status = match e {
            RoomError::Game(_) => StatusCode::BAD_REQUEST,
            // Nothing was stored and nothing changed: as when the owner on another node
            // could not store it (`not_saved`), try again in a moment.
            RoomError::Store(ref s) => {
                tracing::error!(error = %s, "a room's write failed");
                StatusCode::SERVICE_UNAVAILABLE
            }
            RoomError::Closed => StatusCode::GONE,
            RoomError::NotOver | RoomError::Waiting | RoomError::SeatsTaken => StatusCode::CONFLICT,
            RoomError::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            RoomError::Remote(ref p) => match p.code {
                "not_saved" | "internal" => StatusCode::SERVICE_UNAVAILABLE,
                "room_closed" => StatusCode::GONE,
                "not_over" | "waiting" | "seats_taken" => StatusCode::CONFLICT,
                _ => StatusCode::BAD_REQUEST,
            },
        };
        ApiError {
            status,
            problem: Problem::from(&e),
        }
    }
}

/// `Json<T>` whose refusals (bad JSON, wrong content type, too large) are `ApiError`s, so
/// every error the API gives has the same `{"error": ...}` shape.
#[derive(Debug)]
pub(crate) struct ApiJson<T>(pub(crate) T);

impl<S, T> axum::extract::FromRequest<S> for ApiJson<T>
where
    Json<T>: axum::extract::FromRequest<S, Rejection = axum::extract::rejection::JsonRejection>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(ApiJson(value)),
            // JSON that does not fit the body's fields is a bad request like any other
            // (docs/API.md says 400; axum would say 422).
            Err(e @ JsonRejection::JsonDataError(_)) => {
                Err(ApiError::bad("bad_request", e.body_text()))
            }
            Err(e) => Err(ApiError::new(e.status(), "bad_request", e.body_text())),
        }
    }
}

/// Every error the API gives is `{"error": ...}` (docs/API.md), also those no handler wrote:
/// an unknown route, a wrong method, a path or query that does not parse, a body too large.
/// Such answers come from the router as plain text; this rewrites them.
pub(crate) async fn json_errors(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let path = request.uri().path();
    let api = path.starts_with("/api/") || path.starts_with("/game/export/");
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !api || is_json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let body = axum::body::to_bytes(response.into_body(), 4096)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&body);
    let message = match text.trim() {
        "" => status.canonical_reason().unwrap_or("error").to_lowercase(),
        text => text.to_owned(),
    };
    let code = match status {
        StatusCode::NOT_FOUND => "not_found",
        s if s.is_server_error() => "internal",
        _ => "bad_request",
    };
    ApiError::new(status, code, message).into_response()
}
