"""The command line of every generated server: its options (``parser``) and what they mean
for the start-up options (``limits``, ``tokens``). ``cli.run_cli`` reads them."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

__all__ = ["AUTH_ENV", "ENGINE_ENV", "INLINE_ENV", "STATE_ENV", "limits", "parser", "tokens"]

ENGINE_ENV = "MCPGEN_ENGINE"
"""``sdk``: serve with the SDK's engine (``--engine``)."""
STATE_ENV = "MCPGEN_STATE_URL"
"""What replicas share (``--state``): ``redis://``, ``rediss://``, ``unix://``; unset or
``memory``: in-process state."""
INLINE_ENV = "MCPGEN_INLINE_SCHEMA_REFS"
"""``1``: list each inputSchema with its ``$ref``s inlined (``--inline-schema-refs``)."""

AUTH_ENV = "MCPGEN_AUTH_TOKENS"
"""Bearer tokens accepted on HTTP, comma-separated (instead of ``--auth-token`` on the
command line, which other local users can read in the process list)."""


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter, sized without ``shutil``: argparse makes one per
    ``add_argument`` (to check its metavar), and ``shutil`` loads zlib, bz2 and lzma, a few ms
    of every server's start. The width is ``shutil.get_terminal_size``'s: ``$COLUMNS``, else
    the terminal's, else 80."""

    def __init__(self, prog: str, **kwargs: Any) -> None:
        if kwargs.get("width") is None:
            kwargs["width"] = _columns() - 2
        super().__init__(prog, **kwargs)


