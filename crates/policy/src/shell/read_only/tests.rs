//! The read-only list as tables: which commands are on it, which options
//! take them off, and which words are handed to the engine as paths.

use super::*;
use crate::shell::{analyse, ShellReport};

fn only_command(line: &str) -> SimpleCommand {
    match analyse(line) {
        ShellReport::Analysed(analysis) => analysis.commands.into_iter().next().unwrap(),
        ShellReport::Refused(reason) => panic!("{reason}"),
    }
}

/// The path words of a listed command, as text, or the reason it is not read-only.
fn paths_of(line: &str) -> Result<Vec<String>, String> {
    read_only_paths(&only_command(line))
        .map(|words| words.into_iter().map(|word| word.text).collect())
}

#[test]
fn every_listed_command_is_read_only_with_its_path_words() {
    let table: &[(&str, &[&str])] = &[
        ("ls -la src", &["src"]),
        ("pwd", &[]),
        ("cat a.txt b.txt", &["a.txt", "b.txt"]),
        ("head -n 3 file", &["3", "file"]),
        ("tail -n 5 file", &["5", "file"]),
        ("wc -l src/a.rs", &["src/a.rs"]),
        ("grep -rn x .", &["."]),
        ("grep -e x -f pats.txt src", &["pats.txt", "src"]),
        ("rg -n todo src", &["src"]),
        ("rg --files src", &["src"]),
        ("find . -name '*.rs' -type f", &[".", "*.rs", "f", "*.rs"]),
        ("git status --short", &[]),
        ("git diff HEAD~1 -- src", &["HEAD~1", "src"]),
        ("git log --oneline -n 5", &["5"]),
        ("git show HEAD:src/a.rs", &["HEAD:src/a.rs", "src/a.rs"]),
        ("git branch", &[]),
        ("git branch -a -v", &[]),
        ("git branch --list 'feat*'", &["feat*", "feat*"]),
        ("git blame -L 1,5 src/a.rs", &["1,5", "src/a.rs"]),
        ("git rev-parse --show-toplevel", &[]),
        ("git ls-files src", &["src"]),
        ("git remote -v", &[]),
        ("git --no-pager log", &[]),
        ("echo hello /etc/passwd", &[]),
        ("which cargo", &[]),
        ("file src/a.rs", &["src/a.rs"]),
        ("stat src", &["src"]),
        ("du -sh src", &["src"]),
        ("df -h", &[]),
        ("sort -t / -k 2 names.txt", &["names.txt"]),
        ("uniq -c sorted.txt", &["sorted.txt"]),
        ("tr a-z A-Z", &[]),
        ("cut -d/ -f2 list.txt", &["list.txt"]),
        ("diff -u a b", &["a", "b"]),
        ("ls", &["."]),
        ("grep -rn x", &["."]),
        ("rg todo", &["."]),
        ("find -name x", &[".", "x"]),
        ("tree", &["."]),
        ("du -sh", &["."]),
        ("git ls-files -X/etc/x", &["/etc/x"]),
    ];
    for (line, expected) in table.iter().copied() {
        assert_eq!(
            paths_of(line),
            Ok(expected.iter().map(|s| s.to_string()).collect()),
            "{line}"
        );
    }
    assert_eq!(
        paths_of("tree -L 2 src"),
        Ok(vec!["2".to_owned(), "src".to_owned()])
    );
}

#[test]
fn options_that_write_run_or_follow_take_a_command_off_the_list() {
    let table = [
        (
            "sort -o out x",
            "`sort -o out x`: sort -o writes, runs or follows",
        ),
        (
            "sort -uo out x",
            "`sort -uo out x`: sort -o writes, runs or follows",
        ),
        (
            "sort --output=out x",
            "`sort --output=out x`: sort --output writes, runs or follows",
        ),
        (
            "sort --out=out x",
            "`sort --out=out x`: sort --out writes, runs or follows",
        ),
        (
            "sort --compress-program=sh x",
            "`sort --compress-program=sh x`: sort --compress-program writes, runs or follows",
        ),
        (
            "sort -T /tmp x",
            "`sort -T /tmp x`: sort -T writes, runs or follows",
        ),
        (
            "wc --files0-from=list",
            "`wc --files0-from=list`: wc --files0-from writes, runs or follows",
        ),
        (
            "du --files0-from=list",
            "`du --files0-from=list`: du --files0-from writes, runs or follows",
        ),
        (
            "grep -R x .",
            "`grep -R x .`: grep -R writes, runs or follows",
        ),
        (
            "rg --pre ./x p",
            "`rg --pre ./x p`: rg --pre writes, runs or follows",
        ),
        (
            "rg --pre=./x p",
            "`rg --pre=./x p`: rg --pre writes, runs or follows",
        ),
        ("rg -z p", "`rg -z p`: rg -z writes, runs or follows"),
        (
            "rg --hostname-bin=x p",
            "`rg --hostname-bin=x p`: rg --hostname-bin writes, runs or follows",
        ),
        ("rg -L p", "`rg -L p`: rg -L writes, runs or follows"),
        (
            "file -C -m magic",
            "`file -C -m magic`: file -C writes, runs or follows",
        ),
        (
            "file -f names",
            "`file -f names`: file -f writes, runs or follows",
        ),
        (
            "file -z x.gz",
            "`file -z x.gz`: file -z writes, runs or follows",
        ),
        (
            "tree -o out",
            "`tree -o out`: tree -o writes, runs or follows",
        ),
        (
            "tree -aR -H x",
            "`tree -aR -H x`: tree -R writes, runs or follows",
        ),
        ("tree -l", "`tree -l`: tree -l writes, runs or follows"),
        (
            "uniq in out",
            "`uniq in out`: uniq's second operand is a file it writes",
        ),
        (
            "git diff --output=x",
            "`git diff --output=x`: git diff --output writes, runs or follows",
        ),
        (
            "git log --output x",
            "`git log --output x`: git log --output writes, runs or follows",
        ),
        (
            "git diff --ext-diff",
            "`git diff --ext-diff`: git diff --ext-diff writes, runs or follows",
        ),
        (
            "git show --textconv x",
            "`git show --textconv x`: git show --textconv writes, runs or follows",
        ),
        (
            "git blame --textconv x",
            "`git blame --textconv x`: git blame --textconv writes, runs or follows",
        ),
    ];
    for (line, expected) in table {
        assert_eq!(paths_of(line), Err(expected.to_owned()), "{line}");
    }
}

