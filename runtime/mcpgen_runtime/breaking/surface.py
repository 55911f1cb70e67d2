"""Breaking changes in resources, resource templates and prompts (buf's sense: what makes an
existing client, prompt or saved URI fail): a removed resource, template or prompt; a template
whose variables changed; a prompt argument that became required or was removed; completions
that were removed.

Entries are paired by their key (a resource's ``uri``, a template's ``name``, a prompt's
``name``); each side is a list of ``(raw entry, JSON pointer)``. Template variables are read with
the SDK's RFC 6570 parser, imported only when there are templates to compare.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .pairs import Emit

__all__ = ["Entry", "compare_surface"]

Entry = tuple[Mapping[str, Any], str]
"""One resource, template or prompt as written, and where it is."""


def _by(entries: Sequence[Entry], key: str) -> dict[str, Entry]:
    out: dict[str, Entry] = {}
    for raw, ptr in entries:
        value = raw.get(key)
        if isinstance(value, str):
            out.setdefault(value, (raw, ptr))
    return out


def _removed(
    emit: Emit, rule: str, what: str, key: str, old: Sequence[Entry], new: Sequence[Entry], at: str
) -> dict[str, tuple[Entry, Entry]]:
    """Report entries of ``old`` missing from ``new``; the pairs that remain."""
    old_by, new_by = _by(old, key), _by(new, key)
    pairs: dict[str, tuple[Entry, Entry]] = {}
    for value, (raw, ptr) in old_by.items():
        if value in new_by:
            pairs[value] = ((raw, ptr), new_by[value])
        else:
            emit(rule, at, f"{ptr}/{key}", f"{what} {value!r} was removed", new_key=True)
    return pairs


def _variables(template: Any) -> list[str] | None:
    from mcp.shared.uri_template import InvalidUriTemplate, UriTemplate

    try:
        return list(UriTemplate.parse(str(template)).variable_names)
    except InvalidUriTemplate:
        return None


def _completions(raw: Mapping[str, Any], holder: str) -> dict[str, tuple[str, str]]:
    """Name -> (pointer suffix, name) of each argument or variable that lists completions."""
    out: dict[str, tuple[str, str]] = {}
    if holder == "arguments":
        for i, a in enumerate(raw.get("arguments") or ()):
            if isinstance(a, dict) and isinstance(a.get("completions"), list):
                out[str(a.get("name"))] = (f"/arguments/{i}/completions", str(a.get("name")))
    else:
        variables = raw.get("variables")
        for name, spec in variables.items() if isinstance(variables, dict) else ():
            if isinstance(spec, dict) and isinstance(spec.get("completions"), list):
                out[str(name)] = (f"/variables/{name}/completions", str(name))
    return out


def _lost_completions(emit: Emit, what: str, old: Entry, new: Entry, holder: str) -> None:
    (old_raw, old_ptr), (new_raw, new_ptr) = old, new
    kept = _completions(new_raw, holder)
    for name, (suffix, _n) in _completions(old_raw, holder).items():
        if name not in kept:
            emit(
                "COMPLETION_NO_DELETE",
                new_ptr,
                old_ptr + suffix,
                f"{what}: the completions of {name!r} were removed",
                new_key=True,
            )


def compare_surface(
    emit: Emit,
    old: Mapping[str, Sequence[Entry]],
    new: Mapping[str, Sequence[Entry]],
    pointers: Mapping[str, str] | None = None,
    *,
    completions: bool = True,
) -> None:
    """``old``/``new``: ``resources``, ``resourceTemplates`` and ``prompts`` entries;
    ``pointers``: where each section is on the new side (a removal points there).
    ``completions``: compare completions too (False when one side is a live server, whose
    lists do not show them)."""
    at = pointers or {}
    from .apps import compare_views, split_views

    old_views, old_resources = split_views(old.get("resources", ()))
    compare_views(emit, old_views, new.get("resources", ()), at.get("resources", ""))
    _removed(
        emit,
        "RESOURCE_NO_DELETE",
        "resource",
        "uri",
        old_resources,
        new.get("resources", ()),
        at.get("resources", ""),
    )
    templates = _removed(
        emit,
        "RESOURCE_TEMPLATE_NO_DELETE",
        "resource template",
        "name",
        old.get("resourceTemplates", ()),
        new.get("resourceTemplates", ()),
        at.get("resourceTemplates", ""),
    )
    for name, (o, n) in templates.items():
        what = f"resource template {name!r}"
        before, after = _variables(o[0].get("uriTemplate")), _variables(n[0].get("uriTemplate"))
        if before is not None and after is not None and before != after:
            emit(
                "TEMPLATE_VARIABLES_NO_CHANGE",
                n[1] + "/uriTemplate",
                o[1] + "/uriTemplate",
                f"{what}: variables changed from {', '.join(before) or 'none'} to "
                f"{', '.join(after) or 'none'}; URIs clients build stop matching",
                old_key=False,
            )
        if completions:
            _lost_completions(emit, what, o, n, "variables")
    prompts = _removed(
        emit,
        "PROMPT_NO_DELETE",
        "prompt",
        "name",
        old.get("prompts", ()),
        new.get("prompts", ()),
        at.get("prompts", ""),
    )
    for name, (o, n) in prompts.items():
        what = f"prompt {name!r}"
        old_args = {
            str(a.get("name")): (i, a)
            for i, a in enumerate(o[0].get("arguments") or ())
            if isinstance(a, dict)
        }
        new_args = {
            str(a.get("name")): (i, a)
            for i, a in enumerate(n[0].get("arguments") or ())
            if isinstance(a, dict)
        }
        for arg, (i, a) in new_args.items():
            if a.get("required") is not True:
                continue
            prior = old_args.get(arg)
            if prior is None or prior[1].get("required") is not True:
                emit(
                    "PROMPT_ARGUMENT_REQUIRED_NO_ADD",
                    f"{n[1]}/arguments/{i}",
                    o[1] + (f"/arguments/{prior[0]}" if prior else ""),
                    f"{what}: argument {arg!r} "
                    + ("became required" if prior else "is a new required argument"),
                    old_key=False,
                )
        for arg, (i, _a) in old_args.items():
            if arg not in new_args:
                emit(
                    "PROMPT_ARGUMENT_NO_DELETE",
                    n[1],
                    f"{o[1]}/arguments/{i}",
                    f"{what}: argument {arg!r} was removed",
                    new_key=True,
                )
        if completions:
            _lost_completions(emit, what, o, n, "arguments")
