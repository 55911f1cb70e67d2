"""The conformance client: what the official conformance suite's client leg drives.

    conformance client --command "python examples/conformance/client.py" --requirements REV

The suite starts a server for each scenario (and, for ``auth/*``, an authorization server),
appends its URL to the command and says which scenario runs in ``$MCP_CONFORMANCE_SCENARIO``
(the revision in ``$MCP_CONFORMANCE_PROTOCOL_VERSION``, credentials in
``$MCP_CONFORMANCE_CONTEXT``). This program is an ordinary client on mcpgen's runtime: it
connects with ``ToolClient.http`` (signing in with ``mcpgen_runtime.oauth`` when the server
asks), lists the tools and calls each one with arguments made from its input schema,
answering elicitations with the requested schema's defaults. Exit 0 when every step
worked; 1 otherwise (one line on stderr).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import httpx2
from mcp.shared.exceptions import MCPError
from mcp_types import METHOD_NOT_FOUND

from mcpgen_runtime import (
    ClientError,
    EnterpriseIdP,
    LoopbackRedirect,
    SkillVerificationError,
    ToolClient,
    oauth,
)
from mcpgen_runtime.client.oauth import MemoryTokenStorage

CIMD_URL = "https://conformance-test.local/client-metadata.json"
"""This client's metadata document URL (its client ID where the server supports them)."""


def headless(url: str) -> None:
    """The browser of an unattended sign-in: follow the authorization server's redirect to
    the loopback listener (the suite's authorization server approves at once)."""

    def visit() -> None:
        with httpx2.Client(timeout=30) as http:
            r = http.get(url, follow_redirects=False)
            location = r.headers.get("location")
            if location:
                http.get(location)

    threading.Thread(target=visit, daemon=True).start()


def example(schema: Any) -> Any:
    """A value that fits ``schema`` (its default, const, first enum member or a plain one)."""
    if not isinstance(schema, dict):
        return "test"
    for key in ("default", "const"):
        if key in schema:
            return schema[key]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) and kind else kind
    if kind == "object" or "properties" in schema:
        props = schema.get("properties") or {}
        required = schema.get("required") or list(props)
        return {k: example(v) for k, v in props.items() if k in required}
    return {"integer": 1, "number": 1, "boolean": True, "array": [], "null": None}.get(
        kind if isinstance(kind, str) else "", "test"
    )


async def elicit(context: Any, params: Any) -> Any:
    """Accept, with the requested schema's defaults (SEP-1034) and plain values elsewhere."""
    from mcp_types import ElicitResult

    schema = getattr(params, "requested_schema", None) or {}
    props = schema.get("properties") or {}
    content = {k: example(v) for k, v in props.items()}
    return ElicitResult(action="accept", content=content)


def issuer_of(url: str) -> str | None:
    """The authorization server the MCP server names (its protected-resource metadata). A
    machine client is normally configured with its issuer; the suite's context omits it."""
    from mcp.server.auth.routes import build_resource_metadata_url
    from pydantic import AnyHttpUrl

    prm = str(build_resource_metadata_url(AnyHttpUrl(url)))
    with httpx2.Client(timeout=30) as http:
        servers = http.get(prm).json().get("authorization_servers") or []
    return str(servers[0]) if servers else None


def workload_token_file(token: str) -> str:
    """The platform's place for a workload identity token: a file only this user reads (the
    suite hands the token over in its context; a real platform mounts or writes the file)."""
    import atexit
    import tempfile

    fd, path = tempfile.mkstemp(prefix="workload-token-")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(token)
    atexit.register(os.unlink, path)
    return path


