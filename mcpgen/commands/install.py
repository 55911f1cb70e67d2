"""``mcpgen install CLIENT MANIFEST``: put a generated server into an MCP client's configuration.

Thin: resolves the file (``mcpgen.install.targets``), edits it (``mcpgen.install.jsonedit``,
pure) and writes it atomically with a backup. Other servers' entries, comments and formatting
are kept byte for byte.
"""

from __future__ import annotations

import difflib
import errno
import os
import sys
from pathlib import Path

import click

from mcpgen.emit import write_text_atomic
from mcpgen.errors import EXIT_USAGE, McpgenError
from mcpgen.install.targets import CLIENTS, Target

_HELP = """Add this server to an MCP client's configuration: claude-desktop, claude-code,
cursor, vscode, gemini-cli, or a generic mcp.json (--config, default ./mcp.json).

\b
The entry runs the package `mcpgen server` generated (the same command it prints): give the
same --out and --package. For a deployed server, --url instead. The entry's name is the
manifest's server.name (--name to choose another).

\b
The file is edited in place: other servers, comments (VS Code, Gemini CLI) and formatting are
kept; the old file is saved beside it as FILE.bak, and the new one replaces it atomically.
A FILE that is a symlink stays one: its target is edited (a dangling link is refused).
An entry of the same name that differs is replaced only with --force. --dry-run prints the diff.
"""


@click.command("install", help=_HELP)
@click.argument("client", type=click.Choice(sorted(CLIENTS)))
@click.argument("manifest", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None)
@click.option("--package", default=None, help="The generated package, as given to mcpgen server.")
@click.option("--url", default=None, help="A remote server's Streamable HTTP URL (no command).")
@click.option(
    "--name", default=None, help="The entry's name (default: the manifest's server.name)."
)
@click.option(
    "--env",
    "env_pairs",
    multiple=True,
    metavar="NAME=VALUE",
    help="Set in the server's environment (repeatable); the value is stored in the file as "
    "given, so put no secret here that the client can take from elsewhere.",
)
@click.option("--scope", type=click.Choice(["user", "project"]), default=None)
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Edit this file instead of the client's own.",
)
@click.option("--force", is_flag=True, help="Replace an entry of the same name that differs.")
@click.option("--dry-run", is_flag=True, help="Print the change as a diff; write nothing.")
def install(
    client: str,
    manifest: Path,
    out_dir: Path | None,
    package: str | None,
    url: str | None,
    name: str | None,
    env_pairs: tuple[str, ...],
    scope: str | None,
    config_path: Path | None,
    force: bool,
    dry_run: bool,
) -> None:
    from mcpgen.install.jsonedit import get_entry, set_entry

    target = CLIENTS[client]
    if name is not None and not name.strip():
        raise McpgenError(
            "--name is empty: give the entry's name, or leave --name out to use "
            "the manifest's server.name"
        )
    key = name or _server_name(manifest)
    entry, note = _entry(target, url, out_dir, package, env_pairs, manifest)
    scope = scope or target.default_scope
    if config_path is None:
        if scope not in target.paths:
            raise McpgenError(
                f"--scope {scope}: {target.label} has only a {target.default_scope}-level file"
            )
        config_path = target.paths[scope](Path.home(), Path.cwd())
    real = _link_target(config_path)  # a dangling link is refused before anything else
    text = _read(config_path)
    shown = str(config_path)
    current = get_entry(text, shown, target.container, key)
    if current == entry:
        click.echo(
            f"mcpgen: {key!r} is already in {shown} ({target.label}); nothing to do", err=True
        )
        return
    if current is not None and not force:
        click.echo(
            f"mcpgen: {shown} already has a different entry named {key!r}: choose another "
            "--name, or --force to replace it",
            err=True,
        )
        sys.exit(EXIT_USAGE)  # refusing to replace what is there: an input error
    new = set_entry(text, shown, target.container, key, entry).text
    if dry_run:
        sys.stdout.writelines(
            difflib.unified_diff(
                text.splitlines(keepends=True),
                new.splitlines(keepends=True),
                fromfile=shown,
                tofile=shown,
            )
        )
        click.echo("mcpgen: --dry-run: nothing written", err=True)
        return
    backup = _write(config_path, text, new)
    verb = "replaced" if current is not None else "added"
    click.echo(f"mcpgen: {verb} {key!r} in {shown} ({target.label})", err=True)
    if real != config_path:
        click.echo(f"mcpgen: {shown} is a symlink: its target {real} was edited", err=True)
    if backup is not None:
        click.echo(f"mcpgen: the previous file is {backup}", err=True)
    if note:
        click.echo(f"mcpgen: note: {note}", err=True)
    click.echo(f"mcpgen: restart {target.label} (or reload its MCP servers) to use it", err=True)


