// An SDK PreToolUse hook callback on Bash blocks a call the rules allow
// (a read-only command): the model sees the hook's reason.
import { query } from "@anthropic-ai/claude-agent-sdk";
import { main, options, summaries } from "./common.mjs";

main(async () => {
  const heard = [];
  const block = async (input, toolUseId) => {
    heard.push([input.hook_event_name, input.tool_name, input.tool_input, toolUseId]);
    return {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "blocked by the SDK hook",
      },
    };
  };
  const hooks = { PreToolUse: [{ matcher: "Bash", hooks: [block] }] };
  const messages = await summaries(query({ prompt: "say hi", options: options({ hooks }) }));
  return { heard, messages };
});
