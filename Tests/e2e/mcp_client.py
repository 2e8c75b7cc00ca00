"""A real MCP client (the official Python SDK, `mcp` from PyPI) driving `lanes mcp`, for test_mcp.py.

Run with the venv's python that test_mcp.py makes: `mcp_client.py LANES_BIN [BOARD …]`. It starts the
server through the SDK's stdio client, initializes as the client "test-agent", then answers one JSON
request per stdin line with one JSON line on stdout:

    {"op": "tools"}                                  -> {"tools": [names]}
    {"op": "call", "name": N, "args": {...}}         -> {"is_error": bool, "text": str}
                                                        or {"rpc_error": {"code": int, "message": str}}
    {"op": "resources"}                              -> {"resources": [uris]}
    {"op": "read", "uri": U}                         -> {"text": str}
    {"op": "subscribe", "uri": U}                    -> {}
    {"op": "updates"}                                -> {"updates": [uris received so far]} (and forgets them)
    {"op": "wait_update", "uri": U, "timeout": s}    -> {"updated": bool} (a hang guard, the answer says)
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters, types

try:  # the SDK's 2.x name; 1.x called it McpError
    from mcp import MCPError
except ImportError:
    from mcp import McpError as MCPError
from mcp.client.stdio import stdio_client


async def main() -> None:
    params = StdioServerParameters(command=sys.argv[1], args=["mcp", *sys.argv[2:]], env=dict(os.environ))
    updates: list[str] = []
    arrived = asyncio.Event()

    async def on_message(message) -> None:
        note = getattr(message, "root", message)  # 1.x wraps a notification in ServerNotification, 2.x does not
        if isinstance(note, types.ResourceUpdatedNotification):
            updates.append(str(note.params.uri))
            arrived.set()

    loop = asyncio.get_running_loop()
    async with stdio_client(params) as (read, write):
        async with ClientSession(
            read, write, message_handler=on_message,
            client_info=types.Implementation(name="test-agent", version="1.0"),
        ) as session:
            await session.initialize()
            print(json.dumps({"ready": True}), flush=True)
            while True:
                line = await loop.run_in_executor(None, sys.stdin.readline)
                if not line:
                    return
                request = json.loads(line)
                op = request["op"]
                answer: dict = {}
                try:
                    if op == "tools":
                        answer = {"tools": [t.name for t in (await session.list_tools()).tools]}
                    elif op == "call":
                        r = await session.call_tool(request["name"], request.get("args", {}))
                        answer = {"is_error": bool(getattr(r, "is_error", None) or getattr(r, "isError", None)), "text": "".join(c.text for c in r.content if c.type == "text")}
                    elif op == "resources":
                        answer = {"resources": [str(r.uri) for r in (await session.list_resources()).resources]}
                    elif op == "read":
                        r = await session.read_resource(request["uri"])
                        answer = {"text": r.contents[0].text}
                    elif op == "subscribe":
                        await session.subscribe_resource(request["uri"])
                    elif op == "updates":
                        answer = {"updates": list(updates)}
                        updates.clear()
                        arrived.clear()
                    elif op == "wait_update":
                        uri = request["uri"]
                        try:
                            async with asyncio.timeout(request["timeout"]):
                                while uri not in updates:
                                    arrived.clear()
                                    await arrived.wait()
                            updates.remove(uri)
                            answer = {"updated": True}
                        except TimeoutError:
                            answer = {"updated": False}
                except MCPError as e:
                    answer = {"rpc_error": {"code": e.error.code, "message": e.error.message}}
                print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
