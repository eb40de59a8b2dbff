//! Test suites in EPD (Win At Chess, Bratko-Kopec, ...): positions with the moves that solve
//! them (`bm`) or must be avoided (`am`), in SAN.

use rookery_core::{Move, Position};

/// One test position.
#[derive(Debug, Clone)]
pub struct EpdCase {
    pub id: String,
    pub position: Position,
    /// Any one of these solves it.
    pub best: Vec<Move>,
    /// None of these may be played.
    pub avoid: Vec<Move>,
}

impl EpdCase {
    /// Whether `m` solves the case.
    pub fn solved_by(&self, m: Move) -> bool {
        (self.best.is_empty() || self.best.contains(&m)) && !self.avoid.contains(&m)
    }
}

/// Reads an EPD line (blank lines and `#` comments give `Ok(None)`).
///
/// # Errors
/// A bad position or a move that is not legal in it, as text.
pub fn parse_epd(line: &str) -> Result<Option<EpdCase>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = line.splitn(5, char::is_whitespace).collect();
    if fields.len() < 5 {
        return Err(format!("not an EPD record: {line:?}"));
    }
    let fen = format!("{} 0 1", fields[..4].join(" "));
    let position = Position::from_fen(&fen).map_err(|e| format!("{fen}: {e}"))?;
    let mut case = EpdCase {
        id: String::new(),
        position,
        best: Vec::new(),
        avoid: Vec::new(),
    };
    for op in fields[4].split(';') {
        let op = op.trim();
        let Some((code, operand)) = op.split_once(char::is_whitespace) else {
            continue;
        };
        let operand = operand.trim();
        match code {
            "id" => case.id = operand.trim_matches('"').to_owned(),
            "bm" | "am" => {
                for san in operand.split_whitespace() {
                    let m = position
                        .parse_san(san)
                        .map_err(|e| format!("{}: {code} {san}: {e}", case.id))?;
                    if code == "bm" {
                        case.best.push(m);
                    } else {
                        case.avoid.push(m);
                    }
                }
            }
            _ => {}
        }
    }
    Ok(Some(case))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_suites_shipped_for_the_tests() {
        for (file, n) in [("wac.epd", 300), ("bk.epd", 24)] {
            let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(path).unwrap();
            let cases: Vec<EpdCase> = text.lines().filter_map(|l| parse_epd(l).unwrap()).collect();
            assert_eq!(cases.len(), n, "{file}");
            assert!(
                cases
                    .iter()
                    .all(|c| !c.best.is_empty() || !c.avoid.is_empty())
            );
        }
        let c = parse_epd(
            r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";"#,
        )
        .unwrap()
        .unwrap();
        assert_eq!(c.id, "WAC.001");
        assert_eq!(c.best[0].to_uci().to_string(), "g3g6");
        assert!(parse_epd("8/8/8 w - - bm e4;").is_err());
    }
}
