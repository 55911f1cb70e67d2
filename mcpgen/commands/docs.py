"""``mcpgen docs MANIFEST --out DIR [--check]``: a reference of one server for its users.

Thin: ``mcpgen.docs.build`` builds ``README.md`` and ``index.html`` from the checked manifest
(check's errors refuse it, exit 2; unreadable input, exit 2; nothing written either way) and
writes them as one directory, whole or not at all.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from mcpgen.commands._package import force_option
from mcpgen.errors import EXIT_FINDINGS


def write_reference(
    manifest: Path, out_dir: Path, check: bool, *, warn: bool = True, force: bool = False
) -> None:
    """Build the reference of ``manifest`` and write it to ``out_dir`` (or, with ``check``,
    print a diff and exit 1 when it is out of date); also used by ``mcpgen server --docs``
    (``warn=False`` when it prints check's warnings itself)."""
    from mcpgen.docs.build import build_docs, write_docs
    from mcpgen.emit import diff_owned_tree

    if not check:
        from mcpgen.outputs import guard_tree

        guard_tree(out_dir, "docs", force=force, inputs=(manifest,))
    docs = build_docs(manifest)
    if docs.warnings and warn:
        click.echo(docs.warnings, err=True, nl=False)
    if check:
        diff = diff_owned_tree(out_dir, dict(docs.files))
        if diff:
            sys.stdout.write(diff)
            click.echo(
                f"mcpgen: {out_dir} is out of date; run: mcpgen docs {manifest} --out {out_dir}",
                err=True,
            )
            sys.exit(EXIT_FINDINGS)
        click.echo(f"mcpgen: {out_dir} is up to date", err=True)
        return
    if write_docs(out_dir, docs.files, force=force, inputs=(manifest,)):
        names = ", ".join(sorted(docs.files))
        click.echo(f"mcpgen: wrote {out_dir} ({names})", err=True)
    else:
        click.echo(f"mcpgen: {out_dir} is up to date", err=True)


@click.command(name="docs")
@click.argument("manifest", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(path_type=Path),  # a file: mcpgen.outputs refuses it, in one line
    help="Directory for README.md and index.html (mcpgen's own: a non-empty directory it did "
    "not write is refused).",
)
@click.option(
    "--check",
    is_flag=True,
    help="Write nothing; print a diff and exit 1 if the reference is out of date.",
)
@force_option("--out")
def docs(manifest: Path, out_dir: Path, check: bool, force: bool) -> None:
    """Write a reference of MANIFEST's server for its users: README.md (Markdown) and
    index.html (one self-contained page: no script, nothing fetched). It shows the server and
    the authorization it requires, every tool (inputs and outputs as tables with types,
    constraints, defaults and examples; annotations, scopes, toolsets), resource, resource
    template and prompt. The same manifest always gives the same bytes. Refuses a manifest
    `mcpgen check` rejects (exit 2), with check's errors."""
    write_reference(manifest, out_dir, check, force=force)
