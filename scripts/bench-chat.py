#!/usr/bin/env python3
"""The interactive session's two latencies, measured in a real pseudo-terminal.

1. Launch to a ready prompt: `agenthub chat --script …` is started in a pty
   and timed until its prompt is drawn (then Ctrl-D ends it).
2. Token to screen: a loopback OpenAI-compatible server streams an answer one
   token every 20 ms, each token a unique marker; the time from the server
   writing a token to that token's bytes arriving on the pty is its latency.
   The server and the reader share one clock (this process).

Prints medians (and the 90th percentile of token latency) over N runs.

Usage: scripts/bench-chat.py [path/to/agenthub] [runs]   (default: target/release/agenthub, 20)
"""

import http.server
import json
import os
import pty
import select
import statistics
import sys
import tempfile
import threading
import time

TOKENS = 30
TOKEN_GAP = 0.02
PROMPT = b"> "


def spawn(argv, env):
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(argv[0], argv, env)
    return pid, fd


def read_until(fd, needle, deadline, seen, on_chunk=None):
    while needle not in seen:
        left = deadline - time.perf_counter()
        if left <= 0:
            raise SystemExit(f"timed out waiting for {needle!r}; saw {seen[-300:]!r}")
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                raise SystemExit(f"agenthub ended before {needle!r}; saw {seen[-300:]!r}")
            seen += chunk
            if on_chunk:
                on_chunk(seen, time.perf_counter())
    return seen


def finish(pid, fd):
    os.write(fd, b"\x04")
    try:
        while os.read(fd, 65536):
            pass
    except OSError:
        pass
    os.waitpid(pid, 0)
    os.close(fd)


def launch_to_prompt(binary, env, script):
    started = time.perf_counter()
    pid, fd = spawn([binary, "chat", "--script", script], env)
    read_until(fd, PROMPT, started + 10, b"")
    elapsed = time.perf_counter() - started
    finish(pid, fd)
    return elapsed * 1000.0


class Streamer(http.server.BaseHTTPRequestHandler):
    sent = {}

    def log_message(self, *args):
        pass

    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", 0)))
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.end_headers()
        for index in range(TOKENS):
            marker = f"tok{index:03d}z "
            chunk = {"choices": [{"index": 0, "delta": {"content": marker}, "finish_reason": None}]}
            Streamer.sent[marker] = time.perf_counter()
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.flush()
            time.sleep(TOKEN_GAP)
        done = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
        self.wfile.write(f"data: {json.dumps(done)}\n\ndata: [DONE]\n\n".encode())
        self.wfile.flush()


def token_latencies(binary, env, port):
    env = dict(env, OPENAI_API_KEY="bench", OPENAI_BASE_URL=f"http://127.0.0.1:{port}/v1")
    pid, fd = spawn([binary, "chat", "--model", "gpt-bench"], env)
    seen = read_until(fd, PROMPT, time.perf_counter() + 10, b"")
    arrived = {}

    def note(buffer, now):
        for index in range(TOKENS):
            marker = f"tok{index:03d}z"
            if marker not in arrived and marker.encode() in buffer:
                arrived[marker] = now

    Streamer.sent.clear()
    os.write(fd, b"go\r")
    last = f"tok{TOKENS - 1:03d}z".encode()
    seen = read_until(fd, last, time.perf_counter() + 20, seen, note)
    # The turn ends and the next prompt is drawn before the session can end.
    after = seen.index(last)
    read_until(fd, PROMPT, time.perf_counter() + 20, seen[after:])
    finish(pid, fd)
    return [(arrived[m.strip()] - sent) * 1000.0 for m, sent in Streamer.sent.items() if m.strip() in arrived]


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/release/agenthub")
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    with tempfile.TemporaryDirectory() as home:
        env = {"PATH": os.environ["PATH"], "HOME": home, "TERM": "xterm-256color",
               "XDG_STATE_HOME": os.path.join(home, "state"), "XDG_CONFIG_HOME": os.path.join(home, "config")}
        script = os.path.join(home, "script.json")
        with open(script, "w") as file:
            json.dump({"turns": [{"content": "ready"}]}, file)
        os.chdir(home)
        launches = [launch_to_prompt(binary, env, script) for _ in range(runs)]
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Streamer)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        latencies = []
        for _ in range(max(1, runs // 4)):
            latencies += token_latencies(binary, env, server.server_address[1])
        server.shutdown()
    latencies.sort()
    print(f"launch to ready prompt: median {statistics.median(launches):.1f} ms over {runs} runs")
    print(f"token to screen: median {statistics.median(latencies):.2f} ms, "
          f"p90 {latencies[int(len(latencies) * 0.9)]:.2f} ms over {len(latencies)} tokens")


if __name__ == "__main__":
    main()
