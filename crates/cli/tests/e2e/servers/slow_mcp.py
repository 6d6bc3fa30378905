#!/usr/bin/env python3
"""A minimal MCP server on stdio for the start-up tests and bench.

Its name is argv[1]. Each event it sees is appended to the file named by
MCP_EVENTS (when set) as one line "<name> <event>": "initialize" when the
initialize request arrives, "answered" just before it answers it. Before
answering it sleeps MCP_SLEEP seconds (default 0), or, when MCP_WAIT_FOR is
set, until that many "initialize" lines are in the events file (so a test
proves two servers were asked at the same time without timing anything),
and, when MCP_WAIT_FOR_FILE is set, until that file exists (so a test
holds the server's start until it has seen the rest of start-up go on).
It lists one tool, `ping`, which answers "pong from <name>".
"""

import json
import os
import sys
import time

NAME = sys.argv[1] if len(sys.argv) > 1 else "slow"
EVENTS = os.environ.get("MCP_EVENTS")


def note(event):
    if EVENTS:
        with open(EVENTS, "a") as out:
            out.write(f"{NAME} {event}\n")


def initialized_count():
    try:
        with open(EVENTS) as lines:
            return sum(1 for line in lines if line.split()[1:] == ["initialize"])
    except OSError:
        return 0


def before_answering():
    wait_for = os.environ.get("MCP_WAIT_FOR")
    if wait_for and EVENTS:
        while initialized_count() < int(wait_for):
            time.sleep(0.01)
    wait_file = os.environ.get("MCP_WAIT_FOR_FILE")
    while wait_file and not os.path.exists(wait_file):
        time.sleep(0.01)
    time.sleep(float(os.environ.get("MCP_SLEEP", "0")))


def answer(request_id, result):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}) + "\n")
    sys.stdout.flush()


TOOL = {"name": "ping", "description": "Answers pong",
        "inputSchema": {"type": "object", "properties": {}}}

for line in sys.stdin:
    message = json.loads(line)
    method = message.get("method")
    if method == "initialize":
        note("initialize")
        before_answering()
        note("answered")
        answer(message["id"], {
            "protocolVersion": message["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": NAME, "version": "0.1.0"},
        })
    elif method == "tools/list":
        answer(message["id"], {"tools": [TOOL]})
    elif method == "tools/call":
        answer(message["id"], {"content": [{"type": "text", "text": f"pong from {NAME}"}]})
    elif "id" in message:
        answer(message["id"], {})
