from __future__ import annotations

import json

from pydantic import BaseModel

from mcpgen_runtime import ToolContext, ToolResult

from ._generated import ToolsBase
from ._generated.models import ReadNoteInput, WhoamiInput, WriteNoteInput


class Confirm(BaseModel):
    ok: bool


class Handlers(ToolsBase):
    async def whoami(self, args: WhoamiInput, ctx: ToolContext) -> ToolResult | str:
        caller = ctx.caller
        if caller is None:
            return "anonymous"
        return json.dumps(
            {
                "subject": caller.subject,
                "client_id": caller.client_id,
                "scopes": sorted(caller.scopes),
                "issuer": caller.issuer,
                "token": caller.token,
                "aud": caller.claims.get("aud"),
            }
        )

    async def read_note(self, args: ReadNoteInput, ctx: ToolContext) -> str:
        return f"note {args.id}"

    async def write_note(self, args: WriteNoteInput, ctx: ToolContext) -> str:
        answer = await ctx.elicit(Confirm, f"Overwrite {args.id}?", key="confirm")
        ok = answer.data is not None and answer.data.ok
        return f"wrote {args.id}" if ok else "not written"
