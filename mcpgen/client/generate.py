"""Client package generation: ``ClientIR`` -> ``{relative path: text}``. Pure (no file I/O).

* ``owned``: ``<package>/_generated/`` (rewritten every run): the typed models, the client
  class (one ``async`` method per tool), the tool definitions (for output validation and
  ``verify=True``) and the runtime API check;
* ``user``: ``<package>/__init__.py`` (created once).

Unformatted: ``mcpgen.format.format_tree`` formats at the edge.
"""

from __future__ import annotations

from dataclasses import dataclass

from mcpgen.client.ir import ClientIR
from mcpgen.client.layout import (
    CLI_OWNED_TEMPLATES,
    CLI_USER_TEMPLATES,
    OWNED_TEMPLATES,
    USER_TEMPLATES,
)
from mcpgen.ir.tools import ToolIR
from mcpgen.parameters import ModelsInfo, tool_models
from mcpgen.render import header_line, render


@dataclass(frozen=True)
class ClientFiles:
    owned: dict[str, str]
    user: dict[str, str]


def generate_client(ir: ClientIR) -> ClientFiles:
    header = header_line(ir.manifest_name)
    models = tool_models(ir.model_specs)
    info = models.info
    bodies = {"models.py": models.source}
    docs = [_doc(t, info, t.index in ir.task_tools) for t in ir.tools]
    owned = {
        rel: render(template, header=header, ir=ir, body=bodies.get(rel, ""), info=info, docs=docs)
        for rel, template in OWNED_TEMPLATES.items()
    }
    user = {rel: render(template, ir=ir) for rel, template in USER_TEMPLATES.items()}
    if ir.cli_names is not None:
        from mcpgen.client.cli_table import cli_commands

        commands = cli_commands(ir.cli_names, ir.tools, info.methods)
        for rel, template in CLI_OWNED_TEMPLATES.items():
            owned[rel] = render(template, header=header, ir=ir, commands=commands)
        user.update({rel: render(t, ir=ir) for rel, t in CLI_USER_TEMPLATES.items()})
    return ClientFiles(owned=owned, user=user)


def _doc(tool: ToolIR, info: ModelsInfo, task: bool = False) -> str:
    """The method's docstring text (escaped by the template's ``docstring`` filter)."""
    parts: list[str] = []
    if tool.title:
        parts.append(tool.title)
    if tool.description:
        parts.append(tool.description.strip())
    call = f"Calls the tool {tool.name!r}."
    if tool.scopes:
        call += f" Needs the OAuth scope(s) {' '.join(tool.scopes)}."
    parts.append(call)
    method = info.methods.get(tool.input_model)
    if method is not None and method.params:
        lines = ["Args:"]
        for p in method.params:
            desc = " ".join((p.description or "").split())
            lines.append(f"    {p.name}: {desc}".rstrip())
        parts.append("\n".join(lines))
    if tool.output_model:
        what = f"the validated structuredContent as {tool.output_model}"
    else:
        what = "the result's content blocks (CallResult)"
    if task:
        parts.append(
            "The server may run it as a task (the tasks extension): returns a TaskHandle.\n"
            f"``await handle.result()`` gives {what},\nat once when the server answered "
            "without a task; the handle also reads\nthe task's status, answers its input "
            "requests and cancels it."
        )
    else:
        parts.append(f"Returns {what}.")
    return "\n\n".join(parts)
