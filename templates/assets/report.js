// robots-explorer report: progressive enhancement of the index (sorting and filtering).
// The pages are complete without this script; it only adds controls.
(function () {
  "use strict";
  var table = document.getElementById("hosts-table");
  var tools = document.getElementById("index-tools");
  if (!table || !tools) { return; }
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var headers = table.tHead.rows[0].cells;

  function cellValue(row, index, type) {
    var cell = row.cells[index];
    if (!cell) { return type === "num" ? 0 : ""; }
    var raw = cell.getAttribute("data-sort");
    var text = raw !== null ? raw : cell.textContent.trim();
    if (type === "num") {
      var n = parseFloat(text.replace(/,/g, ""));
      return isNaN(n) ? -1 : n;
    }
    return text.toLowerCase();
  }

  function sortBy(index, type, th) {
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    for (var i = 0; i < headers.length; i++) { headers[i].removeAttribute("aria-sort"); }
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var keyed = rows.map(function (r, i) { return [cellValue(r, index, type), i, r]; });
    keyed.sort(function (a, b) {
      if (a[0] < b[0]) { return ascending ? -1 : 1; }
      if (a[0] > b[0]) { return ascending ? 1 : -1; }
      return a[1] - b[1];
    });
    var frag = document.createDocumentFragment();
    keyed.forEach(function (k) { frag.appendChild(k[2]); });
    body.appendChild(frag);
  }

  Array.prototype.forEach.call(headers, function (th, index) {
    var type = th.getAttribute("data-type") || "text";
    var button = document.createElement("button");
    button.type = "button";
    button.className = "sort";
    while (th.firstChild) { button.appendChild(th.firstChild); }
    th.appendChild(button);
    button.addEventListener("click", function () { sortBy(index, type, th); });
  });

  var filter = document.getElementById("filter");
  var outcome = document.getElementById("outcome-filter");
  var errorsOnly = document.getElementById("errors-only");
  var blockedOnly = document.getElementById("blocked-only");
  var shown = document.getElementById("shown");
  var names = rows.map(function (r) { return r.cells[0].textContent.toLowerCase(); });

  function apply() {
    var q = filter.value.trim().toLowerCase();
    var o = outcome.value;
    var count = 0;
    rows.forEach(function (r, i) {
      var ok = (!q || names[i].indexOf(q) !== -1) &&
        (!o || r.getAttribute("data-outcome") === o) &&
        (!errorsOnly.checked || r.getAttribute("data-errors") !== "0") &&
        (!blockedOnly.checked || r.getAttribute("data-blocks") === "true");
      r.hidden = !ok;
      if (ok) { count++; }
    });
    shown.textContent = count + " of " + rows.length + (rows.length === 1 ? " host" : " hosts") + " shown";
  }

  [filter, outcome, errorsOnly, blockedOnly].forEach(function (el) {
    el.addEventListener("input", apply);
    el.addEventListener("change", apply);
  });
  tools.hidden = false;
  apply();
})();
