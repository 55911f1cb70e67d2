"""``mcpgen pull (--stdio CMD | --url URL) -o FILE`` and ``mcpgen drift MANIFEST (--stdio CMD |
--url URL)``. Thin: parse flags, call ``mcpgen.client.live`` / ``mcpgen.client.pull``, print."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from mcpgen.commands._package import force_option
from mcpgen.errors import EXIT_FINDINGS, McpgenError
from mcpgen_runtime.revisions import CONNECT_MODES

_MODES = click.Choice(CONNECT_MODES)


_F = TypeVar("_F", bound=Callable[..., Any])


def _target_options(fn: _F) -> _F:
    for deco in reversed(
        (
            click.option(
                "--stdio",
                "stdio",
                metavar="CMD",
                default=None,
                help="Start the server with this command (split like a shell).",
            ),
            click.option(
                "--url",
                "url",
                metavar="URL",
                default=None,
                help="Streamable HTTP endpoint, e.g. http://127.0.0.1:8000/mcp.",
            ),
            click.option(
                "--mode",
                type=_MODES,
                default="auto",
                show_default=True,
                help="auto: server/discover, then the initialize handshake; legacy; 2026-07-28.",
            ),
            click.option(
                "--timeout",
                type=click.FloatRange(min=0.1),
                default=30.0,
                show_default=True,
                help="Seconds for connecting and reading every page.",
            ),
            click.option(
                "--token",
                envvar="MCPGEN_TOKEN",
                default=None,
                metavar="TOKEN",
                help="Bearer token for --url (prefer $MCPGEN_TOKEN: the command line is "
                "visible to other local users).",
            ),
            click.option(
                "--oauth",
                is_flag=True,
                default=False,
                help="Sign in with OAuth in the browser (authorization code + PKCE); tokens "
                "are kept in the user data folder (0600) and refreshed.",
            ),
            click.option(
                "--client-id",
                default=None,
                metavar="ID",
                help="OAuth client credentials (the secret from $MCPGEN_CLIENT_SECRET; needs "
                "--issuer), or a pre-registered client ID with --oauth.",
            ),
            click.option(
                "--issuer",
                default=None,
                metavar="URL",
                help="The authorization server the client credentials belong to.",
            ),
            click.option(
                "--dpop/--no-dpop",
                default=None,
                help="DPoP-bound tokens (RFC 9449): always, or never; default: when the "
                "server's challenge names the DPoP scheme.",
            ),
            click.option(
                "--workload-token-file",
                default=None,
                metavar="PATH",
                help="Workload identity federation: the platform's identity token (a JWT for "
                "the authorization server) in this file, read at each token request.",
            ),
            click.option(
                "--workload-token-env",
                default=None,
                metavar="VAR",
                help="The same, from this environment variable.",
            ),
            click.option(
                "--idp",
                default=None,
                metavar="URL",
                help="Enterprise-managed authorization: the identity provider (issuer URL) "
                "that exchanges the ID token for an ID-JAG; with --client-id, "
                "$MCPGEN_CLIENT_SECRET and --issuer (the MCP server's authorization server).",
            ),
            click.option(
                "--idp-client-id",
                default=None,
                metavar="ID",
                help="This client at the identity provider (secret: $MCPGEN_IDP_CLIENT_SECRET).",
            ),
            click.option("--id-token-file", default=None, metavar="PATH", help="The ID token."),
            click.option(
                "--id-token-env", default=None, metavar="VAR", help="The ID token's variable."
            ),
        )
    ):
        fn = deco(fn)
    return fn


def _credentials(
    token: str | None,
    oauth: bool,
    client_id: str | None,
    issuer: str | None,
    dpop: bool | None,
    workload_token_file: str | None,
    workload_token_env: str | None,
    idp: str | None,
    idp_client_id: str | None,
    id_token_file: str | None,
    id_token_env: str | None,
) -> Any:
    import os

    from mcpgen.client.live import Credentials

    secret = os.environ.get("MCPGEN_CLIENT_SECRET") or None
    workload = workload_token_file is not None or workload_token_env is not None
    if client_id and not oauth and not secret and not workload:
        raise McpgenError("--client-id: set $MCPGEN_CLIENT_SECRET (or add --oauth to sign in)")
    enterprise = None
    if idp is not None:
        from mcpgen_runtime import EnterpriseIdP

        if id_token_file is None and id_token_env is None:
            raise McpgenError("--idp: give --id-token-file or --id-token-env")
        enterprise = EnterpriseIdP(
            issuer=idp,
            client_id=idp_client_id,
            client_secret=os.environ.get("MCPGEN_IDP_CLIENT_SECRET") or None,
            id_token_file=id_token_file,
            id_token_env=id_token_env,
        )
    return Credentials(
        token=token or None,
        oauth=oauth,
        client_id=client_id,
        client_secret=secret if not oauth else None,
        issuer=issuer,
        dpop=dpop,
        workload_token_file=workload_token_file,
        workload_token_env=workload_token_env,
        idp=enterprise,
    )


def _pulled(data: bytes) -> bool:
    """A manifest ``mcpgen pull`` wrote (its header; a ``.json`` one carries none)."""
    return data.startswith(b"# Pulled by `mcpgen pull`")


@click.command("pull")
@_target_options
@click.option(
    "-o",
    "--output",
    "output",
    required=True,
    type=click.Path(path_type=Path),  # a directory: mcpgen.outputs refuses it, in one line
    help="Manifest to write (.yaml/.yml, or .json).",
)
@force_option("-o FILE")
def pull(
    stdio: str | None,
    url: str | None,
    mode: str,
    timeout: float,
    output: Path,
    force: bool,
    **sign_in: Any,
) -> None:
    """Write a manifest from a live MCP server: every page of tools/list, as sent, plus the
    server's info and the negotiated revision. Compile it with `mcpgen client`.

    Exit 2 (one line) when the server cannot be reached or answers badly, or when the written
    manifest has errors `mcpgen check` reports (it is written anyway, to inspect).
    """
    from mcpgen.client.live import fetch_live, parse_target
    from mcpgen.client.pull import write_manifest
    from mcpgen.outputs import backup_path, guard_file

    backup = guard_file(output, "pull", _pulled, force=force)
    target = parse_target(stdio, url, _credentials(**sign_in))
    live = fetch_live(target, mode=mode, timeout=timeout)
    for warning in live.warnings:
        click.echo(f"mcpgen: warning: {warning}", err=True)
    if backup:  # only once the server answered: a failed pull leaves the file where it was
        import os

        os.replace(output, backup_path(output))
    count, errors = write_manifest(live, output)
    if errors:
        first = errors[0]
        more = f" (+{len(errors) - 1} more; run: mcpgen check {output})" if len(errors) > 1 else ""
        raise McpgenError(
            f"the server's tools fail mcpgen check: {first.line}:{first.col}: {first.rule_id} "
            f"{first.message}{more}; the manifest was written anyway",
            path=str(output),
        )
    click.echo(
        f"mcpgen: wrote {output} ({count} tool{'' if count == 1 else 's'} from {live.label}, "
        f"protocol {live.protocol})",
        err=True,
    )
    click.echo(f"next: {_client_command(output, str(live.server.get('name', '')))}", err=True)


def _client_command(output: Path, server_name: str) -> str:
    """The ``mcpgen client`` line that compiles the pulled manifest, next to it."""
    import shlex

    from mcpgen.naming import package_name_problem, snake_identifier

    package = snake_identifier(server_name, fallback="mcp") + "_client"
    if package_name_problem(package):
        package = "mcp_client"
    out = str(output.parent) or "."
    return shlex.join(["mcpgen", "client", str(output), "--out", out, "--package", package])


@click.command("drift")
@click.argument("manifest", type=click.Path(dir_okay=False, path_type=Path))
@_target_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(("text", "json", "github", "sarif")),
    default="text",
    show_default=True,
)
def drift(
    manifest: Path,
    stdio: str | None,
    url: str | None,
    mode: str,
    timeout: float,
    fmt: str,
    **sign_in: Any,
) -> None:
    """Compare a live server's tools with MANIFEST using the breaking-change rules of
    `mcpgen breaking` (the manifest is the old side, the live server the new one).

    Exit 1 on breaking drift, 0 when the server still serves what the manifest promises,
    2 when the server or the manifest cannot be read.
    """
    from mcpgen.check import catalog
    from mcpgen.check.registry import BREAKING
    from mcpgen.client.live import fetch_live, parse_target
    from mcpgen.client.pull import drift_diagnostics
    from mcpgen.report import render, summary

    target = parse_target(stdio, url, _credentials(**sign_in))
    if not manifest.is_file():
        raise McpgenError("no such file", path=str(manifest))
    from mcpgen.manifest.load import load_manifest

    promised = load_manifest(manifest).manifest  # tools a search-mode server does not list
    names = [t.name for t in promised.tools] if promised is not None else []
    live = fetch_live(target, mode=mode, timeout=timeout, expected=names)
    for warning in live.warnings:
        click.echo(f"mcpgen: warning: {warning}", err=True)
    diags, cfg = drift_diagnostics(manifest, live)
    rules = catalog.load_all()
    out = render(diags, fmt, rules={k: v for k, v in rules.items() if v.category == BREAKING})
    if out:
        click.echo(out, nl=False)
    failing = cfg.fail_on is not None and any(d.severity >= cfg.fail_on for d in diags)
    if fmt == "text":
        if diags:
            click.echo(summary(diags, 1), err=True)
        else:
            click.echo(
                f"mcpgen: {live.label} serves every tool of {manifest} compatibly "
                f"({len(live.tools)} live tools"
                + (f", {len(live.skills)} live skills" if live.skills else "")
                + f", protocol {live.protocol})",
                err=True,
            )
    if failing:
        sys.exit(EXIT_FINDINGS)
