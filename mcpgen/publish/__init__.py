"""Publishing a generated server: the registry entry (``server.json``), the MCP Bundle
(``mcpgen bundle``) and the Server Card (``mcpgen export server-card``). Builders here are pure
(``{path: bytes}`` or a JSON document); the commands read the environment and write
atomically."""
