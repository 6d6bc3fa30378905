//! `AGENTHUB_FLEET_SECRET` (contract §26): with it set, every task submitted
//! (`batch --restate`) and every `status`, `approve` and `cancel` carries an
//! HMAC-SHA256 of what it asks, keyed by the secret, in the
//! `x-agenthub-signature` header; a worker with the secret refuses a request
//! without the right one. Restate passes ingress headers on to the handler,
//! so the check needs nothing from the Restate server.
//!
//! What is signed: the handler's name, the task's id and the request's JSON
//! body (as this crate serialises it), one per line, so a signature for one
//! task's `approve` cannot be replayed on another task or handler. It must
//! never log or echo the secret, and compares signatures in constant time.

use sha2::{Digest, Sha256};

/// The environment variable holding the secret.
pub const FLEET_SECRET_VARIABLE: &str = "AGENTHUB_FLEET_SECRET";

/// The request header carrying the signature.
pub const SIGNATURE_HEADER: &str = "x-agenthub-signature";

/// The secret from the environment; unset or empty is none.
pub fn fleet_secret() -> Option<String> {
    std::env::var(FLEET_SECRET_VARIABLE)
        .ok()
        .filter(|secret| !secret.is_empty())
}

/// The hex HMAC-SHA256 of one request: `handler`, task `key`, `body`.
pub fn sign(secret: &str, handler: &str, key: &str, body: &[u8]) -> String {
    let mut message = format!("{handler}\n{key}\n").into_bytes();
    message.extend_from_slice(body);
    hmac_sha256(secret.as_bytes(), &message)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// Whether `given` is the signature of this request.
pub fn verify(secret: &str, handler: &str, key: &str, body: &[u8], given: Option<&str>) -> bool {
    let expected = sign(secret, handler, key, body);
    let Some(given) = given else {
        return false;
    };
    given.len() == expected.len()
        && given
            .bytes()
            .zip(expected.bytes())
            .fold(0u8, |differ, (a, b)| differ | (a ^ b))
            == 0
}

/// HMAC (RFC 2104) over SHA-256.
fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    const BLOCK: usize = 64;
    let mut block = [0u8; BLOCK];
    if key.len() > BLOCK {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| block.map(|k| k ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_sha256_matches_rfc_4231_case_2() {
        let mac: String = hmac_sha256(b"Jefe", b"what do ya want for nothing?")
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect();
        assert_eq!(
            mac,
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn a_signature_holds_only_for_its_handler_task_and_body() {
        let signature = sign("s3cret", "approve", "task-1", b"{\"call_id\":\"c1\"}");
        let checks = [
            verify(
                "s3cret",
                "approve",
                "task-1",
                b"{\"call_id\":\"c1\"}",
                Some(&signature),
            ),
            verify(
                "s3cret",
                "approve",
                "task-2",
                b"{\"call_id\":\"c1\"}",
                Some(&signature),
            ),
            verify(
                "s3cret",
                "run",
                "task-1",
                b"{\"call_id\":\"c1\"}",
                Some(&signature),
            ),
            verify(
                "other",
                "approve",
                "task-1",
                b"{\"call_id\":\"c1\"}",
                Some(&signature),
            ),
            verify("s3cret", "approve", "task-1", b"{\"call_id\":\"c1\"}", None),
        ];
        assert_eq!(checks, [true, false, false, false, false]);
    }
}
