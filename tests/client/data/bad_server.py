"""A deliberately misbehaving MCP server over stdio (newline-delimited JSON-RPC, legacy
handshake), for the bad-input tests: ``python bad_server.py MODE [REVISION]``.

MODE: ok | die | rpc_error | malformed | bad_structured | no_structured | slow | hostile_list |
bad_list | silent | paged_loop. REVISION: the protocol revision it answers ``initialize`` with
(default 2025-06-18). Misbehaviour only exists here: no real server does it on purpose.
"""

import json
import os
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"
REVISION = sys.argv[2] if len(sys.argv) > 2 else "2025-06-18"

TOOLS = [
    {
        "name": "echo",
        "description": "Echo.",
        "inputSchema": {
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"],
        },
    },
    {
        "name": "typed",
        "inputSchema": {"type": "object"},
        "outputSchema": {
            "type": "object",
            "properties": {"n": {"type": "integer"}},
            "required": ["n"],
        },
    },
]
HOSTILE = [
    {
        "name": 'a b"""; import os',
        "description": "'''\"\"\"\\",
        "inputSchema": {"type": "object", "properties": {"class": {"type": "strin"}}},
    },
    {
        "name": "class",
        "inputSchema": {
            "type": "object",
            "properties": {"x": {"$ref": "https://example.com/s.json"}},
        },
    },
    {"name": "Class", "inputSchema": {"type": "object", "required": ["missing"]}},
]


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    req = json.loads(line)
    rid, method = req.get("id"), req.get("method")
    if rid is None:
        continue
    if MODE == "silent":
        continue
    if method == "initialize":
        send(
            {
                "jsonrpc": "2.0",
                "id": rid,
                "result": {
                    "protocolVersion": REVISION,
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "bad", "version": "0"},
                },
            }
        )
    elif method == "tools/list":
        if MODE == "hostile_list":
            tools = HOSTILE
        elif MODE == "bad_list":
            tools = [{"name": "no_schema"}]
        else:
            tools = TOOLS
        result = {"tools": tools}
        if MODE == "paged_loop":
            result["nextCursor"] = "again"
        send({"jsonrpc": "2.0", "id": rid, "result": result})
    elif method == "tools/call":
        name = req["params"]["name"]
        if MODE == "die":
            os._exit(3)
        if MODE == "rpc_error":
            send(
                {
                    "jsonrpc": "2.0",
                    "id": rid,
                    "error": {
                        "code": -32602,
                        "message": f"Unknown tool: {name}",
                        "data": {"tool": name},
                    },
                }
            )
            continue
        if MODE == "slow":
            time.sleep(30)
        if MODE == "malformed":
            result = {"content": "not a list"}
        elif name == "typed":
            if MODE == "bad_structured":
                result = {
                    "content": [{"type": "text", "text": "{}"}],
                    "structuredContent": {"n": "three"},
                }
            elif MODE == "no_structured":
                result = {"content": [{"type": "text", "text": "3"}]}
            else:
                result = {
                    "content": [{"type": "text", "text": '{"n": 3}'}],
                    "structuredContent": {"n": 3},
                }
        else:
            result = {"content": [{"type": "text", "text": req["params"]["arguments"]["text"]}]}
        send({"jsonrpc": "2.0", "id": rid, "result": result})
    else:
        send(
            {
                "jsonrpc": "2.0",
                "id": rid,
                "error": {"code": -32601, "message": f"no method {method}"},
            }
        )
