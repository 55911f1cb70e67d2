// Opens the test host (host.html) in @sparticuz/chromium's headless Chromium (puppeteer-core),
// waits for the view to connect, picks a city in the view and clicks its button (the view calls
// the tool through AppBridge), waits for the result to render, and prints one JSON object:
// the host's record, the view's DOM, console errors, page errors; saves a screenshot.
// Usage: node check_view.mjs URL SCREENSHOT.png CITY
import chromium from "@sparticuz/chromium";
import puppeteer from "puppeteer-core";

const [url, shot, city] = process.argv.slice(2);
const browser = await puppeteer.launch({
  executablePath: await chromium.executablePath(),
  args: chromium.args,
  headless: "shell",
  defaultViewport: { width: 680, height: 520, deviceScaleFactor: 1 },
});
const r = { console: [], pageErrors: [], failed: [] };
try {
  const page = await browser.newPage();
  page.on("console", (m) => { if (m.type() === "error") r.console.push(m.text()); });
  page.on("pageerror", (e) => r.pageErrors.push(String(e)));
  page.on("requestfailed", (q) => r.failed.push(`${q.url()} ${q.failure()?.errorText}`));
  await page.goto(url, { waitUntil: "load", timeout: 60000 });
  await page.waitForFunction(() => window.host && (window.host.initialized || window.host.errors.length), { timeout: 30000 });
  const handle = await page.$("#view");
  const frame = await handle.contentFrame();
  await frame.waitForFunction(() => document.getElementById("status")?.textContent === "ready", { timeout: 60000 });
  await frame.select("#city", city);
  await frame.select("#days", "5");
  await frame.click("#show");
  await frame.waitForFunction(() => document.querySelectorAll("#days-list li[data-condition]").length > 0
    || document.getElementById("status").className === "error", { timeout: 60000 });
  await new Promise((ok) => setTimeout(ok, 300)); // the host applies the view's size change
  r.host = await page.evaluate(() => window.host);
  r.frame = await page.evaluate(() => {
    const f = document.getElementById("view");
    return { sandbox: f.getAttribute("sandbox"), origin: (() => { try { return f.contentWindow.origin; } catch { return "opaque"; } })() };
  });
  r.view = await frame.evaluate(() => ({
    title: document.getElementById("title").textContent,
    status: document.getElementById("status").textContent,
    days: [...document.querySelectorAll("#days-list li")].map((li) => ({
      day: li.querySelector(".day")?.textContent,
      condition: li.dataset.condition,
      high: li.querySelector(".high")?.textContent,
      low: li.querySelector(".low")?.textContent,
    })),
    origin: window.origin,
    scripts: [...document.scripts].map((s) => s.src || "inline"),
  }));
  await page.screenshot({ path: shot, fullPage: true });
  r.browser = await browser.version();
} catch (err) {
  r.failure = String(err);
  try { r.host = await (await browser.pages()).at(-1).evaluate(() => window.host); } catch {}
  process.exitCode = 1;
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(r));
