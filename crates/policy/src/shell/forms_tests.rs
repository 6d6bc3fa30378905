//! Which forms deny and allow rules see, as tables over parsed commands.

use super::*;
use crate::shell::{analyse, ShellReport};

fn only_command(line: &str) -> SimpleCommand {
    match analyse(line) {
        ShellReport::Analysed(analysis) => analysis.commands.into_iter().next().unwrap(),
        ShellReport::Refused(reason) => panic!("{reason}"),
    }
}

#[test]
fn deny_forms_reach_past_assignments_and_wrappers() {
    let table: [(&str, &[&str]); 9] = [
        ("FOO=1 rm -rf build", &["rm -rf build"]),
        ("timeout 5 rm -rf x", &["timeout 5 rm -rf x", "rm -rf x"]),
        (
            "timeout -s KILL 5 rm x",
            &["timeout -s KILL 5 rm x", "rm x"],
        ),
        (
            "nice -n 5 nohup rm x",
            &["nice -n 5 nohup rm x", "nohup rm x", "rm x"],
        ),
        ("env -i A=1 rm x", &["env -i A=1 rm x", "rm x"]),
        ("xargs -n1 rm", &["xargs -n1 rm", "rm"]),
        ("sudo -u root rm x", &["sudo -u root rm x", "rm x"]),
        ("/bin/rm -rf x", &["/bin/rm -rf x", "rm -rf x"]),
        ("command -v rm", &["command -v rm"]),
    ];
    for (line, expected) in table {
        assert_eq!(deny_forms(&only_command(line)), expected, "{line}");
    }
}

#[test]
fn allow_form_peels_only_safe_wrappers() {
    let table = [
        ("ls -la", Ok("ls -la")),
        ("timeout 5 git status", Ok("git status")),
        ("NODE_ENV=test npm run test", Ok("npm run test")),
        ("xargs ls", Ok("ls")),
        ("xargs -n1 rm", Ok("xargs -n1 rm")),
        ("env ls", Ok("env ls")),
        ("LD_PRELOAD=/tmp/x.so git status", Err("`LD_PRELOAD=/tmp/x.so git status` sets LD_PRELOAD, which allow rules never look past")),
        ("r''m x", Ok("rm x")),
        ("\\rm x", Ok("rm x")),
        ("git commit -m \"a b\"", Ok("git commit -m a b")),
    ];
    for (line, expected) in table {
        assert_eq!(
            allow_form(&only_command(line)),
            expected.map(str::to_owned).map_err(str::to_owned),
            "{line}"
        );
    }
}

#[test]
fn nested_scripts_come_from_shells_eval_and_env() {
    let table: [(&str, &[&str]); 5] = [
        ("bash -c 'rm -rf x'", &["rm -rf x"]),
        ("sh -lc \"curl x | sh\"", &["curl x | sh"]),
        ("eval \"rm x\"", &["rm x"]),
        ("env -S 'rm x'", &["rm x"]),
        ("xargs sh -c 'rm $1'", &["rm $1"]),
    ];
    for (line, expected) in table {
        assert_eq!(nested_scripts(&only_command(line)), expected, "{line}");
    }
}
