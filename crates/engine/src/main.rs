//! `rookery-engine`: Rookery's engine over UCI on standard input and output.

fn main() {
    let stdin = std::io::stdin();
    rookery_engine::serve_uci(stdin.lock(), std::io::stdout());
}
