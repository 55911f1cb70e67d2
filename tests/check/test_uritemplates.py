"""``mcpgen.uritemplates`` loads the SDK's RFC 6570 module without importing the whole SDK,
and that module behaves exactly as the normal import does."""

from __future__ import annotations

import subprocess
import sys

import pytest

TEMPLATES = [
    "a://t/{id}",
    "a://{x}/{+rest}",
    "a://s{?q,page}",
    "a://{x}{y}",
    "a://{x",
    "a://p{/seg*}",
]
URIS = ["a://t/1", "a://t/a%20b", "a://s?q=1&page=2", "a://p/x/y", "a://other"]


def _outcomes(module: object) -> list[object]:
    out: list[object] = []
    for text in TEMPLATES:
        try:
            t = module.UriTemplate.parse(text)  # type: ignore[attr-defined]
        except module.InvalidUriTemplate as exc:  # type: ignore[attr-defined]
            out.append(("invalid", str(exc)))
            continue
        out.append(
            (
                t.variable_names,
                [t.match(u) for u in URIS],
                t.expand({v: "x y" for v in t.variable_names}),
            )
        )
    return out


def test_standalone_module_behaves_as_the_sdk_import() -> None:
    from mcpgen_runtime.server import sdk_adapter

    standalone = sdk_adapter._uri_template_file()
    assert standalone is not None and standalone.__name__ == "_mcpgen_sdk_uri_template"
    import mcp.shared.uri_template as sdk

    assert _outcomes(standalone) == _outcomes(sdk)


@pytest.mark.parametrize("command", ["check"])
def test_check_of_a_manifest_with_templates_does_not_import_the_sdk(
    command: str, tmp_path: object
) -> None:
    code = (
        "import sys\n"
        "from mcpgen.cli import main\n"
        "sys.argv = ['mcpgen', 'check', '-q', sys.argv[1]]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('mcp' in sys.modules, '_mcpgen_sdk_uri_template' in sys.modules)\n"
    )
    from pathlib import Path

    manifest = Path(str(tmp_path)) / "m.yaml"
    manifest.write_text(
        "tools: []\nresourceTemplates:\n  - {uriTemplate: 'a://t/{id}', name: t}\n",
        encoding="utf-8",
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(manifest)], capture_output=True, text=True, check=True
    )
    assert out.stdout.split()[-2:] == ["False", "True"]
