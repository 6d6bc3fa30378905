#!/usr/bin/env python3
"""What a user-level MCP server costs at start-up: a scripted `agenthub run`
and `agenthub batch` of 200 scripted tasks, each with one user-level server
(`mcpServers` in the user settings) that takes 0.5 s to answer `initialize`,
and the same run and batch with `--strict-mcp-config` (which does not
start it: the cost without the server). The
runs of each binary alternate round after round, so each is measured under
the same machine load; the median of the rounds is printed side by side.

Usage: scripts/bench-mcp-start.py path/to/agenthub [path/to/agenthub ...] [rounds]
       (default 3 rounds; several binaries, say before and after a change,
       are run in turn in every round)
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

TASKS = 200
SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "../crates/cli/tests/e2e/servers/slow_mcp.py")


def write_case(root):
    for folder in ("ws", "home/.config/agenthub"):
        os.makedirs(os.path.join(root, folder))
    settings = {"mcpServers": {"slow": {"command": "python3", "args": [SERVER, "slow"],
                                        "env": {"MCP_SLEEP": "0.5"}}}}
    with open(os.path.join(root, "home/.config/agenthub/settings.json"), "w") as out:
        json.dump(settings, out)
    with open(os.path.join(root, "script.json"), "w") as out:
        json.dump({"turns": [{"content": "done"}]}, out)
    with open(os.path.join(root, "tasks.jsonl"), "w") as out:
        for n in range(TASKS):
            out.write(json.dumps({"id": f"t{n}", "prompt": "go", "workspace": {"path": "ws"},
                                  "script": "script.json"}) + "\n")


def timed(root, args):
    home = os.path.join(root, "home")
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
               XDG_STATE_HOME=os.path.join(home, ".local/state"))
    start = time.perf_counter()
    subprocess.run(args, env=env, cwd=os.path.join(root, "ws"), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def cases(binary, root):
    script = os.path.join(root, "script.json")
    run = [binary, "run", "--script", script, "go"]
    batch = [binary, "batch", os.path.join(root, "tasks.jsonl"),
             "--out", os.path.join(root, "results.jsonl")]
    return {
        "run": run,
        "run --strict-mcp-config": run[:2] + ["--strict-mcp-config"] + run[2:],
        f"batch of {TASKS}": batch,
        f"batch of {TASKS} --strict-mcp-config": batch + ["--strict-mcp-config"],
    }


def main():
    numbers = [arg for arg in sys.argv[1:] if arg.isdigit()]
    binaries = [arg for arg in sys.argv[1:] if not arg.isdigit()]
    rounds = int(numbers[0]) if numbers else 3
    times = {}
    for _ in range(rounds):
        for binary in binaries:
            with tempfile.TemporaryDirectory() as root:
                write_case(root)
                for name, args in cases(binary, root).items():
                    try:
                        seconds = timed(root, args)
                    except subprocess.CalledProcessError:
                        seconds = float("nan")  # a flag this binary does not have
                    times.setdefault((name, binary), []).append(seconds)
    names = list(dict.fromkeys(name for name, _ in times))
    print(f"one user-level server taking 0.5 s to start; median of {rounds} rounds, "
          f"seconds ({os.cpu_count()} cores)")
    print("case".ljust(42) + "".join(os.path.basename(os.path.dirname(b) or b)[:18].rjust(20)
                                     for b in binaries))
    for name in names:
        cells = "".join(f"{statistics.median(times[(name, b)]):20.2f}" for b in binaries)
        print(name.ljust(42) + cells)


if __name__ == "__main__":
    main()
