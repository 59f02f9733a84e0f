// robots-explorer report: search, filter and sort over every host of the index.
// The index pages are complete without this script (static pages, problems first). Once the
// page is idle, the index's data files (assets/hosts-<n>.js, loaded as scripts so that pages
// opened from disk can use them) are read, two at a time so that the page keeps answering
// between them; a search, filter or sort then shows the matching hosts of the whole report, a
// page at a time. Asked before every file is read, it answers at once from the files read so
// far, says so, and answers again when all are.
(function () {
  "use strict";
  var tools = document.getElementById("index-tools");
  var table = document.getElementById("hosts-table");
  if (!tools || !table) { return; }
  var root = tools.getAttribute("data-root") || "";
  var files = parseInt(tools.getAttribute("data-files"), 10) || 0;
  var rankLabels = (tools.getAttribute("data-ranks") || "").split("|");
  var body = table.tBodies[0];
  var staticBody = body.innerHTML;
  var headers = table.tHead.rows[0].cells;
  var pagers = document.querySelectorAll("nav.pager");
  var note = document.getElementById("page-note");
  var staticNote = note ? note.innerHTML : "";
  var filter = document.getElementById("filter");
  var outcome = document.getElementById("outcome-filter");
  var errorsOnly = document.getElementById("errors-only");
  var blockedOnly = document.getElementById("blocked-only");
  var shown = document.getElementById("shown");
  var PAGE = 250;
  // Numbers per host in the data: bytes, groups, rules, sitemaps, errors, warnings, infos,
  // URLs of the --urls list, and those some crawler may not fetch.
  var STRIDE = 9;
  var hasUrls = !!table.querySelector('th[data-key="urls"]');
  var outcomeNames = [], outcomeLabels = [];
  Array.prototype.forEach.call(outcome.options, function (o) {
    if (o.value) { outcomeNames.push(o.value); outcomeLabels.push(o.textContent); }
  });

  // The data, by column, in row order: grown as the data files arrive, each part joined once
  // (a part that arrives before an earlier one waits for it). Numbers go to one typed array, so
  // that a million hosts cost 36 MB there, not a list of boxed numbers.
  var data = { host: [], lower: [], stem: {}, path: {}, error: {}, outcome: "", rank: "", blocks: "",
    unread: "", access: "", crawlers: 0, numbers: new Int32Array(0) };
  var early = {};
  var loading = false, complete = false;
  var loaded = 0, requested = 0;
  // Data files read side by side. Each is run as a script on the page's one thread as it
  // arrives; with every file requested at once, a million hosts' files (100) would run back to
  // back and a question typed meanwhile would wait for all of them.
  var IN_FLIGHT = 2;
  // The question waiting for the rest of the data, and whether it has had an answer from part
  // of it.
  var waiting = null, answered = false;
  window.robotsExplorerHosts = window.robotsExplorerHosts || [];

  function join(p) {
    var at = data.host.length, n = p.host.length;
    if ((at + n) * STRIDE > data.numbers.length) {
      var grown = new Int32Array(Math.max((at + n) * STRIDE, 2 * data.numbers.length));
      grown.set(data.numbers);
      data.numbers = grown;
    }
    data.numbers.set(p.numbers, at * STRIDE);
    for (var i = 0; i < n; i++) {
      data.host.push(p.host[i]);
      data.lower.push(p.host[i].toLowerCase());
    }
    ["stem", "path", "error"].forEach(function (k) {
      Object.keys(p[k]).forEach(function (j) { data[k][at + Number(j)] = p[k][j]; });
    });
    data.outcome += p.outcome; data.rank += p.rank; data.blocks += p.blocks; data.unread += p.unread;
    data.access += p.access;
    data.crawlers = p.crawlers;
  }

  // Joins the parts that arrived, in row order.
  function absorb() {
    var parts = window.robotsExplorerHosts;
    while (parts.length) { var p = parts.shift(); early[p.from] = p; }
    while (early[data.host.length]) {
      var next = early[data.host.length];
      delete early[data.host.length];
      join(next);
    }
  }

  // Starts reading the data files, IN_FLIGHT at a time (they are scripts, so that pages opened
  // from disk can load them; each adds its part to window.robotsExplorerHosts). The index's
  // tools carry `data-loaded` (files read so far) and, once all are read, `data-ready`.
  function load() {
    if (loading) { return; }
    loading = true;
    while (requested < Math.min(IN_FLIGHT, files)) { request(); }
    if (files === 0) { arrived(); }
  }

  function request() {
    var s = document.createElement("script");
    s.src = root + "assets/hosts-" + requested + ".js";
    s.async = true;
    s.onload = arrived;
    s.onerror = failed;
    requested++;
    document.head.appendChild(s);
  }

  function arrived() {
    loaded = Math.min(loaded + 1, files);
    tools.setAttribute("data-loaded", String(loaded));
    if (requested < files) { request(); }
    absorb();
    if (loaded < files) {
      // A question asked before any file was read is answered from the first rows read.
      if (waiting && !answered && data.host.length > 0) { answered = true; waiting(data, false); }
      return;
    }
    complete = true;
    tools.setAttribute("data-ready", "");
    if (waiting) { var w = waiting; waiting = null; w(data, true); }
  }

  function failed(e) {
    shown.textContent = "the data file " + e.target.src + " could not be loaded; the static pages still list every host";
  }

  // Runs `then` over the whole report's data, or, while files are still arriving, at once over
  // the rows already joined and again over all of them when the last file arrives.
  function withData(then) {
    load();
    if (complete) { then(data, true); return; }
    waiting = then;
    absorb();
    answered = data.host.length > 0;
    if (answered) {
      then(data, false);
    } else {
      shown.textContent = "loading the hosts of the whole report…";
    }
  }

  function esc(s) {
    return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/'/g, "&#39;");
  }

  function fmt(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }

  var sortKey = "rank", ascending = true, page = 0, result = null;
  // The columns the table shows now (all of `data`, or the parts loaded so far), and whether
  // they are complete.
  var view = null, viewComplete = false;

  // The sort key of row i for column `key`, as a number.
  function keyOf(key, i) {
    var n = view.numbers, k = i * STRIDE;
    switch (key) {
      case "host": return i;
      case "rank": return view.rank.charCodeAt(i) - 48;
      case "outcome": return view.outcome.charCodeAt(i) - 48;
      case "bytes": return n[k];
      case "groups": return n[k + 1];
      case "rules": return n[k + 2];
      case "sitemaps": return n[k + 3];
      case "errors": return view.unread.charCodeAt(i) !== 48 ? 1e9 : n[k + 4];
      case "warnings": return n[k + 5];
      case "infos": return n[k + 6];
      case "blocks": return view.blocks.charCodeAt(i) - 48;
      case "urls": return n[k + 8];
      default:
        var c = Number(key.slice(6));
        var ch = view.access.charAt(i * view.crawlers + c);
        return ch === "y" ? 2 : ch === "n" ? 0 : 1;
    }
  }

  function compute() {
    var q = filter.value.trim().toLowerCase();
    var o = outcome.value ? outcomeNames.indexOf(outcome.value) : -1;
    var total = view.host.length;
    var keys = new Float64Array(total);
    var count = 0;
    var SCALE = 2097152; // 2^21: more than the row numbers
    var MAX_KEY = 2147483647; // 2^31 - 1
    for (var i = 0; i < total; i++) {
      if (q && view.lower[i].indexOf(q) === -1) { continue; }
      if (o >= 0 && view.outcome.charCodeAt(i) - 48 !== o) { continue; }
      if (errorsOnly.checked && view.numbers[i * STRIDE + 4] === 0 && view.unread.charCodeAt(i) === 48) { continue; }
      if (blockedOnly.checked && view.blocks.charCodeAt(i) !== 49) { continue; }
      // Keys are whole numbers below 2^31, so key · 2^21 + row stays exact in a double.
      var key = Math.min(keyOf(sortKey, i), MAX_KEY);
      keys[count++] = (ascending ? key : MAX_KEY - key) * SCALE + i;
    }
    keys = keys.subarray(0, count).sort();
    result = new Uint32Array(count);
    for (var j = 0; j < count; j++) { result[j] = keys[j] % SCALE; }
    page = 0;
  }

  function rowHtml(i) {
    var n = view.numbers, k = i * STRIDE;
    var host = view.host[i];
    var stem = view.stem[i] !== undefined ? view.stem[i] : host;
    var unread = view.unread.charCodeAt(i) === 49;
    var oc = view.outcome.charCodeAt(i) - 48;
    var h = "<tr><th scope=\"row\">" + (stem === "" ? esc(host) :
      "<a href=\"" + esc(root + "hosts/" + stem + ".html") + "\">" + esc(host) + "</a>");
    if (view.path[i] !== undefined) { h += "<br><span class=\"small\">" + esc(view.path[i]) + "</span>"; }
    if (view.error[i] !== undefined) { h += "<br><span class=\"sev-error small\">" + esc(view.error[i]) + "</span>"; }
    h += "</th><td>" + esc(rankLabels[view.rank.charCodeAt(i) - 48] || "") + "</td>";
    h += "<td><span class=\"badge " + esc(outcomeNames[oc] || "") + "\">" + esc(outcomeLabels[oc] || "") + "</span></td>";
    h += "<td class=\"num\">" + (n[k] < 0 ? "" : fmt(n[k])) + "</td>";
    if (unread) {
      h += "<td class=\"num\">—</td><td class=\"num\">—</td><td class=\"num\">—</td><td class=\"num\"><span class=\"sev-error\">—</span></td><td class=\"num\">—</td><td class=\"num\">—</td>";
    } else {
      h += "<td class=\"num\">" + n[k + 1] + "</td><td class=\"num\">" + n[k + 2] + "</td><td class=\"num\">" + n[k + 3] + "</td>";
      h += "<td class=\"num\">" + (n[k + 4] > 0 ? "<span class=\"sev-error\">" + n[k + 4] + "</span>" : "0") + "</td>";
      h += "<td class=\"num\">" + n[k + 5] + "</td><td class=\"num\">" + n[k + 6] + "</td>";
    }
    if (hasUrls) {
      h += "<td class=\"num\">" + (n[k + 7] > 0 ? (n[k + 8] > 0 ? "<span class=\"sev-warning\">" + fmt(n[k + 8]) + "</span>" : "0") + " of " + fmt(n[k + 7]) : "") + "</td>";
    }
    h += unread ? "<td>—</td>" : "<td>" + (view.blocks.charCodeAt(i) === 49 ? "<span class=\"badge bad\">yes</span>" : "no") + "</td>";
    for (var c = 0; c < view.crawlers; c++) {
      var a = view.access.charAt(i * view.crawlers + c);
      h += a === "y" ? "<td class=\"m-y\" title=\"allowed\">✓</td>" : a === "n" ? "<td class=\"m-n\" title=\"disallowed\">✗</td>" : "<td class=\"m-u\" title=\"unknown\">–</td>";
    }
    return h + "</tr>";
  }

  function render() {
    var from = page * PAGE, to = Math.min(result.length, from + PAGE);
    var html = [];
    for (var j = from; j < to; j++) { html.push(rowHtml(result[j])); }
    if (result.length === 0) {
      html.push("<tr><td colspan=\"" + headers.length + "\">No host matches.</td></tr>");
    }
    body.innerHTML = html.join("");
    Array.prototype.forEach.call(pagers, function (p) { p.hidden = true; });
    var words = fmt(result.length) + " of " + fmt(view.host.length) + (view.host.length === 1 ? " host" : " hosts") +
      (viewComplete ? " match" : " loaded so far match (" + fmt(loaded) + " of " + fmt(files) + " data files read; the list follows when all are)");
    if (result.length > PAGE) { words += "; showing " + fmt(from + 1) + " to " + fmt(to); }
    shown.textContent = words;
    if (note) { note.textContent = "Hosts of the whole report that match, sorted by the column chosen."; }
    more.hidden = result.length <= PAGE;
    prev.disabled = page === 0;
    next.disabled = to >= result.length;
  }

  function restore() {
    // A question still waiting for data is dropped: the static page answers now.
    waiting = null;
    body.innerHTML = staticBody;
    Array.prototype.forEach.call(pagers, function (p) { p.hidden = false; });
    if (note) { note.innerHTML = staticNote; }
    shown.textContent = "";
    more.hidden = true;
  }

  function pristine() {
    return !filter.value.trim() && !outcome.value && !errorsOnly.checked && !blockedOnly.checked &&
      sortKey === "rank" && ascending;
  }

  function apply() {
    if (pristine()) { restore(); return; }
    withData(function (d, all) { view = d; viewComplete = all; compute(); render(); });
  }

  // Buttons to page through the matches.
  var more = document.createElement("div");
  more.className = "js-pager";
  more.hidden = true;
  var prev = document.createElement("button");
  prev.type = "button"; prev.textContent = "← previous";
  var next = document.createElement("button");
  next.type = "button"; next.textContent = "next →";
  more.appendChild(prev); more.appendChild(next);
  table.parentNode.parentNode.insertBefore(more, table.parentNode.nextSibling);
  prev.addEventListener("click", function () { if (page > 0) { page--; render(); } });
  next.addEventListener("click", function () { if ((page + 1) * PAGE < result.length) { page++; render(); } });

  Array.prototype.forEach.call(headers, function (th) {
    var key = th.getAttribute("data-key");
    if (!key) { return; }
    var button = document.createElement("button");
    button.type = "button";
    button.className = "sort";
    while (th.firstChild) { button.appendChild(th.firstChild); }
    th.appendChild(button);
    button.addEventListener("click", function () {
      ascending = sortKey === key ? !ascending : key === "host" || key === "rank" || key === "outcome";
      sortKey = key;
      for (var i = 0; i < headers.length; i++) { headers[i].removeAttribute("aria-sort"); }
      th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      apply();
    });
  });

  // The search box answers the first change at once, and waits for typing to pause (120 ms)
  // before answering the changes that follow it closely.
  var timer = null, lastTyped = -Infinity;
  filter.addEventListener("input", function () {
    var now = Date.now(), quiet = now - lastTyped > 120;
    lastTyped = now;
    clearTimeout(timer);
    if (quiet) { apply(); } else { timer = setTimeout(apply, 120); }
  });
  [outcome, errorsOnly, blockedOnly].forEach(function (el) { el.addEventListener("change", apply); });
  tools.hidden = false;
  // The data is read as soon as the page is idle, so that the first search or sort finds it.
  var idle = window.requestIdleCallback || function (f) { return setTimeout(f, 200); };
  if (document.readyState === "complete") { idle(load); } else { window.addEventListener("load", function () { idle(load); }); }
})();
