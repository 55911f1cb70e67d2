"""The generated CLI's command table: ``CliOption`` (an option of a tool's subcommand) and
``ToolCommand`` (a tool as a subcommand), as ``_generated/cli.py`` lists them; ``cli`` builds
the click commands from them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import click

__all__ = ["CliOption", "ToolCommand"]


class CliOption:
    """One option of a tool's subcommand: ``--flag`` -> the client method's ``param``."""

    __slots__ = (
        "flag",
        "param",
        "kind",
        "required",
        "help",
        "default",
        "choices",
        "multiple",
        "field",
        "unset",
    )

    def __init__(
        self,
        flag: str,
        param: str,
        kind: str,
        *,
        required: bool = False,
        help: str | None = None,  # noqa: A002 - click's word
        default: str | None = None,
        choices: Sequence[str] = (),
        multiple: bool = False,
        field: str = "",
        unset: Any = None,
    ) -> None:
        self.flag, self.param, self.kind = flag, param, kind
        self.field = field
        """The key the client method passes the value under ("": the tool's arguments)."""
        self.unset = unset
        """The client method's default, passed when the option is not given."""
        """``kind``: str, int, float, bool or json (any other schema: a JSON text)."""
        self.required, self.help, self.default = required, help, default
        """``default``: the schema's default, shown in the help (the server applies it)."""
        self.choices, self.multiple = tuple(choices), multiple

    def click_option(self) -> click.Option:
        types: dict[str, Any] = {"str": click.STRING, "int": click.INT, "float": click.FLOAT}
        text = self.help or ""
        if self.kind == "json":
            text = (text + " (JSON)").strip()
        if self.default is not None:
            text = f"{text}  [default: {self.default}]".strip()
        shown = False
        if self.kind == "bool":
            return click.Option(
                [f"--{self.flag}/--no-{self.flag}", self.param],
                default=None,
                required=self.required,
                help=text,
                show_default=shown,
            )
        kind: Any = click.Choice(self.choices) if self.choices else types.get(self.kind, str)
        return click.Option(
            [f"--{self.flag}", self.param],
            type=kind,
            required=self.required,
            multiple=self.multiple,
            help=text,
            show_default=shown,
            metavar="JSON" if self.kind == "json" else None,
        )

    def value(self, raw: Any) -> Any:
        if raw is None or (self.multiple and not raw):
            return None
        if self.kind == "json":
            try:
                return json.loads(raw)
            except ValueError as exc:
                raise click.BadParameter(f"not JSON: {exc}", param_hint=f"--{self.flag}") from None
        return list(raw) if self.multiple else raw


class ToolCommand:
    """One tool as a subcommand: its name on the command line, the client method, the help."""

    __slots__ = (
        "name",
        "tool",
        "method",
        "help",
        "options",
        "index",
        "input_model",
        "output_model",
        "plain_input",
        "output_fields",
    )

    def __init__(
        self,
        name: str,
        tool: str,
        method: str,
        help: str | None,  # noqa: A002
        options: Sequence[CliOption],
        *,
        index: int | None = None,
        input_model: str | None = None,
        output_model: str | None = None,
        plain_input: bool = False,
        output_fields: Sequence[tuple[str, str]] | None = None,
    ) -> None:
        self.name, self.tool, self.method, self.help = name, tool, method, help
        self.options = tuple(options)
        self.index, self.input_model, self.output_model = index, input_model, output_model
        """``tools.TOOLS[index]`` and the ``models`` classes: the compiled path (None: an
        older table, every call through the typed client)."""
        self.plain_input = plain_input
        """The arguments need only the inputSchema's check (``ClientTool.plain_arguments``)."""
        self.output_fields = tuple(output_fields) if output_fields is not None else None
        """A flat scalar output: its fields and kinds, in the output model's order."""
