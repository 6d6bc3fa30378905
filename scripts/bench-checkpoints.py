#!/usr/bin/env python3
"""What one checkpoint costs (contract §24: target < 50 ms with one changed file).

Builds and runs the `checkpoint_cost` example of the agenthub crate, which makes a
10,000-file workspace (100 folders x 100 files), takes the first checkpoint, then
ROUNDS checkpoints with no file changed and ROUNDS with one file changed before each,
all through the library's own `ShadowStore` (the git binary on the workspace's shadow
store). Prints the medians of the wall time and git's CPU time per checkpoint (which
a loaded machine does not inflate); the README quotes them.

Usage: scripts/bench-checkpoints.py [rounds] [--debug]   (default: 21 rounds, release build)
"""

import json
import os
import subprocess
import sys


def main():
    args = [arg for arg in sys.argv[1:] if arg != "--debug"]
    rounds = args[0] if args else "21"
    profile = [] if "--debug" in sys.argv else ["--release"]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    output = subprocess.run(
        ["cargo", "run", "--quiet", *profile, "-p", "agenthub", "--example", "checkpoint_cost", rounds],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result = json.loads(output.strip().splitlines()[-1])
    print(f"checkpoint of a {result['files']}-file tree, {result['rounds']} rounds each")
    print(f"  first checkpoint (every file hashed): {result['first_ms']:.0f} ms")
    for label, key in (("no file changed", "unchanged"), ("one file changed", "one_changed")):
        times = result[f"{key}_ms"]
        cpu = result[f"{key}_cpu_ms"]
        print(
            f"  {label:<17} median {times['median']:.1f} ms (min {times['min']:.1f}, max {times['max']:.1f});"
            f" git's CPU time {cpu:.1f} ms per checkpoint"
        )
    budget = result["one_changed_ms"]["median"]
    print("  within the 50 ms budget" if budget < 50 else f"  OVER the 50 ms budget ({budget:.1f} ms)")


if __name__ == "__main__":
    main()
