"""Fixtures of the auth tests: a real identity provider (``idp.IdentityProvider``) and the
``vault`` server generated from ``data/vault.yaml``, served over HTTP as its OAuth resource
server."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.auth.idp import IdentityProvider
from tests.interop.procs import HttpServer, free_port
from tests.server.helpers import write_package

DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def vault_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("vault")
    manifest = out / "vault.yaml"
    manifest.write_text((DATA / "vault.yaml").read_text())
    write_package(manifest, out, "vault", (DATA / "vault_handlers.py").read_text())
    return out


def serve_vault(package: Path, *args: str, env: dict[str, str] | None = None) -> HttpServer:
    port = free_port()
    full_env = {
        **{k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")},
        "PYTHONPATH": str(package),
        **(env or {}),
    }
    return HttpServer(
        cmd=[
            sys.executable,
            "-m",
            "vault",
            "--http",
            "--port",
            str(port),
            "--log-level",
            "INFO",
            *args,
        ],
        env=full_env,
        port=port,
    )


@pytest.fixture(scope="module")
def idp() -> Iterator[IdentityProvider]:
    with IdentityProvider() as provider:
        yield provider


@pytest.fixture(scope="module")
def vault(vault_package: Path, idp: IdentityProvider) -> Iterator[HttpServer]:
    srv = serve_vault(vault_package, env={"MCPGEN_AUTH_ISSUER": idp.issuer})
    srv.start()
    yield srv
    srv.stop()
