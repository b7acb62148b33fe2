/// The timeline as one self-contained HTML page: inline CSS and JavaScript, no network access, the data
/// embedded as JSON in a `<script type="application/json">` element.
///
/// Every piece of log text reaches the page only through that JSON (serialized with `<`, `>` and `&`
/// escaped, so a payload holding `</script>` cannot end the element) and is put into the document with
/// `textContent`, never parsed as HTML.
enum TimelinePage {
  /// The page for `data` (the object ``TimelineCommand`` builds), titled `title`.
  static func html(title: String, data: JSONValue) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>\(escapeHTML(title))</title>
    <style>\(css)</style>
    </head>
    <body>
    <header><h1 id="title"></h1><p id="summary"></p></header>
    <section id="axis-section"><div id="axis" aria-label="events on a time axis"></div><div id="axis-labels"><span id="axis-start"></span><span id="axis-end"></span></div>
    <div id="legend"><span class="dot user"></span>user <span class="dot effect"></span>effect <span class="dot system"></span>system <span class="dot command"></span>history command <span class="snap-key"></span>snapshot</div></section>
    <main>
    <section id="list-section"><table id="events"><thead><tr><th>#</th><th>time</th><th>type</th><th>source</th><th>actor</th></tr></thead><tbody></tbody></table></section>
    <section id="detail-section"><div id="detail"><p class="hint">Select an event to see its payload. Shift-click a second event to compare states.</p></div>
    <div id="snapshots"></div></section>
    </main>
    <script type="application/json" id="rewind-data">\(data.serialized(forHTML: true))</script>
    <script>\(script)</script>
    </body>
    </html>

