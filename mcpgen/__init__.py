"""mcpgen: schema-first code generation for the Model Context Protocol.

The import package is ``mcpgen``; the distribution and the command are ``mcpgen``.
This module must stay cheap to import: ``mcpgen --help`` imports it.
"""

__version__ = "0.4.0"
