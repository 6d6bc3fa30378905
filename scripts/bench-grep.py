#!/usr/bin/env python3
"""Grep and Glob against ripgrep on the same tree, side by side in one run.

Runs a whole `agenthub run --script` whose one tool call is a Grep (or a Glob)
and the `rg` command that does the same search, alternating them N times so
that machine noise hits both alike, checks that both found the same number of
files, and prints the median wall time of each and the ratio (target: within
1.2x of rg).

  Grep {pattern, output_mode: files_with_matches}  vs  rg -l --hidden --no-require-git PATTERN TREE
  Glob {pattern: "**/*.toml"}                        vs  rg --files --hidden --no-require-git -g '*.toml' TREE

Grep and Glob search hidden files and read .gitignore outside git
repositories, hence `--hidden --no-require-git`; plain `rg -l` is timed too.

Usage: scripts/bench-grep.py [tree] [runs] [agenthub]
  (default: ~/.cargo/registry/src, 15, target/release/agenthub)
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

PATTERN = r"impl\s+Drop\s+for\s+\w+"
GLOB = "**/*.toml"


def timed(argv, env):
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    elapsed = (time.perf_counter() - started) * 1000.0
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed with status {done.returncode}")
    return elapsed, done.stdout


def agenthub_command(binary, tree, scratch, name, arguments):
    script = os.path.join(scratch, f"{name}.json")
    with open(script, "w") as out:
        json.dump({"turns": [
            {"content": "searching", "tool_calls": [
                {"id": "c1", "name": name, "arguments": arguments}]},
            {"content": "done"},
        ]}, out)
    transcript = os.path.join(scratch, f"{name}.jsonl")
    return [binary, "run", "--permission-mode=bypassPermissions", "--script", script,
            "--workspace", tree, "--transcript", transcript, "search"], transcript


def files_in_transcript(transcript):
    """The numFiles the tool reported, from the transcript's tool record."""
    with open(transcript) as records:
        for line in records:
            record = json.loads(line)
            text = json.dumps(record)
            if '"role": "tool"' in text:
                content = record["message"]["content"]
                first = content.splitlines()[0] if content else ""
                return first
    return "?"


def compare(label, ours, theirs, env, runs, transcript):
    times = {"agenthub": [], **{name: [] for name, _ in theirs}}
    counts = {}
    for _ in range(runs):
        elapsed, _ = timed(ours, env)
        times["agenthub"].append(elapsed)
        for name, argv in theirs:
            elapsed, stdout = timed(argv, env)
            times[name].append(elapsed)
            counts[name] = len(stdout.splitlines())
    ours_median = statistics.median(times["agenthub"])
    print(f"\n{label}  (agenthub's first result line: {files_in_transcript(transcript)!r})")
    print(f"  {'agenthub run (one call)':<44} {ours_median:8.1f} ms")
    for name, _ in theirs:
        median = statistics.median(times[name])
        print(f"  {name:<44} {median:8.1f} ms  ({counts[name]} files)  ratio {ours_median / median:.2f}x")


def main():
    tree = sys.argv[1] if len(sys.argv) > 1 else os.path.expanduser("~/.cargo/registry/src")
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    binary = sys.argv[3] if len(sys.argv) > 3 else "target/release/agenthub"
    tree = os.path.realpath(tree)
    with tempfile.TemporaryDirectory() as scratch:
        env = dict(os.environ, HOME=scratch, XDG_CONFIG_HOME=scratch, XDG_STATE_HOME=scratch)
        grep, grep_transcript = agenthub_command(
            binary, tree, scratch, "Grep", {"pattern": PATTERN, "output_mode": "files_with_matches"})
        glob, glob_transcript = agenthub_command(binary, tree, scratch, "Glob", {"pattern": GLOB})
        print(f"tree {tree}, {runs} runs each, interleaved")
        compare(f"Grep {PATTERN!r}", grep, [
            ("rg -l --hidden --no-require-git", ["rg", "-l", "--hidden", "--no-require-git", PATTERN, tree]),
            ("rg -l", ["rg", "-l", PATTERN, tree]),
        ], env, runs, grep_transcript)
        compare(f"Glob {GLOB!r}", glob, [
            ("rg --files --hidden --no-require-git -g", ["rg", "--files", "--hidden", "--no-require-git", "-g", "*.toml", tree]),
        ], env, runs, glob_transcript)


if __name__ == "__main__":
    main()
