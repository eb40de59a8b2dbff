//! Computer analysis over HTTP (docs/ANALYSIS.md): requested for a finished game, run in the
//! background, picked up again after a restart, shown as judgements in the seeds' symbols and
//! written into the PGN as lichess writes it — read back by python-chess and pgn-extract.

mod common;

use std::time::{Duration, Instant};

use common::{Server, call, field, start_with, temp_url};

const HUNG_QUEEN: &str = "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n\
    1. e4 e5 2. Qg4 d6 3. Qxg7 Bxg7 0-1\n";

const SIXTY_MOVES: &str = "[White \"Kasia\"]\n[Black \"Li Wei\"]\n[Result \"1-0\"]\n\n\
    1. d4 d5 2. e4 c6 3. exd5 cxd5 4. Nc3 Nc6 5. Bb5 Nf6 6. Nf3 Bg4 7. h3 Bh5 8. O-O e6 9. Qd3 \
    Bg6 10. Qe2 Be7 11. Bxc6+ bxc6 12. Be3 O-O 13. Ne5 Qc7 14. Qd2 Ne4 15. Nxe4 Bxe4 16. Bf4 \
    Qb7 17. c3 a5 18. a3 a4 19. Qe2 Bf6 20. Nd3 Bxd3 21. Qxd3 c5 22. Rab1 c4 23. Qg3 Qb3 24. h4 \
    Qc2 25. h5 Kh8 26. h6 g6 27. Be5 Qf5 28. f4 Rac8 29. Bd6 Rg8 30. Be5 Rce8 31. Qh2 Rc8 \
    32. Rf3 Qxb1+ 33. Rf1 Qf5 34. g3 Rb8 35. Qg2 Rbc8 36. g4 Qd3 37. Bxf6+ Rg7 38. hxg7+ Kg8 \
    39. Be5 Qe3+ 40. Qf2 Qh3 41. Qg2 Qe3+ 42. Rf2 Qe1+ 43. Kh2 Qe3 44. Re2 Qc1 45. Qf2 h6 \
    46. Qh4 Kh7 47. Qf6 Rg8 48. Qxf7 Qf1 49. Rg2 Qf3 50. Qxe6 h5 51. gxh5 Qxh5+ 52. Kg1 Qd1+ \
    53. Kf2 Qd2+ 54. Kf3 Qd3+ 55. Kg4 Qd1+ 56. Kg3 Qd3+ 57. Kh2 Qf3 58. Qg4 Qxg4 59. Rxg4 Kh6 \
    60. Rh4# 1-0\n";

fn import(s: &Server, pgn: &str) -> String {
    let r = call(s, "POST", "/api/import", None, Some(pgn));
    assert_eq!(r.status, 200, "{}", r.body);
    field(&r.body, "id").to_owned()
}

