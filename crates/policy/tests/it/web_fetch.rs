//! WebFetch (contract §32): `WebFetch(domain:…)` rules, `sandbox.network`'s
//! domain lists as one participant, the headless hint, session grants and
//! the judgement a redirect is put to.

use crate::support;

use agenthub_policy::{
    CallView, HowToAllow, PermissionMode, PermissionPolicy, PolicyEngine, SessionGrants, Source,
};
use agenthub_protocol::ToolCall;
use agenthub_sandbox::DomainLists;
use agenthub_tools::{FetchJudgement, ToolEffect, ToolRegistry};
use serde_json::{json, Value};
use support::{declared, Allow, Ask, Battery, Deny};

fn fetch(url: &str) -> Value {
    json!({"url": url, "prompt": "p"})
}

fn lists(allowed: &[&str], denied: &[&str]) -> DomainLists {
    let read = |texts: &[&str]| texts.iter().map(|text| text.parse().unwrap()).collect();
    DomainLists {
        allowed: read(allowed),
        denied: read(denied),
    }
}

/// `(effect, source, rule)` of fetching each URL under `rules`.
fn decided(
    engine: &PolicyEngine,
    battery: &Battery,
    urls: &[&str],
) -> Vec<(agenthub_protocol::PermissionEffect, Source)> {
    urls.iter()
        .map(|url| {
            let decision = battery
                .explain(engine, "WebFetch", fetch(url), None)
                .decision;
            (decision.effect, decision.source)
        })
        .collect()
}

#[test]
fn a_domain_rule_covers_that_host_only_and_a_wildcard_the_names_below_it() {
    let battery = Battery::new();
    let engine = battery.engine_with(
        PermissionMode::Default,
        json!({"allow": ["WebFetch(domain:example.com)", "WebFetch(domain:*.example.org)"]}),
    );
    let urls = [
        "https://example.com/docs",
        "https://www.example.com/",
        "https://docs.example.org/x",
        "https://example.org/",
    ];
    assert_eq!(
        decided(&engine, &battery, &urls),
        [
            (Allow, Source::Rule),
            (Ask, Source::Default),
            (Allow, Source::Rule),
            (Ask, Source::Default),
        ]
    );
}

#[test]
fn webfetch_asks_by_default_a_deny_rule_refuses_and_a_bare_rule_covers_every_host() {
    let battery = Battery::new();
    let default = battery.engine(PermissionMode::Default);
    let denied = battery.engine_with(
        PermissionMode::Default,
        json!({"deny": ["WebFetch(domain:example.com)"], "allow": ["WebFetch"]}),
    );
    let any = battery.engine_with(
        PermissionMode::Default,
        json!({"allow": ["WebFetch(domain:*)"]}),
    );
    let url = ["https://example.com/"];
    let other = ["https://example.net/"];
    assert_eq!(
        [
            decided(&default, &battery, &url),
            decided(&denied, &battery, &url),
            decided(&denied, &battery, &other),
            decided(&any, &battery, &other),
        ],
        [
            [(Ask, Source::Default)],
            [(Deny, Source::Rule)],
            [(Allow, Source::Rule)],
            [(Allow, Source::Rule)],
        ]
    );
}

#[test]
fn the_deny_reason_names_the_rule_and_the_host() {
    let battery = Battery::new();
    let engine = battery.engine_with(
        PermissionMode::Default,
        json!({"deny": ["WebFetch(domain:example.com)"]}),
    );
    let decision = battery
        .explain(&engine, "WebFetch", fetch("https://example.com/a"), None)
        .decision;
    let rule = format!(
        "WebFetch(domain:example.com) ({})",
        battery.proj(".agenthub/settings.json").display()
    );
    assert_eq!(
        (decision.reason, decision.rule),
        (
            format!("WebFetch(domain:example.com) matches deny rule {rule}"),
            Some(rule)
        )
    );
}

#[test]
fn the_domain_lists_allow_what_they_allow_and_leave_the_rest_to_the_rules() {
    let battery = Battery::new();
    let engine = battery
        .engine(PermissionMode::Default)
        .with_domain_lists(lists(&["localhost"], &[]));
    assert_eq!(
        decided(
            &engine,
            &battery,
            &["http://localhost:8080/x", "http://127.0.0.1:8080/x"]
        ),
        [(Allow, Source::Sandbox), (Ask, Source::Default)]
    );
}

#[test]
fn a_denied_domain_beats_an_allow_rule_and_bypass_mode() {
    let battery = Battery::new();
    let engine = battery
        .engine_with(
            PermissionMode::BypassPermissions,
            json!({"allow": ["WebFetch(domain:*.example.com)"]}),
        )
        .with_domain_lists(lists(&["*.example.com"], &["secret.example.com"]));
    let decision = battery
        .explain(
            &engine,
            "WebFetch",
            fetch("https://secret.example.com/"),
            None,
        )
        .decision;
    assert_eq!(
        (decision.effect, decision.source, decision.reason),
        (
            Deny,
            Source::Sandbox,
            "secret.example.com is refused by sandbox.network.deniedDomains (secret.example.com)"
                .to_owned()
        )
    );
}

