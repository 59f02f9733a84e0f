// robots-explorer report: search, filter and sort over every host of the index.
// The index pages are complete without this script (static pages, problems first). When the
// reader searches, filters or sorts, the index's data files (assets/hosts-<n>.js, loaded as
// scripts so that pages opened from disk can use them) are read once, and the table then shows
// the matching hosts of the whole report, a page at a time.
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

  // The data, by column, once loaded.
  var data = null;
  var loading = false;
  var waiting = [];
  window.robotsExplorerHosts = window.robotsExplorerHosts || [];

  function assemble() {
    var parts = window.robotsExplorerHosts.slice().sort(function (a, b) { return a.from - b.from; });
    var d = { host: [], stem: {}, path: {}, error: {}, outcome: "", rank: "", blocks: "", unread: "",
      access: "", crawlers: 0, numbers: [] };
    parts.forEach(function (p) {
      d.crawlers = p.crawlers;
      d.host = d.host.concat(p.host);
      ["stem", "path", "error"].forEach(function (k) {
        Object.keys(p[k]).forEach(function (i) { d[k][p.from + Number(i)] = p[k][i]; });
      });
      d.outcome += p.outcome; d.rank += p.rank; d.blocks += p.blocks; d.unread += p.unread;
      d.access += p.access;
      d.numbers = d.numbers.concat(p.numbers);
    });
    d.lower = d.host.map(function (h) { return h.toLowerCase(); });
    return d;
  }

  function withData(then) {
    if (data) { then(); return; }
    waiting.push(then);
    if (loading) { return; }
    loading = true;
    shown.textContent = "loading the hosts of the whole report…";
    var next = 0;
    function one() {
      if (next === files) {
        data = assemble();
        var w = waiting; waiting = [];
        w.forEach(function (f) { f(); });
        return;
      }
      var s = document.createElement("script");
      s.src = root + "assets/hosts-" + next + ".js";
      s.onload = function () { next++; one(); };
      s.onerror = function () {
        shown.textContent = "the data file " + s.src + " could not be loaded; the static pages still list every host";
      };
      document.head.appendChild(s);
    }
    one();
  }

  function esc(s) {
    return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/'/g, "&#39;");
  }

  function fmt(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }

  var sortKey = "rank", ascending = true, page = 0, result = null;

  // The sort key of row i for column `key`, as a number.
  function keyOf(key, i) {
    var n = data.numbers, k = i * STRIDE;
    switch (key) {
      case "host": return i;
      case "rank": return data.rank.charCodeAt(i) - 48;
      case "outcome": return data.outcome.charCodeAt(i) - 48;
      case "bytes": return n[k];
      case "groups": return n[k + 1];
      case "rules": return n[k + 2];
      case "sitemaps": return n[k + 3];
      case "errors": return data.unread.charCodeAt(i) !== 48 ? 1e9 : n[k + 4];
      case "warnings": return n[k + 5];
      case "infos": return n[k + 6];
      case "blocks": return data.blocks.charCodeAt(i) - 48;
      case "urls": return n[k + 8];
      default:
        var c = Number(key.slice(6));
        var ch = data.access.charAt(i * data.crawlers + c);
        return ch === "y" ? 2 : ch === "n" ? 0 : 1;
    }
  }

  function compute() {
    var q = filter.value.trim().toLowerCase();
    var o = outcome.value ? outcomeNames.indexOf(outcome.value) : -1;
    var total = data.host.length;
    var keys = new Float64Array(total);
    var count = 0;
    var SCALE = 2097152; // 2^21: more than the row numbers
    var MAX_KEY = 2147483647; // 2^31 - 1
    for (var i = 0; i < total; i++) {
      if (q && data.lower[i].indexOf(q) === -1) { continue; }
      if (o >= 0 && data.outcome.charCodeAt(i) - 48 !== o) { continue; }
      if (errorsOnly.checked && data.numbers[i * STRIDE + 4] === 0 && data.unread.charCodeAt(i) === 48) { continue; }
      if (blockedOnly.checked && data.blocks.charCodeAt(i) !== 49) { continue; }
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
    var n = data.numbers, k = i * STRIDE;
    var host = data.host[i];
    var stem = data.stem[i] !== undefined ? data.stem[i] : host;
    var unread = data.unread.charCodeAt(i) === 49;
    var oc = data.outcome.charCodeAt(i) - 48;
    var h = "<tr><th scope=\"row\">" + (stem === "" ? esc(host) :
      "<a href=\"" + esc(root + "hosts/" + stem + ".html") + "\">" + esc(host) + "</a>");
    if (data.path[i] !== undefined) { h += "<br><span class=\"small\">" + esc(data.path[i]) + "</span>"; }
    if (data.error[i] !== undefined) { h += "<br><span class=\"sev-error small\">" + esc(data.error[i]) + "</span>"; }
    h += "</th><td>" + esc(rankLabels[data.rank.charCodeAt(i) - 48] || "") + "</td>";
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
    h += unread ? "<td>—</td>" : "<td>" + (data.blocks.charCodeAt(i) === 49 ? "<span class=\"badge bad\">yes</span>" : "no") + "</td>";
    for (var c = 0; c < data.crawlers; c++) {
      var a = data.access.charAt(i * data.crawlers + c);
      h += a === "y" ? "<td class=\"m-y\" title=\"allowed\">✓</td>" : a === "n" ? "<td class=\"m-n\" title=\"disallowed\">✗</td>" : "<td class=\"m-u\" title=\"unknown\">–</td>";
    }
    return h + "</tr>";
  }

  function render() {
    var from = page * PAGE, to = Math.min(result.length, from + PAGE);
    var html = [];
    for (var j = from; j < to; j++) { html.push(rowHtml(result[j])); }
    body.innerHTML = html.join("");
    Array.prototype.forEach.call(pagers, function (p) { p.hidden = true; });
    var words = fmt(result.length) + " of " + fmt(data.host.length) + (data.host.length === 1 ? " host" : " hosts") + " match";
    if (result.length > PAGE) { words += "; showing " + fmt(from + 1) + " to " + fmt(to); }
    shown.textContent = words;
    if (note) { note.textContent = "Hosts of the whole report that match, sorted by the column chosen."; }
    more.hidden = result.length <= PAGE;
    prev.disabled = page === 0;
    next.disabled = to >= result.length;
  }

  function restore() {
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
    withData(function () { compute(); render(); });
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

  var timer = null;
  filter.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(apply, 120);
  });
  [outcome, errorsOnly, blockedOnly].forEach(function (el) { el.addEventListener("change", apply); });
  tools.hidden = false;
})();
