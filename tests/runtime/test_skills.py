"""Serving skills (SEP-2640): the generated ``examples/conformance`` server, spawned, spoken to
in raw JSON-RPC over stdio on both engines (lean: its bridge hands the extension's methods to
the SDK; sdk) and both wires (2025-11-25 handshake, 2026-07-28), and through the real SDK
client with ``client.skills`` (verified reads) in process.

What is checked: the capability (with ``resources``, which the extension requires),
``skills/list`` entries whose digests and sizes are those of the bundled bytes, ``skills/get``
and its ``-32602`` for an unknown URI, the ``skill://`` files in ``resources/list`` and
``resources/read``, ``resources/directory/read`` (subfolders as ``inode/directory``; a file is
``-32602``), and the cache attributes present on 2026-07-28 only."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.runtime.lean.driver import handshake, request, transcript

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "conformance"
SKILL_DIR = EXAMPLE / "skills" / "pdf-processing"
EXT = "io.modelcontextprotocol/skills"


def _digest(rel: str) -> dict[str, Any]:
    data = (SKILL_DIR / rel).read_bytes()
    return {
        "uri": f"skill://pdf-processing/{rel}",
        "digest": "sha256:" + hashlib.sha256(data).hexdigest(),
        "size": len(data),
    }


def _script(modern: bool) -> list[bytes]:
    m = modern
    lines = [] if modern else handshake()
    if modern:
        lines.append(request("caps", "server/discover", {}, m))
    lines += [
        request("list", "skills/list", {}, m),
        request("get", "skills/get", {"uri": "skill://pdf-processing/SKILL.md"}, m),
        request("unknown", "skills/get", {"uri": "skill://nope/SKILL.md"}, m),
        request("res", "resources/list", {}, m),
        request("read", "resources/read", {"uri": "skill://pdf-processing/references/FORMS.md"}, m),
        request("dir", "resources/directory/read", {"uri": "skill://pdf-processing"}, m),
        request("sub", "resources/directory/read", {"uri": "skill://pdf-processing/references"}, m),
        request("file", "resources/directory/read", {"uri": "skill://pdf-processing/SKILL.md"}, m),
    ]
    return lines


@pytest.mark.parametrize("engine", ["lean", "sdk"])
@pytest.mark.parametrize("modern", [False, True], ids=["2025-11-25", "2026-07-28"])
def test_skills_are_served(engine: str, modern: bool) -> None:
    answers = {
        a["id"]: a for a in transcript(EXAMPLE, "conformance_server", engine, _script(modern))
    }
    caps = answers["caps" if modern else "init"]["result"]["capabilities"]
    # ServerCapabilities.extensions is a 2026-07-28 field: the handshake wire does not carry
    # it (as the SDK's own models say), the methods are served on both
    assert (caps.get("extensions") or {}).get(EXT) == ({"directoryRead": True} if modern else None)
    assert "resources" in caps

    listed = answers["list"]["result"]
    entry = {
        "uri": "skill://pdf-processing/SKILL.md",
        "frontmatter": {
            "name": "pdf-processing",
            "description": "Extract text from PDF files, fill PDF forms and merge documents.",
            "license": "Apache-2.0",
            "metadata": {"author": "mcpgen conformance fixture", "version": "1.0"},
        },
        "resources": [_digest("SKILL.md"), _digest("references/FORMS.md")],
    }
    assert listed["skills"] == [entry]
    assert answers["get"]["result"]["skill"] == entry
    for rid in ("list", "get", "dir"):
        result = answers[rid]["result"]
        assert ("ttlMs" in result and "cacheScope" in result) is modern, (rid, result)
        assert "nextCursor" not in result
    assert answers["unknown"]["error"]["code"] == -32602

    resources = {r["uri"]: r for r in answers["res"]["result"]["resources"]}
    assert resources["skill://pdf-processing/SKILL.md"] == {
        "uri": "skill://pdf-processing/SKILL.md",
        "name": "pdf-processing",
        "description": entry["frontmatter"]["description"],  # type: ignore[index]
        "mimeType": "text/markdown",
    }
    assert "skill://pdf-processing/references/FORMS.md" in resources
    (contents,) = answers["read"]["result"]["contents"]
    assert contents["text"] == (SKILL_DIR / "references" / "FORMS.md").read_text()

    assert answers["dir"]["result"]["resources"] == [
        {"uri": "skill://pdf-processing/SKILL.md", "name": "SKILL.md", "mimeType": "text/markdown"},
        {
            "uri": "skill://pdf-processing/references",
            "name": "references",
            "mimeType": "inode/directory",
        },
    ]
    assert [r["name"] for r in answers["sub"]["result"]["resources"]] == ["FORMS.md"]
    assert answers["file"]["error"]["code"] == -32602


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_client_skills_reads_verified_files(mode: str) -> None:
    import sys

    from mcp import StdioServerParameters

    from mcpgen_runtime import SkillVerificationError, ToolClient

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "conformance_server"],
        env={"PYTHONPATH": str(EXAMPLE), "PATH": "/usr/bin:/bin"},
        cwd=str(EXAMPLE),
    )

    async def go() -> None:
        async with ToolClient(params, mode=mode) as client:  # type: ignore[arg-type]
            (skill,) = await client.skills.list()
            assert skill.name == "pdf-processing"
            again = await client.skills.get(skill.uri)
            assert again == skill
            text = await client.skills.load(skill)
            assert text == (SKILL_DIR / "SKILL.md").read_text()
            forms = await client.skills.read(skill, "references/FORMS.md")
            assert forms == (SKILL_DIR / "references" / "FORMS.md").read_bytes()
            children = await client.skills.directory(skill.base)
            assert [c["name"] for c in children] == ["SKILL.md", "references"]
            # an entry that does not match what the server serves: the read is refused
            tampered = type(skill)(
                skill.uri, {**skill.frontmatter, "description": "something else"}, skill.files
            )
            with pytest.raises(SkillVerificationError, match="front matter differs"):
                await client.skills.load(tampered)
            wrong = type(skill.files[1])(skill.files[1].uri, skill.files[1].digest, 1)  # type: ignore[index]
            sized = type(skill)(skill.uri, skill.frontmatter, (skill.files[0], wrong))  # type: ignore[index]
            with pytest.raises(SkillVerificationError, match="bytes where the skill lists 1"):
                await client.skills.read(sized, "references/FORMS.md")

    anyio.run(go)
