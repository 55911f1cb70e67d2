"""A manifest document as text: YAML that mcpgen's YAML 1.2 loader reads back as the same
document, else JSON (which YAML 1.2 reads as is); JSON for ``*.json``. Used by ``mcpgen pull``
and ``mcpgen import openapi``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from mcpgen.errors import McpgenError

__all__ = ["manifest_text"]


def manifest_text(doc: Any, path: Path, head: str = "") -> str:
    """``doc`` as the text of ``path`` (``head``: comment lines first, YAML only). The YAML is
    read back with mcpgen's own YAML 1.2 loader before it is returned; where PyYAML (a YAML 1.1
    emitter) would write something that reads back differently, it is JSON. Raises
    ``McpgenError`` when neither can carry ``doc``."""
    if path.suffix.lower() == ".json":
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    import yaml  # type: ignore[import-untyped]

    from mcpgen.manifest.sourcemap import parse_text

    try:
        body: str = yaml.dump(
            doc,
            Dumper=_dumper(),
            sort_keys=False,
            allow_unicode=True,
            width=100,
            default_flow_style=False,
        )
        text = head + body
        if parse_text(text, path.name).value == doc:
            return text
    except (yaml.YAMLError, McpgenError, ValueError):
        pass
    as_json = _yaml_safe_json(doc)
    try:
        if as_json is not None and parse_text(as_json, path.name).value == doc:
            return as_json
    except McpgenError:
        pass
    raise McpgenError("the document cannot be written as YAML; use a .json file", path=str(path))


_YAML_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")


def _yaml_safe_json(doc: Any) -> str | None:
    """JSON that a YAML 1.2 parser reads back as ``doc`` (characters YAML treats as line
    breaks or refuses are escaped), or None when ``doc`` holds lone surrogates, which no YAML
    file can carry."""
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        return None
    return _YAML_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


def _dumper() -> Any:
    """PyYAML's safe dumper, taught YAML 1.2's core-schema scalars: a string that YAML 1.2
    would read as a number, bool or null (``1e3``, ``0o17``, ``.inf``) is quoted. PyYAML knows
    only YAML 1.1's forms, and mcpgen reads manifests with YAML 1.2 rules."""
    import re

    import yaml

    class Dumper(yaml.SafeDumper):  # type: ignore[misc]
        def ignore_aliases(self, data: Any) -> bool:
            return True  # a value used twice is written twice, never as &anchor/*alias

    resolvers = {
        "tag:yaml.org,2002:float": (
            r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
            r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
            "-+.0123456789",
        ),
        "tag:yaml.org,2002:int": (r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
        "tag:yaml.org,2002:bool": (r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
        "tag:yaml.org,2002:null": (r"^(?:~|null|Null|NULL)$", "~nN"),
    }
    for tag, (pattern, first) in resolvers.items():
        Dumper.add_implicit_resolver(tag, re.compile(pattern), list(first))
    return Dumper
