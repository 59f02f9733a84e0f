// Times the report's index in headless Chromium (playwright-core driving /usr/bin/chromium):
// the first page, the first search (which loads the index's data files), a second search, and
// a sort by bytes. Used by benches/scale.sh; prints one tab-separated line of milliseconds.
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
  let t = Date.now();
  await page.goto("file://" + site + "/index.html", { waitUntil: "load" });
  const firstPage = Date.now() - t;
  // A search: the first one loads the data.
  const matched = () => /match/.test(document.getElementById("shown").textContent);
  t = Date.now();
  await page.fill("#filter", "h00");
  await page.waitForFunction(matched, null, { timeout: 600000 });
  const firstSearch = Date.now() - t;
  // Later searches and a sort, timed inside the page (the handlers run synchronously once the
  // data is loaded; the search box waits 120 ms for typing to pause, which is not counted).
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
    ["first_page_ms", firstPage, "first_search_ms", firstSearch, "search_ms", search.toFixed(0),
      "sort_ms", sort.toFixed(0), "shown", JSON.stringify(shown), "errors", errors.length].join("\t"),
  );
  await browser.close();
})();
