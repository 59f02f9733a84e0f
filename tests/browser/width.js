// Measures pages at a phone's width, for tests/browser_layout.rs.
//
// Usage: node width.js WIDTH PAGE.html...  (prints the result as JSON on standard output)
// Opens each page from disk in a viewport WIDTH pixels wide and reports, per page,
// {"page", "scroll": the document's scrollWidth, "client": its clientWidth, "wide": up to 8
// elements or texts that end past the right edge outside a scrolling box}.
// Needs playwright-core (npm) and Chromium at $CHROMIUM or /usr/bin/chromium.
const { chromium } = require('playwright-core');

(async () => {
  const [width, ...pages] = process.argv.slice(2);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const page = await browser.newPage({ viewport: { width: Number(width), height: 800 } });
  const results = [];
  for (const p of pages) {
    await page.goto('file://' + p);
    const r = await page.evaluate(() => {
      const W = document.documentElement.clientWidth;
      const scrolls = (e) => {
        for (let a = e.parentElement; a; a = a.parentElement) {
          const o = getComputedStyle(a).overflowX;
          if (o === 'auto' || o === 'scroll' || o === 'hidden') return true;
        }
        return false;
      };
      const wide = [];
      const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = texts.nextNode(); n && wide.length < 8; n = texts.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(n);
        const right = range.getBoundingClientRect().right;
        if (right > W + 1 && !scrolls(n)) {
          wide.push(n.parentElement.tagName + ' ' + Math.round(right) + ' ' + n.textContent.slice(0, 60));
        }
      }
      return { scroll: document.documentElement.scrollWidth, client: W, wide };
    });
    results.push({ page: p, ...r });
  }
  await browser.close();
  process.stdout.write(JSON.stringify(results));
})().catch((e) => { console.error(e); process.exit(1); });
