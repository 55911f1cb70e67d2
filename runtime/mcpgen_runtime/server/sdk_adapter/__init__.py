"""Every place the server runtime leans on the official MCP Python SDK beyond its public API.

Tested with ``mcp`` 2.3.0 (``TESTED_WITH``). ``SDK_USES`` names each use, what it relies on and
why mcpgen needs it; tests/runtime/test_sdk_adapter.py checks every one against the installed
SDK and fails, naming the use, when an upgrade removes or changes what it relies on. Nothing
else in ``mcpgen_runtime.server`` reads a private SDK attribute, patches an SDK object,
recognises an SDK class by its name or rewrites what the SDK produced.

The uses are grouped by what they touch, one module each; import them from here:

* ``uses``: ``SDK_USES`` and ``TESTED_WITH``, the list itself;
* ``sessions``: the SDK's session objects (``session-connection``, ``listen-honored-filter``,
  ``client-read-timeout``);
* ``lowlevel_server``: the low-level ``Server`` (``initialization-options``,
  ``otel-middleware``, ``runtime-attribute``, ``exact-schemas``, ``middleware-chain``);
* ``streamable_http``: the Streamable HTTP transport and session manager (``header-checks``,
  ``http-session-table``, ``http-session-idle-clock``);
* ``uri_template``: the SDK's RFC 6570 file (``uri-template-file``).

None of them imports ``mcp`` at import time (the lean engine starts without the SDK).

One use serves code outside the server runtime: ``client/base.py`` sets the client session's
``_session_read_timeout_seconds`` through ``set_client_read_timeout`` (here so the same test
guards it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .lowlevel_server import OTEL_MIDDLEWARE as OTEL_MIDDLEWARE
from .lowlevel_server import (
    RUNTIME_ATTRIBUTE,
    announce_tools_list_changed,
    attach_runtime,
    attached_runtime,
    drop_sdk_tracing,
    list_fixups,
)
from .sessions import handshake_connection, honored_filter
from .sessions import set_client_read_timeout as set_client_read_timeout

if TYPE_CHECKING:
    from .streamable_http import (
        HeaderChecks,
        begin_session_request,
        end_session_request,
        live_session,
        settle_idle,
    )
    from .uri_template import _uri_template_file as _uri_template_file
    from .uri_template import uri_templates
    from .uses import SDK_USES, TESTED_WITH, SdkUse

_LAZY = {
    **dict.fromkeys(
        (
            "HeaderChecks",
            "begin_session_request",
            "end_session_request",
            "live_session",
            "settle_idle",
        ),
        "streamable_http",
    ),
    **dict.fromkeys(("_uri_template_file", "uri_templates"), "uri_template"),
    **dict.fromkeys(("SDK_USES", "TESTED_WITH", "SdkUse"), "uses"),
}
"""Names loaded with their module on first use: the HTTP transport's and resource templates'
uses, and the list itself (the tests and docs read it). A lean server on stdio needs only the
session and low-level ``Server`` ones at start."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = [
    "RUNTIME_ATTRIBUTE",
    "SDK_USES",
    "TESTED_WITH",
    "HeaderChecks",
    "SdkUse",
    "announce_tools_list_changed",
    "attach_runtime",
    "attached_runtime",
    "begin_session_request",
    "drop_sdk_tracing",
    "end_session_request",
    "handshake_connection",
    "honored_filter",
    "list_fixups",
    "live_session",
    "settle_idle",
    "uri_templates",
]
