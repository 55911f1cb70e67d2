"""The whole ``mcp_wire`` package as ``{relative path: text}``. Pure apart from reading the
(verified) schemas and the two Jinja templates of the package scaffolding."""

from __future__ import annotations

from pathlib import Path

from mcpgen import __version__
from mcpgen.emit import inputs_digest
from mcpgen.protocol.build import body_key, build_body, header
from mcpgen.protocol.pins import (
    Pin,
    check_facts,
    load_pins,
    load_pins_document,
    load_schema,
    pins_path,
    resolve_source,
)
from mcpgen.protocol.split import split_revision

PACKAGE = "mcp_wire"


def _static(name: str, **values: object) -> str:
    from mcpgen.render import render

    return render(f"protocol/{name}", version=__version__, **values)


def package_digest(pins: list[Pin], docstrings: bool) -> str:
    return inputs_digest(
        pins_path().read_bytes(),
        *(f"{p.revision}:{p.sha256}" for p in pins),
        f"docstrings={docstrings}",
    )


def build_package(
    pins: list[Pin], source: Path | None, *, docstrings: bool = False
) -> dict[str, str]:
    """The package of each of ``pins`` (``<module>/__init__.py``, ``content.py``,
    ``protocol.py``: ``mcpgen.protocol.split``) plus the scaffolding. Revisions not in ``pins``
    are not built (the caller merges them with what is on disk when regenerating a subset)."""
    files: dict[str, str] = {}
    bodies: dict[tuple[str, str, bool], str] = {}
    for pin in pins:
        doc, _raw = load_schema(pin, source)
        check_facts(pin, doc)
        key = body_key(pin, docstrings)
        if key not in bodies:
            origin = str(resolve_source(source) / pin.revision / "schema.json")
            bodies[key] = build_body(doc, pin, docstrings=docstrings, origin=origin)
        parts = split_revision(bodies[key], header(pin, docstrings=docstrings), pin.revision)
        files.update({f"{pin.module}/{name}": text for name, text in parts.items()})
    files.update(scaffolding())
    return files


def scaffolding() -> dict[str, str]:
    all_pins = load_pins()
    meta = load_pins_document()
    return {
        "__init__.py": _static(
            "__init__.py.jinja",
            commit=meta["commit"],
            pins=list(all_pins.values()),
            latest=meta["latest"],
        ),
        "_base.py": _static("_base.py.jinja"),
        "py.typed": "",
    }
