#!/usr/bin/env node
// Benchmark peer: the TypeScript SDK (@modelcontextprotocol/sdk 1.32.2, McpServer) serving the
// same add(a, b) -> {sum} tool as bench/add_manifest.yaml. Installed by bench/bench_server.py
// from bench/peers/js/package-lock.json. The 1.x SDK speaks the handshake wires only.
//
//   node bench/peers/ts_add.mjs                       # stdio
//   node bench/peers/ts_add.mjs --http --port 8123    # Streamable HTTP, 127.0.0.1:8123/mcp,
//                                                     # sessions, JSON responses
import { createRequire } from "node:module";
import { randomUUID } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// The SDK lives in bench/peers/js/node_modules (this script sits beside that folder).
const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "js", "package.json"));
const load = (name) => import(pathToFileURL(require.resolve(name)).href);

const { McpServer } = await load("@modelcontextprotocol/sdk/server/mcp.js");
const { z } = await load("zod");

function build() {
  const server = new McpServer({ name: "bench-ts-sdk", version: "1.0.0" });
  server.registerTool(
    "add",
    {
      description: "Add two integers",
      inputSchema: { a: z.number().int(), b: z.number().int() },
      outputSchema: { sum: z.number().int() },
    },
    async ({ a, b }) => {
      const data = { sum: a + b };
      return { content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: data };
    },
  );
  return server;
}

const args = process.argv.slice(2);
if (!args.includes("--http")) {
  const { StdioServerTransport } = await load("@modelcontextprotocol/sdk/server/stdio.js");
  await build().connect(new StdioServerTransport());
} else {
  const { StreamableHTTPServerTransport } = await load(
    "@modelcontextprotocol/sdk/server/streamableHttp.js",
  );
  const { isInitializeRequest } = await load("@modelcontextprotocol/sdk/types.js");
  const port = Number(args[args.indexOf("--port") + 1] || 8123);
  const sessions = new Map();
  const readBody = (req) =>
    new Promise((resolve, reject) => {
      const chunks = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => resolve(chunks.length ? JSON.parse(Buffer.concat(chunks)) : undefined));
      req.on("error", reject);
    });
  http
    .createServer(async (req, res) => {
      if (!req.url.startsWith("/mcp")) {
        res.writeHead(404).end();
        return;
      }
      const body = req.method === "POST" ? await readBody(req) : undefined;
      const sid = req.headers["mcp-session-id"];
      let transport = sid ? sessions.get(sid) : undefined;
      if (!transport && req.method === "POST" && isInitializeRequest(body)) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: true,
          onsessioninitialized: (id) => sessions.set(id, transport),
        });
        transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
        await build().connect(transport);
      }
      if (!transport) {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "no session" } }));
        return;
      }
      await transport.handleRequest(req, res, body);
    })
    .listen(port, "127.0.0.1");
}
