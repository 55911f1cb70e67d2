"""Registers `mcpgen breaking`'s rules (defined in ``mcpgen_runtime.breaking.rules``, one table
for the generator, ``mcpgen drift`` and a generated client's ``verify=True``) with the registry.

Only the table is imported here: listing or configuring the rules does not load the comparisons
(``mcpgen.check.breaking``).
"""

from __future__ import annotations

from mcpgen.check.registry import register
from mcpgen_runtime.breaking.rules import RULES

for _rule in RULES.values():
    register(_rule)
