"""``mcpgen protocol pull|generate|diff``: the official MCP schemas and the ``mcp_wire`` models."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from mcpgen.commands._package import force_option
from mcpgen.errors import EXIT_FINDINGS, McpgenError

_REVISION = click.option(
    "--revision",
    "-r",
    "revisions",
    multiple=True,
    metavar="REV",
    help="Revision to process (repeatable); default: every pinned revision.",
)
_FROM = click.option(
    "--from",
    "source",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Read the schemas from a local mirror laid out as REV/schema.json instead of the cache.",
)


@click.group()
def protocol() -> None:
    """Official MCP schemas: pinned by URL + sha256 in schema/revisions.json."""


@protocol.command()
@_REVISION
@_FROM
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where to store the schemas (default: $MCPGEN_CACHE_DIR or ~/.cache/mcpgen/spec).",
)
def pull(revisions: tuple[str, ...], source: Path | None, cache_dir: Path | None) -> None:
    """Download the pinned schemas and verify their sha256. Prints the cache directory."""
    from mcpgen.protocol.pins import pull as do_pull

    target = do_pull(list(revisions), source=source, cache_dir=cache_dir)
    click.echo(str(target))


@protocol.command()
@_REVISION
@_FROM
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("generated"),
    show_default=True,
    help="Directory that holds the mcp_wire package.",
)
@click.option(
    "--check",
    is_flag=True,
    help="Regenerate in memory; print a unified diff and exit 1 if the files on disk differ.",
)
@click.option(
    "--docstrings",
    is_flag=True,
    help="Keep upstream descriptions as field descriptions (for local use; not committed).",
)
@force_option("OUT/mcp_wire")
def generate(
    revisions: tuple[str, ...],
    source: Path | None,
    out: Path,
    check: bool,
    docstrings: bool,
    force: bool,
) -> None:
    """Compile the pinned schemas into typed pydantic v2 models under OUT/mcp_wire/."""
    from mcpgen.emit import diff_owned_tree, marker_text, write_owned_tree
    from mcpgen.protocol.package import PACKAGE, build_package, package_digest
    from mcpgen.protocol.pins import load_pins, select

    pins = select(list(revisions))
    owned = out / PACKAGE
    if not check:
        from mcpgen.outputs import guard_tree

        guard_tree(owned, "protocol", force=force)
    files = build_package(pins, source, docstrings=docstrings)
    if revisions:  # regenerate a subset: keep the other revisions' modules as they are on disk
        built = {p.module for p in pins}
        for pin in load_pins().values():
            existing = owned / pin.module
            if pin.module not in built and existing.is_dir():
                for path in sorted(existing.glob("*.py")):
                    files[f"{pin.module}/{path.name}"] = path.read_text(encoding="utf-8")
    digest = package_digest(list(load_pins().values()), docstrings)
    if check:
        diff = diff_owned_tree(owned, files, marker=marker_text(files, digest, writer="protocol"))
        if diff:
            sys.stdout.write(diff)
            click.echo(f"mcpgen: {owned} is out of date; run `mcpgen protocol generate`", err=True)
            raise SystemExit(EXIT_FINDINGS)
        click.echo(f"{owned}: up to date ({len(pins)} revisions)", err=True)
        return
    write_owned_tree(owned, files, digest, writer="protocol", force=force)
    click.echo(f"wrote {owned} ({', '.join(p.revision for p in pins)})", err=True)


@protocol.command()
@click.argument("old")
@click.argument("new")
@_FROM
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def diff(old: str, new: str, source: Path | None, fmt: str) -> None:
    """What changed for the types between revisions OLD and NEW."""
    from mcpgen.protocol.diff import diff_revisions, render_json, render_text
    from mcpgen.protocol.pins import load_schema, select

    if old == new:
        raise McpgenError("OLD and NEW are the same revision")
    pin_old, pin_new = select([old])[0], select([new])[0]
    changes = diff_revisions(load_schema(pin_old, source)[0], load_schema(pin_new, source)[0])
    sys.stdout.write(
        render_json(old, new, changes) if fmt == "json" else render_text(old, new, changes)
    )
