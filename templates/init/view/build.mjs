// Bundles src/main.js (with ext-apps' App and its dependencies) into src/index.html's
// <script data-bundle> and writes dist/index.html: one self-contained HTML file, no CDN.
import { readFile, mkdir, writeFile } from "node:fs/promises";
import { build } from "esbuild";

const out = await build({
  entryPoints: ["src/main.js"],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  legalComments: "none",
  write: false,
  logLevel: "warning",
});
const js = out.outputFiles[0].text.replaceAll("</script", "<\\/script");
const page = await readFile("src/index.html", "utf8");
const marker = '<script type="module" src="./main.js" data-bundle></script>';
if (!page.includes(marker)) throw new Error(`src/index.html has no ${marker}`);
await mkdir("dist", { recursive: true });
await writeFile("dist/index.html", page.replace(marker, () => `<script>${js}</script>`));
console.log(`dist/index.html: ${Buffer.byteLength(js)} bytes of script`);
