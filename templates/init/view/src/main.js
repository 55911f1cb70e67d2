// The view of the `greet` tool (tools.yaml: _meta.ui.resourceUri). Hosts that render MCP Apps
// show it; it renders the tool's result, and calls the tool again through the host.
import { App } from "@modelcontextprotocol/ext-apps";

const app = new App({ name: "greeting-view", version: "0.1.0" });
const $ = (id) => document.getElementById(id);

function render(result) {
  $("greeting").textContent = result?.structuredContent?.greeting
    ?? (result?.content || []).find((c) => c.type === "text")?.text ?? "";
}

app.ontoolresult = render; // the host pushes the result of the model's call

$("greet").addEventListener("click", async () => {
  render(await app.callServerTool({ name: "greet", arguments: { name: $("name").value } }));
});

app.connect().then(() => { $("greet").disabled = false; });