    """
  }

  /// Escapes text for HTML element content and attribute values.
  static func escapeHTML(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.append(character)
      }
    }
    return out
  }

  static let css = """
    body{font:13px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
    header{padding:10px 16px;background:#1d2733;color:#fff}h1{font-size:16px;margin:0}header p{margin:2px 0 0;color:#c9d3de}
    #axis-section{padding:8px 16px;border-bottom:1px solid #ddd;background:#fff}
    #axis{position:relative;height:46px;border-bottom:2px solid #888;margin:0 6px}
    .mark{position:absolute;top:4px;width:8px;height:22px;margin-left:-4px;border-radius:3px;cursor:pointer;opacity:.8}
    .mark.selected{outline:2px solid #000;opacity:1}.mark.compared{outline:2px dashed #000}
    .snapmark{position:absolute;bottom:-8px;width:10px;height:10px;margin-left:-5px;transform:rotate(45deg);background:#8a5cf6}
    #axis-labels{display:flex;justify-content:space-between;color:#666;font-size:11px;margin-top:8px}
    #legend{color:#555;font-size:11px;margin-top:4px}.dot{display:inline-block;width:9px;height:9px;border-radius:2px;margin:0 3px 0 10px}
    .snap-key{display:inline-block;width:8px;height:8px;transform:rotate(45deg);background:#8a5cf6;margin:0 5px 0 12px}
    .user{background:#2f7de1}.effect{background:#e58a1f}.system{background:#3aa35c}.command{background:#c2364a}.unknown{background:#999}
    main{display:flex;gap:0;height:calc(100vh - 172px);min-height:300px}
    #list-section{position:relative;flex:1 1 50%;overflow:auto;border-right:1px solid #ddd;background:#fff}
    #detail-section{flex:1 1 50%;overflow:auto;padding:10px 16px}
    table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:3px 8px;white-space:nowrap;border-bottom:1px solid #eee}
    th{position:sticky;top:0;background:#f0f2f5}tbody tr{cursor:pointer}tbody tr:hover{background:#eef4fd}
    tr.selected{background:#d6e6fb}tr.compared{background:#fbe9d0}tr.fold td{color:#555;font-style:italic}tr.folded td:first-child{padding-left:20px}
    .tag{display:inline-block;padding:0 6px;border-radius:8px;color:#fff;font-size:11px}
    details{margin-left:14px}summary{cursor:pointer}.leaf{margin-left:28px;font-family:ui-monospace,Menlo,monospace;white-space:pre-wrap;word-break:break-all}
    .key{color:#7a3e9d}.str{color:#0b7a3e}.num{color:#1750b0}.lit{color:#b0361e}
    .tree{font-family:ui-monospace,Menlo,monospace;font-size:12px}
    h2{font-size:14px;margin:14px 0 6px}dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px;margin:0}dt{color:#666}
    .diff-add{color:#0b7a3e}.diff-del{color:#b0361e}.diff-chg{color:#1750b0}.hint{color:#777}
    """

  static let script = #"""
    "use strict";
    (function () {
      const data = JSON.parse(document.getElementById("rewind-data").textContent);
      const events = data.events;
      const bySeq = new Map(events.map(e => [e.sequence, e]));
      let selected = null, compared = null;

    \#(PageScript.valueTree)
      function colour(e) { return e.kind === "command" ? "command" : (e.source || "unknown"); }
      function time(e) { return e.time || e.committed; }
      // The full action path (list.swipe.panBegan) where the log has one, else the recorded type.
      function typeOf(e) { return e.path || e.type; }

      document.getElementById("title").textContent = "Rewind timeline: " + data.title;
      document.getElementById("summary").textContent = data.summaryText;

      // The time axis: one mark per event, placed by its timestamp; snapshots as diamonds.
      const axis = document.getElementById("axis");
      const times = events.map(e => Date.parse(time(e))).filter(t => !isNaN(t));
      // reduce, not Math.min(...times): spreading a long array overflows the call stack.
      const t0 = times.reduce((a, b) => Math.min(a, b), Infinity), t1 = times.reduce((a, b) => Math.max(a, b), -Infinity);
      const position = (e, i) => {
        const t = Date.parse(time(e));
        if (isNaN(t) || !isFinite(t0) || t1 === t0) return events.length > 1 ? (i / (events.length - 1)) * 100 : 50;
        return ((t - t0) / (t1 - t0)) * 100;
      };
      events.forEach((e, i) => {
        const mark = el("div", "mark " + colour(e));
        mark.id = "mark-" + e.sequence;
        mark.style.left = position(e, i) + "%";
        mark.title = "#" + e.sequence + " " + typeOf(e) + " (" + (e.source || "?") + ")" + (e.actor ? " by " + e.actor : "");
        mark.addEventListener("click", ev => choose(e.sequence, ev.shiftKey));
        axis.appendChild(mark);
      });
      (data.snapshots || []).forEach(s => {
        const e = bySeq.get(s.sequence);
        if (!e) return;
        const mark = el("div", "snapmark");
        mark.style.left = position(e, events.indexOf(e)) + "%";
        mark.title = "snapshot at #" + s.sequence + (s.usable ? "" : " (not usable)");
        axis.appendChild(mark);
      });
      document.getElementById("axis-start").textContent = events.length ? time(events[0]) : "";
      document.getElementById("axis-end").textContent = events.length ? time(events[events.length - 1]) : "";

      // The list. A run of at least foldMin events of one kind in a row (a drag's changes, a stream of
      // ticks) folds into one row that opens on a click; selecting an event inside a fold opens it.
      const body = document.querySelector("#events tbody");
      const foldMin = 4;
      const runKey = e => e.kind + "\u0000" + typeOf(e) + "\u0000" + colour(e) + "\u0000" + (e.actor || "");
      const foldOf = new Map();
      for (let i = 0; i < events.length; ) {
        let j = i + 1;
        while (j < events.length && runKey(events[j]) === runKey(events[i])) j++;
        if (j - i >= foldMin) {
          const run = events.slice(i, j), first = run[0], last = run[run.length - 1];
          const fold = el("tr", "fold");
          fold.id = "fold-" + first.sequence;
          fold.appendChild(el("td", null, "#" + first.sequence + "–#" + last.sequence));
          fold.appendChild(el("td", null, time(first)));
          fold.appendChild(el("td", null, "▸ " + typeOf(first) + " ×" + run.length));
          const source = el("td");
          source.appendChild(el("span", "tag " + colour(first), first.kind === "command" ? "command" : (first.source || "?")));
          fold.appendChild(source);
          fold.appendChild(el("td", null, first.actor || ""));
          fold.addEventListener("click", () => setOpen(fold, fold.dataset.open !== "true"));
          fold.dataset.open = "false";
          fold.dataset.members = run.map(e => e.sequence).join(",");
          run.forEach(e => foldOf.set(e.sequence, fold));
        }
        i = j;
      }
      function setOpen(fold, open) {
        fold.dataset.open = String(open);
        fold.cells[2].textContent = (open ? "▾ " : "▸ ") + fold.cells[2].textContent.slice(2);
        for (const s of fold.dataset.members.split(",")) document.getElementById("event-" + s).hidden = !open;
      }
      // Opens the fold that hides event `sequence`, if any.
      function reveal(sequence) {
        const fold = foldOf.get(sequence);
        if (fold && fold.dataset.open !== "true") setOpen(fold, true);
      }
      for (const e of events) {
        const fold = foldOf.get(e.sequence);
        if (fold && fold.dataset.members.startsWith(e.sequence + ",")) body.appendChild(fold);
        const row = el("tr", fold ? "folded" : null);
        if (fold) row.hidden = true;
        row.id = "event-" + e.sequence;
        row.dataset.sequence = String(e.sequence);
        row.appendChild(el("td", null, String(e.sequence)));
        row.appendChild(el("td", null, time(e)));
        row.appendChild(el("td", null, typeOf(e)));
        const source = el("td");
        source.appendChild(el("span", "tag " + colour(e), e.kind === "command" ? "command" : (e.source || "?")));
        if (e.cause) source.appendChild(el("span", null, " ← #" + e.cause));
        row.appendChild(source);
        row.appendChild(el("td", null, e.actor || ""));
        row.addEventListener("click", ev => choose(e.sequence, ev.shiftKey));
        body.appendChild(row);
      }



      // The differences between two values, as paths.
      function diff(a, b, path, out) {
        const isObj = v => v !== null && typeof v === "object";
        if (isObj(a) && isObj(b) && Array.isArray(a) === Array.isArray(b)) {
          const keys = Array.isArray(a)
            ? [...Array(Math.max(a.length, b.length)).keys()]
            : [...new Set([...Object.keys(a), ...Object.keys(b)])];
          for (const k of keys) {
            const p = Array.isArray(a) ? path + "[" + k + "]" : (path ? path + "." + k : String(k));
            if (!(k in a)) out.push(["add", p, undefined, b[k]]);
            else if (!(k in b)) out.push(["del", p, a[k], undefined]);
            else diff(a[k], b[k], p, out);
          }
        } else if (JSON.stringify(a) !== JSON.stringify(b)) {
          out.push(["chg", path || "(state)", a, b]);
        }
        return out;
      }

      function field(list, name, value) {
        list.appendChild(el("dt", null, name));
        list.appendChild(el("dd", null, value === undefined || value === null ? "-" : String(value)));
      }

      function render() {
        const detail = document.getElementById("detail");
        detail.replaceChildren();
        document.querySelectorAll(".selected,.compared").forEach(n => n.classList.remove("selected", "compared"));
        if (selected === null) return;
        const e = bySeq.get(selected);
        for (const id of ["event-", "mark-"]) document.getElementById(id + selected).classList.add("selected");
        if (compared !== null) for (const id of ["event-", "mark-"]) document.getElementById(id + compared).classList.add("compared");
        detail.appendChild(el("h2", null, "Event #" + e.sequence + ": " + typeOf(e)));
        const list = el("dl");
        field(list, "time", e.time); field(list, "committed", e.committed); field(list, "actor", e.actor);
        field(list, "source", (e.source || "-") + (e.cause ? " (caused by #" + e.cause + ")" : ""));
        field(list, "correlation", e.correlationID); field(list, "schema version", e.schemaVersion);
        detail.appendChild(list);
        const payload = el("div", "tree");
        payload.id = "payload";
        payload.appendChild(tree(e.payload, e.kind));
        detail.appendChild(el("h2", null, "Payload"));
        detail.appendChild(payload);
        if ("state" in e) {
          detail.appendChild(el("h2", null, "State after #" + e.sequence));
          const state = el("div", "tree");
          state.id = "state";
          state.appendChild(tree(e.state, "state"));
          detail.appendChild(state);
        }
        if (compared !== null) {
          const other = bySeq.get(compared);
          detail.appendChild(el("h2", null, "Changes in state from #" + e.sequence + " to #" + other.sequence));
          const box = el("div", "tree");
          box.id = "diff";
          if (!("state" in e) || !("state" in other)) {
            box.appendChild(el("p", "hint", "States are not in this timeline (it was not made by an app's debugger)."));
          } else {
            const changes = diff(e.state, other.state, "", []);
            if (!changes.length) box.appendChild(el("p", "hint", "no difference"));
            for (const [kind, path, before, after] of changes) {
              const text = kind === "add" ? "+ " + path + ": " + quote(after)
                : kind === "del" ? "- " + path + ": " + quote(before)
                : "~ " + path + ": " + quote(before) + " → " + quote(after);
              box.appendChild(el("div", "diff-" + kind, text));
            }
          }
          detail.appendChild(box);
        }
      }

      function choose(sequence, second) {
        if (second && selected !== null && sequence !== selected) compared = sequence;
        else { selected = sequence; compared = null; }
        reveal(sequence);
        render();
      }

      const snapshots = document.getElementById("snapshots");
      snapshots.appendChild(el("h2", null, "Snapshots (" + (data.snapshots || []).length + ")"));
      for (const s of data.snapshots || []) {
        const item = el("details", "snapshot");
        const summary = el("summary", null, s.file + " at #" + s.sequence + (s.usable ? "" : " (not usable: " + s.problem + ")"));
        item.appendChild(summary);
        if (s.state !== undefined) item.appendChild(tree(s.state, "state"));
        snapshots.appendChild(item);
      }

      // "#select=5" (and "&compare=9") selects through the same click handlers a person uses.
      const params = new URLSearchParams(location.hash.slice(1) || location.search.slice(1));
      const target = params.get("select");
      if (target !== null) {
        const row = document.getElementById("event-" + target);
        if (row) {
          reveal(Number(target));
          // Scroll the list only, not the page, so the header and axis stay in view.
          const list = document.getElementById("list-section");
          list.scrollTop = Math.max(0, row.offsetTop - list.clientHeight / 2);
          row.dispatchEvent(new MouseEvent("click", {bubbles: true}));
          const other = params.get("compare");
          const second = other !== null ? document.getElementById("event-" + other) : null;
          if (second) second.dispatchEvent(new MouseEvent("click", {bubbles: true, shiftKey: true}));
        }
      }
      document.body.dataset.ready = "true";
    })();
    """#
}
