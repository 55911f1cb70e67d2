"""Read a YAML or JSON file into plain JSON data plus a source map (pointer -> line:col).

``load_document``/``parse_text`` raise ``McpgenError`` (exit 2, with path:line:col where one
exists) when the input cannot be read as a document at all: missing file, directory, binary or
non-UTF-8 bytes, a syntax error, nesting deeper than ``MAX_DEPTH``, more than ``MAX_BYTES``, an
alias expansion bigger than ``MAX_ALIAS_NODES`` ("billion laughs"). Everything else is reported
as a ``Diagnostic`` on the returned ``Document``.

YAML is read with YAML 1.2 (JSON-compatible) scalar rules, through libyaml's event stream
(``yaml.CSafeLoader`` when available), and never with PyYAML's 1.1 resolver. The traps where a
YAML 1.1 reader (PyYAML, many CI tools) would see something else are reported:

* ``YAML_IMPLICIT_TYPE`` (warning): ``yes``/``no``/``on``/``off``/``y``/``n`` stay *strings*
  (only ``true``/``false`` are booleans); ``1e3`` is the number 1000.0 (YAML 1.1: a string);
  ``0o17``/``017`` are 15/17 (1.1: string / octal 15); ``1_000``, ``0b101``, ``1:30`` stay strings
  (1.1: integers); ``.inf``/``.nan`` stay strings because JSON cannot represent them.
  Warning, not error: the value mcpgen loads is well defined, but another tool may disagree.
* ``YAML_TIMESTAMP`` (warning): unquoted dates/times stay strings (1.1: datetime objects). Not
  reported under ``/protocol``, where a bare revision date is exactly what is expected.
* ``DUPLICATE_KEY`` (error, also for JSON; formerly ``YAML_DUPLICATE_KEY``): the last value
  wins, as in most parsers, but silently losing half of a definition is a real bug.

Merge keys (``<<: *base``) are applied (YAML 1.1 / yaml-language-server behaviour); aliases are
copied, so the result is a tree; mapping keys must be scalars and are kept as written.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, NamedTuple

from mcpgen.diagnostics import Diagnostic, Location, Severity
from mcpgen.errors import McpgenError
from mcpgen.manifest.jsonpos import JsonSyntaxError, LazyPositions, parse_json, unescape
from mcpgen.manifest.model import SourceMap

MAX_BYTES = 32 * 1024 * 1024
MAX_DEPTH = 200
MAX_ALIAS_NODES = 100_000

__all__ = ["Document", "load_document", "parse_text", "MAX_BYTES", "MAX_DEPTH"]


class Document(NamedTuple):
    path: str
    value: Any
    source_map: SourceMap
    diagnostics: list[Diagnostic]

    def location(self, pointer: str, *, key: bool = False) -> Location:
        line, col = self.source_map.locate(pointer, key=key)
        return Location(self.path, line, col, pointer)


def read_file(path: str | Path, *, regular_only: bool = False) -> bytes:
    """The bytes of ``path`` (at most ``MAX_BYTES``), or ``McpgenError`` saying why not.
    ``regular_only``: a FIFO, device or socket is refused without blocking (it is opened
    non-blocking and checked with ``fstat``, so swapping the file in between cannot hang a
    pre-commit run either): what a ``$ref`` names must be a regular file."""
    import os
    import stat

    shown = str(path)
    p = Path(path)
    try:
        if p.is_dir():
            raise McpgenError("is a directory, not a manifest file", path=shown)
        if regular_only and not stat.S_ISREG(os.stat(p).st_mode):  # a socket cannot be opened
            raise McpgenError("not a regular file (a FIFO, device or socket)", path=shown)
        flags = os.O_RDONLY | (getattr(os, "O_NONBLOCK", 0) if regular_only else 0)
        fd = os.open(p, flags)
        with os.fdopen(fd, "rb") as fh:
            if regular_only and not stat.S_ISREG(os.fstat(fd).st_mode):
                raise McpgenError("not a regular file (a FIFO, device or socket)", path=shown)
            data = fh.read(MAX_BYTES + 1)
    except McpgenError:
        raise
    except FileNotFoundError:
        raise McpgenError("no such file", path=shown) from None
    except IsADirectoryError:
        raise McpgenError("is a directory, not a manifest file", path=shown) from None
    except PermissionError:
        raise McpgenError("permission denied", path=shown) from None
    except OSError as exc:
        raise McpgenError(f"cannot read: {exc.strerror or exc}", path=shown) from None
    if len(data) > MAX_BYTES:
        raise McpgenError(
            f"file is larger than {MAX_BYTES // (1024 * 1024)} MiB; refusing to load it", path=shown
        )
    return data


def load_document(path: str | Path, *, regular_only: bool = False) -> Document:
    shown = str(path)
    data = read_file(path, regular_only=regular_only)
    return parse_text(decode(data, shown), shown)


def decode(data: bytes, path: str) -> str:
    """UTF-8 (optional BOM) only; binary files and other encodings get one clear error."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise McpgenError("file is UTF-16 encoded; save it as UTF-8", path=path, line=1, col=1)
    nul = data.find(b"\x00", 0, 65536)
    if nul >= 0:
        line, col = _byte_position(data, nul)
        raise McpgenError(
            "binary file (NUL byte); expected YAML or JSON text", path=path, line=line, col=col
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _byte_position(data, exc.start)
        raise McpgenError(
            f"not valid UTF-8 (byte 0x{data[exc.start]:02x}); save the file as UTF-8",
            path=path,
            line=line,
            col=col,
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def _byte_position(data: bytes, index: int) -> tuple[int, int]:
    line_start = data.rfind(b"\n", 0, index) + 1
    col = len(data[line_start:index].decode("utf-8", "replace")) + 1
    return data.count(b"\n", 0, index) + 1, col


def _looks_like_json(text: str, path: str) -> bool:
    ext = os.path.splitext(path)[1].lower()
    if ext == ".json":
        return True
    if ext in (".yaml", ".yml"):
        return False
    return text.lstrip()[:1] in ("{", "[")


def parse_text(text: str, path: str) -> Document:
    """Parse YAML or JSON ``text`` (JSON for ``*.json`` or text starting with ``{``/``[``)."""
    if _looks_like_json(text, path):
        try:
            return _parse_json_doc(text, path)
        except McpgenError:
            if os.path.splitext(path)[1].lower() == ".json":
                raise
            # flow-style YAML that is not strict JSON: fall through to YAML
    from mcpgen.manifest.yamlpos import parse_yaml

    res = parse_yaml(text, path, MAX_DEPTH, MAX_ALIAS_NODES)
    ignores = collect_ignores(text, res.comment_free_spans)
    smap = SourceMap(path, res.positions, res.key_positions, ignores=ignores)
    return Document(path, res.value, smap, res.diagnostics)


def _parse_json_doc(text: str, path: str) -> Document:
    if not text.strip():
        return Document(path, None, SourceMap(path, {"": (1, 1)}, {}), [])
    try:
        value, loc = parse_json(text, MAX_DEPTH)
    except JsonSyntaxError as exc:
        line, col = _offset_to_line_col(text, exc.offset)
        raise McpgenError(f"invalid JSON: {exc.message}", path=path, line=line, col=col) from None
    diags = [
        Diagnostic(
            "DUPLICATE_KEY",
            Severity.ERROR,
            Location(path, *loc.line_col(off), ptr),
            f"duplicate key {unescape(ptr.rsplit('/', 1)[-1])!r}; the last value wins",
            (Location(path, *loc.line_col(first), ptr),),
        )
        for ptr, off, first in loc.duplicates
    ]
    smap = SourceMap(path, LazyPositions(loc), LazyPositions(loc, key=True))
    return Document(path, value, smap, diags)


def _offset_to_line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


# ``# mcpgen: ignore RULE_A, RULE_B`` (own line: applies to the next content line)
_IGNORE = re.compile(
    r"(?:^|(?<=[ \t]))#[ \t]*mcpgen:[ \t]*ignore[ \t]+"
    r"([A-Za-z0-9_]+(?:[ \t]*,[ \t]*[A-Za-z0-9_]+)*)"
)


def collect_ignores(
    text: str,
    scalar_spans: list[tuple[int, int]] = (),  # type: ignore[assignment]
) -> dict[int, frozenset[str]]:
    """Line -> rule ids from ``# mcpgen: ignore`` comments (YAML only; JSON has no comments).

    ``scalar_spans`` are character ranges of scalars that mention ``mcpgen:``: a match inside
    one of them is text, not a comment.
    """
    if "mcpgen:" not in text:
        return {}
    out: dict[int, set[str]] = {}
    pending: set[str] = set()
    offset = 0
    for lineno, line in enumerate(text.split("\n"), 1):
        m = _IGNORE.search(line)
        if m and not any(a <= offset + m.start() < b for a, b in scalar_spans):
            ids = {r.strip().upper() for r in m.group(1).split(",")}
            if line[: m.start()].strip():
                out.setdefault(lineno, set()).update(ids | pending)
                pending = set()
            else:
                pending |= ids
        elif pending and line.strip() and not line.lstrip().startswith("#"):
            out.setdefault(lineno, set()).update(pending)
            pending = set()
        offset += len(line) + 1
    return {k: frozenset(v) for k, v in out.items()}
