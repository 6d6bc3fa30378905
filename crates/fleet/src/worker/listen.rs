//! The worker's HTTP/2 accept loop for the SDK's endpoint. It exists for one
//! reason: the SDK's own server leaves Nagle's algorithm on, and each
//! journaled step is a small write answered by a small write, so every step
//! waited for the peer's delayed ACK (about 40 ms on Linux). Here every
//! connection gets `TCP_NODELAY`. It must never change what is served.

use hyper_util::rt::{TokioExecutor, TokioIo};
use restate_sdk::endpoint::Endpoint;
use restate_sdk::hyper::HyperEndpoint;
use std::future::Future;
use tokio::net::TcpListener;

/// Serves `endpoint` on `listener` until `shutdown` completes.
pub(crate) async fn serve(
    listener: TcpListener,
    endpoint: Endpoint,
    shutdown: impl Future<Output = ()>,
) {
    let endpoint = HyperEndpoint::new(endpoint);
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => return,
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                let _ = stream.set_nodelay(true);
                let connection = hyper::server::conn::http2::Builder::new(TokioExecutor::new())
                    .serve_connection(TokioIo::new(stream), endpoint.clone());
                tokio::spawn(connection);
            }
        }
    }
}