def _columns() -> int:
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def parser(prog: str | None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog, description="Run this MCP server.", formatter_class=_Formatter
    )
    parser.add_argument(
        "--http", action="store_true", help="serve Streamable HTTP instead of stdio"
    )
    parser.add_argument("--host", default="127.0.0.1", help="HTTP bind address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000)")
    parser.add_argument("--path", default="/mcp", help="HTTP endpoint path (default /mcp)")
    parser.add_argument("--stateless", action="store_true", help="stateless HTTP (no sessions)")
    parser.add_argument(
        "--json-response", action="store_true", help="JSON responses instead of SSE"
    )
    parser.add_argument(
        "--server-card",
        nargs="?",
        const=True,
        default=None,
        metavar="FILE",
        help="HTTP: serve the Server Card (SEP-2127, draft) at PATH/server-card and an AI Catalog "
        "at /.well-known/; FILE: the card `mcpgen export server-card` wrote",
    )
    parser.add_argument("--page-size", type=int, default=None, help="tools/list page size")
    parser.add_argument("--log-level", default="WARNING", help="server log level (stderr)")
    parser.add_argument(
        "--loop",
        choices=("auto", "asyncio", "uvloop"),
        default="auto",
        help="event loop: uvloop when it is installed (auto, as uvicorn does), or asyncio",
    )
    parser.add_argument(
        "--http-parser",
        choices=("auto", "httptools", "h11"),
        default="auto",
        help="HTTP parser: httptools when it is installed (auto, as uvicorn does), or h11",
    )
    parser.add_argument(
        "--engine",
        choices=("lean", "sdk"),
        default=os.environ.get(ENGINE_ENV) or "lean",
        help="what serves the protocol: the runtime's lean engine (lean: lists, tool calls, "
        "resources, prompts, completions; the SDK serves everything else in the same "
        "process), or the SDK's engine for everything (sdk; also $MCPGEN_ENGINE)",
    )
    parser.add_argument(
        "--stdio-transport",
        choices=("auto", "sdk"),
        default="auto",
        help="stdio: asyncio pipes, no worker threads (auto; the SDK's transport where stdin "
        "or stdout is not a pipe), or the SDK's thread-backed transport (sdk)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="HTTP worker processes (uvicorn's process manager); sessions need --stateless "
        "or a sticky load balancer, the 2026-07-28 wire works on any worker",
    )
    parser.add_argument(
        "--resumable",
        action="store_true",
        help="HTTP handshake revisions: keep recent SSE events (in memory, or in --state) so "
        "clients can resume a broken stream (priming events, retry, Last-Event-ID)",
    )
    parser.add_argument(
        "--state",
        default=None,
        metavar="URL",
        help="what replicas share (rate limits, enabled tools/resources/prompts, resource "
        "updates, resumable streams): redis://HOST:PORT/DB (pip install "
        "'mcpgen-runtime[redis]'), or memory (default; also $MCPGEN_STATE_URL)",
    )
    sel = parser.add_argument_group(
        "which tools to serve (default: every tool except those of toolsets the manifest "
        "marks default: false)"
    )
    sel.add_argument(
        "--toolsets",
        default=None,
        metavar="A,B",
        help="serve the tools of these toolsets ('all', 'default' or declared names; also "
        "$MCPGEN_TOOLSETS)",
    )
    sel.add_argument(
        "--tools",
        default=None,
        metavar="X,Y",
        help="serve these tools (with --toolsets: these too; also $MCPGEN_TOOLS)",
    )
    sel.add_argument(
        "--inline-schema-refs",
        action="store_true",
        help="list each inputSchema with its $refs inlined and $defs dropped, for model APIs "
        "that refuse them (calls are still checked against the schema as written; also "
        "$MCPGEN_INLINE_SCHEMA_REFS=1)",
    )
    sel.add_argument(
        "--list-toolsets",
        action="store_true",
        help="print the toolsets and their tools, then exit",
    )
    lim = parser.add_argument_group("limits (override the manifest for every tool; 0 = off)")
    lim.add_argument("--tool-timeout", type=float, default=None, metavar="SECONDS")
    lim.add_argument("--max-argument-bytes", type=int, default=None, metavar="BYTES")
    lim.add_argument(
        "--rate-limit",
        default=None,
        metavar="PER_SECOND[/BURST]",
        help="per tool: in this process (token bucket), or for all replicas with --state",
    )
    lim.add_argument(
        "--max-body-bytes",
        type=int,
        default=None,
        help="HTTP request body limit (default: the SDK's)",
    )
    auth = parser.add_argument_group("auth (HTTP)")
    auth.add_argument(
        "--auth-token",
        action="append",
        default=None,
        metavar="TOKEN",
        help=f"require 'Authorization: Bearer TOKEN' (repeatable; prefer ${AUTH_ENV})",
    )
    oauth = parser.add_argument_group(
        "OAuth 2.1 resource server (HTTP; override the manifest's server.auth, and the "
        "MCPGEN_AUTH_* environment)"
    )
    oauth.add_argument("--auth-issuer", metavar="URL", help="authorization server issuer")
    oauth.add_argument("--auth-jwks-uri", metavar="URL", help="JWKS URI (else discovered)")
    oauth.add_argument(
        "--auth-resource", metavar="URL", help="this server's resource URI (token audience)"
    )
    oauth.add_argument(
        "--auth-audience", metavar="AUD", help="accepted aud values (default: the resource)"
    )
    oauth.add_argument(
        "--auth-introspection-url", metavar="URL", help="RFC 7662 endpoint for opaque tokens"
    )
    oauth.add_argument(
        "--auth-expose-token",
        action="store_true",
        help="hand handlers the raw access token (ctx.caller.token), for a token exchange",
    )
    oauth.add_argument(
        "--auth-dpop",
        choices=("allowed", "required", "off"),
        default=None,
        help="DPoP-bound tokens (RFC 9449): allowed beside bearer tokens (default), required, "
        "or off (bearer only); also $MCPGEN_AUTH_DPOP",
    )
    oauth.add_argument(
        "--auth-dpop-nonce",
        action="store_true",
        help="DPoP proofs must carry a nonce of this server's (DPoP-Nonce; replicas share "
        "$MCPGEN_AUTH_DPOP_NONCE_KEY, else the requestState key); also $MCPGEN_AUTH_DPOP_NONCE=1",
    )
    oauth.add_argument(
        "--auth-dpop-window",
        type=float,
        default=None,
        metavar="SECONDS",
        help="how far a DPoP proof's iat may be from now (default 300); also "
        "$MCPGEN_AUTH_DPOP_WINDOW",
    )
    return parser


def limits(opts: argparse.Namespace, parser: argparse.ArgumentParser) -> dict[str, Any] | None:
    out: dict[str, Any] = {}
    if opts.tool_timeout is not None:
        out["timeoutSeconds"] = opts.tool_timeout
    if opts.max_argument_bytes is not None:
        out["maxArgumentBytes"] = opts.max_argument_bytes
    if opts.rate_limit is not None:
        rate, _, burst = str(opts.rate_limit).partition("/")
        try:
            out["rateLimit"] = (
                {"perSecond": float(rate), **({"burst": int(burst)} if burst else {})}
                if float(rate)
                else None
            )
        except ValueError:
            parser.error("--rate-limit: use PER_SECOND or PER_SECOND/BURST, e.g. 5/10")
    return out or None


def tokens(opts: argparse.Namespace) -> list[str]:
    tokens = list(opts.auth_token or [])
    env = os.environ.get(AUTH_ENV)
    if env:
        tokens += [t.strip() for t in env.split(",") if t.strip()]
    return tokens
