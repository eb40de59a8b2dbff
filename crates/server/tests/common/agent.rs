//! A browser-like HTTP client for the integration tests (cookies kept, an address by
//! `X-Forwarded-For`), the `rookery` binary's commands, straight reads of the database, and
//! a fresh PostgreSQL database per test.

use std::io::Write;

use super::{Reply, Server, request_with};

/// A browser: its cookies, sent back with every request.
#[derive(Default, Clone)]
pub struct Browser {
    pub cookies: Vec<(String, String)>,
    /// `X-Forwarded-For` (the server runs with `--trust-proxy`): which address it comes from.
    pub address: String,
}

impl Browser {
    pub fn at(address: &str) -> Browser {
        Browser {
            cookies: Vec::new(),
            address: address.to_owned(),
        }
    }

    pub fn cookie_header(&self) -> String {
        self.cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    pub fn session(&self) -> Option<&str> {
        self.cookies
            .iter()
            .find(|(k, _)| k == "rk-session")
            .map(|(_, v)| v.as_str())
    }

    /// Keeps every cookie the answer sets (and drops those it removes).
    pub fn keep(&mut self, reply: &Reply) {
        for line in reply.head.lines() {
            let Some(cookie) = line.strip_prefix("set-cookie: ") else {
                continue;
            };
            let first = cookie.split(';').next().unwrap_or("");
            let Some((name, value)) = first.split_once('=') else {
                continue;
            };
            self.cookies.retain(|(k, _)| k != name);
            if !value.is_empty() && !cookie.contains("Max-Age=0") {
                self.cookies.push((name.to_owned(), value.to_owned()));
            }
        }
    }

    pub fn send(
        &mut self,
        s: &Server,
        method: &str,
        path: &str,
        kind: &str,
        body: Option<&str>,
    ) -> Reply {
        let cookie = self.cookie_header();
        let mut headers = vec![("X-Forwarded-For", self.address.as_str())];
        if !cookie.is_empty() {
            headers.push(("Cookie", cookie.as_str()));
        }
        if body.is_some() {
            headers.push(("Content-Type", kind));
        }
        let reply = request_with(s, method, path, &headers, body).expect("the server answers");
        self.keep(&reply);
        reply
    }

    pub fn get(&mut self, s: &Server, path: &str) -> Reply {
        self.send(s, "GET", path, "", None)
    }

    pub fn form(&mut self, s: &Server, path: &str, fields: &[(&str, &str)]) -> Reply {
        let body = serde_urlencoded::to_string(fields).unwrap();
        self.send(
            s,
            "POST",
            path,
            "application/x-www-form-urlencoded",
            Some(&body),
        )
    }

    pub fn json(&mut self, s: &Server, path: &str, body: &str) -> Reply {
        self.send(s, "POST", path, "application/json", Some(body))
    }

    /// Who the header says is logged in.
    pub fn me(&mut self, s: &Server) -> Option<String> {
        let page = self.get(s, "/account").body;
        let at = page.find("id=\"me\"")?;
        let rest = &page[at..];
        let start = rest.find('>')? + 1;
        let end = rest.find("</a>")?;
        Some(rest[start..end].to_owned())
    }
}

pub fn location(reply: &Reply) -> &str {
    reply
        .head
        .lines()
        .find_map(|l| l.strip_prefix("location: "))
        .unwrap_or("")
}

pub fn signup(s: &Server, b: &mut Browser, name: &str, password: &str) -> Reply {
    b.form(s, "/signup", &[("name", name), ("password", password)])
}

pub fn login(s: &Server, b: &mut Browser, name: &str, password: &str) -> Reply {
    b.form(s, "/login", &[("name", name), ("password", password)])
}

/// One column of a table, read straight from the database file or server.
pub async fn column(url: &str, sql: &str) -> Vec<String> {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let rows: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_owned()))
        .fetch_all(&pool)
        .await
        .unwrap();
    pool.close().await;
    rows
}

/// Runs `rookery user ...` against the database; its standard output.
pub fn user_command(url: &str, args: &[&str], stdin: &str) -> (bool, String) {
    let mut all = vec![
        "--database-url",
        url,
        "--public-url",
        "https://chess.example.org",
        "user",
    ];
    all.extend_from_slice(args);
    let (code, out) = super::run_rookery(&all, stdin);
    (code == 0, out)
}

/// A fresh PostgreSQL database for one test, dropped at the end.
pub async fn postgres_database(test: &str) -> Option<(sqlx::AnyPool, String, String)> {
    let Ok(admin_url) = std::env::var("ROOKERY_TEST_POSTGRES") else {
        let _ = std::io::stderr().write_all(
            format!("SKIPPED: {test} (set ROOKERY_TEST_POSTGRES=postgres://...)\n").as_bytes(),
        );
        return None;
    };
    sqlx::any::install_default_drivers();
    let admin = sqlx::AnyPool::connect(&admin_url).await.unwrap();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    let name = format!("rookery_test_{}_{nanos}", std::process::id());
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&admin)
        .await
        .unwrap();
    let url = format!("{}/{name}", admin_url.rsplit_once('/').unwrap().0);
    Some((admin, url, name))
}

/// Runs `flow` on a fresh SQLite file, and on a fresh PostgreSQL database when
/// `ROOKERY_TEST_POSTGRES` names a server (else says SKIPPED).
pub fn on_both(test: &str, flow: fn(&str)) {
    let (dir, url) = super::temp_url(test);
    flow(&url);
    let _ = std::fs::remove_dir_all(dir);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let Some((admin, url, name)) = runtime.block_on(postgres_database(test)) else {
        return;
    };
    flow(&url);
    runtime.block_on(async {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "DROP DATABASE {name} WITH (FORCE)"
        )))
        .execute(&admin)
        .await
        .unwrap();
    });
}

/// `who` plays move `m` (SAN or UCI) in game `id` through the game API.
pub fn play(s: &Server, who: &mut Browser, id: &str, m: &str) {
    let r = who.json(
        s,
        &format!("/api/games/{id}/move"),
        &format!(r#"{{"m":"{m}"}}"#),
    );
    assert_eq!(r.status, 200, "{m}: {}", r.body);
}

/// One rated blitz game: `winner` creates it as white, `loser` joins, e4 e5, and resigns.
pub fn rated_win(s: &Server, winner: &mut Browser, loser: &mut Browser) -> String {
    let r = winner.json(
        s,
        "/api/games",
        r#"{"time_control":"3+2","color":"white","rated":true}"#,
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let id = super::field(&r.body, "id").to_owned();
    assert_eq!(
        loser.form(s, &format!("/api/games/{id}/join"), &[]).status,
        200
    );
    play(s, winner, &id, "e4");
    play(s, loser, &id, "e5");
    assert_eq!(
        loser
            .form(s, &format!("/api/games/{id}/resign"), &[])
            .status,
        200
    );
    id
}
