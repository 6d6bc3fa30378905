//! WebFetch through the real binary (contract §32): a scripted model calls
//! it against a loopback server; the user settings hold the rules and
//! `sandbox.network`. `localhost` and `127.0.0.1` are two hosts of one
//! server, so the domain lists can allow one and not the other.

use crate::support::home::Home;
use serde_json::{json, Value};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// A server with `/doc` (HTML) and `/big` (plain text of `big` bytes).
async fn server(big: usize) -> MockServer {
    let server = MockServer::start().await;
    let html = "<html><head><script>x()</script></head><body><h1>Guide</h1>\
                <p>Install with <code>make</code>.</p></body></html>";
    Mock::given(method("GET"))
        .and(path("/doc"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(html, "text/html"))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/big"))
        .respond_with(ResponseTemplate::new(200).set_body_raw("y".repeat(big), "text/plain"))
        .mount(&server)
        .await;
    server
}

fn port(server: &MockServer) -> u16 {
    server.address().port()
}

/// Runs one scripted WebFetch of `url` with `flags`; the tool result's
/// text and the last permission record's `effect (source)`; its stderr is
/// left in `stderr.txt`.
fn fetch(home: &Home, url: &str, flags: &[&str]) -> (String, String) {
    let script = json!({"turns": [
        {"tool_calls": [{"id": "c1", "name": "WebFetch",
                         "arguments": {"url": url, "prompt": "How is it installed?"}}]},
        {"content": "done"}
    ]});
    let script_file = home.base.join("script.json");
    std::fs::write(&script_file, script.to_string()).unwrap();
    let transcript = home.base.join("t.jsonl");
    let _ = std::fs::remove_file(&transcript);
    let output = home
        .agenthub()
        .arg("run")
        .arg("--script")
        .arg(&script_file)
        .arg("--transcript")
        .arg(&transcript)
        .args(flags)
        .arg("go")
        .output()
        .unwrap();
    std::fs::write(home.base.join("stderr.txt"), output.stderr).unwrap();
    let records: Vec<Value> = std::fs::read_to_string(&transcript)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let result = records
        .iter()
        .map(|record| &record["message"]["content"][0])
        .find(|block| block["type"] == "tool_result")
        .map(|block| block["content"].as_str().unwrap().to_owned())
        .unwrap();
    let permission = records
        .iter()
        .rfind(|record| record["type"] == "permission")
        .map(|record| format!("{} ({})", record["effect"], record["source"]))
        .unwrap_or_default();
    (result, permission.replace('"', ""))
}

#[tokio::test]
async fn an_allowed_fetch_returns_the_prompt_then_the_page_as_markdown() {
    let server = server(0).await;
    let home = Home::new();
    home.settings(json!({"permissions": {"allow": ["WebFetch(domain:127.0.0.1)"]}}));
    let url = format!("http://127.0.0.1:{}/doc", port(&server));
    assert_eq!(
        fetch(&home, &url, &[]),
        (
            format!(
                "How is it installed?\n\n[Content of {url} (200 OK)]\n# Guide\n\nInstall with `make`."
            ),
            "allow (rule)".to_owned()
        )
    );
}

#[tokio::test]
async fn headless_a_fetch_no_rule_allows_is_refused_with_the_domain_rule_that_would() {
    let server = server(0).await;
    let home = Home::new();
    let url = format!("http://127.0.0.1:{}/doc", port(&server));
    assert_eq!(
        fetch(&home, &url, &[]),
        (
            "Error [permission_denied]: the tool was not run: permission denied: approval \
             required"
                .to_owned(),
            "deny (approval)".to_owned()
        )
    );
    let stderr = std::fs::read_to_string(home.base.join("stderr.txt")).unwrap();
    assert_eq!(
        stderr.lines().last(),
        Some(
            "[Permission] WebFetch needs approval and no one can answer here: re-run with \
             --allow 'WebFetch(domain:127.0.0.1)'"
        )
    );
}

#[tokio::test]
async fn a_page_over_the_output_cap_is_cut_and_saved_whole() {
    let server = server(40_000).await;
    let home = Home::new();
    let url = format!("http://127.0.0.1:{}/big", port(&server));
    let (result, _) = fetch(&home, &url, &["--allow", "WebFetch"]);
    let whole = format!(
        "How is it installed?\n\n[Content of {url} (200 OK)]\n{}",
        "y".repeat(40_000)
    );
    let (start, saved) = result
        .split_once("\n[WebFetch output cut at 30000 of ")
        .unwrap();
    let file = saved
        .split_once("; the whole text is in ")
        .unwrap()
        .1
        .trim_end_matches(']');
    assert_eq!(
        (
            start.chars().count(),
            saved.split_once(' ').unwrap().0,
            std::fs::read_to_string(file).unwrap() == whole
        ),
        (30_000, whole.chars().count().to_string().as_str(), true)
    );
}

#[tokio::test]
async fn the_domain_lists_allow_localhost_but_not_its_address() {
    let server = server(0).await;
    let home = Home::new();
    home.settings(json!({"sandbox": {"network": {"allowedDomains": ["localhost"]}}}));
    let by_name = fetch(
        &home,
        &format!("http://localhost:{}/doc", port(&server)),
        &[],
    );
    let by_address = fetch(
        &home,
        &format!("http://127.0.0.1:{}/doc", port(&server)),
        &[],
    );
    assert_eq!(
        (by_name.1, by_address.1),
        ("allow (sandbox)".to_owned(), "deny (approval)".to_owned())
    );
}

#[tokio::test]
async fn a_denied_domain_is_refused_whatever_the_rules_and_the_mode_say() {
    let server = server(0).await;
    let home = Home::new();
    home.settings(json!({
        "permissions": {"allow": ["WebFetch"]},
        "sandbox": {"network": {"deniedDomains": ["localhost"]}}
    }));
    let url = format!("http://localhost:{}/doc", port(&server));
    assert_eq!(
        fetch(&home, &url, &["--permission-mode", "bypassPermissions"]),
        (
            "Error [permission_denied]: the tool was not run: permission denied: localhost is \
             refused by sandbox.network.deniedDomains (localhost)"
                .to_owned(),
            "deny (sandbox)".to_owned()
        )
    );
}

#[test]
fn explain_names_the_domain_rule_that_decides_a_fetch() {
    let home = Home::new();
    home.settings(json!({"permissions": {"deny": ["WebFetch(domain:*.example.com)"]}}));
    let settings = home.base.join("home/.config/agenthub/settings.json");
    let output = home
        .agenthub()
        .args(["permissions", "explain", "WebFetch"])
        .arg(json!({"url": "https://docs.example.com/x", "prompt": "p"}).to_string())
        .output()
        .unwrap();
    let rule = format!("WebFetch(domain:*.example.com) ({})", settings.display());
    assert_eq!(
        String::from_utf8(output.stdout).unwrap().lines().last(),
        Some(
            format!(
                "decision: deny (rule, {rule}) - WebFetch(domain:docs.example.com) matches deny \
                 rule {rule}"
            )
            .as_str()
        )
    );
}

#[test]
fn a_bare_webfetch_deny_rule_withholds_the_tool_and_a_domain_one_does_not() {
    let home = Home::new();
    let tools = |flags: &[&str]| -> bool {
        let output = home
            .agenthub()
            .args([
                "run",
                "--output-format",
                "stream-json",
                "--verbose",
                "--script",
            ])
            .arg({
                let file = home.base.join("s.json");
                std::fs::write(&file, json!({"turns": [{"content": "ok"}]}).to_string()).unwrap();
                file
            })
            .args(flags)
            .arg("go")
            .output()
            .unwrap();
        let init: Value = serde_json::from_str(
            String::from_utf8(output.stdout)
                .unwrap()
                .lines()
                .next()
                .unwrap(),
        )
        .unwrap();
        init["tools"]
            .as_array()
            .unwrap()
            .contains(&json!("WebFetch"))
    };
    assert_eq!(
        (
            tools(&["--deny", "WebFetch"]),
            tools(&["--deny", "WebFetch(domain:example.com)"])
        ),
        (false, true)
    );
}

#[tokio::test]
async fn a_redirect_to_another_host_is_followed_only_when_the_policy_allows_that_host() {
    let server = server(0).await;
    let to = format!("http://localhost:{}/doc", port(&server));
    Mock::given(method("GET"))
        .and(path("/moved"))
        .respond_with(ResponseTemplate::new(302).insert_header("Location", to.as_str()))
        .mount(&server)
        .await;
    let home = Home::new();
    let from = format!("http://127.0.0.1:{}/moved", port(&server));
    let allow_first = ["--allow", "WebFetch(domain:127.0.0.1)"];
    let asked = fetch(&home, &from, &allow_first).0;
    home.settings(json!({"sandbox": {"network": {"allowedDomains": ["localhost"]}}}));
    let followed = fetch(&home, &from, &allow_first).0;
    assert_eq!(
        (asked, followed),
        (
            format!(
                "REDIRECT: {from} redirects (302 Found) to {to}, which needs permission of its \
                 own. To fetch it, call WebFetch again with url \"{to}\" and the same prompt."
            ),
            format!(
                "How is it installed?\n\n[Content of {to} (200 OK)]\n# Guide\n\nInstall with `make`."
            )
        )
    );
}
