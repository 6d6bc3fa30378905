//! A response body as text for the model: HTML converted to markdown (htmd,
//! turndown.js's rules; scripts, styles and the head left out), anything
//! else as its text. Bytes that are not UTF-8 are replaced, never refused.

/// The body as the model reads it, by its `Content-Type` (or, without one,
/// by whether it looks like HTML).
pub(super) fn readable(body: &[u8], content_type: Option<&str>) -> String {
    let text = String::from_utf8_lossy(body);
    if is_html(content_type, &text) {
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
    use super::readable;

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
