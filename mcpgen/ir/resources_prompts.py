"""A manifest's resources, resource templates and prompts as every generated package needs
them. Pure.

``prepare_resources_and_prompts`` splits each entry into its wire definition (exact JSON, key
order as written, without mcpgen's own keys) and what mcpgen serves it with: inline text, static
messages, completions, and the Python names of its handler method and of the model of its
typed variables or arguments. Names come from ``mcpgen.naming``, after the tools' names, so no
method or model of a resource or prompt can take a tool's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mcpgen.errors import McpgenError
from mcpgen.ir.tools import canonical_json
from mcpgen.manifest.model import Manifest, SectionItem
from mcpgen.naming import ToolNames, assign_tool_names, snake_identifier

__all__ = ["ResourcesAndPrompts", "ResourceOrPrompt", "prepare_resources_and_prompts"]

_KEY = {"resource": "uri", "template": "uriTemplate", "prompt": "name"}
_OWN_KEYS = {
    "resources": ("text", "file", "handler", "scopes"),
    "resourceTemplates": ("variables", "handler", "scopes"),
    "prompts": ("messages", "handler", "scopes"),
}


@dataclass(frozen=True)
class ResourceOrPrompt:
    kind: str
    """``resource``, ``template`` or ``prompt``."""
    index: int
    name: str
    key: str
    """The URI, URI template or prompt name (what requests name it by)."""
    definition_json: str
    """The wire definition as compact JSON, key order as written."""
    method_name: str | None
    """The ``Handlers`` method (every template; resources and prompts with ``handler``)."""
    model_stem: str | None
    """Class stem of the model of a template's variables or a prompt's arguments
    (``<stem>Input``), when there is one."""
    model_schema: Mapping[str, Any] | None
    text: str | None
    """A resource's inline contents."""
    messages: tuple[tuple[str, str], ...]
    """A prompt's static ``(role, text)`` messages."""
    completions: tuple[tuple[str, tuple[str, ...]], ...]
    """``(argument or variable, values)``."""
    data: bytes | None
    """A ``file:`` resource's contents (read by the loader)."""
    data_path: str | None
    """Where the contents go in ``_generated/`` (``resources/<index>-<name>``)."""
    binary: bool
    """Served as a blob (not ``text/*``, or not UTF-8)."""
    mime_type: str | None
    title: str | None
    description: str | None
    pointer: str
    completed_by_handler: tuple[str, ...] = ()
    """Arguments or variables whose completions ``complete_method`` computes."""
    complete_method: str | None = None
    scopes: tuple[str, ...] = ()
    """The OAuth scopes a caller needs for this item."""

    @property
    def model(self) -> str | None:
        return f"{self.model_stem}Input" if self.model_stem else None

    @property
    def model_schema_json(self) -> str | None:
        """``model_schema`` as canonical JSON: what the runtime checks a template's variables
        against when there is no model (``server.models: typeddict``)."""
        return canonical_json(self.model_schema) if self.model_schema is not None else None


@dataclass(frozen=True)
class ResourcesAndPrompts:
    resources: tuple[ResourceOrPrompt, ...]
    templates: tuple[ResourceOrPrompt, ...]
    prompts: tuple[ResourceOrPrompt, ...]

    @property
    def all(self) -> tuple[ResourceOrPrompt, ...]:
        return (*self.resources, *self.templates, *self.prompts)


def _wire(item: SectionItem, section: str) -> dict[str, Any]:
    own = _OWN_KEYS[section]
    wire = {k: v for k, v in item.raw.items() if k not in own}
    if section == "prompts" and isinstance(wire.get("arguments"), list):
        wire["arguments"] = [
            {k: v for k, v in a.items() if k != "completions"} if isinstance(a, dict) else a
            for a in wire["arguments"]
        ]
    return wire


def _text(raw: Mapping[str, Any], key: str) -> str | None:
    v = raw.get(key)
    return v if isinstance(v, str) else None


