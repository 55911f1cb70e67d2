from codegen.cli import run

run()
