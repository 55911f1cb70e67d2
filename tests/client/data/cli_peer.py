"""A stdio peer for the generated CLI's differential tests (``test_cli_compiled``): answers the
2026-07-28 wire as the weather server would, then misbehaves on ``tools/call`` as ``argv[1]``
says: hang, die, garbage, numbers (a result the output model converts), error (a JSON-RPC
error), badshape (structuredContent the outputSchema refuses), nostruct (no
structuredContent), text (two text blocks), image.
``argv[2]``, if given, is a file the peer writes its pid to."""

import json
import os
import sys
import time

MODE = sys.argv[1]
if len(sys.argv) > 2:
    with open(sys.argv[2], "w") as fh:
        fh.write(str(os.getpid()))


def send(rid, result=None, error=None):
    msg = {"jsonrpc": "2.0", "id": rid}
    msg.update({"error": error} if error else {"result": result})
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    msg = json.loads(line)
    method, rid = msg.get("method"), msg.get("id")
    if rid is None:
        continue
    if method == "server/discover":
        send(
            rid,
            {
                "supportedVersions": ["2026-07-28"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "peer", "version": "1"},
                "resultType": "complete",
            },
        )
    elif method == "tools/list":
        send(rid, {"tools": [], "ttlMs": 0, "cacheScope": "private", "resultType": "complete"})
    elif method == "tools/call":
        if MODE == "hang":
            time.sleep(3600)
        elif MODE == "die":
            sys.exit(0)
        elif MODE == "garbage":
            sys.stdout.write("this is not JSON\n")
            sys.stdout.flush()
            sys.exit(0)
        elif MODE == "error":
            send(rid, error={"code": -32603, "message": "the peer broke"})
        elif MODE == "badshape":
            send(rid, {"content": [], "structuredContent": {"city": 5}, "resultType": "complete"})
        elif MODE == "numbers":  # ints for numbers, an integral float for an integer, reordered
            out = {
                "humidity": 54.0,
                "condition": "sunny",
                "units": "metric",
                "temperature": 19,
                "city": "P",
            }
            send(rid, {"content": [], "structuredContent": out, "resultType": "complete"})
        elif MODE == "nostruct":
            send(rid, {"content": [{"type": "text", "text": "hi"}], "resultType": "complete"})
        elif MODE == "text":
            send(
                rid,
                {
                    "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
                    "resultType": "complete",
                },
            )
        elif MODE == "image":
            send(
                rid,
                {
                    "content": [{"type": "image", "data": "aGk=", "mimeType": "image/png"}],
                    "structuredContent": {"x": None},
                    "resultType": "complete",
                },
            )
    else:
        send(rid, error={"code": -32601, "message": "Method not found"})
