#!/usr/bin/env python3
"""Benchmark the Claude Agent SDK for TypeScript driving AgentHub against the
SDK's own Claude Code: time from `query()` to the first SDK message and to the
model's answer (the first assistant message), and the peak RSS of the process
the SDK started (with its children), median over N interleaved runs.

    scripts/bench-agent-sdk.py [--runs N] [--agenthub PATH] [--sdk DIR]

Both run on the same mock Anthropic Messages endpoint this script serves on
127.0.0.1 (`/v1/messages`, streamed as SSE, one short answer): AgentHub with
`--provider anthropic --base-url` (the SDK's `extraArgs`), Claude Code with
ANTHROPIC_BASE_URL, a dummy ANTHROPIC_API_KEY and its non-essential traffic
switched off, each with a HOME of its own. Nothing leaves the machine.

The SDK and Claude Code's binary (the SDK's optional package
@anthropic-ai/claude-agent-sdk-linux-x64, about 400 MB) are installed by this
script into a temporary folder with npm, or taken from DIR (`--sdk`, a folder
whose node_modules holds both). Never run in CI.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ANSWER = "Hello from the mock model."
MODEL = "claude-sonnet-4-5"
PACKAGES = ["@anthropic-ai/claude-agent-sdk@0.3.336", "@anthropic-ai/sdk@1.17.0",
            "@modelcontextprotocol/sdk@1.32.2", "zod@4.6.7"]

# One query() through the SDK; prints {"ms": {...}} when the result arrives.
# Argument: a JSON object of SDK options.
DRIVER = r"""
import { query } from "@anthropic-ai/claude-agent-sdk";
const options = JSON.parse(process.argv[2]);
const started = performance.now();
const ms = {};
for await (const message of query({ prompt: "Say hello.", options })) {
  const at = performance.now() - started;
  ms.first_message ??= at;
  if (message.type === "assistant") ms.first_assistant ??= at;
  if (message.type === "result") {
    ms.result = at;
    ms.answer = message.result;
  }
}
process.stdout.write(JSON.stringify({ ms }) + "\n");
"""


def sse(events):
    return "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events).encode()


def messages_stream(model):
    return sse([
        ("message_start", {"type": "message_start", "message": {
            "id": "msg_1", "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1}}}),
        ("content_block_start", {"type": "content_block_start", "index": 0,
                                 "content_block": {"type": "text", "text": ""}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                 "delta": {"type": "text_delta", "text": ANSWER}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta",
                           "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                           "usage": {"output_tokens": 5}}),
        ("message_stop", {"type": "message_stop"}),
    ])


class MockAnthropic(BaseHTTPRequestHandler):
    """Answers every Messages request with ANSWER (streamed when asked to)."""

    def log_message(self, *args):
        if os.environ.get("BENCH_DEBUG"):
            sys.stderr.write("mock: " + (args[0] % args[1:]) + "\n")

    def do_GET(self):
        self.reply(b'{"data": []}', "application/json")

    def do_HEAD(self):
        self.reply(b"", "application/json")

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b"{}"
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        model = body.get("model", MODEL)
        if "/messages/count_tokens" in self.path:
            self.reply(b'{"input_tokens": 10}', "application/json")
        elif "/messages" in self.path and body.get("stream"):
            self.reply(messages_stream(model), "text/event-stream")
        elif "/messages" in self.path:
            message = {"id": "msg_1", "type": "message", "role": "assistant", "model": model,
                       "content": [{"type": "text", "text": ANSWER}], "stop_reason": "end_turn",
                       "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 5}}
            self.reply(json.dumps(message).encode(), "application/json")
        else:
            self.reply(b"{}", "application/json")

    def reply(self, body, kind):
        self.send_response(200)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def children_of():
    """Each process id's children, read from /proc."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    return children


