//! The one way the workspace builds an HTTP client: providers, http hooks and the
//! fleet client all go through [`http_client`], so all of them use one `reqwest`
//! and one TLS set-up.
//!
//! `reqwest` is built with rustls but without a bundled crypto provider (the
//! default would compile a second one, aws-lc, beside the `ring` that rustls
//! already carries). This module installs `ring` as the process default, once,
//! unless the embedder installed a provider of its own first. It must never
//! replace a provider someone else installed.

use std::sync::Once;

/// A client builder whose TLS is ready: certificates are checked against the
/// system's trust store.
pub fn http_client() -> reqwest::ClientBuilder {
    install_crypto_provider();
    reqwest::Client::builder()
}

fn install_crypto_provider() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if rustls::crypto::CryptoProvider::get_default().is_none() {
            // Losing a race to another installer leaves theirs in place: fine.
            let _ = rustls::crypto::ring::default_provider().install_default();
        }
    });
}
