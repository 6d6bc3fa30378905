// What every program under tests/ts/agent_sdk shares: the SDK options that
// start agenthub as the SDK's Claude Code with the scripted model, and a
// summary of each SDK message that keeps what a test compares and drops
// what changes from run to run (uuids, durations, raw session ids).
//
// The Rust tests (crates/cli/tests/e2e/agent_sdk) start each program with
// AGENTHUB_BIN (the binary), AGENTHUB_SCRIPT (the script file) and the
// workspace as the working directory; the program prints one JSON value.

// The SDK options every program starts from, `extra` merged over them.
export function options(extra = {}) {
  return {
    pathToClaudeCodeExecutable: process.env.AGENTHUB_BIN,
    cwd: process.cwd(),
    extraArgs: { script: process.env.AGENTHUB_SCRIPT },
    stderr: (text) => process.stderr.write(text),
    ...extra,
  };
}

const sessions = new Map();

// "S1" for the first session id seen, "S2" for the next, …
function session(id) {
  if (typeof id !== "string") return id ?? null;
  if (!sessions.has(id)) sessions.set(id, `S${sessions.size + 1}`);
  return sessions.get(id);
}

function block(part) {
  switch (part.type) {
    case "text":
      return { text: part.text };
    case "tool_use":
      return { tool_use: [part.name, part.input] };
    case "tool_result":
      return { tool_result: [part.content, part.is_error ?? false] };
    default:
      return { [part.type]: null };
  }
}

// The summary of one SDK message, or null for the lines a test never
// compares: AgentHub's own records (agenthub_permission, …) and stream events.
export function summary(message) {
  switch (message.type) {
    case "system":
      if (message.subtype === "init") {
        return {
          init: {
            session: session(message.session_id),
            model: message.model,
            permissionMode: message.permissionMode,
            mcp_servers: message.mcp_servers,
          },
        };
      }
      return message.subtype.startsWith("agenthub_") ? null : { system: message.subtype };
    case "assistant":
      return { assistant: message.message.content.map(block) };
    case "user": {
      const content = message.message.content;
      return { user: typeof content === "string" ? content : content.map(block) };
    }
    case "result":
      return {
        result: {
          session: session(message.session_id),
          subtype: message.subtype,
          is_error: message.is_error,
          result: message.result ?? null,
          num_turns: message.num_turns,
          permission_denials: message.permission_denials.map((denial) => denial.tool_name),
        },
      };
    case "stream_event":
      return null;
    default:
      return { [message.type]: null };
  }
}

// Reads `messages` (an SDK query) to its end, calling `each` on every message;
// the summaries, in order.
export async function summaries(messages, each = () => {}) {
  const seen = [];
  for await (const message of messages) {
    await each(message);
    const summarized = summary(message);
    if (summarized !== null) seen.push(summarized);
  }
  return seen;
}

// A user message as the SDK's streaming input carries it.
export function user(text) {
  return { type: "user", message: { role: "user", content: text }, parent_tool_use_id: null };
}

// A promise with its resolve function outside, for programs that wait on an event.
export function signal() {
  let resolve;
  const promise = new Promise((done) => (resolve = done));
  return { promise, resolve };
}

// Runs the program's body and prints the one JSON value it returns; an error
// is named on stderr in one line (the minified SDK's stack is unreadable)
// and the program exits 1.
export async function main(body) {
  try {
    process.stdout.write(`${JSON.stringify(await body())}\n`);
  } catch (error) {
    process.stderr.write(`the program failed: ${error?.message ?? error}\n`);
    process.exit(1);
  }
}
