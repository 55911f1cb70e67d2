"""The fast boot of a generated server on stdio: discovery answered before the runtime exists.

Importing the runtime, the user's handlers and their models takes a few hundred ms;
the answers a client needs first (``initialize`` and ``tools/list`` on the handshake wire,
``server/discover`` and ``tools/list`` on 2026-07-28) do not depend on any of it. The generator
writes them into the package (``_generated/discovery.py``, ``ANSWERS``, built by
``discovery.Discovery.precomputed``), so the boot:

1. parses the command line (the same parser; bad options exit 2 here) and checks that the
   precomputed answers fit it: stdio, the lean engine, the default tool selection, one page,
   schemas as written, memory state, and a package generated for this runtime version;
2. claims the wire (``server.stdio_fds.claim_stdio``) and builds the server on a thread
   (``cli.prepare``: handlers and runtime; the SDK is not imported, see ``bridge``);
3. meanwhile answers, from ``ANSWERS``, exactly the requests whose answers they are
   (a valid ``initialize``, ``notifications/initialized``, ``ping``, a list without a
   cursor, ``server/discover``, each in its era and with a valid envelope);
4. as soon as the server is built, or at the first other line (then waiting for it), hands the
   connection, with what it read and what it answered, to the lean engine
   (``stdio.serve_stdio``). A server that cannot be built (a ``handlers.py`` that does not
   import) ends the process then, with its one line and exit 1.

Everything but the happy path goes to the engine, which decides it as it always does, so
the boot never answers differently from it (tests/runtime/lean).
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import sys
from typing import Any

__all__ = ["boot"]

SWITCH_INTERVAL_S = 0.0005
"""While the server is built on its thread, the reader gets the interpreter this soon after a
line arrives (the default 5 ms would show in the first answers)."""


def boot(create: Any, handlers: Any, argv: Any, prog: str | None) -> bool:
    """Serve with the fast boot when it applies (True: served); False: start as usual."""
    from ..server import flags

    opts = flags.parser(prog).parse_args(argv)
    answers = _answers(create) if _applies(opts) else None
    if answers is None:
        return False
    from ..server.stdio_fds import claim_stdio, pipes_available

    if not pipes_available():
        return False
    # The start-up makes objects that live as long as the server; the cyclic collector would
    # walk them again and again while it imports (about 40 collections, 5% of a first call).
    # It is off until the server is built; what the start made is then frozen (never walked
    # again) and it is back on before the first request is served.
    gc.disable()
    try:
        _serve(claim_stdio(), answers, create, handlers, argv, prog)
    finally:
        gc.enable()
    return True


def _applies(opts: Any) -> bool:
    from ..server.flags import INLINE_ENV, STATE_ENV
    from ..server.toolsets import TOOLS_ENV, TOOLSETS_ENV

    env = os.environ
    return not (
        opts.http
        or opts.engine != "lean"
        or opts.stdio_transport == "sdk"
        or opts.list_toolsets
        or opts.page_size is not None
        or opts.toolsets is not None
        or opts.tools is not None
        or opts.inline_schema_refs
        or opts.state is not None
        or any(env.get(k) for k in (TOOLSETS_ENV, TOOLS_ENV, INLINE_ENV, STATE_ENV))
    )


def _answers(create: Any) -> dict[str, bytes] | None:
    """The package's precomputed answers, if it has them for this runtime version."""
    from .._version import __version__

    package = getattr(create, "__module__", None)
    if not isinstance(package, str):
        return None
    try:
        module = importlib.import_module(package + ".discovery")
    except ImportError:
        return None
    answers = getattr(module, "ANSWERS", None)
    if getattr(module, "RUNTIME_VERSION", None) != __version__ or not isinstance(answers, dict):
        return None
    return {k: v.encode("ascii") for k, v in answers.items()}


def _serve(
    claim: Any, answers: dict[str, bytes], create: Any, handlers: Any, argv: Any, prog: Any
) -> None:
    import threading

    built: dict[str, Any] = {}
    ready_r, ready_w = os.pipe()

    def build() -> None:
        try:
            from ..server.cli import prepare

            built["prepared"] = prepare(create, handlers, argv, prog=prog)
        except BaseException as exc:  # noqa: BLE001 - re-raised on the main thread
            built["error"] = exc
        finally:
            os.write(ready_w, b"!")  # wakes the reader: hand over, or fail, now

    interval = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    thread = threading.Thread(target=build, name="mcpgen-boot", daemon=True)
    thread.start()
    reader = _Reader(claim, answers, ready_r)
    try:
        pending, eof = reader.run()
    except BaseException:
        claim.restore()
        raise
    finally:
        thread.join()
        os.close(ready_r)
        os.close(ready_w)
    sys.setswitchinterval(interval)
    if "error" in built:
        claim.restore()
        raise built["error"]
    prepared = built["prepared"]
    if prepared is None:
        claim.restore()
        return
    gc.freeze()
    gc.enable()
    from ..server.cli import serve
    from .handover import Handover

    serve(
        prepared,
        Handover(claim, pending, eof, reader.era, reader.version, reader.initialize, reader.caps),
    )


