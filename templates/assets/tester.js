/* robots-explorer: the tester of host pages and of the guide's playground. Asks the engine
   (assets/engine.js, WebAssembly, loaded on first use) whether a crawler may fetch URLs, and in
   edit mode re-reads the edited file on every change. Nothing leaves the page. */
(function () {
  'use strict';

  var loading = null;
  /* The engine, loaded once per page when the reader first asks a question. */
  function engine(root) {
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        var s = document.createElement('script');
        s.src = root + 'assets/engine.js';
        s.onload = function () {
          if (window.robotsExplorerEngine) window.robotsExplorerEngine.then(resolve, reject);
          else reject(new Error('assets/engine.js defined no engine'));
        };
        s.onerror = function () { reject(new Error('assets/engine.js could not be loaded')); };
        document.head.appendChild(s);
      });
    }
    return loading;
  }

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function bytesOf(b64) {
    var raw = atob(b64), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }
  /* Gzipped bytes in base64, unpacked: a promise of a Response to read as text or bytes. The
     packed runs below and the engine module (assets/engine.js, which calls it) both use it. */
  function gunzip(b64) {
    return Promise.resolve().then(function () {
      var stream = new Blob([bytesOf(b64)]).stream().pipeThrough(new DecompressionStream('gzip'));
      return new Response(stream);
    });
  }
  window.robotsExplorerGunzip = gunzip;
  /* Known crawlers ([token, label]), those of the default matrix first, written in when the
     site is made: the menus of the pages hold only "Another product token…", and this puts
     the crawlers before it, the first one chosen. */
  var CRAWLERS = /*CRAWLERS*/[];
  function addCrawlers(select) {
    var other = select.querySelector('option[value=""]');
    CRAWLERS.forEach(function (c, i) {
      var o = document.createElement('option');
      o.value = c[0];
      o.textContent = c[1];
      if (i === 0) o.selected = true;
      select.insertBefore(o, other);
    });
  }
  /* The file as the listing spells it out (see `exact_text` in src/html/listing.rs): each
     line's text (without the names of diagnostics, <i>, of compact runs, nor the mark where the
     parsing limit cuts a line), a stand-in (.rt-ctl) read back from its title (a tab's is
     followed by the tab) or, folded, from its data-runs, and its terminator: the label's
     (.rt-eol) where it has one, else the file's. */
  var EOLS = { 'rt-eol-lf': '\n', 'rt-eol-crlf': '\r\n', 'rt-eol-cr': '\r' };
  /* A folded sequence of stand-ins (.rt-fold, .rt-mix; `escape_code_into` in src/html/mod.rs)
     spelled out from its data-runs: runs separated by spaces, each a hexadecimal code point
     and, when longer than one, '*' and its length. */
  function unfold(runs) {
    var s = '';
    runs.split(' ').forEach(function (r) {
      var p = r.split('*');
      s += String.fromCodePoint(parseInt(p[0], 16)).repeat(p.length > 1 ? Number(p[1]) : 1);
    });
    return s;
  }
  function fromListing(box) {
    var n = Number(box.getAttribute('data-lines'));
    var common = box.getAttribute('data-eol') === 'crlf' ? '\r\n' : '\n';
    var out = box.getAttribute('data-bom') === '1' ? '\ufeff' : '', eol;
    function text(node) {
      var s = '';
      for (var c = node.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 3) s += c.nodeValue;
        else if (c.nodeType !== 1) continue;
        else if (c.tagName === 'I' || c.classList.contains('rt-tab') || c.classList.contains('rt-cut-here')) continue;
        else if (c.hasAttribute('data-runs')) s += unfold(c.getAttribute('data-runs'));
        else if (c.classList.contains('rt-ctl')) s += String.fromCodePoint(parseInt(c.title.slice(2), 16));
        else if (c.classList.contains('rt-eol')) {
          for (var k in EOLS) if (c.classList.contains(k)) eol = EOLS[k];
        } else s += text(c);
      }
      return s;
    }
    for (var i = 1; i <= n; i++) {
      var el = document.getElementById('L' + i);
      if (el && el.tagName === 'TR') el = el.querySelector('code');
      if (!el) return null;
      eol = common;
      out += text(el);
      if (i < n || box.getAttribute('data-last-eol') === '1') out += eol;
    }
    var bytes = new TextEncoder().encode(out);
    return bytes.length === Number(box.getAttribute('data-size')) ? bytes : null;
  }
  /* Packed runs of long listings (`packed_runs` in src/html/listing.rs): the lines of their
     compact rows follow the table gzip-compressed in a script.rt-runs, one <ol> per run,
     separated by NUL characters. They are put in place when a folded listing opens, when the
     address names an element not on the page, and before the tester reads the file. */
  var unpacking = null;
  function unpackRuns() {
    if (!unpacking) {
      var blocks = document.querySelectorAll('script.rt-runs');
      unpacking = Promise.all(Array.prototype.map.call(blocks, function (block) {
        var rows = block.parentNode.querySelectorAll('tr[data-run]');
        return gunzip(block.textContent.replace(/\s+/g, '')).then(function (r) {
          return r.text();
        }).then(function (html) {
          var runs = html.split('\u0000');
          for (var i = 0; i < rows.length; i++) {
            rows[i].cells[0].innerHTML = runs[Number(rows[i].getAttribute('data-run'))] || '';
            rows[i].removeAttribute('data-run');
          }
        }, function (err) {
          /* A browser without DecompressionStream: the rows say so. */
          for (var i = 0; i < rows.length; i++) {
            rows[i].cells[0].firstChild.textContent += ' This browser could not unpack them (' + err.message + ').';
          }
          throw err;
        });
      }));
    }
    return unpacking;
  }
  function packed(el) { return !!(el && el.querySelector('script.rt-runs')); }
  /* An address naming a line of a packed run: the runs are put in place, the folds around the
     line opened, and the address followed again, so that it scrolls there and :target applies. */
  function followHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id || document.getElementById(id) || !packed(document)) return;
    unpackRuns().then(function () {
      var el = document.getElementById(id);
      if (!el) return;
      for (var p = el.parentElement; p; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true;
      location.replace('#' + encodeURIComponent(id));
    }, function () {});
  }
  window.addEventListener('hashchange', followHash);
  /* `toggle` does not bubble: caught on its way down. */
  document.addEventListener('toggle', function (ev) {
    if (ev.target.open && packed(ev.target)) unpackRuns().catch(function () {});
  }, true);

  function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many); }
  var READINGS = { google: 'Google', rfc: 'RFC 9309' };
  var REASONS = {
    'longest-match': 'longest match',
    'allow-on-tie': 'allow wins a tie',
    'no-matching-rule': 'no matching rule',
    'no-group': 'no group for this crawler',
    'robots-txt-always-allowed': '/robots.txt is always allowed'
  };

  /* The verdict of one decision in words, as `robots-explorer check` prints it. */
  function verdict(d) { return d.allowed ? 'ALLOWED' : 'DISALLOWED'; }
  function ruleText(d) {
    if (!d.rule) return '';
    return 'line ' + d.rule.line + ': ' + d.rule.kind + ': ' + d.rule.pattern +
      (d.rule.derived ? ' [derived]' : '');
  }
  function same(a, b) {
    return a.allowed === b.allowed && a.reason === b.reason &&
      (a.rule ? a.rule.line : 0) === (b.rule ? b.rule.line : 0);
  }

  function Tester(box) {
    this.box = box;
    this.root = box.getAttribute('data-root') || '';
    this.form = box.querySelector('form');
    this.out = box.querySelector('.tester-out');
    this.status = box.querySelector('.tester-status');
    this.holder = box.getAttribute('data-file') && document.getElementById(box.getAttribute('data-file'));
    var total = this.holder && this.holder.getAttribute('data-total');
    this.total = total ? Number(total) : null;
    this.listing = box.getAttribute('data-listing') && document.getElementById(box.getAttribute('data-listing'));
    /* A packed listing is read when the reader first asks (see load). */
    this.loaded = packed(this.listing) ? null : Promise.resolve(this.readFile());
    this.editor = box.querySelector('textarea.tester-file');
    this.panel = box.querySelector('.tester-edit');
    this.timer = 0;
    this.form.hidden = false;
    var self = this;
    var who = this.form.elements.crawler;
    addCrawlers(who);
    who.addEventListener('change', function () {
      self.form.querySelector('.tester-agent').hidden = who.value !== '';
      self.run();
    });
    this.form.elements.reading.addEventListener('change', function () { self.run(); });
    this.form.addEventListener('submit', function (ev) { ev.preventDefault(); self.run(); });
    var edit = box.querySelector('[data-edit]');
    if (edit) edit.addEventListener('click', function () { self.toggleEdit(edit); });
    if (this.editor) {
      this.editor.addEventListener('input', function () { self.soon(); });
      if (!this.original) this.original = new TextEncoder().encode(this.editor.value);
    }
    var toLine = function (ev) {
      var a = ev.target.closest && ev.target.closest('a[data-line]');
      if (!a) return;
      ev.preventDefault();
      self.show(Number(a.getAttribute('data-line')));
    };
    box.addEventListener('click', toLine);
    /* On a host page the editor takes the listing's place while editing (see toggleEdit), so
       its links are caught there too. */
    if (this.panel && this.listing) {
      this.panelHome = this.panel.parentNode;
      this.panel.addEventListener('click', function (ev) { ev.stopPropagation(); toLine(ev); });
    }
  }

  /* The file: the embedded bytes (#robots-file), after those the listing spells out when it
     does. */
  Tester.prototype.readFile = function () {
    var box = this.box;
    var rest = this.holder ? bytesOf(this.holder.textContent.replace(/\s+/g, '')) : null;
    var head = this.listing && box.hasAttribute('data-lines') ? fromListing(box) : null;
    if (box.hasAttribute('data-lines')) {
      if (head && rest && rest.length) {
        var both = new Uint8Array(head.length + rest.length);
        both.set(head);
        both.set(rest, head.length);
        head = both;
      }
      this.original = head;
    } else this.original = rest;
    this.unreadable = !this.original && box.hasAttribute('data-lines');
  };
  /* Reads the file once, after putting a packed listing's runs in place. */
  Tester.prototype.load = function () {
    var self = this;
    if (!this.loaded) this.loaded = unpackRuns().then(function () { self.readFile(); });
    return this.loaded;
  };

  Tester.prototype.request = function () {
    var f = this.form.elements;
    var urls = f.urls.value.split(/\r?\n/).filter(function (u) { return u.trim() !== ''; });
    var req = { urls: urls.length ? urls : ['/'] };
    if (f.crawler.value) req.crawler = f.crawler.value;
    else req.agent = f.agent.value.trim();
    if (this.total !== null && !this.editing()) req.total = this.total;
    return req;
  };
  Tester.prototype.editing = function () { return !!(this.editor && this.panel && !this.panel.hidden); };
  /* A text area holds lines ending in LF whatever the file's terminators were: the edited text
     gets back the file's own terminator when the file used one kind only, so that an edit
     changes only what the reader changed. */
  function soleEol(text) {
    var crlf = /\r\n/.test(text), cr = /\r(?!\n)/.test(text), lf = /(^|[^\r])\n/.test(text);
    if (crlf && !cr && !lf) return '\r\n';
    if (cr && !crlf && !lf) return '\r';
    return '\n';
  }
  Tester.prototype.editedBytes = function () {
    var text = this.editor.value;
    if (this.eol && this.eol !== '\n') text = text.replace(/\n/g, this.eol);
    return new TextEncoder().encode(text);
  };
  Tester.prototype.bytes = function () {
    return this.editing() ? this.editedBytes() : this.original;
  };
  Tester.prototype.say = function (text) { if (this.status) this.status.textContent = text; };
  Tester.prototype.soon = function () {
    var self = this;
    clearTimeout(this.timer);
    /* Reading a long file again takes a while (about 0.8 s for 500 KB): wait for a pause in
       typing that is long compared with the last reading. */
    this.timer = setTimeout(function () { self.run(); }, Math.max(120, 2 * (this.lastRead || 0)));
  };

  /* Asks every question of the form, and in edit mode re-reads the file. */
  Tester.prototype.run = function () {
    var self = this;
    this.say('Loading the engine…');
    Promise.all([engine(this.root), this.load()]).then(function (loaded) {
      var e = loaded[0];
      if (self.unreadable) {
        self.out.innerHTML = '<p class="tester-error">The tester could not read the file from the listing.</p>';
        self.say('');
        return;
      }
      var req = self.request(), reading = self.form.elements.reading.value;
      var t0 = performance.now();
      var answer = e.decide(self.bytes(), req);
      var ms = performance.now() - t0;
      if (answer.error) { self.out.innerHTML = '<p class="tester-error">' + esc(answer.error) + '</p>'; self.say(''); return; }
      var before = null;
      if (self.editing()) {
        var orig = Object.assign({}, req);
        if (self.total !== null) orig.total = self.total;
        before = e.decide(self.original, orig);
        self.edited(e, before, answer, reading);
      }
      self.out.innerHTML = self.table(answer, reading, before);
      /* What was answered, for scripts that drive the page (the browser tests). */
      self.box.setAttribute('data-who', req.crawler || req.agent || '');
      self.box.setAttribute('data-reading', reading);
      self.box.setAttribute('data-answered', String(Number(self.box.getAttribute('data-answered') || 0) + 1));
      self.say(plural(answer.answers.length, 'URL', 'URLs') + ' decided in ' + ms.toFixed(1) + ' ms, in this page.');
    }, function (err) {
      self.out.innerHTML = '<p class="tester-error">The tester is unavailable: ' + esc(err.message) + '.</p>';
      self.say('');
    });
  };

  Tester.prototype.link = function (d) {
    if (!d.rule) return esc(REASONS[d.reason] || d.reason);
    return '<a href="#L' + d.rule.line + '" data-line="' + d.rule.line + '">' + esc(ruleText(d)) + '</a> (' +
      esc(REASONS[d.reason] || d.reason) + ')';
  };

  Tester.prototype.table = function (answer, reading, before) {
    var other = reading === 'google' ? 'rfc' : 'google', self = this;
    var rows = answer.answers.map(function (a, i) {
      if (a.error) {
        return '<tr data-url="' + esc(a.url) + '" data-google="error" data-rfc="error"><th scope="row"><code>' +
          esc(a.url) + '</code></th><td class="m-u">ERROR</td><td colspan="3">' + esc(a.error) + '</td></tr>';
      }
      var d = a[reading], o = a[other];
      var attrs = ['google', 'rfc'].map(function (r) {
        var x = a[r];
        return ' data-' + r + '="' + (x.allowed ? 'allowed' : 'disallowed') + '" data-' + r + '-reason="' + x.reason +
          '" data-' + r + '-line="' + (x.rule ? x.rule.line : '') + '"';
      }).join('');
      var cells = '<td class="' + (d.allowed ? 'm-y' : 'm-n') + '">' + verdict(d) + '</td><td>' + self.link(d) +
        (d.via_token ? '; by the ' + esc(d.via_token) + ' group' : '') + '</td>';
      var diff = same(d, o) ? '<td class="small">same</td>' :
        '<td class="c-d">' + READINGS[other] + ': ' + verdict(o) + ', ' + self.link(o) + '</td>';
      var was = '';
      if (before) {
        var b = before.answers[i] && before.answers[i][reading];
        was = !b ? '<td></td>' : same(b, d) ? '<td class="small">unchanged</td>' :
          '<td class="c-d">was ' + verdict(b) + (b.rule ? ' (line ' + b.rule.line + ')' : '') + '</td>';
      }
      var shown = a.target !== a.url ? ' <span class="small">as <code>' + esc(a.target) + '</code></span>' : '';
      return '<tr data-url="' + esc(a.url) + '"' + attrs + '><th scope="row"><code>' + esc(a.url) + '</code>' + shown +
        '</th>' + cells + diff + was + '</tr>';
    });
    var who = answer.crawler ? esc(answer.crawler) + ' (' + esc(answer.agent) + ')' : '<code>' + esc(answer.agent || '(empty)') + '</code>';
    return '<p>' + who + ', ' + READINGS[reading] + ' reading' + (answer.profile_note ? '. ' + esc(answer.profile_note) : '') +
      '</p><div class="table-wrap"><table class="data tester-answers"><thead><tr><th scope="col">URL</th><th scope="col">Verdict</th>' +
      '<th scope="col">Why</th><th scope="col">' + READINGS[other] + ' reading</th>' +
      (before ? '<th scope="col">Original file</th>' : '') + '</tr></thead><tbody>' + rows.join('') + '</tbody></table></div>';
  };

  /* Scrolls to line `n` and marks it: in the editor while editing, else in the listing. */
  Tester.prototype.show = function (n) {
    if (this.editing()) {
      var lines = this.editor.value.split('\n'), start = 0;
      for (var i = 0; i < n - 1 && i < lines.length; i++) start += lines[i].length + 1;
      this.editor.focus();
      this.editor.setSelectionRange(start, start + (lines[n - 1] || '').length);
      return;
    }
    var row = document.getElementById('L' + n);
    if (!row) return;
    for (var p = row.parentElement; p; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true;
    var old = document.querySelectorAll('.tester-hl');
    for (var j = 0; j < old.length; j++) old[j].classList.remove('tester-hl');
    row.classList.add('tester-hl');
    row.scrollIntoView({ block: 'center' });
    if (history.replaceState) history.replaceState(null, '', '#L' + n);
  };

  Tester.prototype.toggleEdit = function (button) {
    var self = this;
    if (this.editing()) {
      this.panel.hidden = true;
      if (this.listing) {
        this.listing.hidden = false;
        this.panelHome.appendChild(this.panel);
      }
      button.textContent = 'Edit the file';
      this.run();
      return;
    }
    this.say('Loading the engine…');
    Promise.all([engine(this.root), this.load()]).then(function (loaded) {
      var e = loaded[0];
      if (!self.editor.value) {
        var first = e.analyze(self.original, self.total !== null ? { total: self.total } : {});
        self.editor.value = first.text.replace(/^\uFEFF/, '');
        self.eol = soleEol(first.text);
        self.originalAnalysis = first;
      }
      if (self.listing) {
        /* The file becomes editable where it is shown: the editor replaces the listing. */
        self.listing.parentNode.insertBefore(self.panel, self.listing);
        self.listing.hidden = true;
      }
      self.panel.hidden = false;
      button.textContent = 'Stop editing';
      self.editor.focus();
      self.run();
    }, function (err) { self.say('The tester is unavailable: ' + err.message + '.'); });
  };

  function key(d) { return d.name + '\u0000' + d.message; }
  function groupKey(g) { return g.user_agents.join(', ').toLowerCase(); }

  /* Edit mode: diagnostics and groups of the edited file, what changed, and the download. */
  Tester.prototype.edited = function (e, before, answer, reading) {
    var self = this, bytes = this.editedBytes();
    var t0 = performance.now();
    var now = e.analyze(bytes, {});
    this.lastRead = performance.now() - t0;
    var was = this.originalAnalysis || e.analyze(this.original, this.total !== null ? { total: this.total } : {});
    this.originalAnalysis = was;
    var inReading = function (d) { return d.readings === 'both' || d.readings === reading; };
    var diags = now.diagnostics.filter(inReading), old = was.diagnostics.filter(inReading);
    var count = { error: 0, warning: 0, info: 0 };
    diags.forEach(function (d) { count[d.severity] = (count[d.severity] || 0) + 1; });
    var oldKeys = {}, newKeys = {};
    old.forEach(function (d) { oldKeys[key(d)] = true; });
    diags.forEach(function (d) { newKeys[key(d)] = true; });
    var changes = [], moved = [];
    answer.answers.forEach(function (a, i) {
      var b = before.answers[i];
      if (a.error || !b || b.error) return;
      var now = a[reading], then = b[reading];
      if (now.allowed !== then.allowed) {
        changes.push('<li class="change-verdict"><code>' + esc(a.url) + '</code>: ' + verdict(then) + ' → <strong>' +
          verdict(now) + '</strong> (' + self.link(now) + ')</li>');
      } else if (!same(now, then)) {
        moved.push('<li class="change-rule"><code>' + esc(a.url) + '</code>: still ' + verdict(now) + ', now by ' +
          self.link(now) + (then.rule ? ' (was line ' + then.rule.line + ')' : ' (was: ' + esc(REASONS[then.reason] || then.reason) + ')') + '</li>');
      }
    });
    /* Verdict changes first, then answers decided by another line. */
    changes = changes.concat(moved);
    diags.forEach(function (d) {
      if (!oldKeys[key(d)]) changes.push('<li>new <span class="sev-' + d.severity + '">' + d.severity + '</span> <code>' + esc(d.name) + '</code> at <a href="#L' + d.line + '" data-line="' + d.line + '">line ' + d.line + '</a>: ' + esc(d.message) + '</li>');
    });
    old.forEach(function (d) {
      if (!newKeys[key(d)]) changes.push('<li>fixed <code>' + esc(d.name) + '</code>: ' + esc(d.message) + '</li>');
    });
    var og = {}, ng = {};
    (was.groups[reading] || []).forEach(function (g) { og[groupKey(g)] = true; });
    (now.groups[reading] || []).forEach(function (g) { ng[groupKey(g)] = true; });
    (now.groups[reading] || []).forEach(function (g) { if (!og[groupKey(g)]) changes.push('<li>group added: ' + esc(g.user_agents.join(', ')) + '</li>'); });
    (was.groups[reading] || []).forEach(function (g) { if (!ng[groupKey(g)]) changes.push('<li>group removed: ' + esc(g.user_agents.join(', ')) + '</li>'); });

    var groups = (now.groups[reading] || []).map(function (g, i) {
      return '<li>Group ' + (i + 1) + ' (<a href="#L' + g.first_line + '" data-line="' + g.first_line + '">lines ' + g.first_line + '–' +
        g.last_line + '</a>): ' + esc(g.user_agents.join(', ')) + '; ' + plural(g.rules, 'rule', 'rules') + '</li>';
    });
    var list = diags.slice(0, 200).map(function (d) {
      return '<li data-diagnostic="' + esc(d.name) + '"><span class="sev-' + d.severity + '">' + d.severity + '</span> <code>' + esc(d.name) + '</code> at <a href="#L' + d.line +
        '" data-line="' + d.line + '">line ' + d.line + '</a>: ' + esc(d.message) + '</li>';
    });
    var panel = this.panel.querySelector('.tester-analysis');
    panel.innerHTML =
      '<h3>Changes against the original</h3>' + (changes.length ? '<ul class="tester-changes">' + changes.join('') + '</ul>' : '<p>None.</p>') +
      '<h3>Diagnostics</h3><p>' + plural(count.error, 'error', 'errors') + ', ' + plural(count.warning, 'warning', 'warnings') + ', ' + count.info + ' info (' + READINGS[reading] + ' reading).</p>' +
      (list.length ? '<ul class="diag-list tester-diagnostics">' + list.join('') + '</ul>' : '') +
      (diags.length > 200 ? '<p class="small">… and ' + (diags.length - 200) + ' more.</p>' : '') +
      '<h3>Groups</h3>' + (groups.length ? '<ol class="tester-groups">' + groups.join('') + '</ol>' : '<p>No groups: no rule applies to any crawler.</p>');
    var download = this.panel.querySelector('a.tester-download');
    if (download) {
      if (download.href && download.href.indexOf('blob:') === 0) URL.revokeObjectURL(download.href);
      download.href = URL.createObjectURL(new Blob([bytes], { type: 'text/plain' }));
    }
    this.box.setAttribute('data-diagnostics', String(diags.length));
  };

  /* A host page's tester holds no form (pages stay small): this writes the markup that
     templates/report/tester.html writes for the playground, with the page's reading (data-start-reading), URLs
     (data-urls, else "/") and note beside the download link (data-note), before the noscript's
     place. */
  function build(box) {
    var reading = box.getAttribute('data-start-reading') || 'google';
    var urls = box.hasAttribute('data-urls') ? box.getAttribute('data-urls') : '/';
    var note = box.getAttribute('data-note');
    function opt(v, label) {
      return '<option value="' + v + '"' + (reading === v ? ' selected' : '') + '>' + label + '</option>';
    }
    var html = '<form class="tester-form" hidden>' +
      '<p><label for="tester-urls">URLs, one per line: paths (<code>/shop?q=1</code>) or absolute URLs</label><br>' +
      '<textarea id="tester-urls" name="urls" rows="4" cols="60" spellcheck="false">' + esc(urls) + '</textarea></p>' +
      '<p class="tester-row"><label>Crawler <select name="crawler"><option value="">Another product token…</option></select></label> ' +
      '<label class="tester-agent" hidden>Product token <input name="agent" size="20" spellcheck="false"></label> ' +
      '<label>Reading <select name="reading">' + opt('google', 'Google') + opt('rfc', 'RFC 9309') + '</select></label> ' +
      '<button type="submit">Test</button> <button type="button" data-edit>Edit the file</button></p>' +
      '<p class="small tester-status" aria-live="polite"></p></form>' +
      '<div class="tester-out" aria-live="polite"></div>' +
      '<div class="tester-edit" hidden>' +
      '<p><label for="tester-file">The file (edits stay in this page; the original is unchanged)</label><br>' +
      '<textarea id="tester-file" class="tester-file" rows="18" cols="80" spellcheck="false"></textarea></p>' +
      '<p><a class="tester-download" download="robots.txt" href="#">Download the edited file</a>' +
      (note ? ' <span class="small">' + esc(note) + '</span>' : '') + '</p>' +
      '<div class="tester-analysis"></div></div>';
    var at = box.querySelector('noscript');
    if (at) at.insertAdjacentHTML('afterend', html);
    else box.insertAdjacentHTML('afterbegin', html);
  }

  function start() {
    followHash();
    var boxes = document.querySelectorAll('[data-tester]');
    for (var i = 0; i < boxes.length; i++) {
      if (!boxes[i].querySelector('form')) build(boxes[i]);
      var t = new Tester(boxes[i]);
      if (boxes[i].hasAttribute('data-playground')) playground(t);
    }
  }

  /* The guide's playground: a file and URLs may come in the address (#file=…&url=…), as the
     chapters' "Try it" links give them. */
  function playground(t) {
    var params = new URLSearchParams(location.hash.slice(1));
    if (params.has('file')) t.editor.value = params.get('file');
    var urls = params.getAll('url');
    if (urls.length) t.form.elements.urls.value = urls.join('\n');
    var who = params.get('crawler');
    if (who !== null) {
      var select = t.form.elements.crawler, known = false;
      for (var i = 0; i < select.options.length; i++) {
        if (select.options[i].value.toLowerCase() === who.toLowerCase() && select.options[i].value) { select.selectedIndex = i; known = true; }
      }
      if (!known) {
        select.value = '';
        t.form.querySelector('.tester-agent').hidden = false;
        t.form.elements.agent.value = who;
      }
    }
    t.original = new TextEncoder().encode(t.editor.value);
    t.run();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
