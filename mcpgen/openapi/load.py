"""Read an OpenAPI document (file or URL, YAML or JSON) with source positions and validate it
with openapi-spec-validator; every problem is ``McpgenError`` with ``file:line:col``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mcpgen.errors import McpgenError
from mcpgen.manifest.sourcemap import MAX_BYTES, Document, load_document, parse_text
from mcpgen.openapi.external import Sources, collect, find_ref
from mcpgen_runtime.jsonschema_facts import pointer_from_path, resolve_pointer

__all__ = ["load_openapi"]

_MAX_SHOWN = 5


def _fetch(url: str) -> str:
    import urllib.error
    import urllib.request

    req = urllib.request.Request(url, headers={"Accept": "application/json, application/yaml"})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:  # noqa: S310 - http(s) checked
            data: bytes = resp.read(MAX_BYTES + 1)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise McpgenError(f"cannot fetch: {reason}", path=url) from None
    if len(data) > MAX_BYTES:
        raise McpgenError(f"larger than {MAX_BYTES // (1024 * 1024)} MiB", path=url)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise McpgenError("not UTF-8 text", path=url) from None


def load_openapi(spec: str, *, allow_external_refs: bool = False) -> Sources:
    """The parsed, validated document and the files its external ``$ref``s reach (refused
    unless ``allow_external_refs``). Swagger 2.0 is refused with what to do instead."""
    if spec.startswith(("http://", "https://")):
        doc = parse_text(_fetch(spec), spec)
    else:
        doc = load_document(Path(spec))
    if doc.diagnostics:
        first = doc.diagnostics[0]
        raise McpgenError(first.message, path=spec, line=first.line, col=first.col)
    value = doc.value
    if not isinstance(value, dict):
        raise McpgenError("not an OpenAPI document (expected a mapping)", path=spec, line=1, col=1)
    if "swagger" in value:
        line, col = doc.source_map.locate("/swagger")
        raise McpgenError(
            f"Swagger {value.get('swagger')} is not supported: convert it to OpenAPI 3 first "
            "(for example with swagger2openapi), then import the result",
            path=spec,
            line=line,
            col=col,
        )
    version = str(value.get("openapi", ""))
    if not version.startswith(("3.0.", "3.1.")):
        line, col = doc.source_map.locate("/openapi")
        raise McpgenError(
            f"openapi: {version or 'missing'}: mcpgen imports OpenAPI 3.0 and 3.1 documents",
            path=spec,
            line=line,
            col=col,
        )
    sources = collect(doc, spec, allow_external_refs)
    base = Path(spec).resolve().as_uri() if sources.docs else ""
    _validate(doc, spec, version, base)
    return sources


def _spec_validator(version: str) -> Any:
    """openapi-spec-validator's validator for ``version``, with its schema keyword validator
    keeping the ids it has visited in sets instead of lists (0.9.0 tests membership in a list
    once per schema visit: quadratic, 10 of the 17 s GitHub's description took). Done through
    the library's own ``keyword_validators`` table; the checks are the library's, unchanged."""
    from openapi_spec_validator import OpenAPIV30SpecValidator, OpenAPIV31SpecValidator

    base: Any = OpenAPIV30SpecValidator if version.startswith("3.0.") else OpenAPIV31SpecValidator
    schema_cls = base.keyword_validators["schema"]

    class _Ids(set[int]):
        append = set.add  # the list method the library calls

    class SchemaValidator(schema_cls):  # type: ignore[misc, valid-type]
        def __init__(self, registry: Any) -> None:
            super().__init__(registry)
            self.visited_schema_ids = _Ids()
            self.meta_checked_schema_ids = _Ids()

    table = {**base.keyword_validators, "schema": SchemaValidator}
    return type(base.__name__, (base,), {"keyword_validators": table})


def _validate(doc: Document, spec: str, version: str, base_uri: str) -> None:
    cls = _spec_validator(version)
    try:
        errors = list(cls(doc.value, base_uri=base_uri).iter_errors())
    except RecursionError:
        raise McpgenError("the document nests too deeply or refers to itself", path=spec) from None
    except Exception as exc:  # noqa: BLE001 - the validator gave up on this document
        quoted = re.search(r"'([^']*)'", str(exc))
        at = find_ref(doc.value, quoted.group(1)) if quoted else None
        if at is not None:
            line, col = doc.source_map.locate(at)
            ref = str(resolve_pointer(doc.value, at)[1])
            raise McpgenError(
                f"$ref {ref!r} points at nothing in the document", path=spec, line=line, col=col
            ) from None
        raise McpgenError(
            f"openapi-spec-validator could not read the document ({type(exc).__name__}: "
            f"{str(exc)[:120]})",
            path=spec,
        ) from None
    if not errors:
        return
    located = []
    for err in errors[:_MAX_SHOWN]:
        pointer = pointer_from_path(list(getattr(err, "absolute_path", ()) or ()))
        line, col = doc.source_map.locate(pointer)
        message = " ".join(str(getattr(err, "message", err)).split())
        message = message.split(" Failed validating ")[0]
        located.append((line, col, message[:300]))
    line, col, message = located[0]
    more = (
        f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})"
        if len(errors) > 1
        else ""
    )
    raise McpgenError(
        f"not a valid OpenAPI {version} document: {message}{more}", path=spec, line=line, col=col
    )
