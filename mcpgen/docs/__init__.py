"""A human-readable reference of one generated server (``mcpgen docs``): Markdown and one
self-contained HTML page, built from the checked manifest. See ``mcpgen.docs.build``."""
