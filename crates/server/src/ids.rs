//! Random identifiers: game ids, seat tokens (128 bits, from the operating system's random
//! source) and display names for anonymous players.

/// Bytes from the OS's random source; the server cannot run safely without it.
pub(crate) fn random_bytes<const N: usize>() -> [u8; N] {
    let mut buf = [0u8; N];
    if let Err(e) = getrandom::fill(&mut buf) {
        // No randomness means guessable seats: refusing to go on is the only safe answer.
        panic!("the operating system's random source failed: {e}");
    }
    buf
}

const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// An 8-character game id (about 46 bits), easy to read aloud.
pub(crate) fn game_id() -> String {
    random_bytes::<8>()
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect()
}

/// A seat token: 128 random bits as 32 hex digits.
pub(crate) fn seat_token() -> String {
    random_bytes::<16>()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub(crate) const ADJECTIVES: &[&str] = &[
    "Brave", "Calm", "Clever", "Quiet", "Swift", "Bold", "Patient", "Sly", "Merry", "Steady",
];
pub(crate) const ANIMALS: &[&str] = &[
    "Rook", "Crow", "Heron", "Otter", "Badger", "Lynx", "Falcon", "Hare", "Wren", "Fox",
];

/// A random display name such as "Quiet Heron 42".
pub(crate) fn display_name() -> String {
    let [a, b, n] = random_bytes::<3>();
    format!(
        "{} {} {}",
        ADJECTIVES[a as usize % ADJECTIVES.len()],
        ANIMALS[b as usize % ANIMALS.len()],
        n % 100
    )
}

/// A fair coin (for "random" colors).
/// A random 64-bit seed (for the bots' choices).
pub(crate) fn seed() -> u64 {
    u64::from_le_bytes(random_bytes::<8>())
}

pub(crate) fn coin() -> bool {
    random_bytes::<1>()[0] & 1 == 0
}

/// Compares two tokens in time that does not depend on where they differ.
pub(crate) fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_bits_and_differ() {
        let (a, b) = (seat_token(), seat_token());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert!(same_token(&a, &a.clone()));
        assert!(!same_token(&a, &b));
        assert_eq!(game_id().len(), 8);
        assert!(display_name().split(' ').count() == 3);
    }
}
