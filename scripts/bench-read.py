#!/usr/bin/env python3
"""Read on huge files (contract §26): the wall time of a whole `agenthub run`
whose scripted model makes one Read of line 1, on

1. a 10 GB sparse file (zeros after a short header): judged binary from its
   first 8 KiB, so it answers at once instead of scanning 10 GB;
2. a 1 GB sparse file whose first 16 KiB are text lines: line 1 is shown and
   the line count stops after 256 MiB ("too large to count");
3. a 10 GB sparse file whose first 16 KiB are one line without end: the scan
   for its end stops at 1 MiB.

The sparse files take no disk space. Prints the median over N runs of each.

Usage: scripts/bench-read.py [path/to/agenthub] [runs]   (default: target/release/agenthub, 5)
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

CASES = (
    ("10 GB sparse, binary", b"header\n", 10 << 30),
    ("1 GB sparse, text start", b"a\n" * 8192, 1 << 30),
    ("10 GB sparse, endless line", b"a" * 16384, 10 << 30),
)


def sparse(path, start, size):
    with open(path, "wb") as out:
        out.write(start)
        out.truncate(size)


def one_run(binary, root, name):
    script = {"turns": [
        {"content": "reading", "tool_calls": [
            {"id": "call_1", "name": "Read", "arguments": {"file_path": name, "limit": 1}}]},
        {"content": "done"},
    ]}
    script_path = os.path.join(root, "script.json")
    with open(script_path, "w") as out:
        json.dump(script, out)
    env = dict(os.environ, HOME=os.path.join(root, "home"),
               XDG_STATE_HOME=os.path.join(root, "home", "state"),
               XDG_CONFIG_HOME=os.path.join(root, "home", "config"))
    started = time.perf_counter()
    subprocess.run([binary, "run", "--script", script_path, "--workspace",
                    os.path.join(root, "ws"), "go"],
                   env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/agenthub"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "ws"))
        os.makedirs(os.path.join(root, "home"))
        for index, (label, start, size) in enumerate(CASES):
            name = f"case{index}.img"
            sparse(os.path.join(root, "ws", name), start, size)
            times = [one_run(binary, root, name) for _ in range(runs)]
            print(f"{label:32} median {statistics.median(times) * 1000:8.1f} ms over {runs} runs")
            os.remove(os.path.join(root, "ws", name))


if __name__ == "__main__":
    main()
