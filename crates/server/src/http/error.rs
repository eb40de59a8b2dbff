//! One error type for the HTTP API: a status and a sentence for the user, as JSON
//! `{"error": "..."}`. Server faults get a generic sentence; the cause goes to the log.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::room::RoomError;
use crate::store::StoreError;

#[derive(Debug)]
pub(crate) struct ApiError {
    pub(crate) status: StatusCode,
    pub(crate) message: String,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    pub(crate) fn not_found(what: &str) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, format!("no such {what}"))
    }
}

#[derive(serde::Serialize)]
struct Body<'a> {
    error: &'a str,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(Body {
                error: &self.message,
            }),
        )
            .into_response()
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        tracing::error!(error = %e, "store error");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error")
    }
}

impl From<RoomError> for ApiError {
    fn from(e: RoomError) -> ApiError {
        match e {
            RoomError::Game(g) => ApiError::new(StatusCode::BAD_REQUEST, g.to_string()),
            RoomError::Store(s) => ApiError::from(s),
            RoomError::Closed => ApiError::new(StatusCode::GONE, "the game room is closed"),
            RoomError::NotOver => ApiError::new(StatusCode::CONFLICT, e.to_string()),
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
            Err(e) => Err(ApiError::new(e.status(), e.body_text())),
        }
    }
}
