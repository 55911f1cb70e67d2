"""Generator policy applied to a (patched) spec schema before model generation.

* ``strip_descriptions``: upstream prose is not copied into the project by default.
* ``add_discriminators``: unions whose arms are all ``$ref``s to objects carrying a distinct
  constant on the same required property (content ``type``, request ``method``, 2026
  ``resultType``) become pydantic discriminated unions: faster, and one clear error on a bad tag.
* ``check_refs``: every ``$ref`` must point at an existing definition.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mcpgen.errors import McpgenError
from mcpgen_runtime import schemawalk


def walk(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object in ``schema`` with its JSON pointer (pre-order)."""
    for node in schemawalk.walk(schema):
        yield node.pointer, node.schema


def strip_descriptions(doc: dict[str, Any]) -> None:
    """Remove ``description`` keywords (not properties named "description") in place."""
    for _, node in walk(doc):
        if isinstance(node.get("description"), str):
            del node["description"]


def definitions(doc: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    if isinstance(doc.get("$defs"), dict):
        return "$defs", doc["$defs"]
    if isinstance(doc.get("definitions"), dict):
        return "definitions", doc["definitions"]
    raise McpgenError("schema has neither $defs nor definitions")


def _ref_target(ref: str, container: str, defs: dict[str, Any]) -> dict[str, Any] | None:
    prefix = f"#/{container}/"
    if not ref.startswith(prefix):
        return None
    target = defs.get(ref[len(prefix) :])
    return target if isinstance(target, dict) else None


def _const_of(prop: Any) -> Any:
    if isinstance(prop, dict):
        if "const" in prop:
            return prop["const"]
        enum = prop.get("enum")
        if isinstance(enum, list) and len(enum) == 1:
            return enum[0]
    return None


def _discriminator_for(
    arms: list[Any], container: str, defs: dict[str, Any]
) -> dict[str, Any] | None:
    targets = []
    for arm in arms:
        if not (isinstance(arm, dict) and set(arm) == {"$ref"}):
            return None
        target = _ref_target(arm["$ref"], container, defs)
        if target is None or not isinstance(target.get("properties"), dict):
            return None
        targets.append((arm["$ref"], target))
    for prop in ("type", "method", "resultType"):
        mapping: dict[str, str] = {}
        for ref, target in targets:
            value = _const_of(target["properties"].get(prop))
            if (
                not isinstance(value, str)
                or prop not in target.get("required", [])
                or value in mapping
            ):
                break
            mapping[value] = ref
        else:
            return {"propertyName": prop, "mapping": mapping}
    return None


def add_discriminators(doc: dict[str, Any]) -> int:
    """Tag eligible ``anyOf``/``oneOf`` unions in place; returns how many were tagged."""
    container, defs = definitions(doc)
    count = 0
    for _, node in walk(doc):
        for key in ("anyOf", "oneOf"):
            arms = node.get(key)
            if isinstance(arms, list) and len(arms) > 1 and "discriminator" not in node:
                disc = _discriminator_for(arms, container, defs)
                if disc is not None:
                    node["discriminator"] = disc
                    count += 1
    return count


def check_refs(doc: dict[str, Any], origin: str) -> None:
    container, defs = definitions(doc)
    for ptr, node in walk(doc):
        ref = node.get("$ref")
        if ref is None:
            continue
        if not isinstance(ref, str) or _ref_target(ref, container, defs) is None:
            raise McpgenError(f"$ref {ref!r} at {ptr or '/'} points at no definition", path=origin)


def _pascal(name: str) -> str:
    return "".join(
        part[:1].upper() + part[1:] for part in name.replace("-", "_").split("_") if part
    )


def name_inline_composites(doc: dict[str, Any]) -> int:
    """Give inline ``allOf`` property schemas a definition of their own, named
    ``<Type><Property>`` (``HeaderMismatchErrorError``), so the generator does not fall back
    to numbered names (``Error1``, ``Error2``). Returns how many were hoisted."""
    container, defs = definitions(doc)
    count = 0
    for type_name in sorted(defs):
        props = defs[type_name].get("properties")
        if not isinstance(props, dict):
            continue
        for prop_name, prop in props.items():
            if not (isinstance(prop, dict) and isinstance(prop.get("allOf"), list)):
                continue
            new_name = f"{type_name}{_pascal(prop_name)}"
            if new_name in defs:
                continue
            defs[new_name] = prop
            props[prop_name] = {"$ref": f"#/{container}/{new_name}"}
            count += 1
    return count
