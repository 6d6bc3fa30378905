//! The policy engine: asks every participant about a call and merges their
//! verdicts (see [`verdict`] for the merge). Participants, in order: for a
//! tool's declared shell command, rules and the shell analysis (with the
//! boundary and protected paths of the files it writes, and whether it is a
//! read-only command: `read_only`); for every path it
//! declares, the workspace boundary, protected paths (written paths) and
//! rules; for a URL it fetches, `sandbox.network`'s domain lists and
//! `WebFetch(domain:…)` rules (`fetch`); for a tool that declares none of
//! these, rules naming it; then the
//! PreToolUse hooks' suggestion, the mode, and the tool's default. What a tool
//! touches is read from its declared capabilities, never from its name.
//!
//! The engine never prints, never asks anyone and never runs a tool; the
//! same [`PolicyEngine::explain`] serves the pipeline and
//! `agenthub permissions explain`, so what is explained is what is enforced.

mod bash;
mod fetch;
mod files;
mod read_only;
pub mod rules;
pub mod verdict;
mod writes;

use crate::rule::RuleTarget;
use crate::{
    Decision, HowToAllow, PermissionMode, PermissionPolicy, PermissionRequest, PolicyConfig,
    PolicyError, Source,
};
use agenthub_protocol::PermissionEffect::{Allow, Ask, Deny};
use agenthub_protocol::PermissionSuggestion;
use agenthub_sandbox::DomainLists;
use agenthub_tools::{PathAccess, PreparedCall, ToolCapabilities, ToolEffect, Workspace};
use rules::{covers_tool, Subject};
use std::path::{Path, PathBuf};
use verdict::{merge, Explanation, Verdict, Weight};

/// The call as the policy sees it: a tool name, its effect, what the tool
/// declares about its input fields, its input.
#[derive(Debug, Clone, Copy)]
pub struct CallView<'a> {
    /// The tool's name, which whole-tool rules (`Bash`, `Echo`) match.
    pub tool: &'a str,
    /// What the tool declared about its effects: a read-only tool and one
    /// that delegates (Task) are allowed by default and run in plan mode;
    /// only a read-only one is called read-only.
    pub effect: ToolEffect,
    /// Which fields are paths read or written and which is a shell command:
    /// what path and `Bash` rules, the boundary and acceptEdits apply to.
    pub capabilities: &'a ToolCapabilities,
    /// The validated input the declared fields are read from.
    pub input: &'a serde_json::Value,
}

impl<'a> From<&'a PreparedCall> for CallView<'a> {
    fn from(call: &'a PreparedCall) -> Self {
        CallView {
            tool: call.name(),
            effect: call.definition().effect(),
            capabilities: call.definition().capabilities(),
            input: call.input(),
        }
    }
}

/// The permission policy of contract §4, configured once per agent.
///
/// ```
/// use agenthub_policy::{
///     CliPermissions, PermissionPolicy, PermissionRequest, PolicyConfig, PolicyEngine,
///     PolicyInput, Source,
/// };
/// use agenthub_protocol::{PermissionEffect, ToolCall};
/// use agenthub_tools::{ToolRegistry, Workspace};
/// use serde_json::json;
/// use std::path::{Path, PathBuf};
///
/// let root = Path::new("/w/proj");
/// let settings = root.join(".agenthub/settings.json");
/// let config = PolicyConfig::build(PolicyInput {
///     workspace: root,
///     home: None,
///     sections: &[(settings, json!({ "deny": ["Bash(rm:*)"] }))],
///     cli: CliPermissions::default(),
///     extra_tools: &[],
/// })?;
/// let engine = PolicyEngine::new(config, None);
///
/// let tools = ToolRegistry::with_builtins()?;
/// let call = tools.prepare(&ToolCall::new("call_1", "Bash", r#"{"command": "rm -rf build"}"#))?;
/// let workspace = Workspace::new(root);
/// let request = PermissionRequest { call: &call, suggestion: None, workspace: &workspace };
/// let decision = engine.decide(&request)?;
/// assert_eq!(
///     (decision.effect, decision.source, decision.rule.as_deref()),
///     (
///         PermissionEffect::Deny,
///         Source::Rule,
///         Some("Bash(rm:*) (/w/proj/.agenthub/settings.json)")
///     )
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct PolicyEngine {
    config: PolicyConfig,
    home: Option<PathBuf>,
    domain_lists: Option<DomainLists>,
}

