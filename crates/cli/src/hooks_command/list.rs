//! `agenthub hooks list`: every command hook, in the order it runs, with the
//! file and index it comes from.

use agenthub::{CommandHookConfig, HookEvent, Settings};
use std::fmt::Write;
use std::path::Path;

/// The listing as text.
pub fn render(workspace: &Path, settings: &Settings) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "workspace: {}", workspace.display());
    if settings.files.is_empty() {
        let _ = writeln!(out, "settings files read: none");
    } else {
        let _ = writeln!(out, "settings files read:");
        for file in &settings.files {
            let _ = writeln!(out, "  {}", file.display());
        }
    }
    if settings.disable_all_hooks {
        let _ = writeln!(out, "disableAllHooks is true: no command hook runs");
        return out;
    }
    if settings.project_hooks_disabled {
        let _ = writeln!(
            out,
            "the project's disableAllHooks is true: its own hooks do not run"
        );
    }
    if settings.hooks.is_empty() {
        let _ = writeln!(out, "no command hooks configured");
    }
    list_by_event(&mut out, &settings.hooks);
    if !settings.waiting_hooks.is_empty() {
        let _ = writeln!(
            out,
            "waiting for trust (the workspace's configuration is not trusted; review and trust it with `agenthub trust`):"
        );
        list_by_event(&mut out, &settings.waiting_hooks);
    }
    out
}

fn list_by_event(out: &mut String, hooks: &[CommandHookConfig]) {
    for event in HookEvent::ALL {
        let hooks: Vec<_> = hooks.iter().filter(|hook| hook.event == event).collect();
        if hooks.is_empty() {
            continue;
        }
        let _ = writeln!(out, "{event}");
        for hook in hooks {
            let _ = writeln!(out, "  matcher:   {}", hook.matcher);
            let _ = writeln!(out, "  command:   {}", hook.display_command());
            let from = match &hook.plugin {
                Some(plugin) => format!("plugin:{} ", plugin.name),
                None => String::new(),
            };
            let _ = writeln!(
                out,
                "  source:    {from}{} (index {}, {})",
                hook.source.display(),
                hook.index,
                hook.json_path
            );
            let _ = writeln!(
                out,
                "  onFailure: {}   timeout: {}s",
                hook.on_failure,
                hook.timeout.as_secs_f64()
            );
            let _ = writeln!(out);
        }
    }
}
