#!/usr/bin/env node
// Interop driver on the official TypeScript SDK v2 client (@modelcontextprotocol/client, pinned in
// package.json next to this file). Used by tests/interop/test_ts_client.py; run it with Node >= 22.
//
//   node ts_client.mjs [--mode legacy|auto|2026-07-28] --calls JSON [--header 'Name: value']  http://127.0.0.1:PORT/mcp
//   node ts_client.mjs [--mode ...] --calls JSON  -- python -m weather_server     (stdio)
//
// --calls is a JSON array of {"name": ..., "arguments": {...}}. The driver connects, lists every
// page of tools/list, then makes each call in order, and prints ONE JSON document on stdout:
//   {client, protocolVersion, serverInfo, tools, calls: [{name, arguments, result?, error?, outputSchemaValid?}]}
// A call that throws is recorded as error {code, message, name} (the JSON-RPC code when the SDK
// surfaced one) instead of aborting, so the test can assert on protocol errors. structuredContent
// of successful results is validated against the tool's outputSchema with ajv (outputSchemaValid).
// Exit status: 0 when the document was printed; 1 on connection/protocol failure (stderr has JSON).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Ajv } from 'ajv';

const here = dirname(fileURLToPath(import.meta.url));
const pkgVersion = (name) =>
  JSON.parse(readFileSync(join(here, 'node_modules', name, 'package.json'), 'utf8')).version;

function parseArgs(argv) {
  const dd = argv.indexOf('--');
  const opts = dd >= 0 ? argv.slice(0, dd) : argv;
  const o = { mode: 'legacy', calls: [], headers: {}, url: undefined, cmd: dd >= 0 ? argv.slice(dd + 1) : [] };
  for (let i = 0; i < opts.length; i++) {
    const a = opts[i];
    if (a === '--mode') o.mode = opts[++i];
    else if (a === '--calls') o.calls = JSON.parse(opts[++i]);
    else if (a === '--header') {
      const [name, ...rest] = opts[++i].split(':');
      o.headers[name.trim()] = rest.join(':').trim();
    }
    else o.url = a;
  }
  if (!o.cmd.length && !o.url) throw new Error('give a URL or -- COMMAND...');
  return o;
}

function errorRecord(e) {
  // ProtocolError / McpError carry the JSON-RPC code; SdkError carries a string code.
  return { name: e?.name ?? null, code: e?.code ?? null, message: String(e?.message ?? e), data: e?.data ?? null };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const mode = o.mode === 'legacy' || o.mode === 'auto' ? o.mode : { pin: o.mode };
  const client = new Client(
    { name: 'mcpgen-interop-ts', version: '0.1.0' },
    { capabilities: {}, versionNegotiation: { mode } },
  );
  const transport = o.cmd.length
    ? new StdioClientTransport({ command: o.cmd[0], args: o.cmd.slice(1), env: process.env, stderr: 'inherit' })
    : new StreamableHTTPClientTransport(new URL(o.url), { requestInit: { headers: o.headers } });
  const out = {
    client: '@modelcontextprotocol/client ' + pkgVersion('@modelcontextprotocol/client'),
    mode: o.mode,
    target: o.cmd.length ? { stdio: o.cmd } : { url: o.url },
  };
  await client.connect(transport);
  try {
    out.protocolVersion = client.getNegotiatedProtocolVersion?.() ?? transport.protocolVersion ?? null;
    out.serverInfo = client.getServerVersion?.() ?? null;
    const tools = [];
    let cursor;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    out.tools = tools;
    out.calls = [];
    const ajv = new Ajv({ strict: false });
    for (const c of o.calls) {
      const rec = { name: c.name, arguments: c.arguments ?? {} };
      try {
        rec.result = await client.callTool({ name: c.name, arguments: c.arguments ?? {} });
        const tool = tools.find((t) => t.name === c.name);
        if (tool?.outputSchema && !rec.result.isError) {
          rec.outputSchemaValid = ajv.validate(tool.outputSchema, rec.result.structuredContent);
          if (!rec.outputSchemaValid) rec.outputSchemaError = ajv.errorsText();
        }
      } catch (e) {
        rec.error = errorRecord(e);
      }
      out.calls.push(rec);
    }
  } finally {
    await client.close();
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(JSON.stringify({ error: String(e?.stack ?? e) }) + '\n');
    process.exit(1);
  },
);
