// An editor's past threads through `agenthub acp`, with the official ACP
// TypeScript SDK (pinned in tests/npm). Usage:
//   node acp_sessions.mjs AGENTHUB WORKSPACE -- AGENT_ARGS...
// with EVERYTHING_SERVER naming npm's MCP test server. Prints one JSON object.
//
// First connection: initialize; a session with the MCP server whose state
// (toggle-subscriber-updates: started, then stopped) shows whether the same
// server process answers after a session/set_mode; a second session whose
// mode is set before its first prompt. Second connection: session/list and
// session/load of both.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream } from "@agentclientprotocol/sdk";

const [agenthub, workspace, separator, ...agentArgs] = process.argv.slice(2);
if (separator !== "--") throw new Error("usage: acp_sessions.mjs AGENTHUB WORKSPACE -- ARGS...");
const everything = { name: "everything", command: process.env.EVERYTHING_SERVER, args: [], env: [] };

async function connection(work) {
  const child = spawn(agenthub, ["acp", ...agentArgs], { cwd: workspace, stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  const stream = ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const app = client({ name: "agenthub-e2e" })
    .onNotification(methods.client.session.update, () => {})
    .onRequest(methods.client.session.requestPermission, () => ({ outcome: { outcome: "cancelled" } }));
  const result = await app.connectWith(stream, (cx) => work(cx));
  child.stdin.end();
  return { result, exit: await exited };
}

const prompt = (cx, sessionId, text) =>
  cx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
const setMode = (cx, sessionId, modeId) => cx.request(methods.agent.session.setMode, { sessionId, modeId });

const first = await connection(async (cx) => {
  const init = await cx.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  const withServer = await cx.request(methods.agent.session.new, { cwd: workspace, mcpServers: [everything] });
  await prompt(cx, withServer.sessionId, "toggle the updates\nthen tell me");
  await setMode(cx, withServer.sessionId, "acceptEdits");
  await prompt(cx, withServer.sessionId, "toggle them again");
  const early = await cx.request(methods.agent.session.new, { cwd: workspace, mcpServers: [] });
  await setMode(cx, early.sessionId, "plan");
  const answered = await prompt(cx, early.sessionId, "a plan first");
  return {
    sessionCapabilities: init.agentCapabilities.sessionCapabilities,
    withServer: withServer.sessionId,
    early: early.sessionId,
    earlyStop: answered.stopReason,
  };
});

const second = await connection(async (cx) => {
  await cx.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  const listed = await cx.request(methods.agent.session.list, { cwd: workspace });
  const loaded = {};
  for (const sessionId of [first.result.withServer, first.result.early]) {
    const answer = await cx.request(methods.agent.session.load, { sessionId, cwd: workspace, mcpServers: [] });
    loaded[sessionId] = answer.modes.currentModeId;
  }
  return { listed, loaded };
});

console.log(JSON.stringify({ ...first.result, ...second.result, exits: [first.exit, second.exit] }));