def descendants_rss_kib(pid):
    """The RSS of every descendant of `pid` (not `pid` itself), in KiB: the
    process the SDK started, with its own children."""
    children = children_of()
    total, todo = 0, list(children.get(pid, []))
    while todo:
        current = todo.pop()
        todo.extend(children.get(current, []))
        try:
            with open(f"/proc/{current}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def one_run(driver, options, env, workspace):
    """(timings in ms, peak RSS of the SDK's child in KiB) of one query()."""
    node = subprocess.Popen(["node", driver, json.dumps(options)], stdout=subprocess.PIPE,
                            stderr=None if os.environ.get("BENCH_DEBUG") else subprocess.PIPE,
                            env=env, cwd=workspace)
    peak = 0
    sampling = True

    def sample():
        nonlocal peak
        while sampling:
            peak = max(peak, descendants_rss_kib(node.pid))
            time.sleep(0.005)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        stdout, stderr = node.communicate(timeout=120)
    finally:
        sampling = False
        sampler.join()
    if node.returncode != 0 or not stdout.strip():
        raise RuntimeError(f"exit {node.returncode}: {(stderr or b'').decode()[-400:]}")
    timings = json.loads(stdout.decode().strip().splitlines()[-1])["ms"]
    if timings.get("answer") != ANSWER:
        raise RuntimeError(f"unexpected answer: {timings.get('answer')!r}")
    return timings, peak


def median_row(name, results):
    def median(key):
        return round(statistics.median(result[0][key] for result in results), 1)

    return {"executable": name, "runs": len(results),
            "first_message_ms": median("first_message"),
            "first_assistant_ms": median("first_assistant"),
            "result_ms": median("result"),
            "peak_rss_mib": round(statistics.median(result[1] for result in results) / 1024, 1)}


def install_sdk(folder):
    print(f"installing {' '.join(PACKAGES)} into {folder} (npm; Claude Code's binary is ~400 MB)",
          file=sys.stderr)
    subprocess.run(["npm", "install", "--prefix", folder, "--no-audit", "--no-fund",
                    "--loglevel=error", *PACKAGES], check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--agenthub", default=shutil.which("agenthub") or "target/release/agenthub")
    parser.add_argument("--sdk", help="a folder whose node_modules holds the SDK and Claude Code")
    args = parser.parse_args()
    agenthub = os.path.abspath(args.agenthub)

    server = ThreadingHTTPServer(("127.0.0.1", 0), MockAnthropic)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"

    with tempfile.TemporaryDirectory() as scratch:
        sdk = os.path.abspath(args.sdk) if args.sdk else os.path.join(scratch, "sdk")
        if not args.sdk:
            install_sdk(sdk)
        claude = os.path.join(sdk, "node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude")
        # The driver beside a link to the SDK's node_modules, where Node looks for packages.
        os.makedirs(os.path.join(scratch, "driver"))
        os.symlink(os.path.join(sdk, "node_modules"), os.path.join(scratch, "driver/node_modules"))
        driver = os.path.join(scratch, "driver/driver.mjs")
        with open(driver, "w") as file:
            file.write(DRIVER)
        workspace = os.path.join(scratch, "ws")
        home = os.path.join(scratch, "home")
        os.makedirs(workspace)
        os.makedirs(home)
        env = {**os.environ, "HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config"),
               "XDG_STATE_HOME": os.path.join(home, ".local/state"),
               "ANTHROPIC_API_KEY": "mock", "ANTHROPIC_BASE_URL": base,
               "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1",
               "DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1",
               # Claude Code refuses to skip its permission prompts as root otherwise.
               "IS_SANDBOX": "1"}
        executables = [
            ("agenthub", {"pathToClaudeCodeExecutable": agenthub, "model": MODEL,
                          "extraArgs": {"provider": "anthropic", "base-url": base}}),
            ("claude (the SDK's Claude Code)", {"pathToClaudeCodeExecutable": claude,
                                                "model": MODEL}),
        ]
        results = {name: [] for name, _ in executables}
        failed = {}
        for _ in range(args.runs):
            for name, options in executables:
                if name in failed:
                    continue
                try:
                    results[name].append(one_run(driver, options, env, workspace))
                except (RuntimeError, subprocess.TimeoutExpired, OSError) as error:
                    failed[name] = str(error)
        rows = {}
        for name, _ in executables:
            rows[name] = {"executable": name, "error": failed[name]} if name in failed \
                else median_row(name, results[name])
            print(json.dumps(rows[name]), flush=True)
        ours, theirs = (rows[name] for name, _ in executables)
        if "error" not in ours and "error" not in theirs:
            print(json.dumps({"claude / agenthub": {
                key: round(theirs[key] / ours[key], 1)
                for key in ["first_message_ms", "first_assistant_ms", "result_ms", "peak_rss_mib"]}}))
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
