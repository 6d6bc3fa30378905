// Another agent calls `agenthub mcp serve`'s agenthub_run with several
// `cwd`s, through the official MCP TypeScript SDK's client (pinned in
// tests/npm). Usage:
//   node mcp_run_cwd.mjs AGENTHUB WORKSPACE -- SERVER_ARGS...
// The cwds are the JSON list in ../cwds.json (beside this script's folder);
// prints one JSON list: what each call answered, in order.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { readFileSync } from "node:fs";

const [agenthub, workspace, separator, ...serverArgs] = process.argv.slice(2);
if (separator !== "--") throw new Error("usage: mcp_run_cwd.mjs AGENTHUB WORKSPACE -- ARGS...");
const cwds = JSON.parse(readFileSync(new URL("../cwds.json", import.meta.url), "utf8"));

const transport = new StdioClientTransport({
  command: agenthub,
  args: ["mcp", "serve", ...serverArgs],
  cwd: workspace,
  env: process.env,
  stderr: "inherit",
});
const mcp = new Client({ name: "agenthub-e2e", version: "1.0.0" });
await mcp.connect(transport);

const answers = [];
for (const cwd of cwds) {
  const result = await mcp.callTool({ name: "agenthub_run", arguments: { prompt: "say done", cwd } });
  answers.push({
    isError: result.isError ?? false,
    text: result.content.map((block) => block.text).join(""),
  });
}
await mcp.close();
console.log(JSON.stringify(answers));
