"""``python -m shop_cli``: call the "shop-api" MCP server's tools from a shell.

mcpgen created this file once and never overwrites it.
"""

from ._generated.cli import main

if __name__ == "__main__":
    main()
