//! lichess's Board API seek: a public game that waits for an opponent.

use super::*;

/// `POST /api/board/seek`: a public seek (`time` in minutes, `increment` in seconds, `rated`,
/// `color`, `ratingRange`), listed in the lobby while this request stays open (its keep-alive
/// lines hold it); the answer ends once someone takes the seat (the event stream hears
/// `gameStart`). A seek whose request closes first is withdrawn: the waiting game is aborted.
pub(crate) async fn seek(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    body: Bytes,
) -> Result<axum::response::Response, ApiError> {
    let me = account(&caller)?.clone();
    scope(&me, &["board:play"])?;
    if is_bot(&me) {
        return Err(ApiError::new(
            Code::NotAllowed,
            "a BOT plays by challenge, not by seek",
        ));
    }
    let f = fields(&headers, &body)?;
    let control = match days_of(&f)? {
        Some(days) => TimeControl::Correspondence(days),
        None => {
            let minutes: f64 = f
                .get("time")
                .and_then(|t| t.parse().ok())
                .filter(|t: &f64| *t > 0.0 && *t <= 180.0)
                .ok_or_else(|| {
                    ApiError::new(Code::BadTimeControl, "time: minutes, more than 0 (or days)")
                })?;
            let increment: u64 = f
                .get("increment")
                .map(|i| {
                    i.parse()
                        .map_err(|_| ApiError::new(Code::BadTimeControl, "increment: seconds"))
                })
                .transpose()?
                .unwrap_or(0);
            TimeControl::fischer(
                std::time::Duration::from_secs_f64(minutes * 60.0),
                std::time::Duration::from_secs(increment.min(180)),
            )
        }
    };
    let color = ColorChoice::parse(f.get("color").map(String::as_str))?.resolve();
    let me_seat = SeatSpec::person(me.user.name.clone(), Some(me.user.id.clone()));
    let mut spec = GameSpec::new(
        Source::Seek,
        GameSpec::seats_for(color, me_seat, SeatSpec::Open),
        control,
    );
    spec.listed = true;
    spec.rated = truthy(&f, "rated");
    spec.rating_range = parse_range(f.get("ratingRange").map_or("", String::as_str))?;
    let made = make(&state.rooms, spec).await?;
    let room = state
        .rooms
        .get(&made.id)
        .await?
        .ok_or_else(|| ApiError::not_found("game"))?;
    let mut sub = room
        .subscribe(u64::MAX)
        .await
        .map_err(|_| ApiError::not_found("game"))?;
    let (tx, rx) = tokio::sync::mpsc::channel::<String>(4);
    tokio::spawn(async move {
        // The open request is the seeker's presence: the lobby lists the seek while it lasts.
        room.presence(color, true).await;
        let taken = loop {
            tokio::select! {
                event = sub.feed.recv() => match event {
                    Ok(e) if matches!(e.event, crate::room::RoomEvent::Seated { .. }) => break true,
                    Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break false,
                },
                () = tx.closed() => break false,
            }
        };
        room.presence(color, false).await;
        if !taken {
            let _ = room.apply(Action::Abort.by(color)).await;
        }
        drop(tx);
    });
    Ok(crate::http::lichess_stream::ndjson(rx))
}
