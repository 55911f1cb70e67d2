"""``Value``: what a frozen dataclass gives a small record (``==``, ``hash``, ``repr``, a changed
copy), read from ``__slots__`` instead of compiled.

``@dataclass`` compiles each class's methods when its module is imported (``exec``): for the
few records every server builds at start (``ServerInfo``, ``Limits``, ``TaskSettings``,
``Caller``) that was about 30M instructions, some 5 ms of a first call. A subclass lists its
fields in ``__slots__``, in ``__init__``'s order and names, and is immutable by use.
"""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["Value"]

V = TypeVar("V", bound="Value")


class Value:
    __slots__: tuple[str, ...] = ()
    _repr_hides: tuple[str, ...] = ()
    """Fields ``repr`` leaves out (a secret)."""

    def replace(self: V, **changes: Any) -> V:
        """A copy with ``changes`` (as ``dataclasses.replace``)."""
        values = {name: getattr(self, name) for name in self.__slots__}
        values.update(changes)
        return type(self)(**values)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.__slots__)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in self.__slots__))

    def __repr__(self) -> str:
        shown = (f"{n}={getattr(self, n)!r}" for n in self.__slots__ if n not in self._repr_hides)
        return f"{type(self).__name__}({', '.join(shown)})"
