// Search for the robots-explorer guide. The index is loaded by search-index.js as a global
// (window.GUIDE_SEARCH_INDEX), so search works when the pages are opened from disk (file://),
// where fetching a JSON file would be refused. Without JavaScript the search box stays hidden.
(function () {
  "use strict";

  var form = document.getElementById("search");
  var input = document.getElementById("search-input");
  var list = document.getElementById("search-results");
  var index = window.GUIDE_SEARCH_INDEX;
  if (!form || !input || !list || !Array.isArray(index)) {
    return;
  }
  form.hidden = false;
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var first = list.querySelector("a");
    if (first) {
      window.location.href = first.getAttribute("href");
    }
  });

  var prepared = index.map(function (e) {
    return {
      entry: e,
      title: (e.p + " " + e.h).toLowerCase(),
      text: e.t.toLowerCase()
    };
  });

  function words(query) {
    return query.toLowerCase().split(/[^a-z0-9*$%._-]+/).filter(function (w) {
      return w.length > 0;
    });
  }

  function score(item, terms) {
    var total = 0;
    for (var i = 0; i < terms.length; i++) {
      var t = terms[i];
      var inTitle = item.title.indexOf(t) !== -1;
      var inText = item.text.indexOf(t) !== -1;
      if (!inTitle && !inText) {
        return 0;
      }
      total += (inTitle ? 10 : 0) + (inText ? 1 : 0);
    }
    return total;
  }

  function snippet(text, term) {
    var at = text.toLowerCase().indexOf(term);
    if (at === -1) {
      return { before: text.slice(0, 140), hit: "", after: text.length > 140 ? "…" : "" };
    }
    var start = Math.max(0, at - 60);
    return {
      before: (start > 0 ? "…" : "") + text.slice(start, at),
      hit: text.slice(at, at + term.length),
      after: text.slice(at + term.length, at + term.length + 80) + "…"
    };
  }

  function item(e, terms) {
    var li = document.createElement("li");
    var a = document.createElement("a");
    a.href = e.u;
    var title = document.createElement("span");
    title.className = "r-title";
    title.textContent = e.h === e.p ? e.p : e.p + " › " + e.h;
    var text = document.createElement("span");
    text.className = "r-text";
    var s = snippet(e.t, terms[0]);
    text.appendChild(document.createTextNode(s.before));
    if (s.hit) {
      var mark = document.createElement("mark");
      mark.textContent = s.hit;
      text.appendChild(mark);
    }
    text.appendChild(document.createTextNode(s.after));
    a.appendChild(title);
    a.appendChild(text);
    li.appendChild(a);
    return li;
  }

  function update() {
    var terms = words(input.value);
    while (list.firstChild) {
      list.removeChild(list.firstChild);
    }
    if (terms.length === 0) {
      list.hidden = true;
      return;
    }
    var hits = [];
    for (var i = 0; i < prepared.length; i++) {
      var s = score(prepared[i], terms);
      if (s > 0) {
        hits.push({ s: s, i: i });
      }
    }
    hits.sort(function (a, b) {
      return b.s - a.s || a.i - b.i;
    });
    if (hits.length === 0) {
      var none = document.createElement("li");
      none.className = "r-none";
      none.textContent = "No section mentions “" + input.value.trim() + "”.";
      list.appendChild(none);
    }
    hits.slice(0, 12).forEach(function (h) {
      list.appendChild(item(prepared[h.i].entry, terms));
    });
    list.hidden = false;
  }

  input.addEventListener("input", update);
  input.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      input.value = "";
      update();
    }
  });
  document.addEventListener("click", function (event) {
    if (!form.contains(event.target)) {
      list.hidden = true;
    }
  });
})();
