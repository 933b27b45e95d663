// The scenario browser: filters, a list that draws only the rows in view, and a detail pane that
// reads the embedded details only when a scenario is first opened. The filter state lives in the
// URL hash, so a filtered view can be linked and reopened.
(function () {
  "use strict";
  var ROW_H = 30;
  var $ = function (id) { return document.getElementById(id); };
  var index = JSON.parse($("index-data").textContent);
  var details = null;
  function detailsData() {
    if (!details) details = JSON.parse($("details-data").textContent);
    return details;
  }
  var S = index.scenarios; // [id, set, category, language, request]
  var R = index.rows;      // [model, scenario, passed, kinds, rounds, seconds]
  var models = index.models, kinds = index.kinds;

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function json(v) { return typeof v === "string" ? v : JSON.stringify(v, null, 2); }

  var rowsOf = S.map(function () { return []; });
  R.forEach(function (r, i) { rowsOf[r[1]].push(i); });
  var haystack = S.map(function (s) { return (s[0] + " " + s[4]).toLowerCase(); });
  var order = R.map(function (_, i) { return i; }).sort(function (a, b) {
    var x = S[R[a][1]][0], y = S[R[b][1]][0];
    return x < y ? -1 : x > y ? 1 : R[a][0] - R[b][0];
  });

  var state, shown = [], drawn = null;
  function reset() {
    state = { models: models.map(function (_, i) { return i; }), status: "all", set: "",
              category: "", language: "", kind: "", q: "", open: null };
  }

  function fill(id, values) {
    var el = $(id);
    values.forEach(function (v) {
      var o = document.createElement("option");
      o.value = o.textContent = v;
      el.appendChild(o);
    });
  }
  fill("f-set", index.sets);
  fill("f-category", index.categories);
  fill("f-language", index.languages);
  fill("f-kind", kinds);

  function differs(s) {
    var seen = rowsOf[s].filter(function (i) { return state.models.indexOf(R[i][0]) >= 0; })
      .map(function (i) { return R[i][2]; });
    return seen.length > 1 && seen.some(function (v) { return v !== seen[0]; });
  }

  function matches(i) {
    var r = R[i], s = S[r[1]];
    if (state.models.indexOf(r[0]) < 0) return false;
    if (state.set && s[1] !== state.set) return false;
    if (state.category && s[2] !== state.category) return false;
    if (state.language && s[3] !== state.language) return false;
    if (state.status === "passed" && !r[2]) return false;
    if (state.status === "failed" && r[2]) return false;
    if (state.status === "differs" && !differs(r[1])) return false;
    if (state.kind && r[3].indexOf(kinds.indexOf(state.kind)) < 0) return false;
    if (state.q && haystack[r[1]].indexOf(state.q) < 0) return false;
    return true;
  }

  function apply() {
    shown = order.filter(matches);
    $("spacer").style.height = shown.length * ROW_H + "px";
    $("count").textContent = shown.length + " of " + R.length + " runs";
    syncControls();
    drawn = null;
    draw();
    writeHash();
  }

  function draw() {
    var list = $("list");
    var first = Math.max(0, Math.floor(list.scrollTop / ROW_H) - 10);
    var last = Math.min(shown.length, Math.ceil((list.scrollTop + list.clientHeight) / ROW_H) + 10);
    if (drawn && drawn[0] === first && drawn[1] === last) return;
    drawn = [first, last];
    var html = "";
    for (var p = first; p < last; p++) {
      var i = shown[p], r = R[i], s = S[r[1]];
      html += '<div class="row' + (state.open === i ? " open" : "") + '" data-row="' + i +
        '" style="top:' + p * ROW_H + 'px"><span class="mark ' + (r[2] ? "pass" : "fail") + '">' +
        (r[2] ? "✓" : "✗") + '</span><span class="swatch" style="background:' +
        index.colours[r[0]] + '"></span><span class="id" title="' + esc(s[4]) + '">' +
        esc(s[0]) + '</span><span class="kinds">' +
        r[3].map(function (k) { return esc(kinds[k]); }).join(", ") + "</span></div>";
    }
    $("spacer").innerHTML = html;
  }

  function syncControls() {
    document.querySelectorAll("#f-model button").forEach(function (b) {
      b.setAttribute("aria-pressed", String(state.models.indexOf(+b.dataset.model) >= 0));
    });
    document.querySelectorAll("#f-status button").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.dataset.status === state.status));
    });
    $("f-set").value = state.set;
    $("f-category").value = state.category;
    $("f-language").value = state.language;
    $("f-kind").value = state.kind;
    if ($("f-text").value.toLowerCase() !== state.q) $("f-text").value = state.q;
  }

  // --- the detail pane ---------------------------------------------------------------------
  function open(i) {
    state.open = i;
    $("detail").innerHTML = detailHtml(i);
    drawn = null;
    draw();
    writeHash();
  }

  function section(title, body) { return "<h3>" + esc(title) + "</h3>" + body; }
  function pre(text) { return "<pre>" + esc(text) + "</pre>"; }
  function fold(title, body, isOpen) {
    return "<details" + (isOpen ? " open" : "") + "><summary>" + esc(title) + "</summary>" +
      body + "</details>";
  }

  function detailHtml(i) {
    var d = detailsData(), r = R[i], s = S[r[1]], run = d.runs[i], sc = d.scenarios[r[1]];
    var h = "<h3>" + esc(s[0]) + "</h3><p>" +
      '<span class="mark ' + (r[2] ? 'pass">✓ passed' : 'fail">✗ failed') + "</span> · " +
      "<b>" + esc(models[r[0]]) + "</b> seed " + run.seed + " · " + esc(s[2]) + " · " +
      esc(s[3]) + " · " + esc(s[1]) + " set · " + run.seconds.toFixed(1) + " s</p>";
    var others = rowsOf[r[1]].filter(function (j) { return j !== i; });
    if (others.length) {
      h += '<p class="others">Same scenario: ' + others.map(function (j) {
        return '<button type="button" data-open="' + j + '">' + (R[j][2] ? "✓ " : "✗ ") +
          esc(models[R[j][0]]) + "</button>";
      }).join("") + "</p>";
    }
    var history = (sc.history || []).map(function (t) {
      return "<p><i>" + esc(t.role) + ":</i> " + esc(t.content) + "</p>";
    }).join("");
    h += section("Request", history + pre(s[4]));
    if (!r[2]) {
      h += section("Failed checks", (r[3].length ? "<p>" + r[3].map(function (k) {
        return "<code>" + esc(kinds[k]) + "</code>";
      }).join(" ") + "</p>" : "") + '<ul class="issues">' + run.issues.map(function (x) {
        return "<li>" + esc(x) + "</li>";
      }).join("") + "</ul>" + (run.failure ? "<p>Turn failed (" + esc(run.failure.kind) + "): " +
        esc(run.failure.message || "") + "</p>" : ""));
    }
    h += section("Answer", run.answer ? pre(run.answer) : '<p class="muted">(empty)</p>');
    h += section("Calls (" + run.calls.length + ")", callsHtml(run.calls));
    h += section("Rounds (" + run.rounds.length + ")", run.rounds.map(roundHtml).join("") ||
      '<p class="muted">No rounds recorded for this backend.</p>');
    if (run.transcript) {
      h += section("Transcript after the request", run.transcript.map(messageHtml).join(""));
    }
    if (sc.expect) h += fold("Expected (the scenario's checks)", pre(json(sc.expect)), !r[2]);
    if (sc.phone) {
      h += fold("Phone data" + (sc.connections && sc.connections.length ?
        " · connections: " + sc.connections.join(", ") : ""), pre(json(sc.phone)), false);
    }
    if (sc.tools && Object.keys(sc.tools).length) {
      h += fold("Scripted MCP answers", pre(json(sc.tools)), false);
    }
    if (!sc.expect) h += '<p class="muted">Scenario file not given: phone data and checks unavailable.</p>';
    return h;
  }

  function callsHtml(calls) {
    if (!calls.length) return '<p class="muted">No tool call.</p>';
    return "<table><thead><tr><th>tool</th><th>arguments</th><th>failed</th><th>matched</th></tr>" +
      "</thead><tbody>" + calls.map(function (c) {
        return "<tr" + (c.failed ? ' class="failed-call"' : "") + "><td>" + esc(c.tool) +
          '</td><td style="text-align:left;white-space:normal"><code>' +
          esc(typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments)) +
          "</code></td><td>" + (c.failed ? "yes" : "") + "</td><td>" + (c.matched ? "yes" : "no") +
          "</td></tr>";
      }).join("") + "</tbody></table>";
  }

  function roundHtml(rd, n) {
    var meta = "prompt " + rd.promptTokens + " tokens (" + rd.cachedTokens + " cached) · " +
      "system prompt " + rd.systemChars + " chars · " + rd.tools + " tools declared · generated " +
      rd.generatedTokens + " tokens · prefill " + rd.prefillSeconds.toFixed(2) + " s, decode " +
      rd.decodeSeconds.toFixed(2) + " s";
    var h = '<div class="round"><b>Round ' + (n + 1) + '</b><div class="meta">' + meta + "</div>" +
      pre(rd.text);
    if (rd.calls.length) {
      h += "<div>Calls: " + rd.calls.map(function (c) {
        return "<code>" + esc(c.name) + " " + esc(JSON.stringify(c.arguments)) + "</code>";
      }).join("<br>") + "</div>";
    }
    if (rd.parseErrors.length) {
      h += '<div class="failed-call">Unparsed call text: ' + rd.parseErrors.map(esc).join("<br>") +
        "</div>";
    }
    if (rd.results && rd.results.length) h += "<div>Results:</div>" + rd.results.map(messageHtml).join("");
    return h + "</div>";
  }

  function messageHtml(m) {
    var head = m.role + (m.name ? " " + m.name : "") + (m.failed ? " (failed)" : "");
    var calls = (m.calls || []).map(function (c) {
      return "<code>" + esc(c.name) + " " + esc(JSON.stringify(c.arguments)) + "</code>";
    }).join("<br>");
    return '<div class="meta' + (m.failed ? " failed-call" : "") + '">' + esc(head) + "</div>" +
      (m.content ? pre(m.content) : "") + calls;
  }

  // --- the URL hash --------------------------------------------------------------------------
  function writeHash() {
    var p = new URLSearchParams();
    if (state.models.length !== models.length) {
      p.set("model", state.models.map(function (i) { return models[i]; }).join(","));
    }
    ["set", "category", "language", "kind", "q"].forEach(function (k) { if (state[k]) p.set(k, state[k]); });
    if (state.status !== "all") p.set("status", state.status);
    if (state.open !== null) p.set("open", S[R[state.open][1]][0] + "@" + models[R[state.open][0]]);
    var text = p.toString();
    history.replaceState(null, "", text ? "#" + text : location.pathname + location.search);
  }

  function readHash() {
    reset();
    var p = new URLSearchParams(location.hash.slice(1));
    if (p.has("model")) {
      state.models = p.get("model").split(",").map(function (m) { return models.indexOf(m); })
        .filter(function (i) { return i >= 0; });
    }
    ["set", "category", "language", "kind"].forEach(function (k) { state[k] = p.get(k) || ""; });
    state.q = (p.get("q") || "").toLowerCase();
    if (["passed", "failed", "differs"].indexOf(p.get("status")) >= 0) state.status = p.get("status");
    var target = p.get("open");
    if (target) {
      var at = target.lastIndexOf("@"), id = target.slice(0, at), model = models.indexOf(target.slice(at + 1));
      state.open = R.findIndex(function (r) { return S[r[1]][0] === id && r[0] === model; });
      if (state.open < 0) state.open = null;
    }
  }

  function start(fromLink) {
    readHash();
    apply();
    if (state.open === null && state.q) {
      // A link to one scenario (from the comparison's flips) opens its first run.
      var exact = shown.filter(function (i) { return S[R[i][1]][0].toLowerCase() === state.q; });
      if (exact.length) state.open = exact[0];
    }
    if (state.open !== null) open(state.open);
    if (fromLink) $("browser").scrollIntoView();
  }

  // --- events ----------------------------------------------------------------------------------
  $("f-model").addEventListener("click", function (e) {
    var b = e.target.closest("button");
    if (!b) return;
    var m = +b.dataset.model, at = state.models.indexOf(m);
    if (at >= 0) state.models.splice(at, 1); else state.models.push(m);
    state.models.sort();
    apply();
  });
  $("f-status").addEventListener("click", function (e) {
    var b = e.target.closest("button");
    if (!b) return;
    state.status = b.dataset.status;
    apply();
  });
  ["set", "category", "language", "kind"].forEach(function (k) {
    $("f-" + k).addEventListener("change", function (e) { state[k] = e.target.value; apply(); });
  });
  $("f-text").addEventListener("input", function (e) { state.q = e.target.value.trim().toLowerCase(); apply(); });
  $("list").addEventListener("scroll", draw);
  $("list").addEventListener("click", function (e) {
    var row = e.target.closest(".row");
    if (row) open(+row.dataset.row);
  });
  $("list").addEventListener("keydown", function (e) {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    e.preventDefault();
    var at = shown.indexOf(state.open) + (e.key === "ArrowDown" ? 1 : -1);
    if (at < 0 || at >= shown.length) return;
    var list = $("list");
    if (at * ROW_H < list.scrollTop || (at + 1) * ROW_H > list.scrollTop + list.clientHeight) {
      list.scrollTop = at * ROW_H - list.clientHeight / 2;
    }
    open(shown[at]);
  });
  $("detail").addEventListener("click", function (e) {
    var b = e.target.closest("button[data-open]");
    if (b) open(+b.dataset.open);
  });
  window.addEventListener("hashchange", function () {
    // Plain section anchors (#results) are navigation, not a filter.
    if (location.hash.indexOf("=") >= 0) start(true);
  });
  start(false);
})();
