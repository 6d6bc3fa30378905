//! Server-sent events decoded from raw network bytes.
//!
//! Bytes are buffered and only complete lines are decoded, so a UTF-8
//! character split across two network chunks arrives whole. Pure: no IO, fed
//! by the transport and by tests alike. It must never guess at a line that has
//! not ended yet, except at the very end of the stream.

use thiserror::Error;

/// One event: its `event:` name (if any) and its `data:` lines joined by `\n`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    pub event: Option<String>,
    pub data: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line} of the event stream is not valid UTF-8")]
pub struct SseError {
    pub line: usize,
}

/// Turns byte chunks into events.
#[derive(Debug, Default)]
pub struct SseDecoder {
    pending: Vec<u8>,
    lines_seen: usize,
    event: Option<String>,
    data: Vec<String>,
}

impl SseDecoder {
    /// Takes the next chunk; returns the events it completed.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<SseEvent>, SseError> {
        // What is pending holds no newline: only the new bytes are searched,
        // so a long line costs its length once, not once per chunk.
        let mut searched = self.pending.len();
        self.pending.extend_from_slice(bytes);
        let mut events = Vec::new();
        let mut start = 0;
        while let Some(offset) = self.pending[searched..]
            .iter()
            .position(|byte| *byte == b'\n')
        {
            let end = searched + offset;
            let line = decode_line(&self.pending[start..end], self.lines_seen + 1)?;
            self.lines_seen += 1;
            events.extend(self.on_line(&line));
            start = end + 1;
            searched = start;
        }
        self.pending.drain(..start);
        Ok(events)
    }

    /// The stream ended: a last unterminated line and a pending event count.
    pub fn finish(&mut self) -> Result<Vec<SseEvent>, SseError> {
        let mut events = Vec::new();
        if !self.pending.is_empty() {
            let rest = std::mem::take(&mut self.pending);
            let line = decode_line(&rest, self.lines_seen + 1)?;
            self.lines_seen += 1;
            events.extend(self.on_line(&line));
        }
        events.extend(self.on_line(""));
        Ok(events)
    }

    fn on_line(&mut self, line: &str) -> Option<SseEvent> {
        if line.is_empty() {
            return self.dispatch();
        }
        if line.starts_with(':') {
            return None;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "event" => self.event = Some(value.to_owned()),
            "data" => self.data.push(value.to_owned()),
            _ => {}
        }
        None
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        let event = self.event.take();
        if self.data.is_empty() {
            return None;
        }
        let data = std::mem::take(&mut self.data).join("\n");
        Some(SseEvent { event, data })
    }
}

fn decode_line(bytes: &[u8], line: usize) -> Result<String, SseError> {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    std::str::from_utf8(bytes)
        .map(str::to_owned)
        .map_err(|_| SseError { line })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(text: &str) -> SseEvent {
        SseEvent {
            event: None,
            data: text.to_owned(),
        }
    }

    #[test]
    fn a_character_split_across_chunks_arrives_whole() {
        let bytes = "data: héllo\n\n".as_bytes();
        let split = bytes.iter().position(|byte| *byte == 0xc3).unwrap() + 1;
        let mut decoder = SseDecoder::default();
        let mut events = decoder.feed(&bytes[..split]).unwrap();
        events.extend(decoder.feed(&bytes[split..]).unwrap());
        assert_eq!(events, vec![data("héllo")]);
    }

    #[test]
    fn named_events_multi_line_data_comments_and_crlf_are_understood() {
        let mut decoder = SseDecoder::default();
        let events = decoder
            .feed(b": ping\r\nevent: message_stop\r\ndata: a\r\ndata: b\r\n\r\ndata:[DONE]\n\n")
            .unwrap();
        assert_eq!(
            events,
            vec![
                SseEvent {
                    event: Some("message_stop".into()),
                    data: "a\nb".into()
                },
                data("[DONE]")
            ]
        );
    }

    #[test]
    fn an_unterminated_last_event_is_delivered_at_the_end() {
        let mut decoder = SseDecoder::default();
        assert_eq!(decoder.feed(b"data: last").unwrap(), vec![]);
        assert_eq!(decoder.finish().unwrap(), vec![data("last")]);
    }

    #[test]
    fn invalid_utf8_in_a_complete_line_names_the_line() {
        let mut decoder = SseDecoder::default();
        assert_eq!(
            decoder.feed(b"data: ok\n\ndata: \xff\xfe\n"),
            Err(SseError { line: 3 })
        );
    }
}