def _handler_completed(item: SectionItem) -> bool:
    """Whether an argument or variable of ``item`` has ``completions: handler``."""
    args = item.raw.get("arguments")
    for a in args if isinstance(args, list) else ():
        if isinstance(a, dict) and a.get("completions") == "handler":
            return True
    variables = item.raw.get("variables")
    for spec in variables.values() if isinstance(variables, dict) else ():
        if isinstance(spec, dict) and spec.get("completions") == "handler":
            return True
    return False


def _is_text(mime: str | None, data: bytes) -> bool:
    """Served as text: a ``text/*`` (or JSON/XML/YAML) media type and UTF-8 bytes."""
    kind = (mime or "").split(";")[0].strip().lower()
    texty = kind.startswith("text/") or kind.endswith(("json", "xml", "yaml", "+json", "+xml"))
    if not texty:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


Completions = tuple[tuple[tuple[str, tuple[str, ...]], ...], tuple[str, ...]]
"""``((argument, static values)..., arguments a handler completes)``."""


def _completions(pairs: Sequence[tuple[str, Any]]) -> Completions:
    """``(argument, its `completions` as written)`` -> static lists and handler-completed names."""
    static = tuple((n, tuple(str(v) for v in vs)) for n, vs in pairs if isinstance(vs, list))
    return static, tuple(n for n, vs in pairs if vs == "handler")


def _template_variables(
    item: SectionItem, manifest: Manifest
) -> tuple[dict[str, Any], Completions]:
    """The model schema of a template's variables (each declared schema, else a string;
    required unless it is a query variable) and their completions."""
    from mcpgen.uritemplates import uri_template_module

    rfc6570 = uri_template_module()
    InvalidUriTemplate, UriTemplate = rfc6570.InvalidUriTemplate, rfc6570.UriTemplate  # noqa: N806

    uri_template = str(item.raw.get("uriTemplate", ""))
    try:
        parsed = UriTemplate.parse(uri_template)
    except InvalidUriTemplate as exc:
        line, col = manifest.source_map.locate(item.pointer + "/uriTemplate")
        raise McpgenError(
            f"resource template {item.name!r}: {exc}", path=manifest.path, line=line, col=col
        ) from None
    declared = item.raw.get("variables")
    declared = declared if isinstance(declared, dict) else {}
    props: dict[str, Any] = {}
    written: list[tuple[str, Any]] = []
    for var in parsed.variable_names:
        spec = declared.get(var)
        spec = dict(spec) if isinstance(spec, dict) else {"type": "string"}
        written.append((var, spec.pop("completions", None)))
        props[var] = spec or {"type": "string"}
    optional = parsed.query_variable_names
    required = [v for v in parsed.variable_names if v not in optional]
    return {"type": "object", "properties": props, "required": required}, _completions(written)


def _prompt_arguments(item: SectionItem) -> tuple[dict[str, Any] | None, Completions]:
    args = item.raw.get("arguments")
    args = [a for a in args if isinstance(a, dict)] if isinstance(args, list) else []
    props: dict[str, Any] = {}
    required: list[str] = []
    written: list[tuple[str, Any]] = []
    for a in args:
        name = str(a.get("name", ""))
        prop: dict[str, Any] = {"type": "string"}
        if isinstance(a.get("description"), str):
            prop["description"] = a["description"]
        props[name] = prop
        if a.get("required") is True:
            required.append(name)
        written.append((name, a.get("completions")))
    schema = {"type": "object", "properties": props, "required": required} if props else None
    return schema, _completions(written)


def _unique(items: Sequence[SectionItem], what: str, key: str, manifest: Manifest) -> None:
    seen: dict[str, str] = {}
    for item in items:
        k = str(item.raw.get(key, ""))
        if k in seen:
            line, col = manifest.source_map.locate(item.pointer + "/" + key)
            raise McpgenError(
                f"duplicate {what} {k!r} (also at {seen[k]})",
                path=manifest.path,
                line=line,
                col=col,
            )
        seen[k] = item.pointer


