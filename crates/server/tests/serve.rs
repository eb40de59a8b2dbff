//! `rookery serve` and `rookery migrate` on an embedded SQLite file: the README's run command.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn temp_db(name: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("rookery-serve-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}", dir.join("rookery.db").display());
    (dir, url)
}

fn get(port: u16, path: &str) -> Option<String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut out = String::new();
    s.read_to_string(&mut out).ok()?;
    Some(out)
}

#[test]
fn serves_on_a_fresh_sqlite_file() {
    let (dir, url) = temp_db("serve");
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let _server = Server(
        Command::new(env!("CARGO_BIN_EXE_rookery"))
            .args([
                "--listen",
                &format!("127.0.0.1:{port}"),
                "--database-url",
                &url,
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    let response = loop {
        if let Some(r) = get(port, "/api/health") {
            break r;
        }
        assert!(Instant::now() < deadline, "the server did not answer");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.ends_with(r#"{"ok":true}"#), "{response}");
    assert!(dir.join("rookery.db").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn migrate_creates_the_schema_and_can_run_twice() {
    let (dir, url) = temp_db("migrate");
    for _ in 0..2 {
        let status = Command::new(env!("CARGO_BIN_EXE_rookery"))
            .args(["migrate", "--database-url", &url])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
    }
    // Every migration applied once, and the schema the server writes to is there.
    let schema = tokio::runtime::Runtime::new().unwrap().block_on(async {
        let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
        // The first column of every row of `sql`, as text.
        let column = |sql: &'static str| {
            let pool = pool.clone();
            async move {
                let rows = sqlx::query(sql).fetch_all(&pool).await.unwrap();
                rows.iter()
                    .map(|r| sqlx::Row::get::<String, _>(r, 0))
                    .collect::<Vec<String>>()
            }
        };
        (
            column("SELECT CAST(version AS TEXT) FROM rookery_migrations ORDER BY version").await,
            column("SELECT name FROM pragma_table_info('games')").await,
            column("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").await,
        )
    });
    let (versions, columns, tables) = schema;
    assert_eq!(
        versions,
        [
            "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16",
            "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29"
        ]
    );
    for column in [
        "status",
        "result",
        "termination",
        "white_seat",
        "rematch_of",
        "draw_offers",
        "epoch",
        "seek",
        "white_user",
        "black_user",
        "rated",
        "rating_min",
        "rating_max",
        "event",
        "round",
        "board",
        "owner",
        "lease_until",
        "wake_at",
        "guest_address",
        "tournament",
        "tags",
        "gifts",
    ] {
        assert!(
            columns.iter().any(|c| c == column),
            "games.{column}: {columns:?}"
        );
    }
    for table in [
        "games",
        "health",
        "moves",
        "rookery_migrations",
        "users",
        "sessions",
        "api_tokens",
        "password_resets",
        "ratings",
        "ladder",
        "rating_changes",
        "analyses",
        "chat",
        "roles",
        "challenges",
        "tournaments",
        "clubs",
        "club_members",
        "club_requests",
        "explorer",
        "follows",
        "nodes",
        "exercise_progress",
    ] {
        assert!(tables.iter().any(|t| t == table), "{table}: {tables:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Cluster mode needs PostgreSQL (docs/SCALING.md): on an SQLite file the server refuses
/// to start, saying why, before it listens or reaches NATS.
#[test]
fn cluster_mode_on_sqlite_is_refused_with_the_reason() {
    let (dir, url) = temp_db("cluster");
    let out = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args([
            "--listen",
            "127.0.0.1:0",
            "--database-url",
            &url,
            "--cluster",
            "nats://127.0.0.1:1",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("cluster mode (--cluster) needs PostgreSQL"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
