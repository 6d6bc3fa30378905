// query() with a string prompt: the messages it streams, ending in a result.
import { query } from "@anthropic-ai/claude-agent-sdk";
import { main, options, summaries } from "./common.mjs";

main(async () => ({
  messages: await summaries(query({ prompt: "read notes.txt", options: options() })),
}));
