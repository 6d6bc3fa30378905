//! A response body as text for the model: HTML converted to markdown (htmd,
//! turndown.js's rules; scripts, styles and the head left out), anything
//! else as its text. Bytes that are not UTF-8 are replaced, never refused.
//!
//! The converter walks the page recursively, so a hostile page nested deep
//! enough would overflow a stack and abort the process: the conversion runs
//! on a thread of its own with a large stack ([`readable_apart`]), and a page
//! nested deeper than [`MOST_NESTING`] is returned as its text unconverted.

/// The deepest tag nesting converted to markdown; deeper pages stay text.
const MOST_NESTING: usize = 1_000;

/// The stack of the converting thread: room for [`MOST_NESTING`] levels of
/// the converter's recursion many times over (only what is used is touched).
const CONVERTER_STACK: usize = 64 * 1024 * 1024;

/// [`readable`] on a thread of its own, off the async runtime's workers; a
/// thread that cannot start (or fails) leaves the body as its text.
pub(super) async fn readable_apart(body: Vec<u8>, content_type: Option<String>) -> String {
    let (sender, receiver) = tokio::sync::oneshot::channel();
    let fallback = String::from_utf8_lossy(&body).into_owned();
    let started = std::thread::Builder::new()
        .name("webfetch-markdown".to_owned())
        .stack_size(CONVERTER_STACK)
        .spawn(move || {
            let _ = sender.send(readable(&body, content_type.as_deref()));
        });
    match started {
        Ok(_) => receiver.await.unwrap_or(fallback),
        Err(_) => fallback,
    }
}

/// The deepest nesting of tags in `text`, roughly: opening tags count up,
/// closing ones down (void and unclosed elements only make it larger).
fn nesting(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let bytes = text.as_bytes();
    for (index, byte) in bytes.iter().enumerate() {
        if *byte != b'<' {
            continue;
        }
        match bytes.get(index + 1) {
            Some(b'/') => depth = depth.saturating_sub(1),
            Some(next) if next.is_ascii_alphabetic() => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            _ => {}
        }
    }
    deepest
}

/// The body as the model reads it, by its `Content-Type` (or, without one,
/// by whether it looks like HTML).
pub(super) fn readable(body: &[u8], content_type: Option<&str>) -> String {
    let text = String::from_utf8_lossy(body);
    if is_html(content_type, &text) && nesting(&text) <= MOST_NESTING {
        let converter = htmd::HtmlToMarkdown::builder()
            .skip_tags(vec![
                "script", "style", "head", "noscript", "template", "svg", "iframe",
            ])
            .build();
        if let Ok(markdown) = converter.convert(&text) {
            return markdown;
        }
    }
    text.into_owned()
}

fn is_html(content_type: Option<&str>, text: &str) -> bool {
    match content_type {
        Some(kind) => {
            let essence = kind.split(';').next().unwrap_or("").trim();
            essence.eq_ignore_ascii_case("text/html")
                || essence.eq_ignore_ascii_case("application/xhtml+xml")
        }
        None => {
            let start = text.trim_start().get(..15).unwrap_or("");
            start.to_ascii_lowercase().starts_with("<!doctype html")
                || start.to_ascii_lowercase().starts_with("<html")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{readable, readable_apart};

    #[tokio::test]
    async fn a_page_nested_deeper_than_a_stack_holds_comes_back_as_its_text() {
        let deep = format!("{}x{}", "<div>".repeat(200_000), "</div>".repeat(200_000));
        let text = readable_apart(deep.clone().into_bytes(), Some("text/html".to_owned())).await;
        assert_eq!(text, deep);
    }

    #[tokio::test]
    async fn a_page_nested_as_deep_as_allowed_is_converted_on_its_own_thread() {
        let deep = format!("{}x{}", "<div>".repeat(1_000), "</div>".repeat(1_000));
        let text = readable_apart(deep.into_bytes(), Some("text/html".to_owned())).await;
        assert_eq!(text, "x");
    }

    #[test]
    fn html_becomes_markdown_without_scripts_or_styles() {
        let html = "<html><head><title>T</title><style>p{}</style></head><body>\
                    <h1>Title</h1><p>Some <b>bold</b> and a <a href=\"/x\">link</a>.</p>\
                    <script>alert(1)</script><ul><li>one</li><li>two</li></ul></body></html>";
        assert_eq!(
            readable(html.as_bytes(), Some("text/html; charset=utf-8")),
            "# Title\n\nSome **bold** and a [link](/x).\n\n*   one\n*   two"
        );
    }

    #[test]
    fn json_and_plain_text_pass_as_they_are() {
        let json = "{\"a\": \"<b>\"}";
        assert_eq!(
            [
                readable(json.as_bytes(), Some("application/json")),
                readable(b"<b>x</b>", Some("text/plain")),
            ],
            [json.to_owned(), "<b>x</b>".to_owned()]
        );
    }

    #[test]
    fn an_html_document_without_a_content_type_is_converted() {
        assert_eq!(readable(b"<!DOCTYPE html><p>hi</p>", None), "hi".to_owned());
    }
}
