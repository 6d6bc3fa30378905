#!/usr/bin/env python3
"""What the sandbox adds to one Bash call (contract §26: target < 5 ms), side by side in one run.

Runs `agenthub run` with a script of 50 Bash calls (`true`, one per turn) under each
configuration, ROUNDS times, alternating them so that machine noise hits all alike. A
run's wall time divided by 50 is its time per call (the one-off start-up of the
binary and the bubblewrap probe spread over the calls, as in a session); the script
prints the median over the rounds of each configuration's time per call and its
difference to `--sandbox off`: the added cost per Bash call. The workspace holds a
`.git` folder, a nested repository and an `.envrc`, as a real one does, so the
protected-name walk has something to find.

Usage: scripts/bench-sandbox.py [path/to/agenthub] [rounds]   (default: target/release/agenthub, 7)
"""

import json
import os
import statistics
import sys
import tempfile
import time


def measure(argv, env):
    devnull = os.open(os.devnull, os.O_RDWR)
    actions = [(os.POSIX_SPAWN_DUP2, devnull, fd) for fd in (0, 1, 2)]
    started = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, env, file_actions=actions)
    os.close(devnull)
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed with status {status}")
    return elapsed * 1000.0


def workspace(root):
    ws = os.path.join(root, "ws")
    for folder in (".git/hooks", "src", "sub/.git", "docs/deep"):
        os.makedirs(os.path.join(ws, folder), exist_ok=True)
    for name in ("src/main.rs", "docs/deep/notes.md", ".envrc"):
        with open(os.path.join(ws, name), "w") as file:
            file.write("x\n")
    return ws


CALLS = 50


def script(root):
    path = os.path.join(root, "script.json")
    turns = [
        {"content": "", "tool_calls": [{"id": f"c{n}", "name": "Bash", "arguments": {"command": "true"}}]}
        for n in range(CALLS)
    ]
    turns.append({"content": "done"})
    with open(path, "w") as file:
        json.dump({"turns": turns}, file)
    return path


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/agenthub"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    root = tempfile.mkdtemp(prefix="agenthub-bench-sandbox-")
    ws, script_path = workspace(root), script(root)
    base = [binary, "run", "--script", script_path, "--workspace", ws,
            "--transcript", os.path.join(root, "t.jsonl"),
            "--permission-mode", "bypassPermissions", "--max-turns", str(CALLS + 5)]
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(root, "config"),
               XDG_STATE_HOME=os.path.join(root, "state"))
    configurations = {
        "--sandbox off": (base + ["--sandbox", "off", "go"], env),
        "bubblewrap (joined)": (base + ["go"], env),
        "bubblewrap per call": (base + ["go"], dict(env, AGENTHUB_SANDBOX_PER_CALL="1")),
        "landlock + seccomp": (base + ["go"], dict(env, AGENTHUB_SANDBOX_DISABLE_BWRAP="1")),
    }
    samples = {name: [] for name in configurations}
    for _ in range(runs):
        for name, (argv, run_env) in configurations.items():
            samples[name].append(measure(argv, run_env) / CALLS)
    off = statistics.median(samples["--sandbox off"])
    print(f"{runs} rounds of {CALLS} Bash calls each, medians of the time per call:")
    print(f"{'configuration':<24}{'ms/call':>10}{'added ms':>10}")
    for name, values in samples.items():
        per_call = statistics.median(values)
        print(f"{name:<24}{per_call:>10.2f}{per_call - off:>10.2f}")


if __name__ == "__main__":
    main()
