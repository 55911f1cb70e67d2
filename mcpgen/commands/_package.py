"""What ``mcpgen server`` and ``mcpgen client`` share: their arguments and their report."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from mcpgen.errors import EXIT_FINDINGS

if TYPE_CHECKING:
    from mcpgen.packages import Outcome

F = TypeVar("F", bound=Callable[..., Any])


def echo(msg: str) -> None:
    click.echo(msg, err=True)


def force_option(what: str) -> Callable[[F], F]:
    """``--force``: replace an output this command did not write (``what``), keeping it as
    ``.bak``."""
    return click.option(
        "--force",
        is_flag=True,
        help=f"Replace {what} even if this command did not write it (another command's "
        "output, a file of yours, a read-only file, a symlink); the old one is kept as .bak. "
        "Never the manifest.",
    )


def package_options(example: str) -> Callable[[F], F]:
    """MANIFEST, ``--out``, ``--package`` (``example``: a package name for the help),
    ``--check`` and ``--force``."""

    def apply(fn: F) -> F:
        fn = force_option("PACKAGE/_generated")(fn)
        fn = click.option(
            "--check",
            is_flag=True,
            help="Write nothing; print a diff and exit 1 if the generated files are out of date.",
        )(fn)
        fn = click.option(
            "--package", "package", required=True, help=f"Python package name, e.g. {example}."
        )(fn)
        fn = click.option(
            "--out",
            "out_dir",
            required=True,
            type=click.Path(file_okay=False, path_type=Path),
            help="Directory that holds (or will hold) the package.",
        )(fn)
        return click.argument("manifest", type=click.Path(dir_okay=False, path_type=Path))(fn)

    return apply


def report(
    outcome: Outcome, command: str, manifest: Path, out_dir: Path, package: str, check: bool
) -> None:
    """Print what the run did; ``--check`` with a diff prints it and exits 1."""
    owned = outcome.pkg_dir / "_generated"
    if outcome.findings:
        click.echo(outcome.findings, err=True, nl=False)
    if check:
        if outcome.diff:
            sys.stdout.write(outcome.diff)
            echo(
                f"mcpgen: {owned} is out of date; run: mcpgen {command} {manifest} "
                f"--out {out_dir} --package {package}"
            )
            sys.exit(EXIT_FINDINGS)
        echo(f"mcpgen: {outcome.pkg_dir} is up to date")
        return
    if outcome.up_to_date:
        echo(f"mcpgen: {outcome.pkg_dir} is up to date")
    else:
        echo(f"mcpgen: wrote {owned} ({outcome.written} files)")
    for rel in outcome.created:
        echo(f"mcpgen: created {outcome.pkg_dir / rel} (yours to edit; never overwritten)")
    for warning in outcome.warnings:
        echo(f"mcpgen: warning: {warning}")
