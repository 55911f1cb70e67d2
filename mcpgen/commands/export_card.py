"""``mcpgen export server-card MANIFEST``: the server's Server Card (SEP-2127, Draft) as JSON,
the document a generated server serves at ``<mcp-url>/server-card`` with ``--server-card``
(``--server-card FILE`` serves this file). Registered on the ``export`` group by
``mcpgen.commands.export``.

Thin: the manifest passes ``mcpgen check``; ``mcpgen.publish.card`` builds the card (pure) and
checks it against the pinned schema's rules; a card it refuses is one located error per problem
and nothing is written (exit 2)."""

from __future__ import annotations

from pathlib import Path

import click

from mcpgen.commands._package import force_option
from mcpgen.errors import McpgenError


@click.command("server-card")
@click.argument("manifest", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--name",
    default=None,
    help="The reverse-DNS name, e.g. com.example/weather (default: server.registry).",
)
@click.option(
    "--remote",
    default=None,
    metavar="URL",
    help="The server's Streamable HTTP URL, listed in remotes (e.g. https://example.com/mcp).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),  # a directory: mcpgen.outputs refuses it, in one line
    default=None,
    help="Write here (default: standard output).",
)
@force_option("-o FILE")
def server_card(
    manifest: Path, name: str | None, remote: str | None, output: Path | None, force: bool
) -> None:
    """The Server Card (SEP-2127, a draft) of the manifest's server: name (server.registry or
    --name), version, title, description, websiteUrl, icons and, with --remote, the endpoint
    and the protocol revisions it speaks. Exit 2: the manifest fails mcpgen check, or the
    card breaks the Server Card schema (one located error per problem; nothing written)."""
    from mcpgen.commands.export import guard_output, write_output
    from mcpgen.outputs import card_text, is_server_card
    from mcpgen.packages import checked_manifest
    from mcpgen.publish.card import card_for

    backup = guard_output(output, "server-card", is_server_card, force, manifest)
    loaded, warnings = checked_manifest(manifest)
    if warnings:
        click.echo(warnings, err=True, nl=False)
    card, problems = card_for(loaded, name, remote)
    if card is None:
        for line in problems:
            click.echo(line, err=True)
        n = len(problems)
        raise McpgenError(
            f"the Server Card breaks its schema ({n} problem{'s' if n != 1 else ''}); "
            "nothing was written",
            path=str(manifest),
        )
    write_output(output, card_text(card), backup)
