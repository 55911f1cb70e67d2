"""Code mode: the model's Python, run in the pydantic-monty sandbox against the server's tools.

``run_code`` (``sandbox.py``) runs one script; ``limits.py`` holds the limits, their defaults and
what enforces each. The typed API the model reads and the table ``run_code`` takes are computed
at build time by the generator (``mcpgen.codemode.compile_api``). The sandbox is the optional
extra ``mcpgen-runtime[codemode]``, imported on the first run only.
"""

from mcpgen_runtime.codemode.limits import ALLOWED_MODULES, DEFAULT_LIMITS, resolve_limits
from mcpgen_runtime.codemode.sandbox import CallHook, run_code

__all__ = ["ALLOWED_MODULES", "DEFAULT_LIMITS", "CallHook", "resolve_limits", "run_code"]
