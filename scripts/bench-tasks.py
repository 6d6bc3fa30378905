#!/usr/bin/env python3
"""Task success on real coding tasks (issue 41, contract §33): does the agent
get the job done with this model, how long does it take, and what does it cost
in tokens — AgentHub and, where installed, Codex on the same endpoint.

Each task (scripts/bench-tasks/*.json, one file a task, so more can be added)
is laid out as a fresh git repository in a temporary folder; the agent gets the
task's prompt there, and the task's checks decide success, never the agent's
own claim: a command that must exit 0 (pytest passes), print given text (the
new flag works), a file with given content, a file left unchanged, or a final
answer containing a fact. A task file:

  {"name": "off-by-one", "prompt": "...",
   "files": {"path": "content", ...},
   "checks": [{"run": ["{python}", "-m", "pytest", "-q"]},        # exits 0
              {"run": [...], "stdout": "HELLO, ADA!"},            # and prints this
              {"file": "a.txt", "equals": "..."},                # or "equals_stripped", "contains"
              {"file": "test_x.py", "unchanged": true},
              {"answer_contains": "8471"}],
   "self_test": [[{"name": "Read", "arguments": {...}}], ..., "final answer"]}

`{python}` in a check is this Python. `self_test` is the correct sequence of
tool calls (one list a reply) and the final answer, which --self-test has a
mock endpoint play.

Nothing is sent anywhere but the endpoint given. Each agent runs with an empty
temporary HOME (no user settings, memory files or Codex config), permissions
bypassed (the tasks edit files and run pytest), and a per-task timeout after
which its process group is killed and the task counts as failed.

Usage:
  scripts/bench-tasks.py --base-url http://127.0.0.1:8080/v1 --model qwen2.5-coder \\
      [--api-key KEY] [--agenthub target/debug/agenthub] \\
      [--agenthub-args "--tool-protocol auto --max-output-tokens 512"] \\
      [--codex-args "..."] [--agents agenthub,codex] [--tasks off-by-one,cli-flag] \\
      [--timeout 900] [--max-turns 20] [--json FILE] [--workdir DIR]
  scripts/bench-tasks.py --self-test [--agenthub target/debug/agenthub]
      (a loopback mock plays each task's correct calls: every task must pass;
       then a mock that answers without doing anything: every task must fail)
"""

import argparse
import http.server
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TASKS_DIR = os.path.join(HERE, "bench-tasks")
REPO_ROOT = os.path.dirname(HERE)


# ------------------------------------------------------------------ tasks


def load_tasks(folder, names):
    tasks = []
    for entry in sorted(os.listdir(folder)):
        if entry.endswith(".json"):
            with open(os.path.join(folder, entry), encoding="utf-8") as f:
                tasks.append(json.load(f))
    if names:
        wanted = names.split(",")
        unknown = [name for name in wanted if name not in {task["name"] for task in tasks}]
        if unknown:
            sys.exit(f"unknown task(s): {', '.join(unknown)}")
        tasks = [task for task in tasks if task["name"] in wanted]
    return tasks


def lay_out(task, root):
    """The task's files, committed as a fresh git repository in root."""
    for path, content in task["files"].items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(content)
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "init.defaultBranch=main"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "task"]):
        subprocess.run(git + args, cwd=root, check=True, stdout=subprocess.DEVNULL)


