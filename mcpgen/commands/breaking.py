"""`mcpgen breaking OLD NEW` and `mcpgen breaking NEW --against GIT_REF`."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import click

from mcpgen.errors import McpgenError
from mcpgen.report import FORMATS

_HELP = """Report changes from OLD to NEW that break existing clients or models.

\b
  mcpgen breaking old.yaml new.yaml
  mcpgen breaking tools.yaml --against origin/main   # OLD = tools.yaml at that git ref

Tools are paired by name; a removed tool whose schemas reappear under another name is
reported as "possibly renamed". Each finding points at NEW and names the old location
(`was at ...`). Same formats and exit codes as `mcpgen check` (0 none, 1 breaking changes at
or above --fail-on, 2 unreadable input, git error or usage error). Rules can be configured in
[tool.mcpgen.breaking] of pyproject.toml (enable/disable/severity/fail-on).
"""


@click.command("breaking", help=_HELP)
@click.argument("manifests", nargs=-1, required=True, type=click.Path(path_type=str))
@click.option(
    "--against",
    "git_ref",
    metavar="GIT_REF",
    default=None,
    help="Compare NEW with the same file at this git ref (branch, tag, sha).",
)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("--fail-on", type=click.Choice(("error", "warning", "info", "none")), default=None)
@click.option("--enable", multiple=True, metavar="RULE")
@click.option("--disable", multiple=True, metavar="RULE")
@click.option(
    "--config",
    "config_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
)
def breaking(
    manifests: tuple[str, ...],
    git_ref: str | None,
    fmt: str,
    fail_on: str | None,
    enable: tuple[str, ...],
    disable: tuple[str, ...],
    config_path: Path | None,
) -> None:
    from mcpgen.check import catalog
    from mcpgen.check.breaking import compare
    from mcpgen.check.config import load_config
    from mcpgen.check.registry import BREAKING
    from mcpgen.check.runner import FileResult, active_rules, apply_ignores, exit_code, unreadable
    from mcpgen.commands.check import _ids
    from mcpgen.diagnostics import sort_diagnostics
    from mcpgen.manifest.load import load_manifest, load_manifest_text
    from mcpgen.manifest.model import KNOWN_REVISIONS
    from mcpgen.report import render, summary

    if git_ref is None and len(manifests) != 2:
        raise click.UsageError("give OLD and NEW, or NEW --against GIT_REF")
    if git_ref is not None and len(manifests) != 1:
        raise click.UsageError("with --against give exactly one manifest (NEW)")
    rules = catalog.load_all()
    cfg = load_config(rules, explicit=config_path).breaking
    cfg = cfg.merged(enable=_ids(enable, rules), disable=_ids(disable, rules), fail_on=fail_on)

    new_path = manifests[-1]
    results: list[FileResult] = []
    loaded = []
    for which in ("old", "new"):
        shown = new_path
        try:
            if which == "old" and git_ref is not None:
                text, label, read_bytes = read_at_ref(new_path, git_ref)
                res = load_manifest_text(
                    text, label, base_dir=Path(new_path).resolve().parent, read_bytes=read_bytes
                )
                shown = label
            else:
                shown = manifests[0] if which == "old" else new_path
                res = load_manifest(shown)
        except NotAtRef as exc:
            click.echo(f"mcpgen: {exc.message}", err=True)
            return
        except McpgenError as exc:
            results.append(unreadable(shown, exc))
            continue
        if res.manifest is None:
            errs = [d for d in res.diagnostics if d.severity.name == "ERROR"] or res.diagnostics
            results.append(FileResult(shown, sort_diagnostics(errs), unreadable=True))
            continue
        loaded.append(res.manifest)
    if len(loaded) == 2:
        old, new = loaded
        active = active_rules((BREAKING,), KNOWN_REVISIONS, cfg)
        diags = compare(old, new, active)
        diags = apply_ignores(diags, getattr(new.source_map, "ignores", {}) or {})
        results.append(FileResult(new.path, sort_diagnostics(diags)))
    diags = [d for r in results for d in r.diagnostics]
    out = render(diags, fmt, rules={k: v for k, v in rules.items() if v.category == BREAKING})
    if out:
        click.echo(out, nl=False)
    if fmt == "text" and diags:
        click.echo(summary(diags, 1), err=True)
    code = exit_code(results, cfg.fail_on)
    if code:
        sys.exit(code)


class NotAtRef(McpgenError):
    """The file does not exist at the ref (a new manifest): nothing can break."""


def read_at_ref(path: str, ref: str) -> tuple[str, str, Callable[[Path], bytes]]:
    """(text of ``path`` at git ``ref``, label ``REF:repo/relative/path``, a reader of other
    files at that ref for the manifest's file ``$ref``s)."""
    p = Path(path).resolve()
    if ref.startswith("-"):
        raise McpgenError(f"invalid git ref {ref!r}")
    top = _git(["rev-parse", "--show-toplevel"], p.parent).strip()
    try:
        rel = p.relative_to(Path(top).resolve()).as_posix()
    except ValueError:
        raise McpgenError(f"{path} is not inside the git repository at {top}") from None
    try:
        text = _git(["show", f"{ref}:{rel}"], Path(top))
    except McpgenError as exc:
        if "exists on disk, but not in" in exc.message or "does not exist in" in exc.message:
            raise NotAtRef(f"{rel} does not exist at {ref}; nothing to compare") from None
        raise
    root = Path(top).resolve()

    def read_bytes(file: Path) -> bytes:
        """A file referenced by the manifest, as it is at ``ref`` (never the working tree)."""
        try:
            frel = file.relative_to(root).as_posix()
        except ValueError:
            raise McpgenError(f"not inside the git repository at {top}") from None
        try:
            return _git_bytes(["show", f"{ref}:{frel}"], root)
        except McpgenError as exc:
            if "exists on disk, but not in" in exc.message or "does not exist in" in exc.message:
                raise McpgenError(f"no such file at {ref}") from None
            raise

    def list_files(folder: Path) -> list[str] | None:
        """The files under ``folder`` at ``ref`` (relative to it), or None when unreadable."""
        try:
            frel = folder.resolve().relative_to(root).as_posix()
            out = _git(["ls-tree", "-r", "--name-only", ref, "--", frel + "/"], root)
        except (McpgenError, ValueError):
            return None
        return [line[len(frel) + 1 :] for line in out.splitlines() if line.startswith(frel + "/")]

    read_bytes.list_files = list_files  # type: ignore[attr-defined]  # skill folders
    return text, f"{ref}:{rel}", read_bytes


def _git(args: list[str], cwd: Path) -> str:
    out = _git_bytes(args, cwd)
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        raise McpgenError(f"git {' '.join(args)}: output is not UTF-8") from None


def _git_bytes(args: list[str], cwd: Path) -> bytes:
    try:
        proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except FileNotFoundError:
        raise McpgenError("git is not installed (needed for --against)") from None
    except NotADirectoryError:
        raise McpgenError(f"no such directory: {cwd}") from None
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise McpgenError(
            f"git {args[0]} failed: {err[-1] if err else 'exit ' + str(proc.returncode)}"
        )
    return proc.stdout
