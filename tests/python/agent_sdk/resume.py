"""Two query() calls: the second resumes the first's session by id (the
`resume` option) with its own script (the first argument)."""

import sys

from claude_agent_sdk import ResultMessage, query
from common import main, options, summaries


async def body():
    ids = []

    async def each(message):
        if isinstance(message, ResultMessage):
            ids.append(message.session_id)

    first = await summaries(query(prompt="echo", options=options()), each)
    again = options(resume=ids[0], extra_args={"script": sys.argv[1]})
    second = await summaries(query(prompt="what was echoed?", options=again))
    return {"first": first, "second": second}


main(body)
