// An editor following the model's plan through `agenthub acp`, with the
// official ACP TypeScript SDK (pinned in tests/npm), whose client validates
// every update against ACP's schema. Usage: node acp_plan.mjs AGENTHUB
// WORKSPACE -- AGENT_ARGS... Prints one JSON object: the prompt's stop reason
// and its updates of the turn's kinds, summarised (a plan whole, a tool call
// by id and status, the answer's text), then the plans a second connection's
// session/load of the same session sent.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream } from "@agentclientprotocol/sdk";

const [agenthub, workspace, separator, ...agentArgs] = process.argv.slice(2);
if (separator !== "--") throw new Error("usage: acp_plan.mjs AGENTHUB WORKSPACE -- ARGS...");

function summary(update) {
  switch (update.sessionUpdate) {
    case "plan":
      return { u: "plan", entries: update.entries };
    case "tool_call":
    case "tool_call_update":
      return { u: update.sessionUpdate, id: update.toolCallId, status: update.status };
    case "agent_message_chunk":
      return { u: update.sessionUpdate, text: update.content.text };
    default:
      return null;
  }
}

// One agent process and one connection; `work` gets the connection and the
// updates and asks seen so far.
async function connection(work) {
  const child = spawn(agenthub, ["acp", ...agentArgs], { cwd: workspace, stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  const stream = ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const seen = { updates: [], asks: [] };
  const app = client({ name: "agenthub-e2e-plan" })
    .onNotification(methods.client.session.update, ({ params }) => {
      const shown = summary(params.update);
      if (shown) seen.updates.push(shown);
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      seen.asks.push(params.toolCall.toolCallId);
      return { outcome: { outcome: "cancelled" } };
    });
  const result = await app.connectWith(stream, async (cx) => {
    await cx.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    return work(cx, seen);
  });
  child.stdin.end();
  return { result, exit: await exited };
}

const first = await connection(async (cx, seen) => {
  const { sessionId } = await cx.request(methods.agent.session.new, { cwd: workspace, mcpServers: [] });
  const answer = await cx.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "fix it step by step" }],
  });
  return { sessionId, stopReason: answer.stopReason, asks: seen.asks, updates: seen.updates };
});

const second = await connection(async (cx, seen) => {
  await cx.request(methods.agent.session.load, { sessionId: first.result.sessionId, cwd: workspace, mcpServers: [] });
  return seen.updates.filter((update) => update.u === "plan");
});

const { sessionId, ...turn } = first.result;
console.log(JSON.stringify({ ...turn, loadedPlans: second.result, exits: [first.exit, second.exit] }));
