"""The lean engine: what serves a generated server's hot path (issue 37) without the SDK.

A generated server knows its whole contract at build time, so the JSON-RPC work between the
pipe and the handler is small: read a line, parse it, route it, validate, call the handler,
write the answer. The SDK's generic engine pays for pydantic envelopes, anyio streams and a task
group per message on every call; the lean engine does only what the contract needs, on the same
handlers, contexts, limits, auth checks, state backends and error mapping (the runtimes in
``mcpgen_runtime.server``), so a handler cannot tell which engine called it.

* ``jsonrpc``: framing. Every request gets exactly one answer, malformed input included.
* ``discovery``: the answers that do not depend on the caller (``initialize``,
  ``server/discover``, the lists), computed from the package's facts; the generator writes
  them into the package (``_generated/discovery.py``) and the engine uses the same function.
* ``engine``: the eras (handshake / 2026-07-28), the initialize gate, dispatch; ``methods``:
  the handlers of the methods it serves itself, on the runtimes.
* ``context``: the request context handlers' ``ToolContext`` wraps (progress, logging, asking).
* ``bridge``: everything the engine does not take goes to the SDK's server in the same
  process (started on first need: the SDK is imported then, and not before).
* ``stdio``: the transport, and ``boot`` its fast start (answers discovery before the rest of
  the runtime is imported).
* ``http``: the ASGI front before the SDK's Streamable HTTP app (2026-07-28 POSTs), with
  ``http_sessions`` (POSTs in the handshake wire's sessions, which stay the SDK's) and
  ``http_sse`` (their SSE answers and the front's one timer).

``--engine sdk`` (or ``$MCPGEN_ENGINE=sdk``) turns it off. The conformance suite, the SDK
clients and a differential fuzz test (``tests/runtime/lean``) referee it against the SDK.
"""
