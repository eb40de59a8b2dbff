//! Secret tokens (sessions, API tokens, password-reset links): 256 random bits, given to
//! their holder once and stored only as their SHA-256, so a copy of the database lets nobody
//! in. A fast hash is right here, unlike for passwords: 256 random bits cannot be guessed.

use sha2::{Digest, Sha256};

/// A new token with the given prefix (`rks_` sessions, `rkp_` personal API tokens, `rkr_`
/// reset links), and its hash.
pub(crate) fn new(prefix: &str) -> (String, String) {
    let bytes = crate::ids::random_bytes::<32>();
    let token = format!("{prefix}{}", hex(&bytes));
    let hash = hash(&token);
    (token, hash)
}

/// The stored form of a token.
pub(crate) fn hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn tokens_hold_256_bits_and_are_stored_hashed() {
        let (token, hash) = super::new("rks_");
        assert_eq!(token.len(), 4 + 64);
        assert_eq!(hash.len(), 64);
        assert_ne!(token[4..], hash);
        assert_eq!(super::hash(&token), hash);
        assert_ne!(super::new("rks_").0, token);
        // SHA-256 of "abc" (FIPS 180-2, appendix B.1).
        assert_eq!(
            super::hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
