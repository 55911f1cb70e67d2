"""YAML scalars as YAML 1.2 reads them (the core schema, as JSON has them), with a warning
wherever a YAML 1.1 reader (PyYAML's ``safe_load``, many CI tools) would read something else:
``yes``/``on`` as booleans, ``010`` as octal, ``1e3`` as a string, unquoted dates. A number
JSON cannot carry (an integer beyond Python's digit limit, a float literal beyond the double
range) is a located error, as in a JSON manifest. Used by ``yamlpos`` for every scalar
event."""

from __future__ import annotations

import re
import sys
from typing import Any

TAG = "tag:yaml.org,2002:"
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
YAML11_BOOLS = {
    w: w.lower() in ("y", "yes", "on")
    for base in ("y", "yes", "n", "no", "on", "off")
    for w in (base, base.capitalize(), base.upper())
}
# as keys, only the words PyYAML turns into booleans (``x``/``y`` property names are common)
YAML11_BOOL_KEYS = frozenset(k for k in YAML11_BOOLS if len(k) > 1)
_INT = re.compile(r"[-+]?[0-9]+\Z")
_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_OCT = re.compile(r"0o[0-7]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_INF_NAN = re.compile(r"[-+]?\.(?:inf|Inf|INF)\Z|\.(?:nan|NaN|NAN)\Z")
# PyYAML's YAML 1.1 resolvers (the readers we warn about)
_FLOAT11 = re.compile(
    r"[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?\Z|\.[0-9_]+(?:[eE][-+][0-9]+)?\Z"
    r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*\Z"
)
_INT11 = re.compile(
    r"[-+]?0b[0-1_]+\Z|[-+]?0[0-7_]+\Z|[-+]?(?:0|[1-9][0-9_]*)\Z|[-+]?0x[0-9a-fA-F_]+\Z"
    r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+\Z"
)
_TIMESTAMP = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z"
    r"|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}"
    r"(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?\Z"
)


def resolve_scalar(ev: Any, ptr: str, warn: Any, fail: Any) -> Any:
    """The JSON value of a plain or tagged scalar event (YAML 1.2 core schema); ``warn`` where
    a YAML 1.1 reader would see something else, ``fail`` for a tag whose value is invalid."""
    v: str = ev.value
    tag = ev.tag
    if tag is not None:
        return _tagged(v, tag, ev, fail)
    if ev.style:  # quoted, literal or folded
        return v
    if v in _NULLS:
        return None
    b = _BOOLS.get(v)
    if b is not None:
        return b
    if v in YAML11_BOOLS:
        warn(
            "YAML_IMPLICIT_TYPE",
            ev.start_mark,
            ptr,
            f"unquoted {v!r} is the string {v!r} here (YAML 1.2), but YAML 1.1 tools read it as "
            f"the boolean {str(YAML11_BOOLS[v]).lower()}; write true/false or quote it",
        )
        return v
    if v[0] not in "-+.0123456789":
        return v
    if _INT.match(v):
        n = read_int(v, 10, ev, fail)
        digits = v.lstrip("+-")
        if len(digits) > 1 and digits[0] == "0":
            warn(
                "YAML_IMPLICIT_TYPE",
                ev.start_mark,
                ptr,
                f"{v!r} is the decimal integer {n} here (YAML 1.2), but YAML 1.1 tools read "
                "a leading 0 as octal; drop the 0 or quote it",
            )
        return n
    if _HEX.match(v):
        return read_int(v, 16, ev, fail)
    if _OCT.match(v):
        n = read_int(v[2:], 8, ev, fail)
        warn(
            "YAML_IMPLICIT_TYPE",
            ev.start_mark,
            ptr,
            f"{v!r} is the integer {n} here (YAML 1.2), but YAML 1.1 tools read it as "
            "a string; write the decimal number or quote it",
        )
        return n
    if _FLOAT.match(v):
        f = read_float(v, ev, fail)
        if not _FLOAT11.match(v):
            warn(
                "YAML_IMPLICIT_TYPE",
                ev.start_mark,
                ptr,
                f"{v!r} is the number {f!r} here (YAML 1.2, JSON), but YAML 1.1 tools read it as "
                "a string; write it with a dot and signed exponent (1.0e+3) or quote it",
            )
        return f
    if _INF_NAN.match(v):
        warn(
            "YAML_IMPLICIT_TYPE",
            ev.start_mark,
            ptr,
            f"{v!r} is kept as a string: JSON has no infinity or NaN; "
            "quote it to make that explicit",
        )
        return v
    if _TIMESTAMP.match(v):
        if not (ptr == "/protocol" or ptr.startswith("/protocol/")):
            warn(
                "YAML_TIMESTAMP",
                ev.start_mark,
                ptr,
                f"unquoted timestamp {v!r} is kept as a string here, but YAML 1.1 tools read it "
                "as a date; quote it",
            )
        return v
    if _INT11.match(v) or _FLOAT11.match(v):
        warn(
            "YAML_IMPLICIT_TYPE",
            ev.start_mark,
            ptr,
            f"{v!r} is the string {v!r} here (YAML 1.2), but YAML 1.1 tools read it as a number; "
            "quote it, or write a plain number",
        )
    return v


