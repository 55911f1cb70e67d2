"""A forwarded call's request parts, made from the tool's arguments: OpenAPI parameter
serialization, and the guards that keep a model-chosen argument from changing which endpoint
is called, which credential is used, or how the request is framed.

Serialization follows the OpenAPI 3.1 style table (``style``/``explode`` in the binding, the
location's default when absent):

* RFC 6570 styles through ``uri-template`` (a maintained RFC 6570 implementation): ``simple``
  (``{v}``), ``label`` (``{.v}``), ``matrix`` (``{;v}``) and ``form`` (``{?v}``), each with
  ``*`` when exploded;
* the three that are not RFC 6570, written here: ``spaceDelimited`` and ``pipeDelimited``
  (an array's items joined by ``%20`` or ``%7C``) and ``deepObject`` (``name[key]=value``);
* headers take the ``simple`` style unencoded (values must be visible ASCII); cookies take
  ``form``, each value percent-encoded, exploded arrays and objects as separate cookies (as
  OpenAPI 3.2's ``cookie`` style writes them).

Guards (each a ``Refused`` whose message names the argument):

* a path value that is empty, ``.`` or ``..``, or that contains ``/`` or ``\\`` (also once
  percent-decoded): the HTTP client would drop a dot segment and some servers decode ``%2F``
  before routing, so either could reach another endpoint; the assembled path is checked again
  segment by segment;
* header and cookie values with control characters (CR, LF, NUL...) or non-ASCII characters;
* header names that are not the model's to set (``RESERVED_HEADERS``) are never sent from
  arguments, and cookie names from an exploded object must be tokens.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote, unquote

from ..http_places import DEFAULT_STYLE, RESERVED_HEADERS, STYLES

__all__ = [
    "DEFAULT_STYLE",
    "RESERVED_HEADERS",
    "STYLES",
    "Refused",
    "cookie_pairs",
    "expand_path",
    "header_value",
    "path_part",
    "query_pairs",
]

_TOKEN = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")  # RFC 9110 token (cookie names)
_UNSAFE_TEXT = re.compile(r"[\x00-\x1f\x7f]|[^\x00-\x7f]")
_PATH_VAR = re.compile(r"\{([^{}]+)\}")


class Refused(ValueError):
    """An argument that would change the request's target, credentials or framing."""


def _varname(name: str) -> str:
    """``name`` as an RFC 6570 varname (characters other than ALPHA, DIGIT and ``_``
    percent-encoded, which the template writes out as they are)."""
    return (
        "".join(c if c.isascii() and (c.isalnum() or c == "_") else quote(c, safe="") for c in name)
        or "_"
    )


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    import json

    return json.dumps(value, ensure_ascii=False)


