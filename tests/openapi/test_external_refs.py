"""External ``$ref``s: refused at their place by default; with ``--allow-external-refs`` files
in the document's directory are followed (schemas become ``$defs``), and nothing outside it
is ever read, nor any URL."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests import inprocess

API = """\
openapi: 3.1.0
info: {title: Pets, version: 1.0.0}
paths:
  /pets/{id}:
    get:
      operationId: getPet
      description: One pet.
      parameters:
        - $ref: "params.yaml#/components/parameters/PetId"
      responses:
        "200":
          description: a pet
          content:
            application/json:
              schema: {$ref: "schemas/pet.yaml"}
  /pets:
    post:
      operationId: addPet
      description: Add a pet.
      requestBody:
        content:
          application/json:
            schema: {$ref: "schemas/pet.yaml"}
      responses:
        "201": {description: created}
components:
  schemas:
    Tag: {type: integer}
"""
FILES = {
    "params.yaml": """\
        components:
          parameters:
            PetId:
              name: id
              in: path
              required: true
              schema: {type: integer, minimum: 1}
        """,
    "schemas/pet.yaml": """\
        type: object
        properties:
          name: {type: string}
          owner: {$ref: "#/$defs/Owner"}
          friends: {type: array, items: {$ref: "pet.yaml"}}
          tag: {$ref: "tag.yaml#/Tag"}
        required: [name]
        $defs:
          Owner: {type: object, properties: {email: {type: string}}}
        """,
    "schemas/tag.yaml": "Tag: {type: string, enum: [cat, dog]}\n",
}


def _mcpgen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """In this process (tests/inprocess.py), MCPGEN_DEBUG unset: exit code and streams as a
    subprocess gives them."""
    return inprocess.mcpgen(*args, cwd=cwd)


@pytest.fixture()
def api(tmp_path: Path) -> Path:
    d = tmp_path / "api"
    (d / "schemas").mkdir(parents=True)
    (d / "api.yaml").write_text(API)
    for name, text in FILES.items():
        (d / name).write_text(textwrap.dedent(text))
    return d


def _manifest(path: Path) -> Any:
    from mcpgen.manifest.sourcemap import parse_text

    return parse_text(path.read_text(), path.name).value


def test_refused_by_default_at_the_ref(api: Path) -> None:
    p = _mcpgen("import", "openapi", "api.yaml", "-o", "tools.yaml", cwd=api)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.strip() == (
        "mcpgen: error: api.yaml:9:17: external $ref 'params.yaml#/components/parameters/PetId' "
        "is refused: pass --allow-external-refs to read files in the document's directory"
    )
    assert not (api / "tools.yaml").exists()


def test_allowed_files_become_defs_and_the_result_checks_and_generates(api: Path) -> None:
    p = _mcpgen(
        "import", "openapi", "api.yaml", "-o", "tools.yaml", "--allow-external-refs", cwd=api
    )
    assert p.returncode == 0, p.stderr
    m = _manifest(api / "tools.yaml")
    get, add = m["tools"]
    assert get["inputSchema"]["properties"]["id"] == {"type": "integer", "minimum": 1}
    assert add["inputSchema"]["properties"]["body"] == {"$ref": "#/$defs/pet"}
    # the external Tag does not take the main document's Tag's name
    assert set(m["$defs"]) == {"pet", "Owner", "Tag_2"}
    pet = m["$defs"]["pet"]
    assert pet["properties"]["friends"]["items"] == {"$ref": "#/$defs/pet"}  # recursive
    assert pet["properties"]["tag"] == {"$ref": "#/$defs/Tag_2"}
    assert "$defs" not in pet  # hoisted, not copied
    assert m["$defs"]["Tag_2"] == {"type": "string", "enum": ["cat", "dog"]}
    c = _mcpgen("check", "tools.yaml", cwd=api)
    assert c.returncode == 0, c.stdout + c.stderr
    g = _mcpgen("server", "tools.yaml", "--out", "srv", "--package", "pets_server", cwd=api)
    assert g.returncode == 0, g.stderr
    imp = subprocess.run(
        [sys.executable, "-c", "import pets_server._generated.server"],
        cwd=api / "srv",
        capture_output=True,
        text=True,
    )
    assert imp.returncode == 0, imp.stderr


@pytest.mark.parametrize(
    ("target", "setup", "message"),
    [
        ("../outside.yaml", None, "$ref '../outside.yaml' leaves the document's directory"),
        ("link.yaml", "symlink", "$ref 'link.yaml' leaves the document's directory"),
        ("https://example.com/pet.yaml", None, "mcpgen never fetches a $ref from a URL"),
        ("missing.yaml", None, "$ref 'missing.yaml': no such file"),
        ("pet%00.yaml", None, "$ref 'pet%00.yaml': a file name cannot hold a NUL character"),
    ],
)
def test_what_is_never_read(api: Path, target: str, setup: str | None, message: str) -> None:
    (api.parent / "outside.yaml").write_text("type: object\n")
    if setup == "symlink":
        (api / "link.yaml").symlink_to(api.parent / "outside.yaml")
    (api / "api.yaml").write_text(
        API.replace('"schemas/pet.yaml"}\n  /pets:', f'"{target}"}}\n  /pets:')
    )
    p = _mcpgen("import", "openapi", "api.yaml", "-o", "t.yaml", "--allow-external-refs", cwd=api)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.startswith("mcpgen: error: api.yaml:15:30: ") and message in p.stderr, p.stderr
    assert not (api / "t.yaml").exists()


def test_a_broken_file_is_located_in_that_file(api: Path) -> None:
    (api / "schemas" / "tag.yaml").write_text("Tag: {type: [string,\n")
    p = _mcpgen("import", "openapi", "api.yaml", "-o", "t.yaml", "--allow-external-refs", cwd=api)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    first = p.stderr.splitlines()[0]
    assert first.startswith(f"mcpgen: error: {Path('schemas') / 'tag.yaml'}:2:1: invalid YAML"), (
        first
    )
    assert "(reached by $ref 'tag.yaml#/Tag' at schemas/pet.yaml:" in first


def test_a_cycle_across_files_is_located(api: Path) -> None:
    (api / "params.yaml").write_text(
        "components:\n  parameters:\n    PetId: {$ref: 'api.yaml#/components/parameters/Id'}\n"
    )
    (api / "api.yaml").write_text(
        API + "  parameters:\n    Id: {$ref: 'params.yaml#/components/parameters/PetId'}\n"
    )
    p = _mcpgen("import", "openapi", "api.yaml", "-o", "t.yaml", "--allow-external-refs", cwd=api)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "$ref cycle through" in p.stderr, p.stderr


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ("#", "$ref '#' points at the whole document, not a schema"),
        ("#/components/schemas/Missing", "$ref '#/components/schemas/Missing' points at nothing"),
        ("schemas/pet.yaml#/nope", "$ref 'schemas/pet.yaml#/nope' points at nothing"),
    ],
)
def test_refs_to_nothing_are_located(api: Path, ref: str, message: str) -> None:
    (api / "api.yaml").write_text(
        API.replace('"schemas/pet.yaml"}\n  /pets:', f'"{ref}"}}\n  /pets:')
    )
    p = _mcpgen("import", "openapi", "api.yaml", "-o", "t.yaml", "--allow-external-refs", cwd=api)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.startswith("mcpgen: error: api.yaml:15:30: ") and message in p.stderr, p.stderr
