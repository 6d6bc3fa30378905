//! WebFetch against a loopback HTTP server: `127.0.0.1` and `localhost` are
//! two hosts on one machine, so a redirect between them is cross-host.

use super::*;
use crate::{FetchGuard, FetchJudgement, Workspace};
use std::collections::HashMap;
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// Serves `routes(port)` (path → raw response) on 127.0.0.1; returns the port.
async fn serve(routes: impl FnOnce(u16) -> Vec<(String, String)>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let routes: Arc<HashMap<String, String>> = Arc::new(routes(port).into_iter().collect());
    tokio::spawn(async move {
        loop {
            let (mut stream, _) = listener.accept().await.unwrap();
            let routes = routes.clone();
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buffer = [0u8; 1024];
                while !request.windows(4).any(|window| window == b"\r\n\r\n") {
                    let read = stream.read(&mut buffer).await.unwrap();
                    if read == 0 {
                        return;
                    }
                    request.extend_from_slice(&buffer[..read]);
                }
                let text = String::from_utf8_lossy(&request);
                let path = text.split(' ').nth(1).unwrap_or("/").to_owned();
                let response = routes
                    .get(&path)
                    .cloned()
                    .unwrap_or_else(|| raw("404 Not Found", "text/plain", "", "missing"));
                let _ = stream.write_all(response.as_bytes()).await;
                let _ = stream.shutdown().await;
            });
        }
    });
    port
}

fn raw(status: &str, content_type: &str, extra: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n{body}",
        body.len()
    )
}

fn page(content_type: &str, body: &str) -> String {
    raw("200 OK", content_type, "", body)
}

fn redirect(to: &str) -> String {
    raw(
        "302 Found",
        "text/plain",
        &format!("Location: {to}\r\n"),
        "",
    )
}

fn route(path: &str, response: String) -> (String, String) {
    (path.to_owned(), response)
}

async fn fetch_with(
    tool: WebFetch,
    url: &str,
    guard: Option<FetchGuard>,
) -> Result<ToolOutput, ToolError> {
    let mut workspace = Workspace::new("/tmp");
    if let Some(guard) = guard {
        workspace = workspace.with_fetch_guard(guard);
    }
    let context = ToolContext {
        workspace,
        cancel: CancellationToken::new(),
    };
    let input = WebFetchInput {
        url: url.to_owned(),
        prompt: "Find the title.".to_owned(),
    };
    tool.call(input, context).await
}

async fn fetch_text(url: &str, guard: Option<FetchGuard>) -> Result<String, String> {
    fetch_with(WebFetch::default(), url, guard)
        .await
        .map(|output| output.text)
        .map_err(|error| error.message)
}

/// A guard that answers by host: denied and allowed names, the rest asks.
fn guard(denied: &'static str, allowed: &'static str) -> FetchGuard {
    Arc::new(move |url: &str| {
        let host = url::Url::parse(url).unwrap().host_str().unwrap().to_owned();
        match host.as_str() {
            host if host == denied => FetchJudgement::Deny(format!("{host} is denied")),
            host if host == allowed => FetchJudgement::Allow,
            _ => FetchJudgement::Ask("no rule".to_owned()),
        }
    })
}

#[tokio::test]
async fn an_html_page_comes_back_after_the_prompt_as_markdown() {
    let html = "<html><body><h1>Docs</h1><p>Read <em>this</em>.</p></body></html>";
    let port = serve(|_| vec![route("/doc", page("text/html", html))]).await;
    let url = format!("http://127.0.0.1:{port}/doc");
    let output = fetch_with(WebFetch::default(), &url, None).await.unwrap();
    assert_eq!(
        output,
        ToolOutput::with_structured(
            format!("Find the title.\n\n[Content of {url} (200 OK)]\n# Docs\n\nRead *this*."),
            json!({"url": url, "code": 200, "codeText": "OK", "bytes": html.len(),
                   "result": "# Docs\n\nRead *this*."}),
        )
    );
}

#[tokio::test]
async fn redirects_within_the_host_are_followed() {
    let port = serve(|port| {
        vec![
            route("/old", redirect("/older")),
            route("/older", redirect(&format!("http://127.0.0.1:{port}/new"))),
            route("/new", page("application/json", "{\"ok\": true}")),
        ]
    })
    .await;
    let text = fetch_text(&format!("http://127.0.0.1:{port}/old"), None).await;
    assert_eq!(
        text,
        Ok(format!(
            "Find the title.\n\n[Content of http://127.0.0.1:{port}/new (200 OK)]\n{{\"ok\": true}}"
        ))
    );
}

#[tokio::test]
async fn a_sixth_redirect_is_refused() {
    let port = serve(|_| {
        (0..7)
            .map(|hop| route(&format!("/r{hop}"), redirect(&format!("/r{}", hop + 1))))
            .collect()
    })
    .await;
    let text = fetch_text(&format!("http://127.0.0.1:{port}/r0"), None).await;
    assert_eq!(
        text,
        Err(format!(
            "stopped after 5 redirects: http://127.0.0.1:{port}/r5 redirects again, to http://127.0.0.1:{port}/r6"
        ))
    );
}

