"""The official SDK's RFC 6570 module (``mcp.shared.uri_template``: parse, expand, match), for
the generator and ``check``.

Importing it the usual way runs the ``mcp`` package's ``__init__``, which imports the SDK's
client and server (about half a second): too slow for ``mcpgen check`` in a pre-commit hook.
The module itself needs only the standard library, so when the SDK is not loaded yet it is
loaded from the installed SDK's file as it is (unchanged, under a private name); if that file
is missing or does not load, the normal import is used. The runtime does the same for the
resource templates it serves, in one place: ``mcpgen_runtime.server.sdk_adapter`` (use
``uri-template-file``). ``tests/check/test_uritemplates.py`` checks both ways give the same
results.
"""

from __future__ import annotations

from types import ModuleType

from mcpgen_runtime.server.sdk_adapter import uri_templates

__all__ = ["uri_template_module"]


def uri_template_module() -> ModuleType:
    """``mcp.shared.uri_template`` (``UriTemplate``, ``InvalidUriTemplate``)."""
    return uri_templates()