impl PolicyEngine {
    /// `home` is what `~/` means in Bash arguments and redirections.
    pub fn new(config: PolicyConfig, home: Option<PathBuf>) -> Self {
        PolicyEngine {
            config,
            home,
            domain_lists: None,
        }
    }

    /// The same engine judging the hosts of fetched URLs against
    /// `sandbox.network`'s domain lists (when that setting is an object,
    /// contract §32): a denied host is refused whatever else says, an
    /// allowed one runs without asking.
    pub fn with_domain_lists(mut self, lists: DomainLists) -> Self {
        self.domain_lists = Some(lists);
        self
    }

    /// The rules, mode and roots the engine decides by.
    pub fn config(&self) -> &PolicyConfig {
        &self.config
    }

    /// The permission mode in force.
    pub fn mode(&self) -> PermissionMode {
        self.config.mode
    }

    /// Whether a deny rule names the whole tool `tool` (`Task`, `Bash`,
    /// `mcp__server`): every call of it is refused whatever its input, so a
    /// session need not offer it to the model (contract §33).
    pub fn denies_tool(&self, tool: &str) -> bool {
        self.config
            .rules_in(crate::RuleList::Deny)
            .any(|rule| covers_tool(rule, Subject::whole(tool)))
    }

    /// Whether a file no permission check named (one a Glob or Grep search
    /// found) may be read: false when a Read deny or ask rule covers it, since
    /// a search cannot stop to ask. Install it with [`Workspace::with_read_guard`].
    pub fn read_allowed(&self, path: &Path) -> bool {
        !self
            .config
            .rules
            .iter()
            .filter(|rule| rule.list != crate::RuleList::Allow)
            .any(|rule| {
                let read = Subject::path(None, PathAccess::Read);
                covers_tool(rule, read) || rules::path_matches_any(rule, read, &[path])
            })
    }

    /// The existing paths that `Read(…)` deny rules name (see
    /// [`PathPattern::existing_matches`](crate::rule::path::PathPattern::existing_matches)): what a sandbox must hide
    /// from shell commands.
    pub fn read_denied_paths(&self, roots: &[PathBuf]) -> Vec<PathBuf> {
        let mut found = Vec::new();
        for rule in self.config.rules_in(crate::RuleList::Deny) {
            if let crate::rule::RuleTarget::Path { tool, pattern } = &rule.target {
                if tool == "Read" {
                    found.extend(pattern.existing_matches(roots));
                }
            }
        }
        found.sort();
        found.dedup();
        found
    }

    /// Every participant's verdict on the call, and the merged decision.
    pub fn explain(
        &self,
        call: CallView<'_>,
        suggestion: Option<&PermissionSuggestion>,
        workspace: &Workspace,
    ) -> Result<Explanation, PolicyError> {
        let workspace = workspace
            .clone()
            .with_additional_roots(self.config.additional_directories.iter().cloned());
        let mut verdicts = self.tool_verdicts(call, &workspace)?;
        let plan_runs_it = call.effect != ToolEffect::SideEffects
            || is_read_only_command(&verdicts)
            || call.capabilities.url_field.is_some();
        verdicts.push(hook_verdict(suggestion));
        verdicts.push(self.mode_verdict(call, plan_runs_it));
        verdicts.push(default_verdict(call));
        let decision = merge(&verdicts, self.config.mode);
        Ok(Explanation {
            mode: self.config.mode,
            verdicts,
            decision,
        })
    }

