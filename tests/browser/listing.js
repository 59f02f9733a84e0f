// Follows links into the packed runs of long listings, for tests/browser_tester.rs.
//
// Usage: node listing.js PAGE.html LINE  (prints the result as JSON on standard output)
// Opens PAGE.html#L<LINE> from disk and reports what the address led to once the page's script
// has put the runs in place: {"target": id of :target, "tag", "text", "open": whether every
// <details> around it is open, "packed": run rows still waiting, "errors": [...]}; then opens a
// fresh copy of the page, opens the folded listing by its summary and reports "after_toggle",
// the run rows still waiting then.
// Needs playwright-core (npm) and Chromium at $CHROMIUM or /usr/bin/chromium.
const { chromium } = require('playwright-core');

(async () => {
  const [page_path, line] = process.argv.slice(2);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const errors = [];
  const watch = (page) => {
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
  };
  let page = await browser.newPage();
  watch(page);
  await page.goto('file://' + page_path + '#L' + line);
  await page.waitForFunction(() => document.querySelector(':target') !== null, null, { timeout: 20000 });
  const result = await page.evaluate(() => {
    const t = document.querySelector(':target');
    let open = true;
    for (let p = t.parentElement; p; p = p.parentElement) if (p.tagName === 'DETAILS' && !p.open) open = false;
    const r = t.getBoundingClientRect();
    return {
      target: t.id, tag: t.tagName, text: t.textContent, open,
      in_view: r.bottom > 0 && r.top < window.innerHeight,
      packed: document.querySelectorAll('tr[data-run]').length,
    };
  });
  await page.close();
  page = await browser.newPage();
  watch(page);
  await page.goto('file://' + page_path);
  result.before_toggle = await page.evaluate(() => document.querySelectorAll('tr[data-run]').length);
  await page.click('details.fold > summary');
  await page.waitForFunction(() => document.querySelectorAll('tr[data-run]').length === 0, null, { timeout: 20000 });
  result.after_toggle = 0;
  result.errors = errors;
  await browser.close();
  process.stdout.write(JSON.stringify(result));
})().catch((e) => { console.error(e); process.exit(1); });
