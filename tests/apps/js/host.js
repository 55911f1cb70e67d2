// The test host: an MCP client of the generated server (Streamable HTTP, same origin through
// the test's relay at /mcp) and ext-apps' own host side, AppBridge, for one view. It reads the
// view the tool names (_meta.ui.resourceUri) with resources/read, renders it in a sandboxed
// iframe (srcdoc, allow-scripts only: an opaque origin, as hosts do) under the Content Security
// Policy its `_meta.ui.csp` asks for (ext-apps' McpUiResourceCsp mapping: nothing declared, no
// network) and the `allow` list of its `_meta.ui.permissions` (ext-apps' buildAllowAttribute),
// and lets AppBridge forward the view's tools/call to the server. window.host records what the
// test asserts on.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AppBridge, PostMessageTransport, buildAllowAttribute } from "@modelcontextprotocol/ext-apps/app-bridge";

// McpUiResourceCsp -> a policy: connectDomains -> connect-src; resourceDomains -> img, script,
// style, font and media sources; frameDomains -> frame-src; baseUriDomains -> base-uri. Inline
// script and style stay allowed (a view is one HTML document); everything else is refused.
export function policyOf(csp = {}) {
  const list = (v) => (Array.isArray(v) ? v.filter((d) => /^[a-z][a-z0-9+.-]*:\/\/[^\s;,'"]+$/i.test(d)) : []);
  const res = list(csp.resourceDomains).join(" ");
  const src = (extra) => [extra, res].filter(Boolean).join(" ");
  return [
    "default-src 'none'",
    `script-src ${src("'unsafe-inline'")}`,
    `style-src ${src("'unsafe-inline'")}`,
    `img-src ${src("data: blob:")}`,
    `font-src ${src("data:")}`,
    `media-src ${src("data: blob:")}`,
    `connect-src ${list(csp.connectDomains).join(" ") || "'none'"}`,
    `frame-src ${list(csp.frameDomains).join(" ") || "'none'"}`,
    `base-uri ${list(csp.baseUriDomains).join(" ") || "'self'"}`,
    "form-action 'none'",
  ].join("; ");
}

// the policy as the document's first <meta> (before any script runs), HTML-escaped
function underPolicy(html, policy) {
  const attr = policy.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  const meta = `<meta http-equiv="Content-Security-Policy" content="${attr}">`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  return head ? html.slice(0, head.index + head[0].length) + meta + html.slice(head.index + head[0].length) : meta + html;
}

const params = new URLSearchParams(location.search);
const toolName = params.get("tool");
const host = (window.host = { errors: [] });

async function main() {
  const client = new Client({ name: "mcpgen-apps-test-host", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.href)));
  host.serverCapabilities = client.getServerCapabilities();
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === toolName);
  host.toolMeta = tool?._meta ?? null;
  const uri = tool?._meta?.ui?.resourceUri;
  const read = await client.readResource({ uri });
  const [contents] = read.contents;
  host.view = { uri, mimeType: contents.mimeType, meta: contents._meta ?? null, bytes: new TextEncoder().encode(contents.text).length };

  const bridge = new AppBridge(
    client,
    { name: "mcpgen-apps-test-host", version: "1.0.0" },
    { serverTools: {}, logging: {} },
    { hostContext: { theme: "light", displayMode: "inline" } },
  );
  bridge.oninitialized = () => { host.initialized = true; };
  bridge.onsizechange = ({ height }) => {
    if (height) document.getElementById("view").style.height = `${Math.ceil(height)}px`;
  };
  const frame = document.getElementById("view");
  const ui = contents._meta?.ui ?? {};
  host.csp = policyOf(ui.csp);
  host.allow = buildAllowAttribute(ui.permissions);
  if (host.allow) frame.setAttribute("allow", host.allow);
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.srcdoc = underPolicy(contents.text, host.csp);
}

main().catch((err) => { host.errors.push(String(err && err.stack || err)); });
