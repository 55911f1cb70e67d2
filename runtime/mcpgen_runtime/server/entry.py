"""A generated package's entry point (``python -m PKG`` and the console script): ``run_cli``
and the user's ``handlers.py`` through ``load_handlers``.

Both are light: ``load_handlers`` returns a ``DeferredHandlers`` that imports ``handlers.py``
when the server is built, and ``run_cli`` starts the lean engine's fast boot
(``lean.boot``: discovery answered from the package's precomputed answers while the runtime,
the handlers and the SDK are imported) or, where that does not apply, the full command line
(``cli.run_cli``). A ``handlers.py`` that cannot be imported ends the process with one line
(``loading``).

The caller then calls ``run_cli`` itself, at module level in ``__main__.py``: every frame
between the module and the event loop costs instructions on every call (something on the SDK's
call path walks the stack; measured with ``bench/bench_server.py --instructions``)."""

from __future__ import annotations

from typing import Any

from .loading import DeferredHandlers, load_handlers, resolve_handlers

__all__ = ["DeferredHandlers", "load_handlers", "resolve_handlers", "run_cli"]


def run_cli(create: Any, handlers: Any, argv: Any = None, *, prog: str | None = None) -> None:
    """``python -m <package> ...`` (see ``cli.run_cli``): on stdio with the lean engine, the
    fast boot (``lean.boot``) when the package has precomputed answers that fit the options."""
    from ..lean.boot import boot

    if boot(create, handlers, argv, prog):
        return
    from .cli import run_cli as full

    full(create, handlers, argv, prog=prog)
