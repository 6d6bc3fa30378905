#!/usr/bin/env python3
"""Local batch throughput: `agenthub batch` on 200 scripted sessions, in
sessions per second, at --parallel 1, 2 and 4.

Each task is a whole session (settings, policy, hooks, transcript, the
system prompt) whose scripted model makes one Read call and then answers,
so every session walks the tool pipeline once. The three parallelisms are
run in turn, round after round, so each is measured under the same machine
load; the median of the rounds is printed side by side.

Usage: scripts/bench-batch.py [path/to/agenthub] [rounds]
       (default: target/release/agenthub, 5)
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
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/agenthub"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    with tempfile.TemporaryDirectory() as root:
        write_case(root)
        rates = {parallel: [] for parallel in PARALLELS}
        for _ in range(rounds):
            for parallel in PARALLELS:
                rates[parallel].append(one_run(binary, root, parallel))
    print(f"{TASKS} scripted sessions, median of {rounds} rounds ({os.cpu_count()} cores)")
    print("parallel  sessions/s")
    for parallel in PARALLELS:
        print(f"{parallel:>8}  {statistics.median(rates[parallel]):>10.1f}")


if __name__ == "__main__":
    main()
