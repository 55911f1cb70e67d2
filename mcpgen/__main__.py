from mcpgen.cli import run

run()
