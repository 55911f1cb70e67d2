// Renders pages in @sparticuz/chromium's headless Chromium (driven by puppeteer-core) and reports,
// as one JSON object on stdout, what tests/docs/test_browser.py asserts on: console errors, page
// errors, failed requests, dialogs (an alert() would mean a hostile string ran), the status of
// every same-origin link, missing #fragment targets, and a few facts from the DOM.
// Usage: node check_pages.mjs SPEC.json   (SPEC: {"pages": [{"url", "screenshot"}]})
import { readFileSync } from "node:fs";
import chromium from "@sparticuz/chromium";
import puppeteer from "puppeteer-core";

const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
const browser = await puppeteer.launch({
  executablePath: await chromium.executablePath(),
  args: chromium.args,
  headless: "shell",
  defaultViewport: { width: 1280, height: 900 },
});
const results = [];
// A link's target is loaded once per run (its status and ids do not depend on the page that
// links to it), in one tab of its own: the pages share most of their links (the navigation).
const seen = new Map();
let check = null;
try {
  for (const want of spec.pages) {
    const page = await browser.newPage();
    const r = { url: want.url, console: [], pageErrors: [], failed: [], dialogs: [] };
    page.on("console", (m) => { if (m.type() === "error") r.console.push(m.text()); });
    page.on("pageerror", (e) => r.pageErrors.push(String(e)));
    page.on("requestfailed", (q) => r.failed.push(`${q.url()} ${q.failure()?.errorText}`));
    page.on("response", (s) => { if (s.status() >= 400) r.failed.push(`${s.url()} ${s.status()}`); });
    page.on("dialog", async (d) => { r.dialogs.push(d.message()); await d.dismiss(); });
    const response = await page.goto(want.url, { waitUntil: "networkidle0", timeout: 60000 });
    r.status = response ? response.status() : 0;
    r.dom = await page.evaluate(() => ({
      title: document.title,
      h1: [...document.querySelectorAll("h1")].map((e) => e.textContent.replace(/¶$/, "").trim()),
      h2: [...document.querySelectorAll("h2, h3")].map((e) => e.textContent.replace(/¶$/, "").trim()),
      nav: [...document.querySelectorAll("nav a")].map((e) => e.textContent.replace(/¶$/, "").trim()),
      code: [...document.querySelectorAll("pre code, code")].map((e) => e.textContent),
      text: document.body.innerText,
      scripts: document.querySelectorAll("script").length,
      images: document.querySelectorAll("img").length,
      links: [...document.querySelectorAll("a[href]")].map((a) => a.href),
      ids: [...document.querySelectorAll("[id]")].map((e) => e.id),
      pwned: typeof window.__pwned !== "undefined",
    }));
    // every same-origin link answers 200, and every #fragment it names exists on its page
    const origin = new URL(want.url).origin;
    r.brokenLinks = [];
    const targets = new Set();
    for (const href of new Set(r.dom.links)) {
      const u = new URL(href);
      if (u.origin !== origin && u.protocol !== "file:") continue;
      const target = u.href.split("#")[0];
      targets.add(target);
      if (!seen.has(target)) {
        if (check === null) {
          // only the document: its status and its ids are what is checked (the pages above load
          // everything, scripts included); no stylesheet, script, font or image is fetched here
          check = await browser.newPage();
          await check.setCacheEnabled(false);
          await check.setJavaScriptEnabled(false);
          await check.setRequestInterception(true);
          check.on("request", (q) => (q.resourceType() === "document" ? q.continue() : q.abort()));
        }
        const res = await check.goto(target, { waitUntil: "domcontentloaded", timeout: 60000 });
        const ids = await check.evaluate(() => [...document.querySelectorAll("[id]")].map((e) => e.id));
        seen.set(target, { status: res ? res.status() : 0, ids: new Set(ids) });
      }
      const got = seen.get(target);
      const frag = decodeURIComponent(u.hash.slice(1));
      if (got.status !== 200) r.brokenLinks.push(`${href}: ${got.status}`);
      else if (frag && !got.ids.has(frag)) r.brokenLinks.push(`${href}: no #${frag}`);
    }
    r.linksChecked = targets.size; // distinct targets of this page, each loaded (now or before)
    await page.screenshot({ path: want.screenshot, fullPage: true });
    r.browser = await browser.version();
    results.push(r);
    await page.close();
  }
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify({ results }));