#[tokio::test]
async fn five_redirects_are_followed() {
    let port = serve(|_| {
        let mut routes: Vec<(String, String)> = (0..5)
            .map(|hop| route(&format!("/r{hop}"), redirect(&format!("/r{}", hop + 1))))
            .collect();
        routes.push(route("/r5", page("text/plain", "end")));
        routes
    })
    .await;
    let text = fetch_text(&format!("http://127.0.0.1:{port}/r0"), None).await;
    assert_eq!(
        text,
        Ok(format!(
            "Find the title.\n\n[Content of http://127.0.0.1:{port}/r5 (200 OK)]\nend"
        ))
    );
}

#[tokio::test]
async fn a_redirect_to_a_host_that_would_ask_is_returned_for_the_model_to_fetch() {
    let port = serve(|port| {
        vec![route(
            "/go",
            redirect(&format!("http://localhost:{port}/x")),
        )]
    })
    .await;
    let from = format!("http://127.0.0.1:{port}/go");
    let output = fetch_with(WebFetch::default(), &from, Some(guard("", "")))
        .await
        .unwrap();
    let to = format!("http://localhost:{port}/x");
    assert_eq!(
        output,
        ToolOutput::with_structured(
            format!(
                "REDIRECT: {from} redirects (302 Found) to {to}, which needs permission of its \
                 own. To fetch it, call WebFetch again with url \"{to}\" and the same prompt."
            ),
            json!({"url": from, "code": 302, "codeText": "Found", "redirectUrl": to}),
        )
    );
}

#[tokio::test]
async fn without_a_guard_a_cross_host_redirect_is_returned_too() {
    let port = serve(|port| {
        vec![route(
            "/go",
            redirect(&format!("http://localhost:{port}/x")),
        )]
    })
    .await;
    let text = fetch_text(&format!("http://127.0.0.1:{port}/go"), None)
        .await
        .unwrap();
    assert!(text.starts_with("REDIRECT: "), "{text}");
}

#[tokio::test]
async fn a_redirect_to_an_allowed_host_is_followed() {
    let port = serve(|port| {
        vec![
            route("/go", redirect(&format!("http://localhost:{port}/x"))),
            route("/x", page("text/plain", "there")),
        ]
    })
    .await;
    let text = fetch_text(
        &format!("http://127.0.0.1:{port}/go"),
        Some(guard("", "localhost")),
    )
    .await;
    assert_eq!(
        text,
        Ok(format!(
            "Find the title.\n\n[Content of http://localhost:{port}/x (200 OK)]\nthere"
        ))
    );
}

#[tokio::test]
async fn a_redirect_to_a_denied_host_is_refused() {
    let port = serve(|port| {
        vec![route(
            "/go",
            redirect(&format!("http://localhost:{port}/x")),
        )]
    })
    .await;
    let text = fetch_text(
        &format!("http://127.0.0.1:{port}/go"),
        Some(guard("localhost", "")),
    )
    .await;
    assert_eq!(
        text,
        Err(format!(
            "http://127.0.0.1:{port}/go redirects to http://localhost:{port}/x, which is refused: localhost is denied"
        ))
    );
}

#[tokio::test]
async fn a_redirect_to_another_scheme_is_refused() {
    let port = serve(|_| vec![route("/go", redirect("file:///etc/passwd"))]).await;
    let text = fetch_text(&format!("http://127.0.0.1:{port}/go"), None).await;
    assert_eq!(
        text,
        Err(format!(
            "http://127.0.0.1:{port}/go redirects to file:///etc/passwd, which is not fetched: \
             \"file:///etc/passwd\" is a file: URL; only http and https URLs are fetched"
        ))
    );
}

#[tokio::test]
async fn a_body_over_the_byte_cap_is_read_only_up_to_it() {
    let body = "x".repeat(5000);
    let port = serve(|_| vec![route("/big", page("text/plain", &body))]).await;
    let url = format!("http://127.0.0.1:{port}/big");
    let output = fetch_with(WebFetch::default().with_max_bytes(10), &url, None)
        .await
        .unwrap();
    assert_eq!(
        output.text,
        format!(
            "Find the title.\n\n[Content of {url} (200 OK) [only its first 10 bytes were read]]\nxxxxxxxxxx"
        )
    );
}

#[tokio::test]
async fn an_error_status_is_a_tool_error_naming_it() {
    let port = serve(|_| vec![]).await;
    let text = fetch_text(&format!("http://127.0.0.1:{port}/nothing"), None).await;
    assert_eq!(
        text,
        Err(format!(
            "http://127.0.0.1:{port}/nothing answered 404 Not Found"
        ))
    );
}

#[tokio::test]
async fn a_url_that_is_not_http_is_refused_before_any_connection() {
    let text = fetch_text("ftp://example.com/x", None).await;
    assert_eq!(
        text,
        Err("\"ftp://example.com/x\" is a ftp: URL; only http and https URLs are fetched".into())
    );
}

#[tokio::test]
async fn a_redirect_to_another_port_of_the_same_host_that_would_ask_is_returned() {
    let other = serve(|_| vec![route("/x", page("text/plain", "other port"))]).await;
    let port = serve(move |_| {
        vec![route(
            "/go",
            redirect(&format!("http://127.0.0.1:{other}/x")),
        )]
    })
    .await;
    let text = fetch_text(&format!("http://127.0.0.1:{port}/go"), Some(guard("", "")))
        .await
        .unwrap();
    assert!(text.starts_with("REDIRECT: "), "{text}");
}
