// An editor driving `agenthub acp` with the official ACP TypeScript SDK
// (pinned in tests/npm). Usage: node acp_client.mjs AGENTHUB WORKSPACE -- AGENT_ARGS...
// Prints one JSON object: what each step answered and every update, summarised.
//
// The steps: initialize; session/new; a prompt whose Bash calls ask (the first
// ask is rejected, the next allowed always, then the same command runs without
// asking); a prompt whose call is cancelled while it runs; then, on a second
// connection, session/load of the same session.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream } from "@agentclientprotocol/sdk";

const [agenthub, workspace, separator, ...agentArgs] = process.argv.slice(2);
if (separator !== "--") throw new Error("usage: acp_client.mjs AGENTHUB WORKSPACE -- ARGS...");

function summary(update) {
  switch (update.sessionUpdate) {
    case "agent_message_chunk":
    case "user_message_chunk":
      return { u: update.sessionUpdate, text: update.content.text };
    case "tool_call":
      return { u: "tool_call", id: update.toolCallId, title: update.title, kind: update.kind, status: update.status };
    case "tool_call_update":
      return {
        u: "tool_call_update",
        id: update.toolCallId,
        status: update.status,
        text: update.content?.[0]?.content?.text ?? null,
      };
    case "current_mode_update":
      return { u: "current_mode_update", mode: update.currentModeId };
    default:
      return { u: update.sessionUpdate };
  }
}

// One agent process and one connection; `onUpdate` sees each update.
async function connection(work) {
  const child = spawn(agenthub, ["acp", ...agentArgs], { cwd: workspace, stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  const stream = ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const state = { updates: [], asks: [], onUpdate: () => {}, answer: () => ({ outcome: { outcome: "cancelled" } }) };
  const app = client({ name: "agenthub-e2e" })
    .onNotification(methods.client.session.update, ({ params }) => {
      state.updates.push(summary(params.update));
      state.onUpdate(params);
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      state.asks.push({
        id: params.toolCall.toolCallId,
        title: params.toolCall.title,
        options: params.options.map((option) => option.kind),
      });
      return state.answer(params);
    });
  const result = await app.connectWith(stream, (cx) => work(cx, state));
  child.stdin.end();
  return { result, exit: await exited };
}

async function until(condition) {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 10000) throw new Error("no update came within 10 s");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const pick = (kind) => (params) => ({
  outcome: { outcome: "selected", optionId: params.options.find((option) => option.kind === kind).optionId },
});

async function turn(cx, state, sessionId, text) {
  state.updates = [];
  state.asks = [];
  const answer = await cx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
  return { stopReason: answer.stopReason, asks: state.asks, updates: state.updates };
}

const first = await connection(async (cx, state) => {
  const init = await cx.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  const created = await cx.request(methods.agent.session.new, { cwd: workspace, mcpServers: [] });
  const sessionId = created.sessionId;
  // The untrusted workspace's warning follows the answer.
  await until(() => state.updates.length > 0);
  const opening = state.updates;
  let asked = 0;
  state.answer = (params) => (asked++ === 0 ? pick("reject_once") : pick("allow_always"))(params);
  const asking = await turn(cx, state, sessionId, "run echo three times");
  state.answer = pick("allow_once");
  state.onUpdate = (params) => {
    if (params.update.sessionUpdate === "tool_call_update" && params.update.status === "in_progress") {
      cx.notify(methods.agent.session.cancel, { sessionId });
    }
  };
  const cancelled = await turn(cx, state, sessionId, "sleep");
  return {
    initialize: { protocolVersion: init.protocolVersion, loadSession: init.agentCapabilities.loadSession },
    modes: { current: created.modes.currentModeId, available: created.modes.availableModes.map((mode) => mode.id) },
    sessionId,
    opening,
    asking,
    cancelled,
  };
});

const second = await connection(async (cx, state) => {
  await cx.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  await cx.request(methods.agent.session.load, { sessionId: first.result.sessionId, cwd: workspace, mcpServers: [] });
  return { replayed: state.updates };
});

console.log(JSON.stringify({ ...first.result, load: second.result, exits: [first.exit, second.exit] }));
