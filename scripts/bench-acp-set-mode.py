#!/usr/bin/env python3
"""What `session/set_mode` costs an editor when the session has one stdio MCP
server (contract §31): the time from the request to its answer, for each
binary given (say before and after a change). Every round starts one fresh
`agenthub acp --script FILE` per binary, opens a session with the server,
then switches modes (acceptEdits, default, ...) `--switches` times; the
binaries take turns within each round, so each is measured under the same
machine load. Prints the median, min and max of every switch per binary,
and whether the server process survived the switches (one start, or one
per switch).

Usage: scripts/bench-acp-set-mode.py AGENTHUB [AGENTHUB ...]
           [--rounds N] [--switches N] [--server everything|python]

The server is npm's `@modelcontextprotocol/server-everything` (tests/npm,
a Node process, as editors run them; the default) or
crates/cli/tests/e2e/servers/slow_mcp.py (`python`). Nothing leaves the
machine: the model is scripted.
"""

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
EVERYTHING = os.path.join(ROOT, "tests/npm/node_modules/.bin/mcp-server-everything")
SLOW = os.path.join(ROOT, "crates/cli/tests/e2e/servers/slow_mcp.py")


class Agent:
    """One `agenthub acp` process spoken to over its stdin and stdout."""

    def __init__(self, binary, root):
        home = os.path.join(root, "home")
        env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                   XDG_STATE_HOME=os.path.join(home, ".local/state"))
        self.process = subprocess.Popen(
            [binary, "acp", "--script", os.path.join(root, "script.json")],
            cwd=os.path.join(root, "ws"), env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0

    def call(self, method, params):
        """The answer to one request (notifications before it passed over)."""
        self.next_id += 1
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"{method}: the agent closed its output")
            message = json.loads(line)
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


def server(kind, events):
    if kind == "python":
        return {"name": "bench", "command": "python3", "args": [SLOW, "bench"],
                "env": [{"name": "MCP_EVENTS", "value": events}]}
    return {"name": "bench", "command": EVERYTHING, "args": [], "env": []}


def one_round(binary, kind, switches):
    """The switch latencies (seconds) of one fresh agent, and how many times
    its server answered `initialize` (python server only; else None)."""
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "ws"))
        os.makedirs(os.path.join(root, "home/.config/agenthub"))
        with open(os.path.join(root, "script.json"), "w") as out:
            json.dump({"turns": [{"content": "done"}]}, out)
        events = os.path.join(root, "events.txt")
        agent = Agent(binary, root)
        try:
            agent.call("initialize", {"protocolVersion": 1, "clientCapabilities": {}})
            created = agent.call("session/new", {"cwd": os.path.join(root, "ws"),
                                                 "mcpServers": [server(kind, events)]})
            session = created["sessionId"]
            timings = []
            for switch in range(switches):
                mode = "acceptEdits" if switch % 2 == 0 else "default"
                start = time.perf_counter()
                agent.call("session/set_mode", {"sessionId": session, "modeId": mode})
                timings.append(time.perf_counter() - start)
        finally:
            agent.close()
        starts = None
        if kind == "python" and os.path.exists(events):
            with open(events) as seen:
                starts = sum(1 for line in seen if line.endswith(" initialize\n"))
        return timings, starts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--switches", type=int, default=10)
    parser.add_argument("--server", choices=["everything", "python"], default="everything")
    args = parser.parse_args()
    timings = {binary: [] for binary in args.binaries}
    starts = {binary: [] for binary in args.binaries}
    for _ in range(args.rounds):
        for binary in args.binaries:
            taken, started = one_round(os.path.abspath(binary), args.server, args.switches)
            timings[binary].extend(taken)
            starts[binary].append(started)
    print(f"session/set_mode with one stdio MCP server ({args.server}), "
          f"{args.rounds} rounds x {args.switches} switches")
    for binary in args.binaries:
        taken = [seconds * 1000 for seconds in timings[binary]]
        started = "" if starts[binary][0] is None else \
            f"  server starts per session: {statistics.median(starts[binary]):.0f}"
        print(f"{binary}: median {statistics.median(taken):.1f} ms "
              f"(min {min(taken):.1f}, max {max(taken):.1f}){started}")


if __name__ == "__main__":
    main()
