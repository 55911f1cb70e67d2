#!/usr/bin/env python3
"""Yardstick, not a server: the least a Python process can do per ``tools/call add`` on stdio.
A blocking read-parse-write loop that answers discovery from precomputed JSON, checks the
arguments with jsonschema-rs and writes a dict result. Not MCP-complete (no error paths, no
cancellation, no concurrency): it shows how far Python itself is from the lean engine
(docs/lean-engine.md, "Where the time goes")."""

import json
import sys

import jsonschema_rs

SCHEMA = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
    "required": ["a", "b"],
}
TOOL = {
    "name": "add",
    "description": "Add two integers",
    "inputSchema": SCHEMA,
    "outputSchema": {
        "type": "object",
        "properties": {"sum": {"type": "integer"}},
        "required": ["sum"],
    },
}
INFO = {"name": "bare_add", "version": "1.0.0"}
VALID = jsonschema_rs.validator_for(SCHEMA).is_valid
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    msg = json.loads(line)
    method, rid, params = msg.get("method"), msg.get("id"), msg.get("params") or {}
    if rid is None:
        continue
    if method == "initialize":
        result = {
            "protocolVersion": params["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": INFO,
        }
    elif method == "tools/list":
        result = {"tools": [TOOL], "resultType": "complete"}
    else:
        args = params["arguments"]
        assert VALID(args)
        total = {"sum": args["a"] + args["b"]}
        result = {
            "content": [{"type": "text", "text": json.dumps(total)}],
            "structuredContent": total,
            "isError": False,
            "resultType": "complete",
        }
    out.write(json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}).encode() + b"\n")
    out.flush()
