"""The official SDK's RFC 6570 module (``mcp.shared.uri_template``: parse, expand, match), for
the generator and ``check``.

Importing it the usual way runs the ``mcp`` package's ``__init__``, which imports the SDK's
client and server (about half a second): too slow for ``mcpgen check`` in a pre-commit hook.
The module itself needs only the standard library, so when the SDK is not loaded yet it is
loaded from the installed SDK's file as it is (unchanged, under a private name); if that file
is missing or does not load, the normal import is used. ``tests/check/test_uritemplates.py``
checks both ways give the same results.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["uri_template_module"]

_NAME = "mcp.shared.uri_template"
_PRIVATE = "_mcpgen_sdk_uri_template"


def _standalone() -> ModuleType | None:
    spec = importlib.util.find_spec("mcp")  # locates the package; does not import it
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "shared" / "uri_template.py"
    if not path.is_file():
        return None
    file_spec = importlib.util.spec_from_file_location(_PRIVATE, path)
    if file_spec is None or file_spec.loader is None:
        return None
    module = importlib.util.module_from_spec(file_spec)
    sys.modules[_PRIVATE] = module  # dataclasses look their module up while the body runs
    try:
        file_spec.loader.exec_module(module)
    except Exception:  # noqa: BLE001 - a changed SDK: fall back to the normal import
        del sys.modules[_PRIVATE]
        return None
    return module


def uri_template_module() -> ModuleType:
    """``mcp.shared.uri_template`` (``UriTemplate``, ``InvalidUriTemplate``)."""
    loaded = sys.modules.get(_NAME) or sys.modules.get(_PRIVATE)
    if loaded is not None:
        return loaded
    module = _standalone()
    if module is not None:
        return module
    import mcp.shared.uri_template as sdk

    return sdk
