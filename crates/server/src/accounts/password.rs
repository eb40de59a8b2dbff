//! Passwords: Argon2id (the `argon2` crate's defaults, OWASP's: 19 MiB, 2 passes, 1 lane),
//! computed on a blocking thread and one at a time, so that log-ins never hold a runtime
//! worker and never take more than one core from the game rooms.

use crate::refusal::Code;
use std::sync::Arc;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::Semaphore;

/// The shortest password accepted.
pub(crate) const MIN_LEN: usize = 8;
/// The longest: hashing cost grows with length, and nobody types more.
pub(crate) const MAX_LEN: usize = 200;

fn argon2() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::default())
}

/// The hash of `password` as a PHC string (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`).
pub(crate) fn hash_now(password: &str) -> String {
    let salt = SaltString::encode_b64(&crate::ids::random_bytes::<16>())
        .expect("16 bytes are a valid salt");
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .expect("Argon2 hashes any password within MAX_LEN")
        .to_string()
}

/// Whether `password` matches the stored `hash`; an unreadable hash matches nothing.
pub(crate) fn verify_now(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| {
        argon2()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    })
}

/// A hash of no password anyone has: checked against when the account does not exist, so
/// that a wrong name costs as long as a wrong password and tells nothing.
static DECOY: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| hash_now(&crate::ids::seat_token()));

/// Hashes and checks passwords off the async runtime, one at a time.
#[derive(Debug, Clone)]
pub(crate) struct Passwords {
    permits: Arc<Semaphore>,
}

impl Default for Passwords {
    fn default() -> Self {
        Passwords {
            permits: Arc::new(Semaphore::new(1)),
        }
    }
}

impl Passwords {
    async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> T {
        // The semaphore is never closed.
        let _permit = self.permits.acquire().await.expect("semaphore open");
        tokio::task::spawn_blocking(work)
            .await
            .expect("password hashing does not panic")
    }

    pub(crate) async fn hash(&self, password: &str) -> String {
        let password = password.to_owned();
        self.run(move || hash_now(&password)).await
    }

    /// Whether `password` matches `hash`; with no hash (no such account), the decoy's
    /// cost is paid and the answer is no.
    pub(crate) async fn verify(&self, password: &str, hash: Option<String>) -> bool {
        let password = password.to_owned();
        self.run(move || match hash {
            Some(hash) => verify_now(&password, &hash),
            None => {
                verify_now(&password, &DECOY);
                false
            }
        })
        .await
    }
}

/// Whether a new password is acceptable: `Err` with the refusal code and sentence.
pub(crate) fn check_new(password: &str) -> Result<(), (Code, &'static str)> {
    let n = password.chars().count();
    if n < MIN_LEN {
        Err((Code::PasswordShort, "a password has at least 8 characters"))
    } else if password.len() > MAX_LEN {
        Err((Code::PasswordLong, "a password has at most 200 bytes"))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_argon2id_salted_and_verify() {
        let a = hash_now("correct horse");
        let b = hash_now("correct horse");
        assert!(a.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{a}");
        assert_ne!(a, b, "each hash has its own salt");
        assert!(verify_now("correct horse", &a));
        assert!(!verify_now("correct horsf", &a));
        assert!(!verify_now("correct horse", "not a hash"));
        assert!(check_new("1234567").is_err());
        assert!(check_new("12345678").is_ok());
        assert!(check_new(&"x".repeat(201)).is_err());
    }
}
