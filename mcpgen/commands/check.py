"""`mcpgen check` and `mcpgen rules`."""

from __future__ import annotations

import json
import sys
from collections.abc import Collection
from pathlib import Path

import click

from mcpgen.check.profiles import PROFILES
from mcpgen.report import FORMATS

_CHECK_HELP = """Lint MCP tool manifests (YAML or JSON) against the spec's rules.

Prints one line per finding, `path:line:col: severity RULE_ID message`. Every rule has a
stable id, a default severity and the protocol revisions it applies to (the manifest's
`protocol` list selects them); `mcpgen rules` lists them all, with the reason for each default.

\b
Defaults mean "act on this": an error is a spec violation or a manifest mcpgen cannot use, a
warning means a real client or model fails or degrades. Advice is `info`: counted in the
summary, listed with --show-info (text and github output; json and sarif always list it).
A warning or info that repeats 4 or more times in one file is collapsed into one line naming
the count and the next locations (--verbose lists each); errors are never collapsed.

\b
Configuration, in the nearest pyproject.toml (found by walking up from the current directory):
  [tool.mcpgen.check]
  disable = ["PROPERTY_DESCRIPTION_MISSING"]
  enable = ["TOOL_NAME_PORTABLE"]           # rules that are off by default
  severity = { TOOL_DESCRIPTION_MISSING = "error", ANNOTATION_REDUNDANT = "off" }
  fail-on = "warning"                       # error (default) | warning | info | none
  name-max-length = 64                      # the 64-character tool-name profile
  target = ["openai-strict", "gemini"]      # model-API profiles, off by default

\b
Inline, in YAML: a `# mcpgen: ignore RULE_ID[, RULE_ID]` comment at the end of a line silences
those rules on that line; on a line of its own, on the next line.
"""


def _format_option(f: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(FORMATS),
        default="text",
        show_default=True,
        help="Output format (github = workflow commands; sarif = SARIF 2.1.0).",
    )(f)


def _fail_on_option(f: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--fail-on",
        type=click.Choice(("error", "warning", "info", "none")),
        default=None,
        help="Lowest severity that makes the exit code 1 (default: config, else error).",
    )(f)


@click.command("check", help=_CHECK_HELP)
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=True, path_type=str))
@_format_option
@_fail_on_option
@click.option(
    "--name-profile",
    type=click.IntRange(1, 128),
    default=None,
    metavar="N",
    help="Maximum tool-name length (128 = the spec; 64 = Claude Desktop and others).",
)
@click.option("--enable", multiple=True, metavar="RULE", help="Turn a rule on (repeatable).")
@click.option("--disable", multiple=True, metavar="RULE", help="Turn a rule off (repeatable).")
@click.option(
    "--target",
    "targets",
    multiple=True,
    metavar="NAMES",
    help=f"Model-API profiles to check against, comma-separated: {', '.join(PROFILES)} "
    "(`mcpgen rules` lists their rules and sources).",
)
@click.option(
    "--config",
    "config_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Read [tool.mcpgen] from this pyproject.toml instead of searching.",
)
@click.option(
    "--show-info",
    is_flag=True,
    help="List info findings too (text and github output; they are always counted).",
)
@click.option(
    "--verbose", "-v", is_flag=True, help="One line per finding: never collapse repeated findings."
)
@click.option(
    "--quiet", "-q", is_flag=True, help="Print findings only: no summary line, nothing on success."
)
@click.option(
    "--statistics",
    is_flag=True,
    help="Print the number of findings per rule instead of the findings (text or json).",
)
def check(
    files: tuple[str, ...],
    fmt: str,
    fail_on: str | None,
    name_profile: int | None,
    enable: tuple[str, ...],
    disable: tuple[str, ...],
    targets: tuple[str, ...],
    config_path: Path | None,
    show_info: bool,
    verbose: bool,
    quiet: bool,
    statistics: bool,
) -> None:
    from mcpgen.check import catalog
    from mcpgen.check.config import load_config, parse_targets
    from mcpgen.check.runner import check_file, exit_code
    from mcpgen.diagnostics import Severity
    from mcpgen.report import render, summary
    from mcpgen.report import statistics as stats_table

    if statistics and fmt not in ("text", "json"):
        raise click.UsageError("--statistics prints text or json")
    rules = catalog.load_all()
    try:
        wanted = parse_targets(targets)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--target'") from None
    cfg = load_config(rules, explicit=config_path).check
    cfg = cfg.merged(
        enable=_ids(enable, rules),
        disable=_ids(disable, rules),
        fail_on=fail_on,
        name_max_length=name_profile,
        targets=wanted,
    )
    results = [check_file(f, cfg) for f in files]
    diags = [d for r in results for d in r.diagnostics]
    if statistics:
        click.echo(stats_table(diags, fmt), nl=False)
        code = exit_code(results, cfg.fail_on)
        if code:
            sys.exit(code)
        return
    # info is advice: counted, listed on request (or when it fails the run)
    hide_info = fmt in ("text", "github") and not show_info and cfg.fail_on != Severity.INFO
    shown = [d for d in diags if d.severity > Severity.INFO] if hide_info else diags
    out = render(shown, fmt, rules=rules, related_label="see", collapse=not verbose)
    if out:
        click.echo(out, nl=False)
    if fmt == "text" and not quiet:
        tools = sum(r.tools for r in results)
        counts = tuple(sum(r.resources_and_prompts[i] for r in results) for i in range(3))
        hidden = len(diags) - len(shown)
        click.echo(
            summary(
                shown, len(files), hidden_info=hidden, tools=tools, resources_and_prompts=counts
            ),
            err=True,
        )
    code = exit_code(results, cfg.fail_on)
    if code:
        sys.exit(code)


