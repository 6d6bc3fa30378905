//! Commands and options that run other programs or write files, whatever
//! their prefix looks like: `git -c core.pager=…`, `git diff --ext-diff`,
//! `rg --pre`, `find -exec`, `sed -i`, `tar --to-command`, `sudo`, `eval`.
//! A command that uses one is never allowed by a prefix rule (a prefix rule
//! constrains the program, not what its options make it do); it asks.
//!
//! The table is deliberately small and conservative; it is a UX layer, not a
//! sandbox (see the research notes: rules on Bash are not confinement).

/// Programs that run a string as a shell script with `-c`.
const SHELLS: [&str; 7] = ["sh", "bash", "zsh", "dash", "ksh", "fish", "busybox"];

/// Programs whose whole purpose is to run another command or code.
const RUNNERS: [(&str, &str); 17] = [
    ("eval", "runs its arguments as shell code"),
    ("exec", "replaces the shell with another command"),
    ("source", "runs a file as shell code"),
    (".", "runs a file as shell code"),
    ("sudo", "runs a command as another user"),
    ("doas", "runs a command as another user"),
    ("su", "runs a command as another user"),
    ("pkexec", "runs a command as another user"),
    ("env", "runs another command with a changed environment"),
    ("xargs", "runs another command for each input line"),
    ("watch", "runs another command repeatedly"),
    ("setsid", "runs another command in a new session"),
    ("flock", "runs another command under a lock"),
    ("ionice", "runs another command"),
    ("chroot", "runs another command in another root"),
    ("parallel", "runs other commands"),
    ("nsenter", "runs another command in other namespaces"),
];

/// Options that make a program run other programs or write files: `(program,
/// option prefix)`; an argument equal to the prefix or starting with it matches.
const DANGEROUS_OPTIONS: [(&str, &str); 27] = [
    ("git", "-c"),
    ("git", "--config-env"),
    ("git", "--exec-path"),
    ("git", "--ext-diff"),
    ("git", "--textconv"),
    ("git", "--upload-pack"),
    ("git", "--receive-pack"),
    ("git", "--output"),
    ("git", "--exec"),
    ("rg", "--pre"),
    ("rg", "--hostname-bin"),
    ("rg", "--search-zip"),
    ("find", "-exec"),
    ("find", "-ok"),
    ("find", "-delete"),
    ("find", "-fprint"),
    ("find", "-fls"),
    ("sed", "-i"),
    ("sed", "--in-place"),
    ("tar", "--to-command"),
    ("tar", "--checkpoint-action"),
    ("tar", "--use-compress-program"),
    ("tar", "--info-script"),
    ("tar", "--new-volume-script"),
    ("sort", "--compress-program"),
    ("sort", "-o"),
    ("sort", "--output"),
];

pub fn is_shell(name: &str) -> bool {
    SHELLS.contains(&basename(name))
}

fn basename(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
}

/// Skips leading options; `with_value` options also take the next word. `--`
/// ends the options.
pub fn strip_options<'a, 'w>(words: &'a [&'w str], with_value: &[&str]) -> &'a [&'w str] {
    let mut index = 0;
    while let Some(word) = words.get(index) {
        if *word == "--" {
            return &words[index + 1..];
        }
        if !word.starts_with('-') {
            break;
        }
        index += if with_value.contains(word) { 2 } else { 1 };
    }
    words.get(index..).unwrap_or_default()
}

/// Why a command (its allow form) must never be allowed by a rule, if it must not.
pub fn exec_hazard(form: &str) -> Option<String> {
    let words: Vec<&str> = form.split(' ').collect();
    let (name, rest) = words.split_first()?;
    let name = basename(name);
    if let Some((_, what)) = RUNNERS.iter().find(|(runner, _)| *runner == name) {
        return Some(format!("`{form}` {what}"));
    }
    if SHELLS.contains(&name)
        && rest
            .iter()
            .any(|arg| arg.starts_with('-') && !arg.starts_with("--") && arg.contains('c'))
    {
        return Some(format!("`{form}` runs a shell script from a string"));
    }
    if let Some(option) = rest.iter().find(|arg| is_dangerous_option(name, arg)) {
        return Some(format!(
            "`{form}`: {name} {option} can run other programs or write files"
        ));
    }
    if matches!(name, "awk" | "gawk" | "mawk" | "nawk")
        && rest
            .iter()
            .any(|arg| arg.contains("system") || arg.contains('|') || arg.contains('>'))
    {
        return Some(format!(
            "`{form}`: the awk program can run commands or write files"
        ));
    }
    None
}

fn is_dangerous_option(program: &str, argument: &str) -> bool {
    DANGEROUS_OPTIONS
        .iter()
        .any(|(name, option)| *name == program && argument.starts_with(option))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_skipped_with_their_values() {
        assert_eq!(
            strip_options(&["-n", "5", "rm", "-rf"], &["-n"]),
            ["rm", "-rf"]
        );
        assert_eq!(strip_options(&["--", "-rm"], &[]), ["-rm"]);
        assert_eq!(strip_options(&["-n"], &["-n"]), [] as [&str; 0]);
    }

    #[test]
    fn exec_hazard_table() {
        let table = [
            ("git status", None),
            ("git status --ext-diff", Some("`git status --ext-diff`: git --ext-diff can run other programs or write files")),
            ("git -ccore.pager=cat status", Some("`git -ccore.pager=cat status`: git -ccore.pager=cat can run other programs or write files")),
            ("rg --pre=./x p", Some("`rg --pre=./x p`: rg --pre=./x can run other programs or write files")),
            ("find . -exec sh -c id ;", Some("`find . -exec sh -c id ;`: find -exec can run other programs or write files")),
            ("sed -i s/a/b/ f", Some("`sed -i s/a/b/ f`: sed -i can run other programs or write files")),
            ("tar --to-command=id -xf a.tar", Some("`tar --to-command=id -xf a.tar`: tar --to-command=id can run other programs or write files")),
            ("awk BEGIN{system(\"id\")}", Some("`awk BEGIN{system(\"id\")}`: the awk program can run commands or write files")),
            ("bash -c id", Some("`bash -c id` runs a shell script from a string")),
            ("bash -lc id", Some("`bash -lc id` runs a shell script from a string")),
            ("sudo rm x", Some("`sudo rm x` runs a command as another user")),
            ("eval rm x", Some("`eval rm x` runs its arguments as shell code")),
            ("ls -la", None),
        ];
        for (form, expected) in table {
            assert_eq!(exec_hazard(form).as_deref(), expected, "{form}");
        }
    }
}
