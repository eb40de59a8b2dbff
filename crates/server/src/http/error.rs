//! One error type for the HTTP API: a status and a refusal (`protocol::Problem`), as JSON
//! `{"error": sentence, "code": code}`. Server faults get a generic sentence; the cause goes to the log.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::refusal::{Code, Problem};
use crate::room::RoomError;
use crate::store::StoreError;

#[derive(Debug)]
pub(crate) struct ApiError {
    pub(crate) status: StatusCode,
    pub(crate) problem: Problem,
}

impl ApiError {
    /// A refusal with its code's status.
    pub(crate) fn new(code: Code, message: impl Into<String>) -> ApiError {
        ApiError::of(Problem::new(code, message))
    }

    pub(crate) fn of(problem: Problem) -> ApiError {
        ApiError {
            status: problem.code.status(),
            problem,
        }
    }

    /// The same refusal under another status (the router's own: 405, 413, 415).
    pub(crate) fn with_status(mut self, status: StatusCode) -> ApiError {
        self.status = status;
        self
    }

    pub(crate) fn not_found(what: &str) -> ApiError {
        ApiError::new(Code::NotFound, format!("no such {what}"))
    }
}

/// `{"error": sentence, "code": code, "n": figure}` (docs/API.md).
#[derive(serde::Serialize)]
struct Body<'a> {
    error: &'a str,
    code: Code,
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
    /// A database out of reach is the client's to retry (503); any other store error is
    /// the server's (500), logged.
    fn from(e: StoreError) -> ApiError {
        if let StoreError::Unreachable(_) = e {
            tracing::warn!(error = %e, "store out of reach");
            return ApiError::new(
                Code::Unavailable,
                "the database cannot be reached right now; try again in a moment",
            );
        }
        tracing::error!(error = %e, "store error");
        ApiError::new(Code::Internal, "internal error")
    }
}

impl From<crate::new_game::SpecError> for ApiError {
    fn from(e: crate::new_game::SpecError) -> ApiError {
        ApiError::new(e.code(), e.to_string())
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

impl From<crate::analysis::RequestError> for ApiError {
    fn from(e: crate::analysis::RequestError) -> ApiError {
        match e {
            crate::analysis::RequestError::Store(e) => e.into(),
            quota => ApiError::new(Code::RateLimited, quota.to_string()),
        }
    }
}

impl From<RoomError> for ApiError {
    /// The room's refusal with its code's status: the same whether this node or the game's
    /// owner on another one refused.
    fn from(e: RoomError) -> ApiError {
        if let RoomError::Store(s) = &e {
            tracing::error!(error = %s, "a room's write failed");
        }
        ApiError::of(Problem::from(&e))
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
                Err(ApiError::new(Code::BadRequest, e.body_text()))
            }
            Err(e) => Err(ApiError::new(Code::BadRequest, e.body_text()).with_status(e.status())),
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
        StatusCode::NOT_FOUND => Code::NotFound,
        s if s.is_server_error() => Code::Internal,
        _ => Code::BadRequest,
    };
    ApiError::new(code, message)
        .with_status(status)
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_out_of_reach_is_a_503_to_retry_and_other_store_errors_a_500() {
        let lost = ApiError::from(StoreError::from(sqlx::Error::PoolTimedOut));
        assert_eq!(lost.status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(lost.problem.code, Code::Unavailable);
        let io = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        let lost = ApiError::from(StoreError::from(sqlx::Error::Io(io)));
        assert_eq!(lost.status, StatusCode::SERVICE_UNAVAILABLE);
        let refused = ApiError::from(StoreError::from(sqlx::Error::RowNotFound));
        assert_eq!(refused.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(refused.problem.code, Code::Internal);
    }
}
