// Another agent using `agenthub mcp serve` with the official MCP TypeScript
// SDK's client (pinned in tests/npm). Usage:
//   node mcp_client.mjs AGENTHUB WORKSPACE -- SERVER_ARGS...
// Lists the tools, calls Read, a Bash call nobody can approve, and
// agenthub_run; prints one JSON object with what each answered.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [agenthub, workspace, separator, ...serverArgs] = process.argv.slice(2);
if (separator !== "--") throw new Error("usage: mcp_client.mjs AGENTHUB WORKSPACE -- ARGS...");

const transport = new StdioClientTransport({
  command: agenthub,
  args: ["mcp", "serve", ...serverArgs],
  cwd: workspace,
  env: process.env,
  stderr: "inherit",
});
const mcp = new Client({ name: "agenthub-e2e", version: "1.0.0" });
await mcp.connect(transport);

const answer = (result) => ({
  isError: result.isError ?? false,
  text: result.content.map((block) => block.text).join(""),
  structured: result.structuredContent ?? null,
});

const listed = await mcp.listTools();
const read = await mcp.callTool({ name: "Read", arguments: { file_path: "notes.txt" } });
const bash = await mcp.callTool({ name: "Bash", arguments: { command: "touch made-by-bash" } });
const run = await mcp.callTool({ name: "agenthub_run", arguments: { prompt: "read the notes", cwd: workspace } });
const server = mcp.getServerVersion()?.name ?? null;
await mcp.close();

console.log(
  JSON.stringify({
    server,
    tools: listed.tools.map((tool) => tool.name),
    read: answer(read),
    bash: answer(bash),
    run: answer(run),
  }),
);
