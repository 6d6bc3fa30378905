#!/usr/bin/env python3
"""Start-up cost of installed plugins and skills (issue 27): a scripted
`agenthub run` that answers at once, with no plugins against 20 installed and
enabled plugins (each with a hook file, an agent, a command and 5 skills: 100
skills in all), alternated run by run so machine noise hits both alike.

Prints the median wall time of each and the difference.

Usage: scripts/bench-plugins.py [path/to/agenthub] [runs]   (default: target/release/agenthub, 30)
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def home_with(plugins, binary):
    """A HOME with `plugins` plugins installed through `agenthub plugin install`."""
    base = tempfile.mkdtemp(prefix="agenthub-bench-plugins-")
    home = os.path.join(base, "home")
    os.makedirs(home)
    env = {**os.environ, "HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config"),
           "XDG_DATA_HOME": os.path.join(home, ".local/share"),
           "XDG_STATE_HOME": os.path.join(home, ".local/state")}
    for number in range(plugins):
        root = os.path.join(base, "src", f"p{number}")
        write(root, ".claude-plugin/plugin.json", json.dumps({"name": f"p{number}", "version": "1.0.0"}))
        write(root, "hooks/hooks.json", json.dumps({"hooks": {"PostToolUse": [
            {"matcher": "Edit", "hooks": [{"type": "command", "command": "true"}]}]}}))
        write(root, "agents/helper.md", f"---\nname: helper{number}\ndescription: Helps\n---\nHelp.\n")
        write(root, "commands/go.md", "---\ndescription: Go\n---\nGo $ARGUMENTS\n")
        for skill in range(5):
            write(root, f"skills/s{number}-{skill}/SKILL.md",
                  f"---\nname: s{number}-{skill}\ndescription: Skill {skill} of plugin {number}\n---\nBody.\n")
        subprocess.run([binary, "plugin", "install", root], env=env, check=True,
                       stdout=subprocess.DEVNULL)
    workspace = os.path.join(base, "ws")
    os.makedirs(workspace)
    return env, workspace


def write(root, relative, text):
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as file:
        file.write(text)


def measure(argv, env, cwd):
    started = time.perf_counter()
    subprocess.run(argv, env=env, cwd=cwd, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - started) * 1000.0


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/release/agenthub")
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    script = os.path.join(tempfile.mkdtemp(), "answer.json")
    with open(script, "w") as file:
        json.dump({"turns": [{"content": "done"}]}, file)
    cases = {"no plugins": home_with(0, binary), "20 plugins, 100 skills": home_with(20, binary)}
    times = {name: [] for name in cases}
    for _ in range(runs):
        for name, (env, workspace) in cases.items():
            times[name].append(measure([binary, "run", "--script", script, "go"], env, workspace))
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, median in medians.items():
        print(f"{name:24} median {median:7.2f} ms  ({runs} runs)")
    print(f"{'added':24} {medians['20 plugins, 100 skills'] - medians['no plugins']:+7.2f} ms")


if __name__ == "__main__":
    main()
