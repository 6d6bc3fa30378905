#!/usr/bin/env python3
"""Benchmark ACP agents: time from `session/prompt` to the first `session/update`
of the turn (and to the first `agent_message_chunk`), and the peak RSS of the
agent's process tree, median over N fresh processes.

    scripts/bench-acp.py [--runs N] [--adapters DIR] [--agenthub PATH]

AgentHub runs with the scripted model (`agenthub acp --script FILE`). The
adapters (`@zed-industries/codex-acp`, `@zed-industries/claude-code-acp`,
installed by the caller into DIR with `npm install --prefix DIR ...`, never
into tests/npm) talk to a mock model endpoint on 127.0.0.1 that this script
serves: OpenAI's Responses and Chat Completions APIs and Anthropic's Messages
API, each streaming one short answer. Nothing leaves the machine.
"""

import argparse
import json
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ANSWER = "Hello from the mock model."


def sse(events):
    return "".join(
        (f"event: {name}\n" if name else "") + f"data: {json.dumps(data)}\n\n"
        for name, data in events
    ).encode()


def responses_stream(model):
    item = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": ANSWER, "annotations": []}]}
    response = {"id": "resp_1", "object": "response", "model": model, "status": "completed",
                "output": [item],
                "usage": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
                          "input_tokens_details": {"cached_tokens": 0},
                          "output_tokens_details": {"reasoning_tokens": 0}}}
    return sse([
        ("response.created", {"type": "response.created",
                              "response": {**response, "status": "in_progress", "output": []}}),
        ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0,
                                        "item": {**item, "status": "in_progress", "content": []}}),
        ("response.output_text.delta", {"type": "response.output_text.delta", "item_id": "msg_1",
                                        "output_index": 0, "content_index": 0, "delta": ANSWER}),
        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0,
                                       "item": item}),
        ("response.completed", {"type": "response.completed", "response": response}),
    ])


