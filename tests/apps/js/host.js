// The test host: an MCP client of the generated server (Streamable HTTP, same origin through
// the test's relay at /mcp) and ext-apps' own host side, AppBridge, for one view. It reads the
// view the tool names (_meta.ui.resourceUri) with resources/read, renders it in a sandboxed
// iframe (srcdoc, allow-scripts only: an opaque origin, as hosts do), and lets AppBridge
// forward the view's tools/call to the server. window.host records what the test asserts on.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

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
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.srcdoc = contents.text;
}

main().catch((err) => { host.errors.push(String(err && err.stack || err)); });
