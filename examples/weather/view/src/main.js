// The forecast card: renders get_forecast's structured result, pushed by the host when the
// model calls the tool (ontoolresult) or fetched through the host (callServerTool).
import { App } from "@modelcontextprotocol/ext-apps";

const ICONS = { sunny: "\u2600", cloudy: "\u2601", rain: "\u2602", snow: "\u2744" }; // text glyphs
const $ = (id) => document.getElementById(id);
const app = new App({ name: "weather-forecast-card", version: "1.0.0" });

function render(result) {
  const list = $("days-list");
  list.replaceChildren();
  const data = result && result.structuredContent;
  if (!data || !Array.isArray(data.days)) {
    const text = (result?.content || []).find((c) => c.type === "text")?.text;
    $("status").textContent = result?.isError ? "error" : "no forecast";
    $("status").className = result?.isError ? "error" : "muted";
    if (text) list.append(Object.assign(document.createElement("li"), { textContent: text }));
    return;
  }
  const where = [data.location?.city, data.location?.country].filter(Boolean).join(", ");
  $("title").textContent = `Forecast · ${where}`;
  $("status").textContent = `${data.days.length} days`;
  $("status").className = "muted";
  for (const day of data.days) {
    const li = document.createElement("li");
    li.dataset.condition = day.condition;
    const name = new Date(`${day.date}T12:00:00Z`).toLocaleDateString("en", { weekday: "short", timeZone: "UTC" });
    li.innerHTML = '<div class="day"></div><div class="icon"></div><div class="temps"><span class="high"></span><span class="low"></span></div><div class="muted cond"></div>';
    li.querySelector(".day").textContent = name;
    li.querySelector(".icon").textContent = ICONS[day.condition] || "·";
    li.querySelector(".high").textContent = `${Math.round(day.high)}°`;
    li.querySelector(".low").textContent = `${Math.round(day.low)}°`;
    li.querySelector(".cond").textContent = day.condition;
    list.append(li);
  }
}

app.ontoolresult = render;

$("show").addEventListener("click", async (event) => {
  event.preventDefault();
  $("show").disabled = true;
  $("status").textContent = "loading…";
  try {
    render(await app.callServerTool({
      name: "get_forecast",
      arguments: { location: { city: $("city").value }, days: Number($("days").value) },
    }));
  } catch (err) {
    $("status").textContent = `error: ${err.message || err}`;
    $("status").className = "error";
  } finally {
    $("show").disabled = false;
  }
});

app.connect().then(() => {
  $("status").textContent = "ready";
  $("show").disabled = false;
});