def _ids(values: tuple[str, ...], rules: Collection[str]) -> list[str]:
    from mcpgen.check.registry import canonical_id

    out = []
    for v in values:
        for part in v.split(","):
            rid = canonical_id(part)
            if rid and rid not in rules:
                raise click.BadParameter(f"unknown rule {part.strip()!r} (see `mcpgen rules`)")
            if rid:
                out.append(rid)
    return out


@click.command("rules")
@click.option(
    "--format", "fmt", type=click.Choice(("text", "json")), default="text", show_default=True
)
@click.option(
    "--category",
    type=click.Choice(("load", "lint", "breaking")),
    default=None,
    help="Only rules of this category.",
)
@click.option(
    "--target",
    type=click.Choice(tuple(PROFILES)),
    default=None,
    help="Only the rules this model-API profile turns on (`mcpgen check --target`).",
)
def rules(fmt: str, category: str | None, target: str | None) -> None:
    """List every rule: id, category, default severity, revisions, purpose and why it has that
    default."""
    from mcpgen.check import catalog
    from mcpgen.check.profiles import rules_for
    from mcpgen.check.registry import CATEGORIES, describe_revisions

    table = catalog.load_all()
    ordered = sorted(table.values(), key=lambda r: (CATEGORIES.index(r.category), r.id))
    if category:
        ordered = [r for r in ordered if r.category == category]
    if target:
        wanted = rules_for(frozenset([target]))
        ordered = [r for r in ordered if r.id in wanted]
    if fmt == "json":
        click.echo(json.dumps([r.as_dict() for r in ordered], indent=2))
        return
    width = max(len(r.id) for r in ordered)
    rwidth = max(len(describe_revisions(r.revisions)) for r in ordered)
    click.echo(
        f"{'RULE':<{width}}  {'CATEGORY':<8}  {'DEFAULT':<7}  {'REVISIONS':<{rwidth}}  PURPOSE"
    )
    pad = " " * (width + 2)
    for r in ordered:
        default = r.severity.label if r.default_enabled else "off"
        flags = "" if r.default_enabled else f" (off by default; {r.severity.label} when enabled)"
        click.echo(
            f"{r.id:<{width}}  {r.category:<8}  {default:<7}  "
            f"{describe_revisions(r.revisions):<{rwidth}}  {r.purpose}{flags}"
        )
        click.echo(f"{pad}why: {r.why}")
        if r.aliases:
            click.echo(f"{pad}formerly: {', '.join(r.aliases)}")