def auth_for(url: str, scenario: str, context: dict[str, Any]) -> Any:
    """``oauth(...)`` for an ``auth/*`` scenario, from what its context holds: a workload
    identity token (SEP-1933), an enterprise identity provider's ID token (SEP-990), client
    credentials, or nothing (a person signs in). DPoP is the default's: used once the server
    challenges with the DPoP scheme."""
    if not scenario.startswith("auth/"):
        return None
    redirect = LoopbackRedirect(open_browser=False, announce=headless)
    client_id = context.get("client_id")
    secret = context.get("client_secret")
    common: dict[str, Any] = {
        "client_name": "mcpgen conformance client",
        "storage": MemoryTokenStorage(),
    }
    if context.get("valid_jwt"):
        token_file = workload_token_file(context["valid_jwt"])
        return oauth(url, client_id=client_id, workload_token_file=token_file, **common)
    if context.get("idp_id_token"):
        os.environ["CONFORMANCE_IDP_ID_TOKEN"] = context["idp_id_token"]
        idp = EnterpriseIdP(
            token_endpoint=context.get("idp_token_endpoint"),
            issuer=context.get("idp_issuer"),
            client_id=context.get("idp_client_id"),
            id_token_env="CONFORMANCE_IDP_ID_TOKEN",
        )
        issuer = context.get("issuer") or issuer_of(url)
        return oauth(
            url, client_id=client_id, client_secret=secret, issuer=issuer, idp=idp, **common
        )
    machine = "client-credentials" in scenario
    issuer = context.get("issuer") or (issuer_of(url) if machine else None)
    return oauth(
        url,
        client_id=client_id,
        client_secret=secret,
        private_key=context.get("private_key_pem"),
        signing_algorithm=context.get("signing_algorithm") or "RS256",
        issuer=issuer,
        client_metadata_url=None if client_id else CIMD_URL,
        redirect=redirect,
        flow="client_credentials" if machine else "authorization_code",
        **common,
    )


@contextmanager
def optional(unknown: bool) -> Iterator[None]:
    """Where the server's capabilities are unknown, a method it does not have is no error."""
    try:
        yield
    except MCPError as exc:
        if not unknown or exc.code != METHOD_NOT_FOUND:
            raise


async def run(url: str, scenario: str, version: str, context: dict[str, Any]) -> None:
    mode = "2026-07-28" if version >= "2026" else "legacy"
    async with ToolClient.http(
        url,
        auth=auth_for(url, scenario, context),
        mode=mode,  # type: ignore[arg-type]
        elicitation_callback=elicit,
        connect_timeout=30,
        timeout=30,
    ) as client:
        sdk = client.mcp
        if scenario.startswith("sep-2640-client-"):
            await skills(client, scenario)
            return
        listed = await sdk.list_tools()
        if scenario == "json-schema-2020-12-preservation":
            # the scenario's instructions: send the focal tool's inputSchema back, verbatim
            # as parsed, through the echo tool
            focal = next(t for t in listed.tools if t.name != "json_schema_echo")
            await sdk.call_tool("json_schema_echo", {"schema": focal.input_schema})
            return
        calls = context.get("toolCalls")
        if isinstance(calls, list):  # the scenario names the calls
            for call in calls:
                await sdk.call_tool(call["name"], call.get("arguments") or {})
            return
        for tool in listed.tools:
            arguments = example(tool.input_schema)
            await sdk.call_tool(tool.name, arguments if isinstance(arguments, dict) else {})
        # resources and prompts: when the server declares them, or (2026-07-28, pinned: no
        # handshake) when it answers for them
        caps = sdk.server_capabilities
        unknown = caps is None or mode == "2026-07-28"  # pinned: nothing declared
        if unknown or caps.resources is not None:  # type: ignore[union-attr]
            with optional(unknown):
                for resource in (await sdk.list_resources()).resources:
                    await sdk.read_resource(str(resource.uri))
        if unknown or caps.prompts is not None:  # type: ignore[union-attr]
            with optional(unknown):
                for prompt in (await sdk.list_prompts()).prompts:
                    args = {a.name: "test" for a in prompt.arguments or [] if a.required}
                    await sdk.get_prompt(prompt.name, args)


async def skills(client: ToolClient, scenario: str) -> None:
    """The skills extension as a host uses it: list the skills (reading no file), then load
    the first one's SKILL.md, verified against its entry, and only then its other files. A file
    that fails verification is not used and loading stops there (the scenario serves a
    tampered SKILL.md and checks that the client goes no further)."""
    listed = await client.skills.list()
    if scenario == "sep-2640-client-no-prefetch" or not listed:
        return  # nothing asked for a skill: no file is fetched
    skill = listed[0]
    try:
        await client.skills.load(skill)
    except SkillVerificationError as exc:
        print(f"conformance client: skill not loaded: {exc}", file=sys.stderr)
        return
    for f in skill.files or ():
        if f.uri != skill.uri:
            await client.skills.read(skill, f.uri)


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    if len(argv) < 2:
        print("usage: client.py SERVER_URL", file=sys.stderr)
        return 2
    url = argv[-1]
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    version = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION", "2025-11-25")
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    try:
        anyio.run(run, url, scenario, version, context)
    except (ClientError, Exception) as exc:  # noqa: BLE001 - one line, exit 1
        print(f"conformance client: {scenario}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
