// Times the report's index in headless Chromium (playwright-core driving /usr/bin/chromium):
// the first page; a search typed as soon as the page has loaded (answered from the data files
// read so far; from the start of typing until the page shows the answer, by the page's
// clock); the time until every data file is read and joined (the page reads them once it is
// idle); then, over all the data, a search and a sort by bytes, timed inside the page.
// Used by benches/scale.sh; prints one tab-separated line of milliseconds.
//
//   node benches/index_timing.js SITE_DIR
const { chromium } = require("playwright-core");

(async () => {
  const site = process.argv[2];
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") { errors.push(m.text()); } });
  // When the status line first says that hosts match, by the page's own clock (the wall clock
  // node reads too): playwright's round trips to a page whose one thread is busy reading data
  // files, and its polling, would otherwise be counted in the answer's time.
  await page.addInitScript(() => {
    document.addEventListener("DOMContentLoaded", () => {
      const shown = document.getElementById("shown");
      if (!shown) { return; }
      new MutationObserver(() => {
        if (!window.__answeredAt && /match/.test(shown.textContent)) { window.__answeredAt = Date.now(); }
      }).observe(shown, { childList: true, characterData: true, subtree: true });
    });
  });
  const start = Date.now();
  await page.goto("file://" + site + "/index.html", { waitUntil: "load" });
  const firstPage = Date.now() - start;
  // A search typed at once: the answer comes from what is loaded by then (perhaps nothing
  // yet), so this is the time until the first rows of matches are shown.
  const matched = () => /match/.test(document.getElementById("shown").textContent);
  const t = Date.now();
  await page.fill("#filter", "h00");
  await page.waitForFunction(matched, null, { timeout: 600000 });
  const firstSearch = (await page.evaluate(() => window.__answeredAt)) - t;
  await page.waitForSelector("#index-tools[data-ready]", { state: "attached", timeout: 600000 });
  const ready = Date.now() - start;
  // Over all the data, the handlers run synchronously (the search box waits 120 ms for typing
  // to pause, which is not counted; a change event runs the search at once).
  const search = await page.evaluate(() => {
    const f = document.getElementById("filter");
    f.value = "h0012";
    const s = performance.now();
    f.dispatchEvent(new Event("change"));
    document.getElementById("outcome-filter").dispatchEvent(new Event("change"));
    return performance.now() - s;
  });
  const sort = await page.evaluate(() => {
    document.getElementById("filter").value = "";
    const b = document.querySelector('th[data-key="bytes"] button');
    const s = performance.now();
    b.click();
    return performance.now() - s;
  });
  const shown = await page.textContent("#shown");
  console.log(
    ["first_page_ms", firstPage, "first_search_ms", firstSearch, "data_ready_ms", ready,
      "search_ms", search.toFixed(0), "sort_ms", sort.toFixed(0), "shown", JSON.stringify(shown),
      "errors", errors.length].join("\t"),
  );
  await browser.close();
})();