    fn tool_verdicts(
        &self,
        call: CallView<'_>,
        workspace: &Workspace,
    ) -> Result<Vec<Verdict>, PolicyError> {
        let mut verdicts = Vec::new();
        if let Some(command) = shell_command(call)? {
            let context = bash::BashContext {
                config: &self.config,
                workspace,
                home: self.home.as_deref(),
                tool: call.tool,
            };
            verdicts.extend(bash::verdicts(&context, command));
        }
        let paths = files::declared_paths(call.tool, call.capabilities, call.input)?;
        verdicts.extend(files::all_verdicts(
            &self.config,
            call.tool,
            &paths,
            workspace,
        ));
        if let Some(url) = fetch::fetched_url(call)? {
            verdicts.extend(fetch::verdicts(
                &self.config,
                self.domain_lists.as_ref(),
                call.tool,
                url,
            )?);
        }
        if let Some(agent_type) = call.capabilities.subagent(call.input) {
            verdicts.push(self.named_rule_verdict(
                call.tool,
                agent_type,
                |target| matches!(target, RuleTarget::Subagent(name) if name == agent_type),
            ));
        }
        if let Some(skill) = call.capabilities.skill(call.input) {
            verdicts.push(self.named_rule_verdict(
                call.tool,
                skill,
                |target| matches!(target, RuleTarget::Skill(name) if name == skill),
            ));
        }
        if verdicts.is_empty() {
            verdicts.push(self.tool_rule_verdict(call.tool));
        }
        if call.capabilities.runs_unsandboxed(call.input) {
            verdicts.push(unsandboxed_verdict(call.tool));
        }
        Ok(verdicts)
    }

    /// Tools without a specifier syntax: only tool-name rules speak.
    fn tool_rule_verdict(&self, tool: &str) -> Verdict {
        for (list, effect) in [
            (crate::RuleList::Deny, Deny),
            (crate::RuleList::Ask, Ask),
            (crate::RuleList::Allow, Allow),
        ] {
            if let Some(rule) = self
                .config
                .rules_in(list)
                .find(|rule| covers_tool(rule, Subject::whole(tool)))
            {
                return files::matched(rule, effect, Weight::Binding, tool.to_owned());
            }
        }
        Verdict::passthrough(Source::Rule, format!("no rule names {tool}"))
    }

    /// A call that names what it starts or loads: `Task(name)` rules naming
    /// its subagent type (contract §17), `Skill(name)` rules naming its skill
    /// (§20) — the rules `names` accepts — or rules naming the whole tool,
    /// deny first.
    fn named_rule_verdict(
        &self,
        tool: &str,
        named: &str,
        names: impl Fn(&RuleTarget) -> bool,
    ) -> Verdict {
        let speaks =
            |rule: &crate::Rule| names(&rule.target) || covers_tool(rule, Subject::whole(tool));
        for (list, effect) in [
            (crate::RuleList::Deny, Deny),
            (crate::RuleList::Ask, Ask),
            (crate::RuleList::Allow, Allow),
        ] {
            if let Some(rule) = self.config.rules_in(list).find(|rule| speaks(rule)) {
                return files::matched(rule, effect, Weight::Binding, format!("{tool}({named})"));
            }
        }
        Verdict::passthrough(Source::Rule, format!("no rule names {tool}({named})"))
    }

