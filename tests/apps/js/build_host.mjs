// Bundles host.js (MCP client + ext-apps AppBridge) for the browser: node build_host.mjs OUT.js
import { build } from "esbuild";

await build({
  entryPoints: ["host.js"], bundle: true, format: "iife", target: "es2020",
  outfile: process.argv[2], logLevel: "warning",
});
