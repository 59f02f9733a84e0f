// Drives the pages' tester in headless Chromium for tests/browser_tester.rs.
//
// Usage: node tester.js TASKS.json  (prints the results as JSON on standard output)
// TASKS.json: [{"page": "/abs/path.html", "crawler": "Googlebot" | "", "agent": "FooBot",
//               "reading": "google" | "rfc", "urls": ["/a", ...], "edit": "new file text" | null,
//               "keep": true (edit mode on the file as it is, no change typed)}]
// Each result: {"page", "rows": [{url, google, google_reason, google_line, rfc, ...}],
//               "diagnostics": [{name, line}] (edit mode only), "changes": n (verdicts changed),
//               "all_changes": n (every change listed), "errors": [...]}
// Needs playwright-core (npm) and Chromium at $CHROMIUM or /usr/bin/chromium.
const { chromium } = require('playwright-core');
const fs = require('fs');

(async () => {
  const tasks = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const results = [];
  for (const task of tasks) {
    const page = await browser.newPage();
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('file://' + task.page);
    const box = page.locator('[data-tester]');
    const answered = async () => Number((await box.getAttribute('data-answered')) || 0);
    const editing = (task.edit !== undefined && task.edit !== null) || task.keep;
    if (editing) {
      const n = await answered();
      await page.click('[data-edit]');
      await page.waitForFunction((n) => Number(document.querySelector('[data-tester]').getAttribute('data-answered') || 0) > n, n, { timeout: 20000 });
      if (!task.keep) await page.fill('#tester-file', task.edit);
    }
    await page.fill('#tester-urls', task.urls.join('\n'));
    await page.selectOption('select[name=reading]', task.reading || 'google');
    await page.selectOption('select[name=crawler]', task.crawler || '');
    if (!task.crawler) await page.fill('input[name=agent]', task.agent || '');
    await page.click('.tester-form button[type=submit]');
    // Wait for an answer to exactly these questions (runs started by earlier changes of the
    // form may finish first).
    const who = task.crawler || task.agent || '';
    await page.waitForFunction(([who, reading, urls]) => {
      const b = document.querySelector('[data-tester]');
      if (b.getAttribute('data-who') !== who || b.getAttribute('data-reading') !== reading) return false;
      const shown = Array.from(document.querySelectorAll('.tester-answers tbody tr')).map((tr) => tr.getAttribute('data-url'));
      return shown.length === urls.length && shown.every((u, i) => u === urls[i]);
    }, [who, task.reading || 'google', task.urls], { timeout: 20000 });
    const out = await page.evaluate(() => {
      const rows = Array.from(document.querySelectorAll('.tester-answers tbody tr')).map((tr) => {
        const r = { url: tr.getAttribute('data-url') };
        for (const reading of ['google', 'rfc']) {
          r[reading] = tr.getAttribute('data-' + reading);
          r[reading + '_reason'] = tr.getAttribute('data-' + reading + '-reason');
          const line = tr.getAttribute('data-' + reading + '-line');
          r[reading + '_line'] = line ? Number(line) : null;
        }
        return r;
      });
      const diagnostics = Array.from(document.querySelectorAll('.tester-diagnostics li')).map((li) => ({
        name: li.getAttribute('data-diagnostic'),
        line: Number(li.querySelector('a[data-line]').getAttribute('data-line')),
      }));
      const changes = document.querySelectorAll('.tester-changes .change-verdict').length;
      const all_changes = document.querySelectorAll('.tester-changes li').length;
      return { rows, diagnostics, changes, all_changes };
    });
    // The deciding line of the first answer with a rule is a link that highlights the line.
    let highlighted = null;
    const link = page.locator('.tester-answers a[data-line]').first();
    if (!editing && (await link.count()) > 0) {
      const n = await link.getAttribute('data-line');
      await link.click();
      highlighted = await page.evaluate((n) => {
        const row = document.getElementById('L' + n);
        return !!row && row.classList.contains('tester-hl') ? Number(n) : null;
      }, n);
    }
    results.push({ page: task.page, ...out, highlighted, errors });
    await page.close();
  }
  await browser.close();
  process.stdout.write(JSON.stringify(results));
})().catch((e) => { console.error(e); process.exit(1); });