    /// `plan_runs_it`: the tool is read-only or delegates, its shell
    /// command is a read-only command, or it fetches a URL (plan mode runs
    /// these: none has side effects of its own; a fetch still asks by
    /// default, as Claude Code's WebFetch does in plan mode).
    fn mode_verdict(&self, call: CallView<'_>, plan_runs_it: bool) -> Verdict {
        let mode = self.config.mode;
        match mode {
            PermissionMode::Plan if !plan_runs_it => Verdict::new(
                Source::Mode,
                Deny,
                Weight::Binding,
                format!("plan mode: {} has side effects and does not run", call.tool),
            ),
            PermissionMode::AcceptEdits if call.capabilities.writes_paths() => Verdict::new(
                Source::Mode,
                Allow,
                Weight::Binding,
                format!(
                    "acceptEdits mode: {} inside the workspace runs without asking",
                    call.tool
                ),
            ),
            PermissionMode::BypassPermissions => Verdict::new(
                Source::Mode,
                Allow,
                Weight::Binding,
                "bypassPermissions mode: nothing asks by default",
            ),
            PermissionMode::DontAsk => {
                Verdict::passthrough(Source::Mode, "dontAsk mode: an ask becomes a deny")
            }
            _ => Verdict::passthrough(Source::Mode, format!("{mode} mode adds nothing here")),
        }
    }
}

/// Whether the `read-only command` participant allowed the call's shell command.
fn is_read_only_command(verdicts: &[Verdict]) -> bool {
    verdicts
        .iter()
        .any(|verdict| verdict.source == Source::ReadOnlyCommand && verdict.effect == Some(Allow))
}

/// The shell command of a tool that declares one; a declared field that is
/// missing or not a string cannot be checked.
fn shell_command<'a>(call: CallView<'a>) -> Result<Option<&'a str>, PolicyError> {
    call.capabilities
        .command(call.input)
        .transpose()
        .map_err(|error| {
            PolicyError::Evaluation(format!(
                "{} input has no {} string to check",
                call.tool,
                error.field()
            ))
        })
}

/// A call that leaves the OS sandbox needs a person in every mode: no rule,
/// mode or hook answers it (contract §15).
fn unsandboxed_verdict(tool: &str) -> Verdict {
    Verdict::new(
        Source::Sandbox,
        Ask,
        Weight::Binding,
        format!("{tool} asks to run outside the sandbox (dangerouslyDisableSandbox); only a person can allow that"),
    )
}

fn hook_verdict(suggestion: Option<&PermissionSuggestion>) -> Verdict {
    match suggestion {
        None => Verdict::passthrough(Source::Hook, "no hook made a suggestion"),
        Some(suggestion) => {
            let reason = suggestion
                .reason
                .clone()
                .filter(|reason| !reason.trim().is_empty())
                .unwrap_or_else(|| {
                    format!("hook {} suggested {}", suggestion.hook, suggestion.effect)
                });
            Verdict::new(Source::Hook, suggestion.effect, Weight::Binding, reason)
                .by_rule(format!("hook {}", suggestion.hook))
        }
    }
}

/// The tool's default: its declared effect, said as it is (a tool that
/// delegates is allowed by default but never called read-only).
fn default_verdict(call: CallView<'_>) -> Verdict {
    let tool = call.tool;
    let (effect, reason) = match call.effect {
        ToolEffect::ReadOnly => (Allow, format!("{tool} is read-only and allowed by default")),
        ToolEffect::Delegates => (
            Allow,
            format!(
                "{tool} hands work to a subagent whose every call is decided on its own; \
                 allowed by default"
            ),
        ),
        ToolEffect::SideEffects => (Ask, format!("{tool} asks by default")),
    };
    Verdict::new(Source::Default, effect, Weight::Soft, reason)
}

impl PermissionPolicy for PolicyEngine {
    fn decide(&self, request: &PermissionRequest<'_>) -> Result<Decision, PolicyError> {
        self.explain(
            CallView::from(request.call),
            request.suggestion,
            request.workspace,
        )
        .map(|explanation| explanation.decision)
    }

    fn mode(&self) -> PermissionMode {
        self.config.mode
    }

    /// Leaves out the commands of a shell command line an allow rule covers.
    fn how_to_allow(&self, call: &PreparedCall, decision: &Decision) -> HowToAllow {
        HowToAllow::for_ask_given(CallView::from(call), decision, &|form| {
            bash::allowed_by_rule(&self.config, form)
        })
    }
}
