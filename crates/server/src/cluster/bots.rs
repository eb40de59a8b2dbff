//! Bots' searches across nodes: a bot plays on its game's owner, but when no search thread is
//! free there, the search is offered to the other nodes on `rookery.bots.think` (a queue
//! group of every node). A node with a free thread thinks and answers the move; a busy one
//! answers "busy" at once, and the offer goes out again (the queue group picks another
//! member at random), a few times; if nobody takes it, the bot waits for a thread at home as
//! it would on a lone node. So bots think wherever there is capacity.

use std::time::Duration;

use rookery_core::Position;
use rookery_core::clock::TimeControl;
use rookery_core::game::Game;
use rookery_engine::Level;
use serde::{Deserialize, Serialize};

use super::{Cluster, json};
use crate::bot::Bots;
use crate::room::{Replayed, rebuild};

/// The offers of searches.
const THINK: &str = "rookery.bots.think";
/// How many nodes an offer is made to before the bot waits at home.
const OFFERS: usize = 3;
/// How long an answer may take past the search's own limit.
const SLACK: Duration = Duration::from_secs(2);

/// A search offered to other nodes: the game as its start and moves (the answering node's
/// core rebuilds the position and the repetition history), the bot's level and limit.
#[derive(Debug, Serialize, Deserialize)]
struct Think {
    start: String,
    moves: Vec<String>,
    level: u8,
    limit_ms: u64,
    seed: u64,
}

/// The answer: `Busy`, or the move found (none in a position without one).
#[derive(Debug, Serialize, Deserialize)]
enum Thought {
    Busy,
    Move(Option<String>),
}

impl Cluster {
    /// Answers other nodes' offers of searches while this node has a free thread.
    pub(crate) fn think_for_others(&self, bots: Bots) {
        let cluster = self.clone();
        tokio::spawn(async move {
            let nats = &cluster.inner.nats;
            let Ok(mut offers) = nats.queue_subscribe(THINK, "bots".to_owned()).await else {
                tracing::warn!("cannot take other nodes' bot searches");
                return;
            };
            while let Some(msg) = futures_util::StreamExt::next(&mut offers).await {
                let (cluster, bots) = (cluster.clone(), bots.clone());
                tokio::spawn(async move {
                    let Some(to) = msg.reply else { return };
                    let Ok(think) = serde_json::from_slice::<Think>(&msg.payload) else {
                        return;
                    };
                    let thought = match think.game() {
                        Some((game, level)) => {
                            let limit = Duration::from_millis(think.limit_ms.min(60_000));
                            match bots.think_for_other(game, level, limit, think.seed).await {
                                Ok(m) => {
                                    tracing::debug!(
                                        level = level.get(),
                                        "thought for another node's bot"
                                    );
                                    Thought::Move(m)
                                }
                                Err(()) => Thought::Busy,
                            }
                        }
                        None => Thought::Busy,
                    };
                    let _ = cluster.inner.nats.publish(to, json(&thought)).await;
                });
            }
        });
    }

    /// Offers a bot's search to other nodes: the move one of them found, or `None` if none
    /// had a free thread (or answered in time).
    pub(crate) async fn think_elsewhere(
        &self,
        game: &Game,
        level: Level,
        limit: Duration,
        seed: u64,
    ) -> Option<Option<String>> {
        let think = Think {
            start: game.start().fen(),
            moves: game
                .moves()
                .iter()
                .map(|m| m.m.to_uci().to_string())
                .collect(),
            level: level.get(),
            limit_ms: limit.as_millis() as u64,
            seed,
        };
        for _ in 0..OFFERS {
            match self.call::<Thought>(THINK, &think, limit + SLACK).await {
                Ok(Thought::Move(m)) => return Some(m),
                Ok(Thought::Busy) => continue,
                Err(()) => return None,
            }
        }
        None
    }
}

impl Think {
    /// The game to think in, rebuilt by this node's core (untimed: the limit is given).
    fn game(&self) -> Option<(Game, Level)> {
        let start = Position::from_fen(&self.start).ok()?;
        let level = Level::new(self.level)?;
        let moves = self.moves.iter().map(|uci| Replayed {
            uci,
            elapsed_ms: 0,
            lag_ms: 0,
        });
        let game = rebuild(
            "elsewhere",
            start,
            TimeControl::Untimed,
            rookery_core::ByColor::default(),
            &[],
            moves,
        );
        // A move the core did not take leaves the rebuilt game short: not this game.
        (game.moves().len() == self.moves.len()).then_some((game, level))
    }
}

impl crate::bot::Elsewhere for Cluster {
    fn think<'a>(
        &'a self,
        game: &'a Game,
        level: Level,
        limit: Duration,
        seed: u64,
    ) -> futures_util::future::BoxFuture<'a, Option<Option<String>>> {
        Box::pin(self.think_elsewhere(game, level, limit, seed))
    }
}