/// Polls the analysis until it is done; its JSON.
fn until_done(s: &Server, id: &str) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let r = call(s, "GET", &format!("/api/games/{id}/analysis"), None, None);
        assert_eq!(r.status, 200, "{}", r.body);
        let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
        if v["status"] == "done" {
            return v;
        }
        assert!(Instant::now() < deadline, "not done in time: {v}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Says a check did not run, past the test harness's capture (CI fails on the word).
fn skipped(what: &str) {
    use std::io::Write;
    let _ = std::io::stderr().write_all(format!("SKIPPED: {what}\n").as_bytes());
}

/// Runs `script` with python3 and python-chess, or says SKIPPED when they are missing.
fn python_reads(script: &str, pgn_path: &std::path::Path) -> Option<String> {
    let Ok(out) = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(pgn_path)
        .output()
    else {
        skipped("python-chess read-back (python3 is missing)");
        return None;
    };
    if String::from_utf8_lossy(&out.stderr).contains("No module named 'chess'") {
        skipped("python-chess read-back (pip install chess)");
        return None;
    }
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn analysis_marks_the_blunder_and_lands_in_the_pgn() {
    let (dir, url) = temp_url("analysis");
    let s = start_with(&url, &["--analysis-nodes", "30000"]);
    let id = import(&s, HUNG_QUEEN);
    let r = call(&s, "GET", &format!("/api/games/{id}/analysis"), None, None);
    assert!(r.body.contains("\"status\":\"none\""), "{}", r.body);
    let r = call(&s, "POST", &format!("/api/games/{id}/analysis"), None, None);
    assert_eq!(r.status, 202, "{}", r.body);
    let v = until_done(&s, &id);
    assert_eq!(v["evals"].as_array().unwrap().len(), 7);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves[4]["symbol"], "??", "3. Qxg7 hangs the queen: {v}");
    assert_eq!(moves[4]["judgement"], "Blunder");
    assert!(moves[4]["best"].is_string());
    assert!(moves[5].is_null(), "taking the queen is right");
    assert!(v["white"]["blunders"].as_u64().unwrap() >= 1);
    assert_eq!(v["black"]["blunders"], 0);
    // Asked again: nothing new is queued.
    let r = call(&s, "POST", &format!("/api/games/{id}/analysis"), None, None);
    assert_eq!(r.status, 200);

    // The PGN: [%eval] after each move, $4 and the better move at the blunder.
    let pgn = call(&s, "GET", &format!("/game/export/{id}"), None, None).body;
    assert!(pgn.contains("Qxg7 $4"), "{pgn}");
    assert!(
        pgn.contains("Blunder.") && pgn.contains("was best."),
        "{pgn}"
    );
    assert_eq!(pgn.matches("[%eval ").count(), 6, "{pgn}");
    let path = dir.join("analysed.pgn");
    std::fs::write(&path, &pgn).unwrap();
    let script = "import sys, chess.pgn\n\
        g = chess.pgn.read_game(open(sys.argv[1]))\n\
        assert not g.errors, g.errors\n\
        nodes = list(g.mainline())\n\
        print(len(nodes), sum(1 for n in nodes if n.eval() is not None), \
              [sorted(n.nags) for n in nodes][4])\n";
    if let Some(out) = python_reads(script, &path) {
        assert_eq!(
            out.trim(),
            "6 6 [4]",
            "python-chess reads 6 moves, 6 evals, $4 on move 5"
        );
    }
    let extract = std::process::Command::new("pgn-extract")
        .args(["-s", "-r"])
        .arg(&path)
        .output()
        .or_else(|_| {
            std::process::Command::new("/usr/games/pgn-extract")
                .args(["-s", "-r"])
                .arg(&path)
                .output()
        });
    match extract {
        Ok(out) => {
            let said = String::from_utf8_lossy(&out.stderr).into_owned()
                + &String::from_utf8_lossy(&out.stdout);
            // Silent (-s) and only checking (-r), it says nothing of a file it reads whole.
            assert!(out.status.success(), "{said}");
            assert!(said.trim().is_empty(), "pgn-extract: {said}");
        }
        Err(_) => skipped("pgn-extract read-back (apt-get install pgn-extract)"),
    }

    // A game under way is not analysed; an unknown game is a 404.
    let (live, _, _) = common::new_game(&s, r#"{"time_control":"5+3"}"#);
    let r = call(
        &s,
        "POST",
        &format!("/api/games/{live}/analysis"),
        None,
        None,
    );
    assert_eq!(
        (r.status, field(&r.body, "code")),
        (409, "analysis_needs_end")
    );
    assert_eq!(
        call(&s, "POST", "/api/games/nothing/analysis", None, None).status,
        404
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// A job queued when the server dies is done after it starts again.
#[test]
fn a_queued_analysis_survives_a_restart() {
    let (dir, url) = temp_url("analysis-restart");
    let s = start_with(&url, &["--analysis-nodes", "200000"]);
    // A 60-move lichess game (CC0, from the core's test data): 120 positions.
    let id = import(&s, SIXTY_MOVES);
    assert_eq!(
        call(&s, "POST", &format!("/api/games/{id}/analysis"), None, None).status,
        202
    );
    let r = call(&s, "GET", &format!("/api/games/{id}/analysis"), None, None);
    assert!(
        !r.body.contains(r#""status":"done""#),
        "still running when the server dies: {}",
        r.body
    );
    drop(s);
    let s = start_with(&url, &["--analysis-nodes", "20000"]);
    let v = until_done(&s, &id);
    assert_eq!(v["evals"].as_array().unwrap().len(), 120);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// With `--uci-engine`, the external engine (Stockfish here) analyses: the hung queen is a
/// blunder by its judgement too, and a mate it sees is written `#-1`.
#[test]
fn an_external_engine_analyses_when_configured() {
    let Some(stockfish) = common::stockfish() else {
        skipped("the external engine's analysis (apt-get install stockfish)");
        return;
    };
    let (dir, url) = temp_url("analysis-external");
    // The engine's own output is copied aside: proof that it, not the built-in search, spoke.
    let wrapper = common::recording_engine(&dir, stockfish);
    let s = start_with(
        &url,
        &[
            "--analysis-nodes",
            "50000",
            "--uci-engine",
            wrapper.to_str().unwrap(),
        ],
    );
    let id = import(&s, HUNG_QUEEN);
    call(&s, "POST", &format!("/api/games/{id}/analysis"), None, None);
    let v = until_done(&s, &id);
    assert_eq!(v["moves"][4]["symbol"], "??", "{v}");
    let said = std::fs::read_to_string(dir.join("engine.out")).unwrap_or_default();
    let answers = said.lines().filter(|l| l.starts_with("bestmove ")).count();
    assert!(
        said.contains("id name Stockfish") && answers >= 6,
        "each of the game's 6 positions with moves searched by the engine: {answers} answers"
    );
    let mated = import(
        &s,
        "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
    );
    call(
        &s,
        "POST",
        &format!("/api/games/{mated}/analysis"),
        None,
        None,
    );
    let v = until_done(&s, &mated);
    assert_eq!(v["evals"][3]["mate"], -1, "{v}");
    assert!(
        v["evals"][4].is_null(),
        "the mated position has no evaluation: {v}"
    );
    let pgn = call(&s, "GET", &format!("/game/export/{mated}"), None, None).body;
    assert!(pgn.contains("[%eval #-1]"), "{pgn}");
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 50: 100 analyses asked by guests from 10 addresses kept a core busy for 17 minutes.
/// Guests from one address wait for at most two jobs at once, guests in all for twenty (and
/// accounts' jobs are taken first: the store's suite); a job asked twice is no new job.
#[test]
fn guests_wait_for_only_so_many_analyses() {
    let (dir, url) = temp_url("analysis-quota");
    // A big budget: the jobs are still waiting when the quota is reached.
    let s = start_with(&url, &["--analysis-nodes", "5000000", "--trust-proxy"]);
    let from = |address: &str, method: &str, path: &str, body: Option<&str>| {
        common::request_with(&s, method, path, &[("X-Forwarded-For", address)], body).unwrap()
    };
    let ask =
        |address: &str, id: &str| from(address, "POST", &format!("/api/games/{id}/analysis"), None);
    let mut games = Vec::new();
    for i in 0..22 {
        let r = from(
            &format!("198.51.100.{i}"),
            "POST",
            "/api/import",
            Some(SIXTY_MOVES),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        games.push(field(&r.body, "id").to_owned());
    }
    assert_eq!(ask("203.0.113.1", &games[0]).status, 202);
    assert_eq!(ask("203.0.113.1", &games[1]).status, 202);
    // Asked again: where it stands, not a new job.
    assert_eq!(ask("203.0.113.1", &games[1]).status, 200);
    let r = ask("203.0.113.1", &games[2]);
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.body.contains("2 of your analyses"), "{}", r.body);
    // Others are served, up to twenty guests' jobs in all.
    for (i, id) in games[2..20].iter().enumerate() {
        assert_eq!(
            ask(&format!("203.0.113.{}", 10 + i), id).status,
            202,
            "job {i}"
        );
    }
    let r = ask("203.0.113.99", &games[20]);
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.body.contains("log in"), "{}", r.body);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
