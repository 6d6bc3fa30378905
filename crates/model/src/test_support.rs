//! Test helpers: replay a recorded SSE fixture through the decoder and an
//! accumulator in chunks of any size, exactly as the transport would.

use crate::transport::sse::SseDecoder;
use crate::transport::StreamAccumulator;
use crate::ModelError;

/// Reads `tests/fixtures/<name>`.
pub fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|error| panic!("cannot read {path}: {error}"))
}

/// Feeds `bytes` in chunks of `size`; returns the text deltas, or the first error.
pub fn replay(
    bytes: &[u8],
    size: usize,
    accumulator: &mut dyn StreamAccumulator,
) -> Result<Vec<String>, ModelError> {
    let mut decoder = SseDecoder::default();
    let mut deltas = Vec::new();
    let mut events = Vec::new();
    for chunk in bytes.chunks(size) {
        events.extend(
            decoder
                .feed(chunk)
                .map_err(|e| ModelError::Protocol(e.to_string()))?,
        );
    }
    events.extend(
        decoder
            .finish()
            .map_err(|e| ModelError::Protocol(e.to_string()))?,
    );
    for event in events {
        if let Some(text) = accumulator.on_event(&event)? {
            deltas.push(text);
        }
        if accumulator.is_done() {
            break;
        }
    }
    Ok(deltas)
}
