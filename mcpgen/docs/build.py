"""``mcpgen docs``: a reference for one server's users, as ``{path: text}``, and writing it.

``build_docs`` is pure after loading: the checked manifest (``checked_manifest``: check's
errors refuse it, as ``mcpgen server`` does) -> ``mcpgen.docs.page.page_of`` -> two templates
under ``templates/docs/``: ``README.md`` (Markdown; every manifest string through
``mcpgen.docs.escape``) and ``index.html`` (one self-contained page: inline CSS, no script, no
remote resource; jinja2 autoescaping on, so every manifest string is HTML-escaped). No
timestamp and no version in either, so the same manifest gives the same bytes.

``write_docs`` writes them as one owned directory (``mcpgen.emit.write_owned_tree``: staged and
swapped in whole; a non-empty directory mcpgen did not write is refused, never overwritten).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcpgen.docs.escape import md_cell, md_text, visible
from mcpgen.emit import diff_owned_tree, inputs_digest, read_marker, write_owned_tree

__all__ = ["DOC_FILES", "Docs", "build_docs", "render_docs", "write_docs"]

DOC_FILES = {"README.md": "docs/README.md.jinja", "index.html": "docs/index.html.jinja"}


@dataclass(frozen=True)
class Docs:
    files: dict[str, str]
    warnings: str
    """``mcpgen check``'s warnings about the manifest (text format)."""


@functools.cache
def _environment(html: bool) -> Any:
    import jinja2

    from mcpgen.resources import templates_dir

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=html,
    )
    env.filters["visible"] = visible
    env.filters["md"] = md_text
    env.filters["cell"] = md_cell
    return env


def render_docs(manifest: Any) -> dict[str, str]:
    """``{"README.md": ..., "index.html": ...}`` for a loaded, checked ``Manifest``."""
    from mcpgen.docs.page import page_of

    page = page_of(manifest)
    out: dict[str, str] = {}
    for name, template in DOC_FILES.items():
        env = _environment(name.endswith(".html"))
        text = env.get_template(template).render(page=page)
        # Blocks end in a blank line each; collapse the runs where two meet (no manifest
        # string holds a bare newline any more: md_text turns each into "<br>\n").
        if name.endswith(".md"):
            text = re.sub(r"\n{3,}", "\n\n", text).rstrip("\n") + "\n"
        out[name] = text
    return out


def build_docs(manifest: Path) -> Docs:
    """The reference of ``manifest``; ``McpgenError``/``FindingsError`` (located, as for
    ``mcpgen server``) when it is unreadable or check rejects it."""
    from mcpgen.packages import checked_manifest

    loaded, warnings = checked_manifest(manifest)
    return Docs(files=render_docs(loaded), warnings=warnings)


def write_docs(
    out_dir: Path, files: dict[str, str], *, force: bool = False, inputs: tuple[Path, ...] = ()
) -> bool:
    """Write ``files`` as the directory ``out_dir`` (whole or not at all); False when it
    already holds exactly them. A directory another command wrote is refused unless
    ``force`` (``mcpgen.outputs.guard_tree``)."""
    from mcpgen.outputs import guard_tree

    if not guard_tree(out_dir, "docs", force=force, inputs=inputs) and (
        read_marker(out_dir) is not None and not diff_owned_tree(out_dir, dict(files))
    ):
        return False
    digest = inputs_digest("docs", *(p for kv in sorted(files.items()) for p in kv))
    write_owned_tree(out_dir, dict(files), digest, writer="docs", force=force, inputs=inputs)
    return True
