"""The generated CLI's ``skills`` group, for a server whose manifest has skills (the skills
extension): ``skills list`` (JSON) and ``skills read NAME [PATH]`` (the file's bytes on stdout,
verified against the skill's entry as ``client.skills.read`` verifies them: size, digest, and
the front matter of ``SKILL.md``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from .base import ToolClient
    from .skills import Skill

__all__ = ["skills_group"]

Call = Callable[[click.Context, Callable[["ToolClient"], Any]], None]


def _entry(skill: Skill) -> dict[str, Any]:
    files: Any = "dynamic"
    if skill.files is not None:
        base = skill.base + "/"
        files = [f.uri[len(base) :] if f.uri.startswith(base) else f.uri for f in skill.files]
    return {"name": skill.name, "description": skill.description, "uri": skill.uri, "files": files}


def skills_group(call: Call) -> click.Group:
    """``call(ctx, body)``: the CLI's way to run ``body`` against a connected client and print
    what it returns (bytes as they are, anything else as JSON)."""
    group = click.Group("skills", help="The server's agent skills (the skills extension).")

    @group.command("list", help="skills/list: each skill's name, description, URI and files.")
    @click.pass_context
    def list_skills(ctx: click.Context) -> None:
        async def body(client: ToolClient) -> Any:
            return {"skills": [_entry(s) for s in await client.skills.list()]}

        call(ctx.find_root(), body)

    @group.command(
        "read",
        help="Print one file of skill NAME (PATH inside it, default SKILL.md), verified against "
        "the skill's entry (size, sha256 digest, front matter).",
    )
    @click.argument("name")
    @click.argument("path", default="SKILL.md")
    @click.pass_context
    def read_skill(ctx: click.Context, name: str, path: str) -> None:
        async def body(client: ToolClient) -> Any:
            found = await client.skills.list()
            skill = next((s for s in found if s.name == name), None)
            if skill is None:
                names = ", ".join(sorted(s.name for s in found)) or "none"
                raise click.BadParameter(
                    f"the server has no skill {name!r} (it has: {names})", param_hint="NAME"
                )
            return await client.skills.read(skill, path)

        call(ctx.find_root(), body)

    return group
