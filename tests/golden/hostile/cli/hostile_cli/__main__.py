"""``python -m hostile_cli``: call the "h\\"\\"\\"ostile '''{{ server }}{% raw %}</script>" MCP server's tools from a shell.

mcpgen created this file once and never overwrites it.
"""

from ._generated.cli import main

if __name__ == "__main__":
    main()