def _prepared(value: Any) -> Any:
    """``value`` with its scalars as strings (what ``uri-template`` expands); nested arrays
    and objects, which no style defines, as JSON text."""
    if isinstance(value, Mapping):
        return {str(k): _scalar(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_scalar(v) for v in value]
    return _scalar(value)


def _expand(operator: str, name: str, value: Any, explode: bool) -> str:
    import uri_template

    var = _varname(name)
    template = "{" + operator + var + ("*" if explode else "") + "}"
    return str(uri_template.URITemplate(template).expand(**{var: _prepared(value)}))


def _strings(value: Any) -> list[str]:
    if isinstance(value, Mapping):
        return [s for k, v in value.items() for s in (str(k), _scalar(v))]
    if isinstance(value, list):
        return [_scalar(v) for v in value]
    return [_scalar(value)]


def _decoded(text: str) -> str:
    for _ in range(3):  # a value percent-encoded twice is still looked through
        step = unquote(text)
        if step == text:
            break
        text = step
    return text


def _path_refused(prop: str, text: str) -> Refused:
    shown = "an empty value" if not text else repr(text)
    return Refused(
        f"argument {prop!r}: {shown} is not allowed in the URL path (it would change the "
        "endpoint that is called)"
    )


def path_part(prop: str, name: str, value: Any, style: str, explode: bool) -> str:
    """One path parameter's expansion (``simple``, ``label`` or ``matrix``)."""
    texts = _strings(value)
    if not isinstance(value, (list, Mapping)) and _decoded(texts[0]) in ("", ".", ".."):
        raise _path_refused(prop, texts[0])
    if not texts:
        raise _path_refused(prop, "")
    for text in texts:
        decoded = _decoded(text)
        if "/" in decoded or "\\" in decoded:
            raise _path_refused(prop, text)
    operator = {"simple": "", "label": ".", "matrix": ";"}.get(style)
    if operator is None:
        raise Refused(f"argument {prop!r}: style {style!r} is not defined for path parameters")
    return _expand(operator, name, value, explode)


def expand_path(template: str, parts: Mapping[str, str]) -> str:
    """``template`` with each ``{name}`` replaced by its expansion, every replaced segment
    checked again: never empty, ``.`` or ``..`` (the client would drop or merge it)."""
    missing = [m.group(1) for m in _PATH_VAR.finditer(template) if m.group(1) not in parts]
    if missing:
        raise Refused(f"missing path argument {missing[0]!r} for {template}")
    path = _PATH_VAR.sub(lambda m: parts[m.group(1)], template)
    want = template.split("/")
    got = path.split("/")
    if len(got) != len(want):
        raise Refused(f"the arguments would change the path {template}")
    for seg_t, seg in zip(want, got, strict=True):
        if "{" in seg_t and unquote(seg) in ("", ".", ".."):
            raise Refused(f"the arguments would change the path {template} (segment {seg_t})")
    return path


def query_pairs(prop: str, name: str, value: Any, style: str, explode: bool) -> list[str]:
    """One query parameter as encoded ``key=value`` pairs (none for an empty array)."""
    if style == "form":
        text = _expand("?", name, value, explode)
        return text[1:].split("&") if text else []
    key = quote(name, safe="")
    if style in ("spaceDelimited", "pipeDelimited") and isinstance(value, list):
        if not value:
            return []
        items = [quote(_scalar(v), safe="") for v in value]
        if explode:
            return [f"{key}={v}" for v in items]
        return [f"{key}=" + ("%20" if style == "spaceDelimited" else "%7C").join(items)]
    if style == "deepObject" and isinstance(value, Mapping):
        return [
            f"{key}[{quote(str(k), safe='')}]={quote(_scalar(v), safe='')}"
            for k, v in value.items()
        ]
    raise Refused(
        f"argument {prop!r}: style {style!r} does not apply to a value of this type "
        f"({type(value).__name__})"
    )


def _visible(prop: str, where: str, text: str) -> str:
    if _UNSAFE_TEXT.search(text):
        raise Refused(
            f"argument {prop!r}: a {where} value cannot hold control characters (CR, LF, NUL...) "
            "or non-ASCII characters"
        )
    return text


def header_value(prop: str, value: Any, explode: bool) -> str:
    """A header parameter's value (``simple`` style, unencoded, visible ASCII only)."""
    if isinstance(value, Mapping):
        items: Sequence[str] = (
            [f"{k}={_scalar(v)}" for k, v in value.items()] if explode else _strings(value)
        )
    else:
        items = _strings(value)
    return _visible(prop, "header", ",".join(_visible(prop, "header", s) for s in items))


def _cookie_text(prop: str, text: str) -> str:
    return quote(_visible(prop, "cookie", text), safe="")


def cookie_pairs(prop: str, name: str, value: Any, explode: bool) -> list[tuple[str, str]]:
    """A cookie parameter as (name, encoded value) pairs (``form`` style)."""
    if isinstance(value, Mapping) and explode:
        pairs = []
        for key, item in value.items():
            if not _TOKEN.match(str(key)):
                raise Refused(f"argument {prop!r}: {str(key)!r} is not a cookie name")
            pairs.append((str(key), _cookie_text(prop, _scalar(item))))
        return pairs
    if isinstance(value, list) and explode:
        return [(name, _cookie_text(prop, _scalar(v))) for v in value]
    return [(name, ",".join(_cookie_text(prop, s) for s in _strings(value)))]
