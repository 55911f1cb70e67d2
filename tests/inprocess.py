"""``mcpgen ...`` run in the test's own process, answered as ``subprocess.run`` answers.

Each ``python -m mcpgen`` a test starts costs 0.3-1 s of CPU, most of it importing the
generator (datamodel-code-generator, jinja2, referencing) again; the suite started hundreds.
Where what a test proves is the command's behaviour (its exit code, its two streams, the files
it writes) and not the process itself, it runs ``mcpgen.cli.main``, the function the console
script calls, here: the streams and the environment are swapped by click's ``CliRunner``
(``isolation``), the working directory by ``os.chdir``, and the exit code is ``main``'s
``SystemExit``. What needs a process of its own stays a subprocess: the console script and
``python -m mcpgen`` themselves (tests/test_entrypoint.py), start-up imports
(tests/protocol/test_cli_hygiene.py), hash seeds (tests/test_byte_stable.py), bytecode
(tests/server/test_runtime_version.py), signals, and ``--debug``'s traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path


def mcpgen(
    *args: str | Path,
    cwd: str | Path | None = None,
    env: Mapping[str, str | None] | None = None,
    input: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """``mcpgen *args`` in ``cwd`` with the variables ``env`` sets (``None``: unset; the rest of
    the environment is this process's), as ``subprocess.run(..., capture_output=True,
    text=True)`` would answer it."""
    from click.testing import CliRunner

    from mcpgen.cli import main

    argv = [str(a) for a in args]
    runner = CliRunner()
    cleared = {"MCPGEN_DEBUG": None, **(env or {})}  # as a fresh shell has it, unless asked
    with runner.isolation(input=input, env=cleared) as (out, err, _):
        here = os.getcwd()
        if cwd is not None:
            os.chdir(cwd)
        try:
            main(argv)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        finally:
            os.chdir(here)
            sys.stdout.flush()  # what the command wrote without click.echo (which flushes)
            sys.stderr.flush()
        stdout = out.getvalue().decode()
        stderr = err.getvalue().decode()
    return subprocess.CompletedProcess(["mcpgen", *argv], code, stdout, stderr)


def process(
    *args: str | Path, cwd: str | Path | None = None, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m mcpgen *args`` in a process of its own (``env``: its whole environment), for
    the one run per command family that crosses the process boundary."""
    return subprocess.run(
        [sys.executable, "-m", "mcpgen", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=None if env is None else dict(env),
        stdin=subprocess.DEVNULL,
        timeout=600,
    )


def environment(full: Mapping[str, str]) -> dict[str, str | None]:
    """The ``env`` for :func:`mcpgen` that makes the environment exactly ``full`` (what
    ``subprocess.run(..., env=full)`` gives the child): the rest of this process's unset."""
    changes: dict[str, str | None] = {k: None for k in os.environ if k not in full}
    changes.update({k: v for k, v in full.items() if os.environ.get(k) != v})
    return changes
