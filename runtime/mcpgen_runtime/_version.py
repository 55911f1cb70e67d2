"""Versions of this distribution (one place; mcpgen pins ``mcpgen-runtime`` to the same one)."""

__version__ = "0.2.0"

API_VERSION: tuple[int, int] = (1, 0)
"""The runtime API generated packages are written against: ``(major, minor)``.

A generated package records the API it needs. It imports with this runtime when the majors are
equal and this minor is at least the one it needs (protobuf's runtime_version rule). Bump the
minor for additions generated code may use, the major for anything that breaks existing
generated code.
"""
