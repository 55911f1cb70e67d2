"""The generator's IR of a manifest's tools, resources and prompts, shared by every package it
generates (server, client, CLI) and by ``mcpgen export summary``: ``tools`` (each tool's names,
exact JSON, schemas and dialects), ``resources_prompts`` (resources, resource templates,
prompts) and ``models`` (which models a package's one generator run makes).
``mcpgen.server.ir`` and ``mcpgen.client.ir`` add only what belongs to their package."""