_STR_SAFE_BITS = 2000  # 602 digits: below any sys.set_int_max_str_digits() limit (>= 640)
_INF = float("inf")


def read_int(text: str, base: int, ev: Any, fail: Any) -> int:
    """``int(text, base)``, or ``fail`` (a located error) for an integer with more digits than
    Python converts (``sys.get_int_max_str_digits()``, 4,300 by default): it could be neither
    read nor written back as JSON, so no command could use it. A ``ValueError`` (not a number
    at all) is the caller's."""
    limit = sys.get_int_max_str_digits()
    digits = text.lstrip("+-")
    too_large = base == 10 and 0 < limit < len(digits) and digits.isascii() and digits.isdigit()
    if not too_large:
        n = int(text, base)
        if n.bit_length() <= _STR_SAFE_BITS:
            return n
        try:
            str(n)  # a hex or octal literal reads, but its decimal form is what JSON writes
            return n
        except ValueError:
            pass
    raise fail(
        ev.start_mark,
        f"an integer with more than {limit} digits ({len(text)} characters) is too large to "
        "read or to write as JSON; write a smaller number, or quote it to make it a string",
    )


def read_float(text: str, ev: Any, fail: Any) -> float:
    """``float(text)``, or ``fail`` for a literal beyond the double range: JSON has no
    infinity (``json.dumps`` refuses it, and the served schema must be JSON)."""
    f = float(text)
    if f in (_INF, -_INF):
        raise fail(
            ev.start_mark,
            f"{text[:40]} is too large for a JSON number (it would be infinity); "
            "write a smaller number, or quote it to make it a string",
        )
    return f


def _tagged(v: str, tag: str, ev: Any, fail: Any) -> Any:
    if tag in ("!", TAG + "str", TAG + "timestamp", TAG + "binary"):
        return v
    try:
        if tag == TAG + "null":
            if v in _NULLS:
                return None
        elif tag == TAG + "bool":
            low = v.lower()
            if low in ("true", "false", "yes", "no", "on", "off", "y", "n"):
                return low in ("true", "yes", "on", "y")
        elif tag == TAG + "int":
            s = v.replace("_", "")
            if _OCT.match(s):
                return read_int(s[2:], 8, ev, fail)
            prefixed = s.lstrip("+-")[:2].lower() in ("0x", "0b")
            return read_int(s, 0 if prefixed else 10, ev, fail)
        elif tag == TAG + "float":
            f = read_float(v.replace("_", ""), ev, fail)
            if f == f:
                return f
        else:
            raise fail(ev.start_mark, f"unsupported YAML tag {tag}")
    except ValueError:
        pass
    raise fail(ev.start_mark, f"{v!r} is not a valid {tag.rsplit(':', 1)[-1]}")