#[test]
fn find_actions_that_run_write_delete_or_follow_take_it_off_the_list() {
    for action in [
        "-exec id \\;",
        "-execdir id \\;",
        "-ok id \\;",
        "-okdir id \\;",
        "-delete",
        "-fprint out",
        "-fprint0 out",
        "-fprintf out %p",
        "-fls out",
        "-files0-from list",
        "-follow",
    ] {
        let line = format!("find . {action}");
        let word = action.split(' ').next().unwrap();
        assert_eq!(
            paths_of(&line),
            Err(format!(
                "`{line}`: find {word} runs, writes, deletes or follows"
            )),
        );
    }
    assert_eq!(
        paths_of("find -L ."),
        Err("`find -L .`: find -L runs, writes, deletes or follows".to_owned())
    );
}

#[test]
fn git_branch_lists_but_never_changes_branches() {
    for (line, why) in [
        ("git branch new", "git branch NAME creates a branch"),
        ("git branch -a new", "git branch NAME creates a branch"),
        ("git branch -d old", "git branch d may change branches"),
        ("git branch -D old", "git branch D may change branches"),
        ("git branch -m a b", "git branch m may change branches"),
        ("git branch -M a b", "git branch M may change branches"),
        ("git branch -c a b", "git branch c may change branches"),
        ("git branch -C a b", "git branch C may change branches"),
        (
            "git branch -u origin/main",
            "git branch u may change branches",
        ),
        (
            "git branch --set-upstream-to=origin/main",
            "git branch set-upstream-to may change branches",
        ),
        (
            "git branch --unset-upstream",
            "git branch unset-upstream may change branches",
        ),
        (
            "git branch --edit-description",
            "git branch edit-description may change branches",
        ),
        (
            "git branch -f main HEAD",
            "git branch f may change branches",
        ),
    ] {
        assert_eq!(paths_of(line), Err(format!("`{line}`: {why}")), "{line}");
    }
    assert_eq!(
        paths_of("git branch --contains abc"),
        Ok(vec!["abc".to_owned()])
    );
    assert_eq!(paths_of("git branch -v main"), Ok(vec!["main".to_owned()]));
}

#[test]
fn git_is_read_only_only_as_a_listed_subcommand_without_global_options() {
    for (line, why) in [
        (
            "git remote add x y",
            "git remote is read-only only as `git remote -v`",
        ),
        (
            "git remote remove x",
            "git remote is read-only only as `git remote -v`",
        ),
        ("git -c core.pager=sh log", "git -c is not read-only"),
        ("git -C /etc status", "git -C is not read-only"),
        ("git push", "git push is not on the read-only list"),
        (
            "git checkout x",
            "git checkout is not on the read-only list",
        ),
        ("git", "git without a subcommand"),
    ] {
        assert_eq!(paths_of(line), Err(format!("`{line}`: {why}")), "{line}");
    }
}

#[test]
fn other_programs_assignments_and_tildes_are_not_read_only() {
    for (line, why) in [
        ("sh x", "`sh x`: sh is not on the read-only list"),
        (
            "/bin/cat x",
            "`/bin/cat x`: /bin/cat is not on the read-only list",
        ),
        (
            "GIT_EXTERNAL_DIFF=x git diff",
            "`GIT_EXTERNAL_DIFF=x git diff` sets GIT_EXTERNAL_DIFF",
        ),
        (
            "cat ~/.ssh/id_rsa",
            "`~/.ssh/id_rsa` in `cat ~/.ssh/id_rsa` expands `~`",
        ),
        (
            "grep --file=~/p x",
            "`--file=~/p` in `grep --file=~/p x` expands `~`",
        ),
    ] {
        assert_eq!(paths_of(line), Err(why.to_owned()), "{line}");
    }
    assert_eq!(paths_of("LC_ALL=C sort x"), Ok(vec!["x".to_owned()]));
}

#[test]
fn words_with_globs_are_paths_whatever_their_place() {
    assert_eq!(
        paths_of("grep -e .* src"),
        Ok(vec!["src".to_owned(), ".*".to_owned()])
    );
    assert_eq!(paths_of("echo /etc/*"), Ok(vec!["/etc/*".to_owned()]));
}

#[test]
fn the_rule_layers_exec_table_speaks_for_options_the_list_does_not_name() {
    assert_eq!(
        paths_of("git status --ext-diff"),
        Err(
            "`git status --ext-diff`: git --ext-diff can run other programs or write files"
                .to_owned()
        )
    );
}
