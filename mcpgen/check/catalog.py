"""Imports every module that registers rules, so RULES and CHECKERS are complete."""

from __future__ import annotations

from mcpgen.check import registry


def load_lint() -> dict[str, registry.Rule]:
    from mcpgen.check import (  # noqa: F401
        rules_apps,
        rules_auth,
        rules_discovery,
        rules_fidelity,
        rules_headers,
        rules_http,
        rules_icons,
        rules_meta,
        rules_names,
        rules_profiles,
        rules_registry,
        rules_schema,
        rules_skills,
        rules_surface,
        rules_tasks,
        rules_toolsets,
    )

    return registry.RULES


def load_all() -> dict[str, registry.Rule]:
    load_lint()
    from mcpgen.check import rules_breaking  # noqa: F401

    return registry.RULES
