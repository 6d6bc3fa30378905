#!/usr/bin/env python3
"""The added cost of journaling per step on the fleet path (contract §18).

One scripted session of CALLS Echo calls and a final answer (CALLS + 1 model
requests and 2 * CALLS tool steps: "began" + handler) is run alternately
  - locally:  `agenthub batch TASKS --parallel 1`
  - on the fleet: `agenthub batch TASKS --restate INGRESS` against a real
    Restate server (tests/npm) and one `agenthub worker` on loopback,
and the session's own `duration_ms` (from its result line) is compared:
medians over RUNS of each, and (fleet - local) / steps as the cost per step.

With BENCH_NO_FSYNC=1 the server's log skips fsync: what remains is the
worker's own cost (SDK, bridge, loopback round trips), not the disk's.

Usage: scripts/bench-fleet.py [path/to/agenthub] [runs] [calls]
       (default: target/release/agenthub, else target/debug/agenthub; 15; 20)
"""

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER = os.path.join(
    ROOT, "tests/npm/node_modules/@restatedev/restate-server-linux-x64/bin/restate-server"
)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url, limit=30):
    deadline = time.time() + limit
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1) as answer:
                if answer.status == 200:
                    return answer.read()
        except OSError:
            pass
        time.sleep(0.1)
    sys.exit(f"{url} did not answer")


def deployments(admin):
    return json.loads(wait_for(f"{admin}/deployments")).get("deployments", [])


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else None
    if binary is None:
        release = os.path.join(ROOT, "target/release/agenthub")
        binary = release if os.path.exists(release) else os.path.join(ROOT, "target/debug/agenthub")
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    calls = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    if not os.path.exists(SERVER):
        sys.exit("the Restate server is missing: run `npm ci --prefix tests/npm`")
    work = tempfile.mkdtemp(prefix="agenthub-bench-fleet-")
    env = dict(os.environ, HOME=work, XDG_CONFIG_HOME=f"{work}/.config", XDG_STATE_HOME=f"{work}/.state")
    workspace = os.path.join(work, "ws")
    os.makedirs(workspace)
    turns = [
        {"tool_calls": [{"id": f"call_{i}", "name": "Echo", "arguments": {"text": f"step {i}"}}]}
        for i in range(calls)
    ] + [{"content": "done"}]
    script = os.path.join(work, "script.json")
    with open(script, "w") as f:
        json.dump({"turns": turns}, f)
    settings = {"maxTurns": calls + 5}

    ingress_port, admin_port, node_port, worker_port = (free_port() for _ in range(4))
    ingress, admin = f"http://127.0.0.1:{ingress_port}", f"http://127.0.0.1:{admin_port}"
    server = subprocess.Popen(
        [SERVER, "--no-logo", "--listen-mode", "tcp", "--node-name", "bench", "--base-dir", f"{work}/restate"],
        env=dict(env, RESTATE_INGRESS__BIND_ADDRESS=f"127.0.0.1:{ingress_port}",
                 RESTATE_ADMIN__BIND_ADDRESS=f"127.0.0.1:{admin_port}",
                 RESTATE_BIND_ADDRESS=f"127.0.0.1:{node_port}",
                 **({"RESTATE_BIFROST__LOCAL__ROCKSDB_DISABLE_WAL_FSYNC": "true"}
                    if os.environ.get("BENCH_NO_FSYNC") else {})),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = None
    try:
        wait_for(f"{admin}/health")
        wait_for(f"{ingress}/restate/health")
        worker = subprocess.Popen(
            [binary, "worker", "--listen", f"127.0.0.1:{worker_port}", "--register", admin],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while not deployments(admin):
            time.sleep(0.05)

        def session(task_id, extra):
            tasks = os.path.join(work, f"{task_id}.jsonl")
            with open(tasks, "w") as f:
                f.write(json.dumps({"id": task_id, "prompt": "go", "workspace": {"path": workspace},
                                    "script": script, "settings": settings}) + "\n")
            out = subprocess.run([binary, "batch", tasks, *extra], env=env, capture_output=True, check=True)
            line = json.loads(out.stdout.decode().splitlines()[0])
            assert line["status"] == "completed", line
            return line["duration_ms"]

        local, fleet = [], []
        session("warmup-local", ["--parallel", "1"])
        session("warmup-fleet", ["--restate", ingress])
        for run in range(runs):
            local.append(session(f"local-{run}", ["--parallel", "1"]))
            fleet.append(session(f"fleet-{run}", ["--restate", ingress]))
        steps = (calls + 1) + 2 * calls
        local_median, fleet_median = statistics.median(local), statistics.median(fleet)
        print(f"binary: {binary}; server log fsync: {'off' if os.environ.get('BENCH_NO_FSYNC') else 'on'}")
        print(f"session: {calls} Echo calls, {steps} journaled steps; {runs} runs each, alternating")
        print(f"local session duration, median: {local_median:.1f} ms")
        print(f"fleet session duration, median: {fleet_median:.1f} ms")
        print(f"added cost per journaled step: {(fleet_median - local_median) / steps:.2f} ms")
    finally:
        for process in (worker, server):
            if process is not None:
                process.kill()
                process.wait()


if __name__ == "__main__":
    main()
