#!/usr/bin/env python3
"""Start-up time and peak memory of the agenthub binary, side by side in one run.

Runs each command N times, alternating them so that machine noise hits all
alike, and prints the median wall time and the median peak RSS (from /usr/bin/time) of each, plus the ratio to `true`, the cost of starting any process.

Usage: scripts/bench-startup.py [path/to/agenthub ...] [runs]
       (default: target/release/agenthub, 30 runs; given several binaries,
       say a commit before and after a change, all are measured in turn in
       every round, so they compare side by side)
"""

import os
import statistics
import sys
import tempfile
import time


def measure(argv):
    devnull = os.open(os.devnull, os.O_RDWR)
    actions = [(os.POSIX_SPAWN_DUP2, devnull, fd) for fd in (0, 1, 2)]
    started = time.perf_counter()
    # posix_spawn, not fork: cheaper for a large parent, so the timing is fair.
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
    os.close(devnull)
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed with status {status}")
    return elapsed * 1000.0


def peak_rss_mib(argv):
    """Peak RSS through /usr/bin/time (a small C parent): a child of Python
    would inherit Python's own high-water mark across exec."""
    with tempfile.NamedTemporaryFile(mode="r") as report:
        measure(["/usr/bin/time", "-f", "%M", "-o", report.name, *argv])
        return int(report.read().split()[-1]) / 1024.0


def speaks_print(binary):
    """Whether the binary has Claude Code's `-p` (older ones do not)."""
    import subprocess
    shown = subprocess.run([binary, "--help"], capture_output=True, text=True).stdout
    return "--print" in shown


def commands_for(binary, label, workspace):
    transcript = os.path.join(workspace, "t.jsonl")
    example = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "hello.json")
    scripted = ["--script", example, "--workspace", workspace, "--transcript", transcript]
    commands = {
        f"{label}--version": [binary, "--version"],
        f"{label}demo": [binary, "demo", "--transcript", transcript],
        f"{label}run --script examples/hello.json": [binary, "run", *scripted],
    }
    if speaks_print(binary):
        commands[f"{label}-p --script examples/hello.json"] = [binary, "-p", *scripted]
    return commands


def main():
    numbers = [arg for arg in sys.argv[1:] if arg.isdigit()]
    binaries = [arg for arg in sys.argv[1:] if not arg.isdigit()] or ["target/release/agenthub"]
    runs = int(numbers[0]) if numbers else 30
    workspace = tempfile.mkdtemp(prefix="agenthub-bench-")
    commands = {"true (process start floor)": ["true"]}
    for number, binary in enumerate(binaries, start=1):
        label = f"[{number}] " if len(binaries) > 1 else "agenthub "
        commands.update(commands_for(binary, label, workspace))
    samples = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            samples[name].append((measure(argv), peak_rss_mib(argv)))
    floor = statistics.median(ms for ms, _ in samples["true (process start floor)"])
    print(f"{runs} runs each, interleaved, medians:")
    if len(binaries) > 1:
        for number, binary in enumerate(binaries, start=1):
            print(f"[{number}] {binary}")
    print(f"{'command':<50}{'wall ms':>10}{'x true':>9}{'peak RSS MiB':>14}")
    for name, values in samples.items():
        wall = statistics.median(ms for ms, _ in values)
        rss = statistics.median(mib for _, mib in values)
        print(f"{name:<50}{wall:>10.2f}{wall / floor:>9.1f}{rss:>14.1f}")


if __name__ == "__main__":
    main()
