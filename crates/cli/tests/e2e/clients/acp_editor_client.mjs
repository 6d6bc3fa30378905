// What an editor is shown, through the official ACP TypeScript SDK (pinned
// in tests/npm). Usage: node acp_editor_client.mjs AGENTHUB WORKSPACE -- AGENT_ARGS...
// Prints one JSON object: session/new's modes, the updates that follow it,
// one prompt's updates and permission questions whole (every ask allowed
// once), the updates that follow session/load on a second connection, and
// every message that does not validate against the SDK's own ACP schema
// (schema/v1/schema.json, checked with ajv).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { client, methods, ndJsonStream } from "@agentclientprotocol/sdk";
import Ajv2020 from "ajv/dist/2020.js";

const [agenthub, workspace, separator, ...agentArgs] = process.argv.slice(2);
if (separator !== "--") throw new Error("usage: acp_editor_client.mjs AGENTHUB WORKSPACE -- ARGS...");

const here = dirname(fileURLToPath(import.meta.url));
const schema = JSON.parse(
  readFileSync(join(here, "node_modules/@agentclientprotocol/sdk/schema/v1/schema.json"), "utf8"),
);
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema(schema, "acp");
const invalid = [];
function check(definition, value) {
  const validate = ajv.getSchema(`acp#/$defs/${definition}`) ?? ajv.compile({ $ref: `acp#/$defs/${definition}` });
  if (!validate(value)) invalid.push({ definition, value, errors: validate.errors });
}

// One agent process and one connection.
async function connection(work) {
  const child = spawn(agenthub, ["acp", ...agentArgs], { cwd: workspace, stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  const stream = ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const state = { seen: [] };
  const app = client({ name: "agenthub-e2e-editor" })
    .onNotification(methods.client.session.update, ({ params }) => {
      check("SessionNotification", params);
      state.seen.push(params.update);
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      check("RequestPermissionRequest", params);
      state.seen.push({ asked: params.toolCall, options: params.options.map((option) => option.kind) });
      const once = params.options.find((option) => option.kind === "allow_once");
      return { outcome: { outcome: "selected", optionId: once.optionId } };
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

const commandsArrived = (state) => () =>
  state.seen.some((update) => update.sessionUpdate === "available_commands_update");

const first = await connection(async (cx, state) => {
  await cx.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  const created = await cx.request(methods.agent.session.new, { cwd: workspace, mcpServers: [] });
  check("NewSessionResponse", created);
  await until(commandsArrived(state));
  const opening = state.seen;
  state.seen = [];
  const sessionId = created.sessionId;
  const answer = await cx.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "/review notes.txt" }],
  });
  return { sessionId, modes: created.modes, opening, stopReason: answer.stopReason, turn: state.seen };
});

const second = await connection(async (cx, state) => {
  await cx.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  const loaded = await cx.request(methods.agent.session.load, {
    sessionId: first.result.sessionId,
    cwd: workspace,
    mcpServers: [],
  });
  check("LoadSessionResponse", loaded);
  await until(commandsArrived(state));
  return state.seen.at(-1);
});

console.log(JSON.stringify({ ...first.result, loaded: second.result, invalid, exits: [first.exit, second.exit] }));