def check(task, root, answer):
    """None when every check holds, else why the first one failed."""
    for item in task["checks"]:
        if "run" in item:
            argv = [sys.executable if arg == "{python}" else arg for arg in item["run"]]
            try:
                done = subprocess.run(argv, cwd=root, capture_output=True, text=True, timeout=60)
            except subprocess.TimeoutExpired:
                return f"`{' '.join(item['run'])}` ran over 60 s"
            if done.returncode != 0:
                last = (done.stdout + done.stderr).strip().splitlines()[-1:] or [""]
                return f"`{' '.join(item['run'])}` exited {done.returncode}: {last[0][:100]}"
            if "stdout" in item and done.stdout.strip() != item["stdout"]:
                return f"`{' '.join(item['run'])}` printed {done.stdout.strip()[:60]!r}, not {item['stdout']!r}"
        elif "file" in item:
            path = os.path.join(root, item["file"])
            if not os.path.isfile(path):
                return f"{item['file']} does not exist"
            with open(path, encoding="utf-8", errors="replace") as f:
                content = f.read()
            if item.get("unchanged") and content != task["files"][item["file"]]:
                return f"{item['file']} was changed"
            if "equals" in item and content != item["equals"]:
                return f"{item['file']} holds {content[:60]!r}"
            if "equals_stripped" in item and content.strip() != item["equals_stripped"]:
                return f"{item['file']} holds {content[:60]!r}"
            if "contains" in item and item["contains"] not in content:
                return f"{item['file']} lacks {item['contains']!r}"
        elif "answer_contains" in item:
            if item["answer_contains"] not in (answer or ""):
                return f"the answer {(answer or '')[:60]!r} lacks {item['answer_contains']!r}"
        else:
            return f"unknown check {item}"
    return None


# ------------------------------------------------------------------ agents


def clean_env(home):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ANTHROPIC_", "AGENTHUB_", "CODEX_"))}
    env.update({"HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config")})
    # python3 and pytest resolve to this Python's, whatever HOME does to shims.
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    return env


def run_process(argv, cwd, env, timeout):
    """(stdout, stderr, exit status or None on timeout, wall seconds)."""
    start = time.monotonic()
    process = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = process.communicate(timeout=timeout)
        status = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        status = None
    return out, err, status, time.monotonic() - start


def agenthub(options, task, repo, home):
    env = clean_env(home)
    if options.api_key:
        env["OPENAI_API_KEY"] = options.api_key
    argv = [options.agenthub, "-p", "--provider", "openai", "--base-url", options.base_url,
            "--model", options.model, "--output-format", "json", "--workspace", repo,
            "--dangerously-skip-permissions", "--max-turns", str(options.max_turns)]
    argv += shlex.split(options.agenthub_args) + ["--", task["prompt"]]
    out, err, status, wall = run_process(argv, repo, env, options.timeout)
    result = {"wall": wall, "input": None, "output": None, "answer": None, "note": None}
    if status is None:
        result["note"] = f"timed out after {options.timeout} s"
        return result
    report = last_json_line(out)
    if report is None:
        result["note"] = f"exit {status}, no JSON: {(err.strip().splitlines() or [''])[-1][:100]}"
        return result
    usage = report.get("usage") or {}
    result.update(input=usage.get("input_tokens"), output=usage.get("output_tokens"), answer=report.get("result"))
    if report.get("is_error") or report.get("subtype") != "success":
        result["note"] = f"{report.get('subtype')}: {str(report.get('error') or report.get('result') or '')[:300]}"
    warnings = [line for line in err.splitlines() if "[Warning]" in line]
    if warnings:
        result["note"] = ((result["note"] + "; ") if result["note"] else "") + warnings[0][:120]
    return result


def codex(options, task, repo, home):
    env = clean_env(home)
    env["CODEX_HOME"] = os.path.join(home, ".codex")
    os.makedirs(env["CODEX_HOME"], exist_ok=True)
    provider = f'{{name="bench", base_url="{options.base_url}", wire_api="chat"'
    if options.api_key:
        env["BENCH_API_KEY"] = options.api_key
        provider += ', env_key="BENCH_API_KEY"'
    provider += "}"
    argv = ["codex", "exec", "--json", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox",
            "-C", repo, "-m", options.model, "-c", 'model_provider="bench"', "-c", f"model_providers.bench={provider}"]
    argv += shlex.split(options.codex_args) + ["--", task["prompt"]]
    out, err, status, wall = run_process(argv, repo, env, options.timeout)
    result = {"wall": wall, "input": None, "output": None, "answer": None, "note": None}
    if status is None:
        result["note"] = f"timed out after {options.timeout} s"
    elif status != 0:
        result["note"] = f"exit {status}: {(err.strip().splitlines() or [''])[-1][:100]}"
    for line in out.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        usage = event.get("usage") if event.get("type") == "turn.completed" else None
        if usage:
            result["input"] = (result["input"] or 0) + usage.get("input_tokens", 0)
            result["output"] = (result["output"] or 0) + usage.get("output_tokens", 0)
        item = event.get("item") or {}
        if event.get("type") == "item.completed" and item.get("type") == "agent_message":
            result["answer"] = item.get("text")
    return result