def chat_stream(model):
    chunk = {"id": "c1", "object": "chat.completion.chunk", "model": model, "choices": [
        {"index": 0, "delta": {"role": "assistant", "content": ANSWER}, "finish_reason": None}]}
    done = {"id": "c1", "object": "chat.completion.chunk", "model": model, "choices": [
        {"index": 0, "delta": {}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
    return sse([(None, chunk), (None, done)]) + b"data: [DONE]\n\n"


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


class MockModel(BaseHTTPRequestHandler):
    """Answers every model request with ANSWER, streamed as its API streams."""

    def log_message(self, *args):
        if os.environ.get("BENCH_DEBUG"):
            sys.stderr.write("mock: " + (args[0] % args[1:]) + "\n")

    def do_GET(self):
        self.reply(200, b'{"data": []}', "application/json")

    def do_HEAD(self):
        self.reply(200, b"", "application/json")

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b"{}"
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        model = body.get("model", "mock")
        stream = body.get("stream", False)
        if self.path.endswith("/responses"):
            self.reply(200, responses_stream(model), "text/event-stream")
        elif self.path.endswith("/chat/completions"):
            self.reply(200, chat_stream(model), "text/event-stream")
        elif "/messages/count_tokens" in self.path:
            self.reply(200, b'{"input_tokens": 10}', "application/json")
        elif "/messages" in self.path and stream:
            self.reply(200, messages_stream(model), "text/event-stream")
        elif "/messages" in self.path:
            message = {"id": "msg_1", "type": "message", "role": "assistant", "model": model,
                       "content": [{"type": "text", "text": ANSWER}], "stop_reason": "end_turn",
                       "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 5}}
            self.reply(200, json.dumps(message).encode(), "application/json")
        else:
            self.reply(200, b"{}", "application/json")

    def reply(self, status, body, kind):
        self.send_response(status)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def tree_rss_kib(pid):
    """The RSS of `pid` and all its descendants, in KiB."""
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
    total, todo = 0, [pid]
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


class Agent:
    """One agent process spoken to over ACP; its tree's RSS sampled meanwhile."""

    def __init__(self, command, env, cwd):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=None if os.environ.get("BENCH_DEBUG") else subprocess.DEVNULL,
                                        env=env, cwd=cwd)
        self.buffer = b""
        self.next_id = 0
        self.peak = 0
        self.sampling = True
        self.sampler = threading.Thread(target=self.sample, daemon=True)
        self.sampler.start()

    def sample(self):
        while self.sampling and self.process.poll() is None:
            self.peak = max(self.peak, tree_rss_kib(self.process.pid))
            time.sleep(0.005)

    def send(self, message):
        self.process.stdin.write((json.dumps(message) + "\n").encode())
        self.process.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def messages(self, deadline):
        """Each message as it arrives, until `deadline`."""
        while time.monotonic() < deadline:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                if line.strip():
                    yield json.loads(line), time.monotonic()
            ready, _, _ = select.select([self.process.stdout], [], [], 0.05)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 65536)
                if not chunk:
                    raise RuntimeError("the agent closed its stdout")
                self.buffer += chunk
        raise TimeoutError("no answer in time")

    def answer_client_request(self, message):
        """Permission questions are allowed once; other client methods refused."""
        if message.get("method") == "session/request_permission":
            option = message["params"]["options"][0]["optionId"]
            self.send({"jsonrpc": "2.0", "id": message["id"],
                       "result": {"outcome": {"outcome": "selected", "optionId": option}}})
        else:
            self.send({"jsonrpc": "2.0", "id": message["id"],
                       "error": {"code": -32601, "message": "not supported by the benchmark"}})

    def call(self, method, params, timeout=60):
        wanted = self.request(method, params)
        for message, _ in self.messages(time.monotonic() + timeout):
            if "method" in message and "id" in message:
                self.answer_client_request(message)
            elif message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def prompt(self, session, timeout=120):
        """(seconds to the first update, to the first message chunk, total)."""
        started = time.monotonic()
        wanted = self.request("session/prompt", {"sessionId": session,
                                                 "prompt": [{"type": "text", "text": "Say hello."}]})
        first = chunk = None
        for message, at in self.messages(started + timeout):
            if "method" in message and "id" in message:
                self.answer_client_request(message)
            elif message.get("method") == "session/update":
                kind = message["params"]["update"].get("sessionUpdate")
                if os.environ.get("BENCH_DEBUG"):
                    sys.stderr.write(f"update +{(at - started) * 1000:.1f} ms: "
                                     f"{json.dumps(message['params']['update'])[:200]}\n")
                if first is None and kind != "available_commands_update":
                    first = at - started
                if chunk is None and kind == "agent_message_chunk":
                    chunk = at - started
            elif message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"session/prompt: {message['error']}")
                return first, chunk, at - started

    def close(self):
        try:
            self.process.stdin.close()
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.sampling = False
        return self.peak


def one_run(command, env, workspace):
    agent = Agent(command, env, workspace)
    try:
        agent.call("initialize", {"protocolVersion": 1, "clientCapabilities": {
            "fs": {"readTextFile": False, "writeTextFile": False}, "terminal": False}})
        session = agent.call("session/new", {"cwd": workspace, "mcpServers": []})["sessionId"]
        timings = agent.prompt(session)
    finally:
        peak = agent.close()
    return timings, peak


def summary(name, results):
    def median(index):
        values = [result[index] for result in results if result[index] is not None]
        return statistics.median(values) if values else None

    def ms(value):
        return None if value is None else round(value * 1000, 1)

    return {
        "agent": name,
        "runs": len(results),
        "first_update_ms": ms(median(0)),
        "first_message_chunk_ms": ms(median(1)),
        "prompt_total_ms": ms(median(2)),
        "peak_rss_mib": round(median(3) / 1024, 1),
    }


def bench(agents, runs, workspace):
    """Every agent once a round, `runs` rounds (interleaved, so a busy
    machine weighs on all alike); an agent that fails is dropped with why."""
    results = {name: [] for name, _, _ in agents}
    failed = {}
    for _ in range(runs):
        for name, command, env in agents:
            if name in failed:
                continue
            try:
                (first, chunk, total), peak = one_run(command, env, workspace)
                results[name].append((first, chunk, total, peak))
            except (RuntimeError, TimeoutError, OSError) as error:
                failed[name] = str(error)
    for name, _, _ in agents:
        row = {"agent": name, "error": failed[name]} if name in failed else summary(name, results[name])
        print(json.dumps(row), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--adapters", help="folder where the npm adapters are installed")
    parser.add_argument("--agenthub", default=shutil.which("agenthub") or "target/release/agenthub")
    args = parser.parse_args()
    args.agenthub = os.path.abspath(args.agenthub)

    server = ThreadingHTTPServer(("127.0.0.1", 0), MockModel)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"

    with tempfile.TemporaryDirectory() as scratch:
        workspace = os.path.join(scratch, "ws")
        home = os.path.join(scratch, "home")
        os.makedirs(workspace)
        os.makedirs(home)
        env = {**os.environ, "HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config"),
               "XDG_STATE_HOME": os.path.join(home, ".local/state")}
        script = os.path.join(scratch, "script.json")
        with open(script, "w") as file:
            json.dump({"turns": [{"content": ANSWER}]}, file)
        agents = [
            ("agenthub (scripted model)", [args.agenthub, "acp", "--script", script], env),
            ("agenthub (mock OpenAI endpoint)",
             [args.agenthub, "acp", "--model", "gpt-5.4-mini", "--provider", "openai",
              "--base-url", base + "/v1"],
             {**env, "OPENAI_API_KEY": "mock"}),
        ]
        if args.adapters:
            bin_dir = os.path.join(args.adapters, "node_modules", ".bin")
            codex_home = os.path.join(home, ".codex")
            os.makedirs(codex_home)
            with open(os.path.join(codex_home, "config.toml"), "w") as file:
                # A model name Codex knows (no metadata warning), served by the mock.
                file.write(
                    'model = "gpt-5.4-mini"\nmodel_provider = "mock"\n'
                    'approval_policy = "never"\nsandbox_mode = "read-only"\n'
                    '[model_providers.mock]\nname = "mock"\n'
                    f'base_url = "{base}/v1"\nwire_api = "responses"\nenv_key = "MOCK_API_KEY"\n')
            agents.append(("codex-acp", [os.path.join(bin_dir, "codex-acp")],
                           {**env, "CODEX_HOME": codex_home, "MOCK_API_KEY": "mock"}))
            agents.append(("claude-code-acp", [os.path.join(bin_dir, "claude-code-acp")],
                           {**env, "ANTHROPIC_BASE_URL": base, "ANTHROPIC_API_KEY": "mock",
                            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                            "DISABLE_AUTOUPDATER": "1",
                            # Claude Code refuses to skip its permission prompts as root otherwise.
                            "IS_SANDBOX": "1"}))
        bench(agents, args.runs, workspace)
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
