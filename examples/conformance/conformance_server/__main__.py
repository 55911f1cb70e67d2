"""``python -m conformance_server``: serve over stdio; ``--http --port N`` for Streamable HTTP.

mcpgen created this file once and never overwrites it.
"""

from ._generated import main

if __name__ == "__main__":
    main()
