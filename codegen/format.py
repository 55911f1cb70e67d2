"""The only module that touches black. Formatting happens in memory, never as a shell step."""

from __future__ import annotations

import functools
from typing import Any

LINE_LENGTH = 100


@functools.cache
def _mode() -> Any:
    from black.mode import Mode, TargetVersion

    return Mode(line_length=LINE_LENGTH, target_versions={TargetVersion.PY310})


def format_python(source: str) -> str:
    """Format ``source`` with the pinned black; raises ``SyntaxError``-like errors from black
    when the source does not parse (a generator bug: callers let it surface)."""
    import black

    return black.format_str(source, mode=_mode())
