//! Which files a command line's commands write, as a table: each target is
//! shown as `path`, or `path <- a b` when sources land inside it if it is a
//! directory; a word that is not literal is shown as `?text`.

use crate::shell::{analyse, ShellReport, Word};

fn shown(word: &Word) -> String {
    match word.literal {
        true => word.text.clone(),
        false => format!("?{}", word.text),
    }
}

fn targets(line: &str) -> Vec<String> {
    let ShellReport::Analysed(analysis) = analyse(line) else {
        panic!("refused {line:?}");
    };
    analysis
        .commands
        .iter()
        .flat_map(super::write_targets)
        .map(|target| match target.sources.is_empty() {
            true => shown(&target.path),
            false => {
                let sources: Vec<String> = target.sources.iter().map(shown).collect();
                format!("{} <- {}", shown(&target.path), sources.join(" "))
            }
        })
        .collect()
}

fn check(table: &[(&str, &[&str])]) {
    for (line, expected) in table {
        assert_eq!(targets(line), *expected, "{line:?}");
    }
}

#[test]
fn cp_mv_ln_and_install_write_their_destination_and_maybe_inside_it() {
    check(&[
        (
            "cp evil.json .agenthub/settings.local.json",
            &[".agenthub/settings.local.json <- evil.json"],
        ),
        ("cp -r a b dir", &["dir <- a b"]),
        ("cp -t .agenthub a b", &[".agenthub <- a b"]),
        ("cp -at.agenthub a", &[".agenthub <- a"]),
        ("cp --target-directory=.git/hooks x", &[".git/hooks <- x"]),
        ("cp --target .git/hooks x", &[".git/hooks <- x"]),
        ("cp a -t dir b", &["dir <- a b"]),
        ("cp -T a b", &["b"]),
        ("cp --no-target-directory a b", &["b"]),
        ("cp -- -a -b", &["-b <- -a"]),
        ("cp -S .orig a b", &["b <- a"]),
        ("cp only", &[]),
        ("mv a .mcp.json", &[".mcp.json <- a", "a"]),
        ("mv -t .claude a b", &[".claude <- a b", "a", "b"]),
        (
            "ln -s /tmp/evil .git/hooks/pre-commit",
            &[".git/hooks/pre-commit <- /tmp/evil"],
        ),
        ("ln -sf ../x", &[". <- ../x"]),
        (
            "install -D -m 755 hook .git/hooks/pre-commit",
            &[".git/hooks/pre-commit <- hook"],
        ),
        ("install -d .agenthub build", &[".agenthub", "build"]),
        ("install -T -o me a b", &["b"]),
    ]);
}

#[test]
fn touch_tee_and_dd_write_their_files() {
    check(&[
        ("touch a .envrc", &["a", ".envrc"]),
        ("touch -d yesterday -r ref a", &["a"]),
        ("touch -t 202401010000 a", &["a"]),
        ("echo x | tee -a ~/.bashrc", &["~/.bashrc"]),
        ("tee a /dev/null b", &["a", "b"]),
        ("dd if=evil of=.git/config bs=1", &[".git/config"]),
        ("dd if=x of=/dev/null", &[]),
    ]);
}

#[test]
fn sed_writes_only_in_place_and_its_backups() {
    check(&[
        ("sed s/a/b/ f", &[]),
        ("sed -i s/a/b/ .bashrc", &[".bashrc"]),
        ("sed -n -i -e s/a/b/ f g", &["f", "g"]),
        ("sed -i.bak s/a/b/ dir/f", &["dir/f", "dir/f.bak"]),
        ("sed --in-place=.orig -f script f", &["f", "f.orig"]),
        ("sed -i'old_*' s/a/b/ d/f", &["d/f", "d/old_f"]),
        (
            "sed -i'.git/hooks/*' s/a/b/ pre-commit",
            &["pre-commit", ".git/hooks/pre-commit"],
        ),
        ("sed -Ei s/a/b/ f", &["f"]),
    ]);
}

#[test]
fn git_config_writes_the_configuration_it_changes() {
    check(&[
        ("git config core.fsmonitor x", &[".git/config"]),
        ("git config --global alias.st '!sh'", &["~/.gitconfig"]),
        ("git config --system a.b c", &["/etc/gitconfig"]),
        ("git config --file=other.cfg a.b c", &["other.cfg"]),
        ("git config -f .gitmodules a.b c", &[".gitmodules"]),
        ("git -C sub config a.b c", &["sub/.git/config"]),
        ("git --git-dir=repo.git config a.b c", &["repo.git/config"]),
        ("git config --worktree a.b c", &[".git/config.worktree"]),
        ("git config --unset core.fsmonitor", &[".git/config"]),
        ("git config set core.hooksPath x", &[".git/config"]),
        ("git config --edit", &[".git/config"]),
        ("git config user.name", &[]),
        ("git config --get core.fsmonitor", &[]),
        ("git config --list", &[]),
        ("git config get user.name", &[]),
        ("git status", &[]),
    ]);
}

#[test]
fn wrappers_are_looked_through_and_expansions_are_kept_unread() {
    check(&[
        ("sudo cp a .bashrc", &[".bashrc <- a"]),
        ("timeout 5 tee .mcp.json", &[".mcp.json"]),
        ("/bin/cp a b", &["b <- a"]),
        ("cp a \"$D\"", &["?\"$D\" <- a"]),
        ("dd of=$OUT", &["?$OUT"]),
        ("bash -c 'touch .envrc'", &[".envrc"]),
        ("ls -la", &[]),
    ]);
}
