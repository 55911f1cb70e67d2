// Opens the test host (host.html) in @sparticuz/chromium's headless Chromium (puppeteer-core),
// waits for the view to connect, acts in the view like a user (the view then calls a tool
// through AppBridge), waits for the result to render, and prints one JSON object: the host's
// record, what the view shows, console errors, page errors; saves a screenshot.
// Usage: node check_view.mjs URL SCREENSHOT.png SPEC.json
//   SPEC: {"ready": JS, "steps": [["select"|"type"|"click", selector, value?]], "done": JS,
//          "collect": JS}   (JS: expressions evaluated in the view's frame)
import { readFileSync } from "node:fs";
import chromium from "@sparticuz/chromium";
import puppeteer from "puppeteer-core";

const [url, shot, specPath] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(specPath, "utf8"));
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
  await frame.waitForFunction(spec.ready, { timeout: 60000 });
  for (const [action, selector, value] of spec.steps) {
    if (action === "select") await frame.select(selector, value);
    else if (action === "type") { await frame.$eval(selector, (e) => { e.value = ""; }); await frame.type(selector, value); }
    else if (action === "click") await frame.click(selector);
  }
  await frame.waitForFunction(spec.done, { timeout: 60000 });
  await new Promise((ok) => setTimeout(ok, 300)); // the host applies the view's size change
  r.host = await page.evaluate(() => window.host);
  r.frame = await page.evaluate(() => {
    const f = document.getElementById("view");
    return { sandbox: f.getAttribute("sandbox"), origin: (() => { try { return f.contentWindow.origin; } catch { return "opaque"; } })() };
  });
  r.view = await frame.evaluate(`({ ...(${spec.collect}), origin: window.origin,
    scripts: [...document.scripts].map((s) => s.src || "inline") })`);
  await page.screenshot({ path: shot, fullPage: true });
  // the host's policy is in force: a request to an origin the view did not declare is refused
  // (its console line is the probe's, kept apart from the view's own)
  const before = r.console.length;
  r.cspProbe = await frame.evaluate(() => new Promise((done) => {
    document.addEventListener("securitypolicyviolation", (e) => done(e.effectiveDirective), { once: true });
    fetch("http://127.0.0.1:9/undeclared").catch(() => {});
    setTimeout(() => done(null), 3000);
  }));
  await new Promise((ok) => setTimeout(ok, 200));
  r.probeConsole = r.console.splice(before);
  r.browser = await browser.version();
} catch (err) {
  r.failure = String(err);
  try { r.host = await (await browser.pages()).at(-1).evaluate(() => window.host); } catch {}
  process.exitCode = 1;
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(r));
