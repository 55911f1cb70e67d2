"""The resources and prompts of a generated client: ``client.resources`` and
``client.prompts``, whose generated subclasses have one typed method per resource, template
and prompt of the manifest.

A template's variables are checked against its model and expanded with the SDK's RFC 6570
``UriTemplate``; a prompt's arguments are checked against its model. Results are the official
SDK's typed results (``ReadResourceResult``, ``GetPromptResult``); failures are the typed
errors of ``mcpgen_runtime.client.errors``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from mcp import Client
from mcp.shared.uri_template import UriTemplate
from mcp_types import (
    CompleteResult,
    GetPromptResult,
    PromptReference,
    ReadResourceResult,
    ResourceTemplateReference,
)
from pydantic import BaseModel, ValidationError

from ..server.validation import pydantic_problems
from .errors import ArgumentsError, ClientError
from .failures import map_error

__all__ = ["PromptsNamespace", "ResourcesNamespace"]


class _Connected(Protocol):
    """What the namespaces need of a ``ToolClient``."""

    @property
    def mcp(self) -> Client: ...

    _label: str


def _checked(what: str, model: type[BaseModel] | None, kwargs: Mapping[str, Any]) -> dict[str, Any]:
    given = {k: v for k, v in kwargs.items() if v is not None}
    if model is None:
        return given
    try:
        typed = model.model_validate(given)
    except ValidationError as exc:
        raise ArgumentsError(what, pydantic_problems(exc.errors()), target=what) from None
    dumped: dict[str, Any] = typed.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return dumped


def _one(value: Any) -> str:
    """A JSON scalar as it appears in a URI or a prompt argument (``true``, ``42``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else str(value)


def _text(value: Any) -> str | list[str]:
    return [_one(v) for v in value] if isinstance(value, list) else _one(value)


class ResourcesNamespace:
    """``client.resources``: ``read(uri)`` for any URI; generated subclasses add one method
    per resource and template of the manifest."""

    def __init__(self, client: _Connected) -> None:
        self._client = client

    async def read(self, uri: str) -> ReadResourceResult:
        """``resources/read`` of ``uri``."""
        try:
            return await self._client.mcp.read_resource(uri)
        except ClientError:
            raise
        except Exception as exc:  # noqa: BLE001 - mapped to typed errors
            raise map_error(self._client._label, uri, exc, target=f"resource {uri!r}") from exc

    async def complete(
        self,
        uri_template: str,
        variable: str,
        value: str,
        context: Mapping[str, str] | None = None,
    ) -> CompleteResult:
        """``completion/complete`` for a template variable."""
        ref = ResourceTemplateReference(type="ref/resource", uri=uri_template)
        try:
            return await self._client.mcp.complete(
                ref, {"name": variable, "value": value}, dict(context) if context else None
            )
        except Exception as exc:  # noqa: BLE001
            raise map_error(
                self._client._label, uri_template, exc, target=f"template {uri_template!r}"
            ) from exc

    async def _mcpgen_read_template(
        self, uri_template: str, model: type[BaseModel], kwargs: Mapping[str, Any]
    ) -> ReadResourceResult:
        variables = _checked(f"template {uri_template!r}", model, kwargs)
        uri = UriTemplate.parse(uri_template).expand({k: _text(v) for k, v in variables.items()})
        return await self.read(uri)


class PromptsNamespace:
    """``client.prompts``: ``get(name, arguments)`` for any prompt; generated subclasses add
    one typed method per prompt of the manifest."""

    def __init__(self, client: _Connected) -> None:
        self._client = client

    async def get(self, name: str, arguments: Mapping[str, str] | None = None) -> GetPromptResult:
        """``prompts/get`` of ``name``."""
        try:
            return await self._client.mcp.get_prompt(name, dict(arguments or {}))
        except ClientError:
            raise
        except Exception as exc:  # noqa: BLE001 - mapped to typed errors
            raise map_error(self._client._label, name, exc, target=f"prompt {name!r}") from exc

    async def complete(
        self, prompt: str, argument: str, value: str, context: Mapping[str, str] | None = None
    ) -> CompleteResult:
        """``completion/complete`` for a prompt argument."""
        ref = PromptReference(type="ref/prompt", name=prompt)
        try:
            return await self._client.mcp.complete(
                ref, {"name": argument, "value": value}, dict(context) if context else None
            )
        except Exception as exc:  # noqa: BLE001
            raise map_error(self._client._label, prompt, exc, target=f"prompt {prompt!r}") from exc

    async def _mcpgen_get(
        self, name: str, model: type[BaseModel] | None, kwargs: Mapping[str, Any]
    ) -> GetPromptResult:
        arguments = _checked(f"prompt {name!r}", model, kwargs)
        return await self.get(name, {k: _one(v) for k, v in arguments.items()})