#[test]
fn without_domain_lists_only_webfetch_rules_apply() {
    let battery = Battery::new();
    let engine = battery.engine(PermissionMode::Default);
    assert_eq!(
        decided(&engine, &battery, &["http://localhost:8080/x"]),
        [(Ask, Source::Default)]
    );
}

#[test]
fn plan_mode_lets_a_fetch_ask_instead_of_refusing_it() {
    let battery = Battery::new();
    let engine = battery.engine(PermissionMode::Plan);
    assert_eq!(
        decided(&engine, &battery, &["https://example.com/"]),
        [(Ask, Source::Default)]
    );
}

#[test]
fn a_url_that_is_not_http_cannot_be_evaluated() {
    let battery = Battery::new();
    let engine = battery.engine(PermissionMode::Default);
    let capabilities = declared("WebFetch");
    let input = fetch("file:///etc/passwd");
    let call = CallView {
        tool: "WebFetch",
        effect: ToolEffect::SideEffects,
        capabilities: &capabilities,
        input: &input,
    };
    assert_eq!(
        engine
            .explain(call, None, &battery.workspace)
            .unwrap_err()
            .to_string(),
        "permission could not be evaluated: WebFetch cannot fetch it: \"file:///etc/passwd\" is \
         a file: URL; only http and https URLs are fetched"
    );
}

#[test]
fn the_headless_hint_is_a_domain_rule_that_really_allows_the_fetch() {
    let battery = Battery::new();
    let engine = battery.engine(PermissionMode::Default);
    let tools = ToolRegistry::with_builtins().unwrap();
    let call = tools
        .prepare(&ToolCall::new(
            "c1",
            "WebFetch",
            fetch("https://Docs.Example.com/a").to_string(),
        ))
        .unwrap();
    let decision = battery
        .explain(
            &engine,
            "WebFetch",
            fetch("https://Docs.Example.com/a"),
            None,
        )
        .decision;
    let how = engine.how_to_allow(&call, &decision);
    let allowed = battery.engine_with(
        PermissionMode::Default,
        json!({"allow": ["WebFetch(domain:docs.example.com)"]}),
    );
    assert_eq!(
        (
            how,
            decided(&allowed, &battery, &["https://docs.example.com/b"])
        ),
        (
            HowToAllow::Rules(vec!["WebFetch(domain:docs.example.com)".to_owned()]),
            vec![(Allow, Source::Rule)]
        )
    );
}

#[test]
fn a_session_grant_allows_one_host_for_the_session() {
    let battery = Battery::new();
    let engine = battery.engine(PermissionMode::Default);
    let tools = ToolRegistry::with_builtins().unwrap();
    let prepare = |url: &str| {
        tools
            .prepare(&ToolCall::new("c1", "WebFetch", fetch(url).to_string()))
            .unwrap()
    };
    let ask = |url: &str| {
        battery
            .explain(&engine, "WebFetch", fetch(url), None)
            .decision
    };
    let grants = SessionGrants::default();
    let first = "https://example.com/a";
    let offer = SessionGrants::offer(&prepare(first), &ask(first)).unwrap();
    let grant = grants.add(offer);
    let same_host = "https://example.com/b";
    let other_host = "https://example.net/";
    assert_eq!(
        (
            grant.rule(),
            grants
                .covering(&prepare(same_host), &ask(same_host))
                .is_some(),
            grants
                .covering(&prepare(other_host), &ask(other_host))
                .is_some()
        ),
        ("WebFetch(domain:example.com)".to_owned(), true, false)
    );
}

#[test]
fn a_redirect_is_judged_like_a_call_without_a_hook() {
    let battery = Battery::new();
    let engine = battery
        .engine_with(
            PermissionMode::Default,
            json!({"allow": ["WebFetch(domain:example.com)"]}),
        )
        .with_domain_lists(lists(&[], &["example.net"]));
    let capabilities = declared("WebFetch");
    let judge = |url: &str| engine.judge_fetch("WebFetch", &capabilities, url);
    assert_eq!(
        [
            judge("https://example.com/"),
            judge("https://example.org/"),
            judge("https://example.net/"),
        ],
        [
            FetchJudgement::Allow,
            FetchJudgement::Ask("WebFetch asks by default".to_owned()),
            FetchJudgement::Deny(
                "example.net is refused by sandbox.network.deniedDomains (example.net)".to_owned()
            ),
        ]
    );
}

#[test]
fn only_a_bare_webfetch_deny_rule_withholds_the_tool() {
    let battery = Battery::new();
    let bare = battery.engine_with(PermissionMode::Default, json!({"deny": ["WebFetch"]}));
    let domain = battery.engine_with(
        PermissionMode::Default,
        json!({"deny": ["WebFetch(domain:example.com)"]}),
    );
    assert_eq!(
        (bare.denies_tool("WebFetch"), domain.denies_tool("WebFetch")),
        (true, false)
    );
}
