"""``python -m conformance_server``: serve over stdio; ``--http --port N`` for Streamable HTTP.

mcpgen created this file once and never overwrites it.
"""

from ._generated import create_server, run_cli
from .handlers import Handlers

if __name__ == "__main__":
    run_cli(create_server, Handlers(), prog="python -m conformance_server")