def prepare_resources_and_prompts(
    manifest: Manifest,
    tool_names: Sequence[ToolNames],
    *,
    every_prompt: bool = False,
    reserved: Iterable[str] = (),
) -> ResourcesAndPrompts:
    """Every resource, template and prompt of ``manifest``, in order; ``McpgenError`` (with
    its position) for a duplicate URI, template or prompt name or an invalid template.

    ``every_prompt``: every prompt with arguments gets a model (a typed client's methods),
    not only those a handler builds (a server's)."""
    _unique(manifest.resources, "resource URI", "uri", manifest)
    _unique(manifest.templates, "resource template", "uriTemplate", manifest)
    _unique(manifest.prompts, "prompt name", "name", manifest)
    # handler names after the tools': one naming pass, so nothing collides
    wanted: list[tuple[SectionItem, str]] = []
    for item in manifest.resources:
        if item.handler:
            wanted.append((item, f"read_{item.name}"))
    for item in manifest.templates:
        wanted.append((item, f"read_{item.name}"))
    for item in manifest.prompts:
        if item.handler or (every_prompt and item.raw.get("arguments")):
            wanted.append((item, f"prompt_{item.name}"))
    completers = [
        item for item in (*manifest.templates, *manifest.prompts) if _handler_completed(item)
    ]
    names = assign_tool_names(
        [t.tool_name for t in tool_names]
        + [w for _i, w in wanted]
        + [f"complete_{item.name}" for item in completers],
        reserved=reserved,
    )
    rest = names[len(tool_names) :]
    chosen = {id(item): nm for (item, _w), nm in zip(wanted, rest[: len(wanted)], strict=True)}
    completer_names = {
        id(item): nm.method_name for item, nm in zip(completers, rest[len(wanted) :], strict=True)
    }

    def build(item: SectionItem, kind: str, section: str, index: int) -> ResourceOrPrompt:
        nm = chosen.get(id(item))
        schema: dict[str, Any] | None = None
        completions: Completions = ((), ())
        if kind == "template":
            schema, completions = _template_variables(item, manifest)
        elif kind == "prompt":
            schema, completions = _prompt_arguments(item)
        messages = item.raw.get("messages") if kind == "prompt" else None
        mime = _text(item.raw, "mimeType")
        data = item.data if kind == "resource" else None
        return ResourceOrPrompt(
            kind=kind,
            index=index,
            name=item.name,
            key=str(item.raw.get(_KEY[kind], "")),
            definition_json=canonical_json(_wire(item, section)),
            method_name=nm.method_name
            if nm is not None and (item.handler or kind == "template")
            else None,
            model_stem=nm.class_stem if nm is not None and schema is not None else None,
            model_schema=schema,
            text=_text(item.raw, "text") if kind == "resource" else None,
            messages=tuple(
                (str(m.get("role", "user")), str(m.get("text", "")))
                for m in (messages if isinstance(messages, list) else ())
                if isinstance(m, dict)
            ),
            completions=completions[0],
            data=data,
            data_path=f"resources/{index}-{snake_identifier(item.name, fallback='data')}"
            if data is not None
            else None,
            binary=data is not None and not _is_text(mime, data),
            mime_type=mime,
            title=_text(item.raw, "title"),
            description=_text(item.raw, "description"),
            pointer=item.pointer,
            completed_by_handler=completions[1],
            complete_method=completer_names.get(id(item)),
            scopes=item.scopes,
        )

    return ResourcesAndPrompts(
        resources=tuple(
            build(r, "resource", "resources", i) for i, r in enumerate(manifest.resources)
        ),
        templates=tuple(
            build(t, "template", "resourceTemplates", i) for i, t in enumerate(manifest.templates)
        ),
        prompts=tuple(build(p, "prompt", "prompts", i) for i, p in enumerate(manifest.prompts)),
    )
