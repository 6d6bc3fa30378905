// Two query() calls: the second resumes the first's session by id (the
// `resume` option) with its own script (the first argument).
import { query } from "@anthropic-ai/claude-agent-sdk";
import { main, options, summaries } from "./common.mjs";

main(async () => {
  let session;
  const first = await summaries(query({ prompt: "echo", options: options() }), (message) => {
    if (message.type === "result") session = message.session_id;
  });
  const again = options({ resume: session, extraArgs: { script: process.argv[2] } });
  const second = await summaries(query({ prompt: "what was echoed?", options: again }));
  return { first, second };
});