def _server_name(manifest: Path) -> str:
    from mcpgen.manifest.load import load_manifest

    res = load_manifest(manifest)
    if res.manifest is None:
        first = res.diagnostics[0] if res.diagnostics else None
        where = f"{first.location}: {first.message}" if first else str(manifest)
        raise McpgenError(f"cannot read the manifest: {where}")
    return res.manifest.server.name


def _entry(
    target: Target,
    url: str | None,
    out_dir: Path | None,
    package: str | None,
    env_pairs: tuple[str, ...],
    manifest: Path,
) -> tuple[dict[str, object], str]:
    """The client's entry, and what the user should know about its command (or "")."""
    env: dict[str, str] = {}
    for pair in env_pairs:
        k, sep, v = pair.partition("=")
        if not sep or not k:
            raise McpgenError(f"--env {pair!r}: use NAME=VALUE")
        env[k] = v
    if url is not None:
        if out_dir is not None or package is not None:
            raise McpgenError("--url installs a remote server: leave out --out and --package")
        if not url.startswith(("http://", "https://")):
            raise McpgenError(f"--url {url!r}: use an http:// or https:// URL")
        if target.http is None:
            raise McpgenError(f"{target.label}: {target.no_http}")
        if env:
            raise McpgenError("--env applies to a local server (the client starts it)")
        return target.http(url), ""
    if out_dir is None or package is None:
        raise McpgenError(
            "give the generated package (--out DIR --package NAME, as for mcpgen server) or "
            "--url URL"
        )
    from mcpgen.naming import package_name_problem

    problem = package_name_problem(package)
    if problem is not None:  # `python -m` takes a module name, never a path: as mcpgen server
        hint = ""
        if "/" in package or "\\" in package:
            where = Path(package)
            hint = f" (for a path, give --out {where.parent} --package {where.name})"
        raise McpgenError(f"--package {package!r} {problem}{hint}")
    if not (out_dir / package / "__main__.py").is_file():
        raise McpgenError(
            f"{out_dir / package} is not a generated server: run "
            f"mcpgen server {manifest} --out {out_dir} --package {package} first"
        )
    from mcpgen.server.registration import launch_for

    launch = launch_for(package, out_dir, sys.executable)
    return target.stdio(launch.command, launch.args, {**launch.env, **env}), launch.note


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    except UnicodeDecodeError:
        raise McpgenError("not UTF-8 text", path=str(path)) from None
    except OSError as exc:
        raise McpgenError(f"cannot read: {exc.strerror or exc}", path=str(path)) from None


def _write(path: Path, old: str, new: str) -> Path | None:
    """Replace ``path`` atomically (same mode); the old file, when there was one, is kept as
    ``path.bak``. Returns the backup's path. A symlink (dotfiles managers keep client configs
    that way) stays a link: its target is the file replaced, atomically, in the target's own
    folder; the backup sits beside the link."""
    backup: Path | None = None
    link = path
    path = _link_target(path)
    try:
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    except OSError as exc:
        raise McpgenError(f"cannot read: {exc.strerror or exc}", path=str(path)) from None
    if path.exists():
        backup = link.with_name(link.name + ".bak")
        write_text_atomic(backup, old, mode)
    write_text_atomic(path, new, mode)
    return backup


def _link_target(path: Path) -> Path:
    """``path`` itself, or the file a symlink at ``path`` finally names; a link that leads
    nowhere (dangling, a loop) is refused, so nothing replaces the link with a plain file."""
    if not path.is_symlink():
        return path
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError) as exc:
        where = os.readlink(path) if path.is_symlink() else "?"
        # Python 3.13 raises OSError(ELOOP); older ones RuntimeError("Symlink loop ...")
        loop = isinstance(exc, RuntimeError) or getattr(exc, "errno", None) == errno.ELOOP
        reason = "a loop of links" if loop else "a file that does not exist"
        raise McpgenError(
            f"is a symlink to {where}, which leads to {reason}: create the target (or "
            "remove the link) first, or pass --config with the real file",
            path=str(path),
        ) from None
    if not target.is_file():
        raise McpgenError(f"is a symlink to {target}, which is not a regular file", path=str(path))
    return target
