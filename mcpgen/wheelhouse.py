"""Where a new project gets ``mcpgen`` and ``mcpgen-runtime`` from (``mcpgen init``).

From the package index when this mcpgen came from there. When it came from a checkout or a
local wheel (PEP 610 ``direct_url.json`` says so), the distributions are not on the index (yet),
so ``init`` puts their wheels into the project's ``wheels/`` directory (copied, or built from
the source directory with ``pip wheel``) and the next step installs with ``--find-links wheels``.
Once both are on the index, delete ``wheels/`` and drop the flag; nothing else changes.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

from mcpgen.errors import McpgenError

DISTRIBUTIONS = ("mcpgen", "mcpgen-runtime")
WHEELS_DIR = "wheels"


@dataclass(frozen=True)
class Source:
    dist: str
    local: Path | None
    """A local wheel file or source directory; None when installed from an index."""


def sources() -> list[Source]:
    """How each distribution was installed, from its PEP 610 record."""
    out = []
    for dist in DISTRIBUTIONS:
        try:
            text = metadata.distribution(dist).read_text("direct_url.json")
        except metadata.PackageNotFoundError:
            raise McpgenError(f"{dist} is not installed in this environment") from None
        local = None
        if text:
            url = json.loads(text).get("url", "")
            parsed = urlparse(url)
            if parsed.scheme == "file":
                local = Path(unquote(parsed.path))
        out.append(Source(dist, local))
    return out


def needs_wheels(found: list[Source]) -> bool:
    return any(s.local is not None for s in found)


def put_wheels(found: list[Source], project: Path) -> list[Path]:
    """Copy or build a wheel of every locally installed distribution into ``project/wheels``;
    wheels already there are kept. Raises ``McpgenError`` with the way out when a source is gone
    or does not build."""
    target = project / WHEELS_DIR
    target.mkdir(parents=True, exist_ok=True)
    made: list[Path] = []
    for s in found:
        if s.local is None:
            continue
        prefix = s.dist.replace("-", "_") + "-"
        have = sorted(p for p in target.glob(prefix + "*.whl"))
        if have:
            made.append(have[-1])
            continue
        if s.local.is_file() and s.local.suffix == ".whl":
            made.append(Path(shutil.copy2(s.local, target / s.local.name)))
            continue
        if not s.local.is_dir():
            raise McpgenError(
                f"{s.dist} was installed from {s.local}, which is gone; put a wheel of it into "
                f"{target} (or install it from a package index) and run mcpgen init again"
            )
        proc = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(target)]
            + [str(s.local)],
            capture_output=True,
            text=True,
        )
        built = sorted(target.glob(prefix + "*.whl"))
        if proc.returncode != 0 or not built:
            detail = (proc.stderr or proc.stdout).strip().splitlines()
            raise McpgenError(
                f"cannot build a wheel of {s.dist} from {s.local}: "
                + (detail[-1] if detail else f"pip exited {proc.returncode}")
            )
        made.append(built[-1])
    return made
