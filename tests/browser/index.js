// Drives the report's index in headless Chromium for tests/browser_index.rs.
//
// Usage: node index.js SITE_DIR QUERY  (prints the results as JSON on standard output)
// Types QUERY into the search box as soon as the page has loaded, waits until every data file
// is read, then sorts by bytes (largest first). Prints {files, loaded, shown_after_search,
// search_rows, shown_after_sort, sort_rows, errors}: rows are [host, bytes] of the rows shown.
const { chromium } = require('playwright-core');

(async () => {
  const [site, query] = process.argv.slice(2);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('file://' + site + '/index.html', { waitUntil: 'load' });
  await page.fill('#filter', query);
  // The final answer: over every host, not the files read so far.
  const final = () => / match$|; showing/.test(document.getElementById('shown').textContent) &&
    !/so far/.test(document.getElementById('shown').textContent);
  await page.waitForFunction(final, null, { timeout: 60000 });
  const tools = page.locator('#index-tools');
  const rows = () => page.$$eval('#hosts-table tbody tr', (trs) => trs.map((tr) =>
    [tr.cells[0].textContent.trim(), tr.cells[3].textContent.trim()]));
  const result = {
    files: Number(await tools.getAttribute('data-files')),
    loaded: Number(await tools.getAttribute('data-loaded')),
    ready: (await tools.getAttribute('data-ready')) !== null,
    shown_after_search: await page.textContent('#shown'),
    search_rows: await rows(),
  };
  await page.fill('#filter', '');
  await page.click('th[data-key="bytes"] button');
  await page.waitForFunction(final, null, { timeout: 60000 });
  result.shown_after_sort = await page.textContent('#shown');
  result.sort_rows = await rows();
  result.errors = errors;
  console.log(JSON.stringify(result));
  await browser.close();
})();
