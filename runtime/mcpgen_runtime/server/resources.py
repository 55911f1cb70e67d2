"""The resources surface of a generated server: ``resources/list``,
``resources/templates/list``, ``resources/read``, ``resources/subscribe`` and
``resources/unsubscribe``, for both engines (the lean engine's tables, the SDK's hooks).

Generated code only declares: a ``ResourceBinding`` per resource (its exact definition and its
contents: inline text, or a handler method) and a ``TemplateBinding`` per resource template (its
definition, its handler method and the model of its typed variables). RFC 6570 templates are
parsed and matched by the SDK's own ``mcp.shared.uri_template`` (expansion and matching, both
directions; loaded without importing the SDK: ``sdk_adapter.uri_templates``). A URI that
matches nothing is the error its revision specifies: ``-32602`` on 2026-07-28 (SEP-2164),
``-32002`` before.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Union, cast

from ..revisions import MODERN_REVISIONS
from .auth.scopes import require
from .context import ToolContext
from .errors import INVALID_PARAMS, RequestError
from .fastpath import is_model
from .listing import finish, page, shape_definition
from .requests import run_round, validated
from .sdk_adapter import uri_templates

if TYPE_CHECKING:
    import mcp.types as types
    from mcp.server.context import ServerRequestContext
    from pydantic import BaseModel

    from .serving import Serving

__all__ = [
    "RESOURCE_NOT_FOUND",
    "ResourceBinding",
    "ResourceContents",
    "ResourceItem",
    "ResourcesRuntime",
    "TemplateBinding",
    "TemplateItem",
    "contents",
]

ResourceContents = Union["BaseModel", Mapping[str, Any], Sequence[Any]]
"""What a resource handler may return besides ``str`` (text) and ``bytes`` (a blob): a wire
``TextResourceContents``/``BlobResourceContents`` (or its JSON), or a list of contents."""

RESOURCE_NOT_FOUND = -32002
"""The resource-not-found code of the handshake revisions (2026-07-28 uses -32602)."""


class ResourceBinding:
    """One resource: its exact definition (JSON text) and where its contents come from: inline
    ``text``, a ``file`` of the generated package (read on first use, then kept; ``binary``:
    served as a blob) or a handler ``method``."""

    __slots__ = ("definition_json", "text", "method", "file", "binary", "scopes")

    def __init__(
        self,
        *,
        definition_json: str,
        text: str | None = None,
        method: str | None = None,
        file: str | os.PathLike[str] | None = None,
        binary: bool = False,
        scopes: Sequence[str] = (),
    ) -> None:
        if sum(x is not None for x in (text, method, file)) != 1:
            raise ValueError("a resource has one of inline text, a file or a handler method")
        self.definition_json = definition_json
        self.text = text
        self.method = method
        self.file = file
        self.binary = binary
        self.scopes = tuple(scopes)
        """OAuth scopes a caller's token needs to read this resource."""


class TemplateBinding:
    """One resource template: its exact definition, its handler and its typed variables."""

    __slots__ = (
        "definition_json",
        "method",
        "params_model",
        "params_schema",
        "_params_check",
        "completions",
        "complete_method",
        "completed_by_handler",
        "scopes",
    )

    def __init__(
        self,
        *,
        definition_json: str,
        method: str,
        params_model: type[BaseModel] | None,
        params_schema: str | None = None,
        completions: Mapping[str, Sequence[str]] | None = None,
        complete_method: str | None = None,
        completed_by_handler: Sequence[str] = (),
        scopes: Sequence[str] = (),
    ) -> None:
        self.definition_json = definition_json
        self.method = method
        self.params_model = params_model
        self.params_schema = params_schema
        """The variables' JSON Schema (JSON text), checked by jsonschema-rs when there is no
        model (``server.models: typeddict``): the handler then gets the variables dict."""
        self._params_check: Any = None
        self.completions = dict(completions or {})
        self.complete_method = complete_method
        """The ``Handlers`` method that completes ``completed_by_handler``."""
        self.completed_by_handler = tuple(completed_by_handler)
        self.scopes = tuple(scopes)
        """OAuth scopes a caller's token needs to read a URI of this template."""