class _Reader:
    """Reads the wire and answers what ``ANSWERS`` holds, until a line it should not answer."""

    def __init__(self, claim: Any, answers: dict[str, bytes], ready: int) -> None:
        from .discovery import LATEST_HANDSHAKE

        self.claim = claim
        self.answers = answers
        self.ready = ready
        """Readable once the server is built (or failed to be): the boot ends there."""
        self.era: str | None = None
        self.version = LATEST_HANDSHAKE
        self.initialize: dict[str, Any] | None = None
        self.caps: dict[str, Any] | None = None

    def run(self) -> tuple[bytes, bool]:
        """(what is left to read: the first line not answered and everything after it, EOF).
        Ends as soon as the server is built: the engine takes the wire from there."""
        import select

        buf = b""
        fd = self.claim.in_fd
        while True:
            readable, _, _ = select.select([fd, self.ready], [], [])
            if self.ready in readable:
                return buf, False
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return buf, True
            buf += chunk
            while True:
                end = buf.find(b"\n")
                if end < 0:
                    break
                if not self._answer(buf[:end]):
                    return buf, False
                buf = buf[end + 1 :]

    def _answer(self, line: bytes) -> bool:
        if not line.strip():
            return True
        try:
            msg = json.loads(line)
        except (ValueError, RecursionError):
            return False
        if type(msg) is not dict or msg.get("jsonrpc") != "2.0":
            return False
        method = msg.get("method")
        params = msg.get("params")
        if params is not None and type(params) is not dict:
            return False
        if "id" not in msg:
            return method == "notifications/initialized" and self.era == "legacy"
        rid = msg["id"]
        if type(rid) is not str and type(rid) is not int:
            return False
        key = self._key(msg, method, params)
        if key is None:
            return False
        if key == "ping":
            self._write(rid, b"{}")
            return True
        answer = self.answers.get(key)
        if answer is None:
            return False  # a list this server does not have: the engine answers
        self._write(rid, answer)
        return True

    def _key(self, msg: dict[str, Any], method: Any, params: Any) -> str | None:
        from .envelope import (
            VERSION_KEY,
            envelope_refusal,
            enveloped,
            initialize_is_plain,
            meta_is_plain,
            negotiate,
        )

        if self.era != "modern" and method == "initialize":
            version = negotiate(params)
            if version is None or not initialize_is_plain(params):
                return None
            self.era, self.version, self.initialize = "legacy", version, msg
            self.caps = params["capabilities"]
            return f"initialize@{version}"
        if params is not None and (
            not params.keys() <= _PLAIN_KEYS or not meta_is_plain(params.get("_meta"))
        ):
            return None  # the engine decides, with the SDK's models
        if self.era == "legacy" and self.initialize is not None:
            if enveloped(params):
                return None
            if method == "ping":
                return "ping"
            if method in _LISTS and _first_page(params):
                return f"{method}@{self.version}"
            return None
        if self.era != "legacy" and enveloped(params):
            meta = params["_meta"]
            if envelope_refusal(meta) is not None:
                return None
            version = meta[VERSION_KEY]
            if method in _LISTS and _first_page(params):
                self.era = "modern"
                return f"{method}@{version}"
            if method == "server/discover":
                self.era = "modern"
                return "server/discover"
        return None

    def _write(self, rid: Any, result: bytes) -> None:
        data = b'{"jsonrpc":"2.0","id":%s,"result":%s}\n' % (json.dumps(rid).encode(), result)
        fd = self.claim.out_fd
        while data:
            data = data[os.write(fd, data) :]


_LISTS = frozenset(("tools/list", "resources/list", "resources/templates/list", "prompts/list"))


_PLAIN_KEYS = frozenset(("_meta", "cursor"))
"""The params of a request the boot answers (a list's first page, ``ping``,
``server/discover``), each key checked as the SDK's models check it (``meta_is_plain``)."""


def _first_page(params: Any) -> bool:
    return params is None or params.get("cursor") is None
