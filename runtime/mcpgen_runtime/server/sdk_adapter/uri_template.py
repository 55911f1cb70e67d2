"""The use ``uri-template-file``: the SDK's RFC 6570 module (``mcp/shared/uri_template.py``)
loaded from its file, so matching resource templates never imports the ``mcp`` package."""

from __future__ import annotations

from types import ModuleType

__all__ = ["uri_templates"]

# -- uri-template-file -----------------------------------------------------------------------

_URI_TEMPLATE = "mcp.shared.uri_template"
_URI_TEMPLATE_PRIVATE = "_mcpgen_sdk_uri_template"


def _uri_template_file() -> ModuleType | None:
    """``mcp/shared/uri_template.py`` loaded as it is, under a private name (None: not there,
    or it does not load alone)."""
    import importlib.util
    import sys
    from pathlib import Path

    spec = importlib.util.find_spec("mcp")  # locates the package; does not import it
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "shared" / "uri_template.py"
    if not path.is_file():
        return None
    file_spec = importlib.util.spec_from_file_location(_URI_TEMPLATE_PRIVATE, path)
    if file_spec is None or file_spec.loader is None:
        return None
    module = importlib.util.module_from_spec(file_spec)
    sys.modules[_URI_TEMPLATE_PRIVATE] = module  # dataclasses look it up while the body runs
    try:
        file_spec.loader.exec_module(module)
    except Exception:  # noqa: BLE001 - a changed SDK: the normal import instead
        del sys.modules[_URI_TEMPLATE_PRIVATE]
        return None
    return module


def uri_templates() -> ModuleType:
    """The SDK's RFC 6570 module (``UriTemplate``, ``InvalidUriTemplate``; use
    ``uri-template-file``): the loaded SDK's own when ``mcp`` is imported, else its file."""
    import sys

    loaded = sys.modules.get(_URI_TEMPLATE) or sys.modules.get(_URI_TEMPLATE_PRIVATE)
    if loaded is not None:
        return loaded
    module = _uri_template_file()
    if module is not None:
        return module
    import mcp.shared.uri_template as sdk

    return sdk
