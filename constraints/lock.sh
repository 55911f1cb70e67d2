#!/usr/bin/env bash
# Rewrites the two locks of the test environment with uv (pinned in the `lock` extra).
#   constraints/test.txt    the versions the README's test command installs (CI's default mode);
#                           `--upgrade` moves every pin to the newest version the ranges allow today.
#   constraints/lowest.txt  every direct dependency at the lowest version its range allows
#                           (`MCPGEN_DEPS=lowest bash .ci/run` tests that end).
#   constraints/test-py3.10.txt  the same inputs resolved for Python 3.10, the oldest declared
#                           Python (.ci/run's inner loop on 3.10; the two locks above are 3.11+:
#                           several pinned test tools need 3.11 and are left out on 3.10).
# Usage: pip install -e '.[lock]' && bash constraints/lock.sh [--upgrade]
set -euo pipefail
cd "$(dirname "$0")/.."
common=(--universal --python-version 3.11 --no-emit-package mcpgen --no-emit-package mcpgen-runtime
        --custom-compile-command "bash constraints/lock.sh" constraints/test.in)
uv pip compile -q "${common[@]}" "$@" -o constraints/test.txt
uv pip compile -q "${common[@]}" "$@" --resolution lowest-direct -o constraints/lowest.txt
uv pip compile -q --python-version 3.10 --no-emit-package mcpgen --no-emit-package mcpgen-runtime \
    --custom-compile-command "bash constraints/lock.sh" "$@" constraints/test.in \
    -o constraints/test-py3.10.txt
# The bench's FastMCP peer (bench/bench_server.py installs it into its own venv).
uv pip compile -q --python-version 3.11 --custom-compile-command "bash constraints/lock.sh" \
    -c constraints/test.txt bench/peers/fastmcp.in -o bench/peers/fastmcp.txt
