#!/usr/bin/env python3
"""What the network proxy adds to a sandboxed command's connections (contract §32), side by side in one run.

A loopback HTTP server (this script, on 127.0.0.1 and ::1) serves a 64 MiB file and a 1 KiB one.
`agenthub run` runs one Bash call under each configuration:

- `network: true`: the host's network, no proxy (`curl` connects directly; the command's
  environment is checked to hold no proxy variable: a boolean adds nothing);
- `allowedDomains: ["localhost"]`: the command's own network namespace, `curl` through
  AgentHub's proxy (HTTP, and SOCKS5 via ALL_PROXY).

In the call, `curl` fetches the big file DOWNLOADS times (throughput, MB/s, from curl's
`speed_download`) and the small one CONNECTIONS times, each on a new connection (latency,
curl's `time_total`, which leaves out curl's own start). The script prints the medians
side by side and the proxy's difference: the added latency per connection and the
throughput kept.

Usage: scripts/bench-network.py [path/to/agenthub] [rounds]   (default: target/debug/agenthub, 3)
"""

import http.server
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading

DOWNLOADS = 5
CONNECTIONS = 50
BIG = 64 * 1024 * 1024


class Loopback6(http.server.ThreadingHTTPServer):
    address_family = socket.AF_INET6


def serve(folder):
    """The same files on 127.0.0.1 and ::1 at one port, so `localhost` is one try whichever
    address comes first, and nothing listens beyond loopback."""
    handler = lambda *args: http.server.SimpleHTTPRequestHandler(*args, directory=folder)
    http.server.SimpleHTTPRequestHandler.log_message = lambda *args: None
    for _ in range(20):
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        try:
            six = Loopback6(("::1", server.server_address[1]), handler)
        except OSError:
            server.server_close()
            continue
        threading.Thread(target=six.serve_forever, daemon=True).start()
        break
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def command(port, proxy_flag):
    big = f"http://localhost:{port}/big"
    small = f"http://localhost:{port}/small"
    return (
        "env | grep -ci '_proxy=' ; "
        f"for i in $(seq {DOWNLOADS}); do curl -sS {proxy_flag} -o /dev/null -w 'mbps %{{speed_download}}\\n' {big}; done; "
        f"for i in $(seq {CONNECTIONS}); do curl -sS {proxy_flag} -o /dev/null -w 'conn %{{time_total}}\\n' {small}; done"
    )


def run(binary, root, name, network, proxy_flag, port):
    folder = os.path.join(root, name)
    ws = os.path.join(folder, "ws")
    os.makedirs(ws)
    settings = os.path.join(folder, "settings.json")
    with open(settings, "w") as file:
        json.dump({"sandbox": {"network": network}}, file)
    script = os.path.join(folder, "script.json")
    call = {"id": "c1", "name": "Bash",
            "arguments": {"command": command(port, proxy_flag), "timeout": 600000}}
    with open(script, "w") as file:
        json.dump({"turns": [{"content": "", "tool_calls": [call]}, {"content": "done"}]}, file)
    transcript = os.path.join(folder, "t.jsonl")
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(folder, "config"),
               XDG_STATE_HOME=os.path.join(folder, "state"))
    subprocess.run([binary, "run", "--script", script, "--workspace", ws, "--settings", settings,
                    "--transcript", transcript, "--permission-mode", "bypassPermissions", "go"],
                   env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for line in open(transcript):
        record = json.loads(line)
        message = record.get("message", {})
        if isinstance(message, dict) and message.get("tool_call_id") == "c1":
            return message["content"]
        for part in message.get("content", []) if isinstance(message, dict) else []:
            if isinstance(part, dict) and part.get("tool_use_id") == "c1":
                content = part.get("content")
                return content if isinstance(content, str) else content[0]["text"]
    raise SystemExit(f"{name}: no result in {transcript}")


def figures(output):
    lines = output.splitlines()
    proxy_variables = next(int(line) for line in lines if line.strip().isdigit())
    mbps = [float(line.split()[1]) / 1e6 for line in lines if line.startswith("mbps ")]
    latency = [float(line.split()[1]) * 1000 for line in lines if line.startswith("conn ")]
    if len(mbps) != DOWNLOADS or len(latency) != CONNECTIONS:
        raise SystemExit(f"unexpected output:\n{output}")
    return proxy_variables, mbps, latency


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/debug/agenthub"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    root = tempfile.mkdtemp(prefix="agenthub-bench-network-")
    files = os.path.join(root, "files")
    os.makedirs(files)
    with open(os.path.join(files, "big"), "wb") as file:
        file.write(os.urandom(BIG))
    with open(os.path.join(files, "small"), "wb") as file:
        file.write(b"x" * 1024)
    port = serve(files)
    configurations = {
        "network: true (direct)": (True, ""),
        "allowedDomains, HTTP proxy": ({"allowedDomains": ["localhost"]}, ""),
        "allowedDomains, SOCKS5": ({"allowedDomains": ["localhost"]}, '-x "$ALL_PROXY"'),
    }
    samples = {name: ([], [], None) for name in configurations}
    for round_ in range(rounds):
        for index, (name, (network, flag)) in enumerate(configurations.items()):
            output = run(binary, root, f"r{round_}-{index}", network, flag, port)
            variables, mbps, latency = figures(output)
            samples[name][0].extend(mbps)
            samples[name][1].extend(latency)
            samples[name] = (samples[name][0], samples[name][1], variables)
    direct = statistics.median(samples["network: true (direct)"][1])
    print(f"{rounds} rounds; {DOWNLOADS} downloads of 64 MiB and {CONNECTIONS} connections each; medians:")
    print(f"{'configuration':<30}{'proxy vars':>11}{'MB/s':>10}{'ms/conn':>10}{'added ms':>10}")
    for name, (mbps, latency, variables) in samples.items():
        per_connection = statistics.median(latency)
        print(f"{name:<30}{variables:>11}{statistics.median(mbps):>10.0f}"
              f"{per_connection:>10.2f}{per_connection - direct:>10.2f}")


if __name__ == "__main__":
    main()
