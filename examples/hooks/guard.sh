#!/bin/bash
# A Claude Code PreToolUse guard, unchanged: reads the call on stdin (needs jq)
# and blocks `rm -rf` with exit 2; stderr is the reason the model sees.
command=$(jq -r '.tool_input.command // empty')
if [[ "$command" == *"rm -rf"* ]]; then
  echo "Blocked by guard.sh: rm -rf is not allowed in this project" >&2
  exit 2
fi
exit 0
