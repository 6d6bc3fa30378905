// canUseTool hears the ask for a Bash call and denies it with a message,
// which the model sees as the call's result.
import { query } from "@anthropic-ai/claude-agent-sdk";
import { main, options, summaries } from "./common.mjs";

main(async () => {
  const asks = [];
  const canUseTool = async (toolName, input) => {
    asks.push([toolName, input]);
    return { behavior: "deny", message: "no files today" };
  };
  const messages = await summaries(
    query({ prompt: "make a file", options: options({ canUseTool }) }),
  );
  return { asks, messages };
});
