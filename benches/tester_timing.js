// Size and speed of the pages' tester (assets/engine.js, the engine in WebAssembly), in
// headless Chromium. A benchmark, not a test: run by benches/tester.sh.
//
// Usage: node benches/tester_timing.js SITE HOST_PAGE...
// Prints, per host page: the embedded file's size, the time to load and instantiate the
// engine, and the median and maximum time of one decision (one URL, both readings) and of
// reading the file (diagnostics and groups) over 15 runs.
const { chromium } = require('playwright-core');
const fs = require('fs');
const zlib = require('zlib');

(async () => {
  const [site, ...pages] = process.argv.slice(2);
  const asset = fs.readFileSync(site + '/assets/engine.js');
  console.log(`assets/engine.js: ${asset.length} bytes, ${zlib.gzipSync(asset, { level: 9 }).length} bytes gzipped`);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  for (const page of pages) {
    const p = await browser.newPage();
    await p.goto('file://' + site + '/hosts/' + page);
    const r = await p.evaluate(async () => {
      const t0 = performance.now();
      await new Promise((ok, fail) => {
        const s = document.createElement('script');
        s.src = '../assets/engine.js';
        s.onload = ok; s.onerror = fail;
        document.head.appendChild(s);
      });
      const e = await window.robotsExplorerEngine;
      const load = performance.now() - t0;
      const holder = document.getElementById('robots-file');
      const raw = atob(holder.textContent.replace(/\s+/g, ''));
      const bytes = new Uint8Array(raw.length);
      for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
      const total = holder.getAttribute('data-total');
      const time = (f) => {
        const ts = [];
        for (let i = 0; i < 15; i++) { const a = performance.now(); f(); ts.push(performance.now() - a); }
        ts.sort((a, b) => a - b);
        return [ts[7], ts[14]];
      };
      const decide = time(() => e.decide(bytes, { crawler: 'Googlebot', urls: ['/search/help?q=1'] }));
      const analyze = time(() => e.analyze(bytes, total ? { total: Number(total) } : {}));
      return { size: bytes.length, load, decide, analyze };
    });
    console.log(`${page}: ${r.size} bytes embedded; engine loaded in ${r.load.toFixed(1)} ms; ` +
      `decision median ${r.decide[0].toFixed(2)} ms (max ${r.decide[1].toFixed(2)}); ` +
      `diagnostics and groups median ${r.analyze[0].toFixed(1)} ms (max ${r.analyze[1].toFixed(1)})`);
    await p.close();
  }
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
