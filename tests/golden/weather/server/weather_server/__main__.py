"""``python -m weather_server``: serve over stdio; ``--http --port N`` for Streamable HTTP.

mcpgen created this file once and never overwrites it.
"""

try:
    from ._generated import create_server, load_handlers, run_cli
except ImportError as exc:  # no runtime, or one that does not fit: one line, no traceback
    raise SystemExit(f"{exc}") from None

if __name__ == "__main__":
    # run_cli at module level: a handlers.py that does not import ends with one line
    run_cli(create_server, load_handlers("weather_server"), prog="python -m weather_server")