def last_json_line(text):
    for line in reversed(text.strip().splitlines()):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


AGENTS = {"agenthub": agenthub, "codex": codex}


def run_task(options, agent, task):
    if options.workdir:
        # One path for every task: a local server's prompt cache keeps the
        # system prompt and tool list, which name the workspace.
        scratch = os.path.abspath(options.workdir)
        shutil.rmtree(scratch, ignore_errors=True)
        os.makedirs(scratch)
    else:
        scratch = tempfile.mkdtemp(prefix=f"bench-{task['name']}-")
    try:
        repo, home = os.path.join(scratch, "repo"), os.path.join(scratch, "home")
        os.makedirs(repo)
        os.makedirs(home)
        lay_out(task, repo)
        result = AGENTS[agent](options, task, repo, home)
        failure = check(task, repo, result["answer"])
        result["ok"] = failure is None
        if failure:
            result["note"] = failure + (f" ({result['note']})" if result["note"] else "")
        return result
    finally:
        if options.keep:
            print(f"  kept {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)


# ------------------------------------------------------------------ report


def tokens(result):
    if result["input"] is None:
        return "-"
    return f"{result['input']}+{result['output']}"


def print_table(tasks, agents, results):
    width = max(len(task["name"]) for task in tasks + [{"name": "total"}])
    header = f"{'task':<{width}}"
    for agent in agents:
        header += f" | {agent + ': ok':<13} {'wall s':>8} {'tokens in+out':>15}"
    print(header)
    print("-" * len(header))
    for task in tasks:
        row = f"{task['name']:<{width}}"
        for agent in agents:
            result = results[agent].get(task["name"])
            if result is None:
                row += f" | {'not installed':<13} {'':>8} {'':>15}"
            else:
                row += f" | {'yes' if result['ok'] else 'no':<13} {result['wall']:>8.1f} {tokens(result):>15}"
        print(row)
    row = f"{'total':<{width}}"
    for agent in agents:
        done = list(results[agent].values())
        if not done:
            row += f" | {'not installed':<13} {'':>8} {'':>15}"
            continue
        solved = f"{sum(r['ok'] for r in done)}/{len(done)}"
        wall = sum(r["wall"] for r in done)
        used = [r for r in done if r["input"] is not None]
        total = f"{sum(r['input'] for r in used)}+{sum(r['output'] for r in used)}" if used else "-"
        row += f" | {solved:<13} {wall:>8.1f} {total:>15}"
    print(row)
    for agent in agents:
        for task in tasks:
            result = results[agent].get(task["name"])
            if result and result["note"]:
                print(f"  {agent} {task['name']}: {result['note']}")


def run_suite(options, tasks, agents):
    results = {agent: {} for agent in agents}
    for task in tasks:
        for agent in agents:
            if agent == "codex" and shutil.which("codex") is None:
                continue
            print(f"{agent} {task['name']} ...", file=sys.stderr, flush=True)
            results[agent][task["name"]] = run_task(options, agent, task)
    return results


# ------------------------------------------------------------------ self-test


class Mock(http.server.BaseHTTPRequestHandler):
    """An OpenAI-compatible endpoint that plays one scripted sequence: the
    reply to a request is the step numbered by the assistant messages it
    already holds (so a retried request gets the same reply)."""

    steps = []

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))))
        index = sum(1 for message in body.get("messages", []) if message.get("role") == "assistant")
        step = Mock.steps[min(index, len(Mock.steps) - 1)]
        usage = {"prompt_tokens": len(json.dumps(body)) // 4, "completion_tokens": len(json.dumps(step)) // 4}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        if isinstance(step, str):
            delta, finish = {"role": "assistant", "content": step}, "stop"
        else:
            calls = [{"index": i, "id": f"call_{index}_{i}", "type": "function",
                      "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])}}
                     for i, call in enumerate(step)]
            delta, finish = {"role": "assistant", "tool_calls": calls}, "tool_calls"
        if body.get("stream"):
            events = [{"choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
                      {"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]},
                      {"choices": [], "usage": usage}]
            payload = "".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"
            kind = "text/event-stream"
        else:
            message = dict(delta)
            for call in message.get("tool_calls", []):
                call.pop("index")
            payload = json.dumps({"choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": usage})
            kind = "application/json"
        self.send_response(200)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(payload.encode())))
        self.end_headers()
        self.wfile.write(payload.encode())

    def log_message(self, *args):
        pass


def self_test(options, tasks):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Mock)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    options.base_url = f"http://127.0.0.1:{server.server_port}/v1"
    options.model = "bench-mock"
    failures = []
    for label, expect_ok in (("correct calls", True), ("no work done", False)):
        print(f"self-test, the mock plays: {label}")
        results = {"agenthub": {}}
        for task in tasks:
            Mock.steps = task["self_test"] if expect_ok else ["I looked at it; it is done."]
            results["agenthub"][task["name"]] = run_task(options, "agenthub", task)
        print_table(tasks, ["agenthub"], results)
        for name, result in results["agenthub"].items():
            if result["ok"] != expect_ok or result["input"] is None:
                failures.append(f"{label}: {name} ok={result['ok']} tokens={tokens(result)} ({result['note']})")
        print()
    server.shutdown()
    if failures:
        print("SELF-TEST FAILED:\n  " + "\n  ".join(failures))
        return 1
    print(f"self-test passed: {len(tasks)} tasks solved with the correct calls, none without them")
    return 0


# ------------------------------------------------------------------ main


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", help="an OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1")
    parser.add_argument("--model", help="the model name the endpoint expects")
    parser.add_argument("--api-key", help="sent as the key (a loopback endpoint needs none)")
    default_binary = os.path.join(REPO_ROOT, "target", "debug", "agenthub")
    parser.add_argument("--agenthub", default=default_binary if os.path.exists(default_binary) else "agenthub")
    parser.add_argument("--agenthub-args", default="", help="more flags for agenthub, e.g. '--tool-protocol auto'")
    parser.add_argument("--codex-args", default="", help="more flags for codex exec")
    parser.add_argument("--agents", default="agenthub,codex", help="which agents (codex only if on PATH)")
    parser.add_argument("--tasks", help="comma-separated task names (default: all)")
    parser.add_argument("--tasks-dir", default=TASKS_DIR)
    parser.add_argument("--timeout", type=float, default=900, help="seconds per task and agent")
    parser.add_argument("--max-turns", type=int, default=20)
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--keep", action="store_true", help="keep each task's folder (printed)")
    parser.add_argument("--workdir", help="lay every task out in this one folder, emptied before each task "
                        "(the same workspace path for all, so a local server's prompt cache can serve them)")
    parser.add_argument("--self-test", action="store_true", help="check this script against a mock endpoint")
    options = parser.parse_args()
    if os.sep in options.agenthub:
        # Each agent runs in its task's repository: a relative path would not be found there.
        options.agenthub = os.path.abspath(options.agenthub)
    tasks = load_tasks(options.tasks_dir, options.tasks)
    if options.self_test:
        return self_test(options, tasks)
    if not options.base_url or not options.model:
        parser.error("--base-url and --model are required (or --self-test)")
    agents = options.agents.split(",")
    for agent in agents:
        if agent not in AGENTS:
            parser.error(f"unknown agent {agent}")
    print(f"endpoint {options.base_url}, model {options.model}, {len(tasks)} tasks, timeout {options.timeout:.0f} s")
    print(f"agenthub: {options.agenthub} {options.agenthub_args}".rstrip())
    print(f"codex: {shutil.which('codex') or 'not installed'}")
    results = run_suite(options, tasks, agents)
    print_table(tasks, agents, results)
    if options.json:
        with open(options.json, "w", encoding="utf-8") as f:
            json.dump({"base_url": options.base_url, "model": options.model, "agenthub_args": options.agenthub_args,
                       "results": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
