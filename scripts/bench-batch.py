#!/usr/bin/env python3
"""Local batch throughput: `agenthub batch` on 200 scripted sessions, in
sessions per second, at --parallel 1, 2 and 4.

Each task is a whole session (settings, policy, hooks, transcript, the
system prompt) whose scripted model makes one Read call and then answers,
so every session walks the tool pipeline once. The three parallelisms are
run in turn, round after round, so each is measured under the same machine
load; the median of the rounds is printed side by side.

Usage: scripts/bench-batch.py [path/to/agenthub ...] [rounds]
       (default: target/release/agenthub, 5 rounds; given several binaries,
       say a commit before and after a change, each is run in turn at each
       parallelism in every round, so they compare side by side)
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

TASKS = 200
PARALLELS = (1, 2, 4)


def write_case(root):
    os.makedirs(os.path.join(root, "ws"))
    os.makedirs(os.path.join(root, "home"))
    with open(os.path.join(root, "ws", "notes.txt"), "w") as notes:
        notes.write("batch benchmark\n")
    script = {"turns": [
        {"content": "reading", "tool_calls": [
            {"id": "call_1", "name": "Read", "arguments": {"file_path": "notes.txt"}}]},
        {"content": "It says: {{last_tool_result}}"},
    ]}
    with open(os.path.join(root, "script.json"), "w") as out:
        json.dump(script, out)
    with open(os.path.join(root, "tasks.jsonl"), "w") as out:
        for n in range(TASKS):
            task = {"id": f"t{n}", "prompt": "read the notes",
                    "workspace": {"path": "ws"}, "script": "script.json"}
            out.write(json.dumps(task) + "\n")


def one_run(binary, root, parallel):
    env = dict(os.environ)
    home = os.path.join(root, "home")
    env.update(HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
               XDG_STATE_HOME=os.path.join(home, ".local/state"))
    results = os.path.join(root, "results.jsonl")
    start = time.perf_counter()
    subprocess.run([binary, "batch", os.path.join(root, "tasks.jsonl"),
                    "--parallel", str(parallel), "--out", results],
                   env=env, check=True, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    with open(results) as lines:
        done = [json.loads(line) for line in lines]
    failed = [line["id"] for line in done if line["is_error"]]
    if len(done) != TASKS or failed:
        raise SystemExit(f"expected {TASKS} successful lines, got {len(done)} ({failed[:5]} failed)")
    return TASKS / elapsed


def main():
    numbers = [arg for arg in sys.argv[1:] if arg.isdigit()]
    binaries = [arg for arg in sys.argv[1:] if not arg.isdigit()] or ["target/release/agenthub"]
    rounds = int(numbers[0]) if numbers else 5
    rates = {(binary, parallel): [] for binary in binaries for parallel in PARALLELS}
    for _ in range(rounds):
        for parallel in PARALLELS:
            for binary in binaries:
                # A fresh case each run: a transcripts folder that grows
                # round after round makes creating the next file dearer.
                with tempfile.TemporaryDirectory() as root:
                    write_case(root)
                    rates[(binary, parallel)].append(one_run(binary, root, parallel))
    print(f"{TASKS} scripted sessions, median of {rounds} rounds ({os.cpu_count()} cores)")
    for number, binary in enumerate(binaries, start=1):
        print(f"[{number}] {binary}")
    header = "".join(f"{f'[{number}]':>12}" for number in range(1, len(binaries) + 1))
    print(f"parallel{header}   (sessions/s)")
    for parallel in PARALLELS:
        cells = "".join(
            f"{statistics.median(rates[(binary, parallel)]):>12.1f}" for binary in binaries
        )
        print(f"{parallel:>8}{cells}")


if __name__ == "__main__":
    main()
