// canUseTool allows the asked call with an updatedInput: the JSON object of
// the first argument, which AgentHub checks as it would any input.
import { query } from "@anthropic-ai/claude-agent-sdk";
import { main, options, summaries } from "./common.mjs";

main(async () => {
  const asks = [];
  const canUseTool = async (toolName, input) => {
    asks.push([toolName, input]);
    return { behavior: "allow", updatedInput: JSON.parse(process.argv[2]) };
  };
  const messages = await summaries(
    query({ prompt: "write it", options: options({ canUseTool }) }),
  );
  return { asks, messages };
});