class ResourceItem:
    """One resource as served: its parsed definition, its binding and its handler (if any)."""

    __slots__ = ("definition", "binding", "invoke", "_contents")

    def __init__(self, binding: ResourceBinding, handlers: object) -> None:
        self.definition: dict[str, Any] = json.loads(binding.definition_json)
        self.binding = binding
        self._contents: list[dict[str, Any]] | None = None
        self.invoke = getattr(handlers, binding.method) if binding.method else None
        if binding.method and not callable(self.invoke):
            raise TypeError(f"handlers have no method {binding.method!r}")


class TemplateItem:
    """One resource template as served: its definition, its parsed URI template, its handler."""

    __slots__ = ("definition", "binding", "template", "invoke")

    def __init__(self, binding: TemplateBinding, handlers: object) -> None:
        self.definition: dict[str, Any] = json.loads(binding.definition_json)
        self.binding = binding
        self.template = uri_templates().UriTemplate.parse(self.definition["uriTemplate"])
        invoke = getattr(handlers, binding.method, None)
        if not callable(invoke):
            raise TypeError(f"handlers have no method {binding.method!r}")
        self.invoke: Callable[[Any, ToolContext], Awaitable[object]] = invoke


class ResourcesRuntime:
    """The resources and templates a server serves (``resources/*``); their switches,
    subscriptions and the scopes they need are ``serving``'s."""

    def __init__(
        self,
        resources: Sequence[ResourceItem],
        templates: Sequence[TemplateItem],
        page_size: int | None,
        serving: Serving,
    ) -> None:
        self.resources = list(resources)
        self.templates = list(templates)
        self.by_uri = {r.definition["uri"]: r for r in self.resources}
        self.page_size = page_size
        self.serving = serving

    @property
    def disabled(self) -> frozenset[str]:
        switches = self.serving.resource_switches
        return switches.disabled if switches is not None else frozenset()

    # -- lists -------------------------------------------------------------------------

    async def list_resources(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> dict[str, Any]:
        version = ctx.protocol_version
        visible = self.serving.scopes.visible(
            [r for r in self.resources if r.definition["uri"] not in self.disabled],
            lambda r: r.binding.scopes,
        )
        items, cursor = page(
            visible, params.cursor if params else None, self.page_size, "resources"
        )
        result: dict[str, Any] = {
            "resources": [shape_definition(r.definition, "Resource", version) for r in items]
        }
        return finish(result, cursor, version)

    async def list_templates(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> dict[str, Any]:
        version = ctx.protocol_version
        templates = self.serving.scopes.visible(self.templates, lambda t: t.binding.scopes)
        items, cursor = page(
            templates, params.cursor if params else None, self.page_size, "templates"
        )
        result: dict[str, Any] = {
            "resourceTemplates": [
                shape_definition(t.definition, "ResourceTemplate", version) for t in items
            ]
        }
        return finish(result, cursor, version)

    # -- read ------------------------------------------------------------------------

    def find(self, uri: str) -> tuple[ResourceItem | TemplateItem, dict[str, Any]] | None:
        """The resource with ``uri``, else the first template that matches it (with its
        variables), else None."""
        resource = self.by_uri.get(uri)
        if resource is not None and uri not in self.disabled:
            return resource, {}
        for template in self.templates:
            found = template.template.match(uri)
            if found is not None:
                return template, found
        return None

    async def read_resource(
        self, ctx: ServerRequestContext[Any, Any], params: types.ReadResourceRequestParams
    ) -> dict[str, Any]:
        uri = str(params.uri)
        version = ctx.protocol_version
        found = self.find(uri)
        if found is None:
            raise _not_found(uri, version)
        target, variables = found
        if target.binding.scopes:
            require(target.binding.scopes, f"resource {uri!r}")
        mime = target.definition.get("mimeType")
        if isinstance(target, ResourceItem) and target.binding.text is not None:
            items = _viewed(target, [_text(uri, target.binding.text, mime)])
            return finish({"contents": items}, None, version)
        if isinstance(target, ResourceItem) and target.binding.file is not None:
            if target._contents is None:  # package data, read once
                with open(target.binding.file, "rb") as fh:
                    data = fh.read()
                value: object = data if target.binding.binary else data.decode("utf-8")
                target._contents = _viewed(target, contents(uri, value, mime))
            return finish({"contents": list(target._contents)}, None, version)
        name = target.definition.get("name", uri)
        if isinstance(target, TemplateItem):
            why = f"Invalid URI {uri!r} for template {target.definition['uriTemplate']!r}"
            model = target.binding.params_model
            typed = (
                validated(model, variables, why)
                if model is not None
                else checked_variables(target.binding, variables, why)
            )
            what = f"resource template {target.definition['uriTemplate']!r}"
            invoke_t = target.invoke
            answered = await run_round(
                self.serving, ctx, f"resource:{uri}", name, what, {}, lambda t: invoke_t(typed, t)
            )
        else:
            invoke_r = target.invoke
            assert invoke_r is not None
            answered = await run_round(
                self.serving, ctx, f"resource:{uri}", name, f"resource {uri!r}", {}, invoke_r
            )
        if answered.result is not None:
            return answered.result
        value = answered.value
        items = contents(uri, value, mime)
        if isinstance(target, ResourceItem):
            items = _viewed(target, items)
        return finish({"contents": items}, None, version)

    # -- subscriptions -------------------------------------------------------------------

    async def subscribe(
        self, ctx: ServerRequestContext[Any, Any], params: types.SubscribeRequestParams
    ) -> dict[str, Any]:
        uri = str(params.uri)
        found = self.find(uri)
        if found is None:
            raise _not_found(uri, ctx.protocol_version)
        if found[0].binding.scopes:
            require(found[0].binding.scopes, f"resource {uri!r}")
        self.serving.notices.subscribe(ctx, uri)
        return {}

    async def unsubscribe(
        self, ctx: ServerRequestContext[Any, Any], params: types.UnsubscribeRequestParams
    ) -> dict[str, Any]:
        self.serving.notices.unsubscribe(ctx, str(params.uri))
        return {}


def _not_found(uri: str, version: str) -> RequestError:
    code = INVALID_PARAMS if version in MODERN_REVISIONS else RESOURCE_NOT_FOUND
    return RequestError(code, f"Resource not found: {uri}", {"uri": uri})


def _viewed(item: ResourceItem, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An MCP Apps view's contents carry its ``_meta`` (``_meta.ui``: csp, permissions...),
    where hosts read it first; a contents item with its own ``_meta`` keeps it."""
    from ..apps import view_meta

    meta = view_meta(item.definition)
    if meta is None:
        return items
    return [c if "_meta" in c else {**c, "_meta": meta} for c in items]


def _text(uri: str, text: str, mime: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"uri": uri}
    if isinstance(mime, str):
        out["mimeType"] = mime
    out["text"] = text
    return out


def contents(uri: str, value: object, mime: Any) -> list[dict[str, Any]]:
    """A handler's value as ``ReadResourceResult.contents``: ``str`` is text, ``bytes`` a
    base64 blob, a wire ``*ResourceContents`` model or mapping is taken as it is, and a list
    of these is several contents."""
    if isinstance(value, str):
        return [_text(uri, value, mime)]
    if isinstance(value, (bytes, bytearray, memoryview)):
        out: dict[str, Any] = {"uri": uri}
        if isinstance(mime, str):
            out["mimeType"] = mime
        out["blob"] = base64.b64encode(bytes(value)).decode("ascii")
        return [out]
    if is_model(value):
        dumped: dict[str, Any] = cast("BaseModel", value).model_dump(
            mode="json", by_alias=True, exclude_none=True
        )
        return [dumped]
    if isinstance(value, Mapping):
        return [dict(value)]
    if isinstance(value, (list, tuple)):
        return [item for v in value for item in contents(uri, v, mime)]
    raise TypeError(
        f"a resource handler returned {type(value).__name__}; return str, bytes, a "
        "TextResourceContents/BlobResourceContents, or a list of them"
    )


def checked_variables(
    binding: TemplateBinding, variables: dict[str, Any], what: str
) -> dict[str, Any]:
    """A template's variables as they are, once its JSON Schema accepts them (jsonschema-rs,
    as tool arguments are checked); ``-32602`` naming ``what`` and every problem otherwise."""
    if binding.params_schema is None:
        return variables
    if binding._params_check is None:
        from .validation import SchemaCheck

        binding._params_check = SchemaCheck(json.loads(binding.params_schema), "2020-12")
    problems = binding._params_check.problems(variables)
    if problems:
        raise RequestError(INVALID_PARAMS, f"{what}: " + "; ".join(p.strip() for p in problems))
    return variables
