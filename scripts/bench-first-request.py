#!/usr/bin/env python3
"""What the first model request of `agenthub run` costs in prompt tokens, for an
empty workspace (contract §22): the whole body, the tool list, the messages, and
each tool's share.

A loopback HTTP server plays an OpenAI-compatible provider, records the first
request's body and answers "ok"; HOME is an empty temporary folder, so no user
settings, memory files or subagent definitions add to it. Tokens are estimated
the way AgentHub's context budget does, characters / 4 of the JSON sent: a
real tokenizer gives other absolute numbers, but the before/after comparison
holds. No network is used.

Usage: scripts/bench-first-request.py [path/to/agenthub ...]
       (default: target/debug/agenthub; give two binaries to compare them)
"""

import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading


class Provider(http.server.BaseHTTPRequestHandler):
    bodies = []

    def do_POST(self):
        length = int(self.headers.get("content-length", "0"))
        Provider.bodies.append(json.loads(self.rfile.read(length)))
        events = [
            {"choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": None}]},
            {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
        ]
        body = "".join(f"data: {json.dumps(event)}\n\n" for event in events) + "data: [DONE]\n\n"
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args):
        pass


def tokens(value):
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
    return (len(text) + 3) // 4


def first_request(binary):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Provider)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Provider.bodies.clear()
    home = tempfile.mkdtemp(prefix="agenthub-bench-home-")
    workspace = tempfile.mkdtemp(prefix="agenthub-bench-ws-")
    env = {key: value for key, value in os.environ.items() if not key.startswith(("OPENAI_", "ANTHROPIC_", "AGENTHUB_"))}
    env.update({"HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config")})
    subprocess.run(
        [binary, "run", "--model", "bench-model", "--base-url", f"http://127.0.0.1:{server.server_port}/v1",
         "--workspace", workspace, "--transcript", os.path.join(home, "t.jsonl"), "say ok"],
        env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120,
    )
    server.shutdown()
    return Provider.bodies[0]


def report(binary):
    body = first_request(binary)
    tools = body.get("tools", [])
    print(f"{binary}")
    print(f"  whole request: {len(json.dumps(body, separators=(',', ':')))} bytes, ~{tokens(body)} tokens")
    print(f"  messages:      ~{tokens(body['messages'])} tokens (system prompt ~{tokens(body['messages'][0]['content'])})")
    print(f"  tool list:     ~{tokens(tools)} tokens for {len(tools)} tools")
    for tool in tools:
        function = tool["function"]
        print(f"    {function['name']:<8} ~{tokens(tool):>5} tokens (description ~{tokens(function['description'])})")
    return tokens(body)


def main():
    binaries = sys.argv[1:] or ["target/debug/agenthub"]
    totals = [report(binary) for binary in binaries]
    if len(totals) == 2:
        print(f"first request: ~{totals[0]} -> ~{totals[1]} tokens ({totals[1] - totals[0]:+d})")


if __name__ == "__main__":
    main()
