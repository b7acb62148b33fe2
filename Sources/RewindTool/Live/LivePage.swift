/// The live timeline page that `rewind attach` and `rewind timeline --follow` serve: the timeline's list,
/// made live and virtualized, with search, folding, the selected event's changes as a tree, "which event
/// last changed this path?", a jump slider, skip, dispatch and export.
///
/// The HTML holds no data and no inline script (the Content-Security-Policy allows neither): the script and
/// style come from `/app.js` and `/app.css`, the data from `/events` (Server-Sent Events) and `/api/…`,
/// every request carrying the page's token. Text from the app reaches the document only through
/// `textContent`, never as HTML.
enum LivePage {
  /// The page for a session titled `title`; `token` is the page's own.
  static func html(title: String, token: String) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <title>Rewind live: \(TimelinePage.escapeHTML(title))</title>
    <link rel="stylesheet" href="/app.css?token=\(token)">
    </head>
    <body data-ready="false">
    <header><h1 id="title"></h1><span id="connection"></span><span id="status"></span></header>
    <section id="controls">
    <span class="commands"><button id="live">Live</button><button id="pause">Pause</button><button id="undo">Undo</button><button id="redo">Redo</button></span>
    <span class="commands" id="slider-box"><input type="range" id="slider" min="0" max="0" value="0" aria-label="jump to event"><span id="slider-label"></span></span>
    <input id="search" type="search" placeholder="search: text, type:list.swipe actor:you source:effect payload:… path:list.rows" aria-label="search">
    <span id="matches"></span>
    <a id="export" href="/api/export?token=\(token)" download="rewind-session.jsonl">Export</a>
    </section>
    <div id="message" role="status"></div>
    <div id="gap-banner" hidden></div>
    <main>
    <section id="list-section"><div id="list-head"><span>#</span><span>time</span><span>type</span><span>source</span><span>actor</span></div><div id="list-scroll"><div id="list-spacer"></div></div></section>
    <section id="detail-section">
    <div id="detail"><p class="hint">Select an event to see its payload and the changes it made.</p></div>
    <div class="panel"><h2>Which event last changed a path?</h2><input id="which-path" placeholder="list.rows[id=3].isFlagged" aria-label="state path"><button id="which-go">Find</button><div id="which-result"></div></div>
    <div class="panel commands"><h2>Dispatch an action</h2><textarea id="dispatch-json" rows="3" placeholder='{"toggleFlag":{"id":2}}' aria-label="action as JSON"></textarea><button id="dispatch-go">Dispatch</button><div id="dispatch-result"></div></div>
    <div class="panel commands"><h2 id="state-title">State</h2><div id="state-tree" class="tree"></div></div>
    </section>
    </main>
    <script src="/app.js?token=\(token)"></script>
    </body>
    </html>

    """
  }

  static let css = """
    body{font:13px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
    header{padding:8px 16px;background:#1d2733;color:#fff;display:flex;gap:18px;align-items:baseline}
    h1{font-size:16px;margin:0}#connection,#status{color:#c9d3de}
    #controls{padding:6px 16px;background:#fff;border-bottom:1px solid #ddd;display:flex;gap:10px;align-items:center;flex-wrap:wrap}
    #slider{width:260px}#search{flex:1;min-width:240px;padding:3px 6px}button{cursor:pointer}
    #message{padding:0 16px;color:#b0361e;min-height:18px}#message.ok{color:#0b7a3e}
    #gap-banner{padding:4px 16px;background:#fff4d6;border-bottom:1px solid #e8c96a}
    main{display:flex;height:calc(100vh - 130px);min-height:300px}
    #list-section{flex:1 1 55%;display:flex;flex-direction:column;border-right:1px solid #ddd;background:#fff}
    #list-head{display:grid;grid-template-columns:80px 100px 1fr 130px 90px;padding:3px 8px;background:#f0f2f5;font-weight:600}
    #list-scroll{flex:1;overflow:auto;position:relative}#list-spacer{position:relative}
    .row{position:absolute;left:0;right:0;height:22px;display:grid;grid-template-columns:80px 100px 1fr 130px 90px;padding:0 8px;align-items:center;white-space:nowrap;overflow:hidden;cursor:pointer;border-bottom:1px solid #f2f2f2}
    .row:hover{background:#eef4fd}.row.selected{background:#d6e6fb}.row.shown{box-shadow:inset 4px 0 #8a5cf6}
    .row.skipped .type,.row.skipped .seq{text-decoration:line-through;color:#999}.row.changed .seq::after{content:" ⚠";color:#c2364a}
    .row.fold{color:#555;font-style:italic}.row.gap{color:#8a6d00;background:#fffaf0}.row.member .seq{padding-left:12px}
    .tag{display:inline-block;padding:0 6px;border-radius:8px;color:#fff;font-size:11px}
    .user{background:#2f7de1}.effect{background:#e58a1f}.system{background:#3aa35c}.command{background:#c2364a}.unknown{background:#999}
    #detail-section{flex:1 1 45%;overflow:auto;padding:8px 16px}.panel{margin-top:14px;border-top:1px solid #e3e3e3;padding-top:6px}
    h2{font-size:14px;margin:10px 0 6px}dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px;margin:0}dt{color:#666}
    details{margin-left:14px}summary{cursor:pointer}.leaf{margin-left:28px;font-family:ui-monospace,Menlo,monospace;white-space:pre-wrap;word-break:break-all}
    .tree{font-family:ui-monospace,Menlo,monospace;font-size:12px}.key{color:#7a3e9d}.str{color:#0b7a3e}.num{color:#1750b0}.lit{color:#b0361e}
    .diff-insert{color:#0b7a3e}.diff-remove{color:#b0361e}.diff-set{color:#1750b0}.diff-move{color:#8a5cf6}.hint{color:#777}
    textarea{width:100%;font-family:ui-monospace,Menlo,monospace}.refused{color:#b0361e}.accepted{color:#0b7a3e}
    body.read-only .commands{display:none}
    """

  static let script = #"""
    "use strict";
    (function () {
      const token = new URLSearchParams(location.search).get("token") || "";
      const rowHeight = 22, foldMin = 4, pageSize = 2000;
      const events = new Map();           // seq -> record
      let newest = 0, received = 0, gapsSeen = 0;
      let missing = [];                   // [from, to] not received yet
      let status = {mode: "live", shown: 0, newest: 0, queued: 0, skipped: [], changed: []};
      let skipped = new Set(), changed = new Set();
      let selected = null, readOnly = false, query = "", openFolds = new Set(), follow = true;
      let displayRows = [], dirty = true;

      const $ = id => document.getElementById(id);
    \#(PageScript.valueTree)
      function api(path) { return path + (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token); }
      function say(text, ok) { const m = $("message"); m.textContent = text; m.className = ok ? "ok" : ""; }


      // MARK: Events

      // An event is kept as a few short fields and its payload's and changes' text (about half a kilobyte):
      // the parsed object is made again when the event is shown, so a million events fit in the page.
      function insert(e) {
        if (typeof e.seq !== "number") return;
        const known = events.get(e.seq);
        if (known) { known.text = JSON.stringify(e); return; }
        const changes = Array.isArray(e.changes) ? e.changes : null;
        events.set(e.seq, {
          seq: e.seq, kind: e.kind, type: String(e.type), actor: e.actor == null ? "" : String(e.actor),
          source: e.kind === "command" ? "command" : String(e.source || "unknown"), cause: e.cause, time: String(e.time || ""),
          payloadText: JSON.stringify(e.payload), paths: changes ? changes.map(c => c.path).join("\n") : "",
          text: JSON.stringify(e),
        });
        received++;
        if (e.seq > newest) newest = e.seq;
        removeMissing(e.seq, e.seq);
        dirty = true;
      }
      function removeMissing(from, to) {
        const next = [];
        for (const [a, b] of missing) {
          if (b < from || a > to) { next.push([a, b]); continue; }
          if (a < from) next.push([a, from - 1]);
          if (b > to) next.push([to + 1, b]);
        }
        missing = next;
      }
      function addGap(from, to, behind) {
        gapsSeen++;
        const absent = [];
        let start = null;
        for (let s = from; s <= to; s++) {
          if (!events.has(s)) { if (start === null) start = s; }
          else if (start !== null) { absent.push([start, s - 1]); start = null; }
          if (s - from > 2000000) break;
        }
        if (start !== null) absent.push([start, to]);
        missing = missing.concat(absent);
        if (to > newest) newest = to;
        dirty = true;
        if (behind) fetchRange(from, to);
      }
      // The page fell behind: the tool has these events; fetch them a page at a time.
      async function fetchRange(from, to) {
        for (let start = from; start <= to; start += pageSize) {
          const end = Math.min(to, start + pageSize - 1);
          try {
            const response = await fetch(api("/api/events?from=" + start + "&to=" + end));
            if (!response.ok) break;
            for (const e of await response.json()) insert(e);
          } catch (error) { break; }
          schedule();
        }
      }

      // MARK: The list: folds, gaps, search, virtualization

      function runKey(r) { return r.kind + "\u0000" + r.type + "\u0000" + r.source + "\u0000" + r.actor; }
      function parseQuery(text) {
        return text.trim().toLowerCase().split(/\s+/).filter(Boolean).map(token => {
          const colon = token.indexOf(":");
          const field = colon > 0 ? token.slice(0, colon) : "";
          if (["type", "actor", "source", "payload", "path"].includes(field)) return [field, token.slice(colon + 1)];
          return ["any", token];
        });
      }
      function matches(r, terms) {
        for (const [field, value] of terms) {
          const text = field === "type" ? r.type : field === "actor" ? r.actor : field === "source" ? r.source
            : field === "payload" ? r.payloadText : field === "path" ? r.paths
            : r.type + "\n" + r.actor + "\n" + r.source + "\n" + r.payloadText + "\n" + r.paths;
          if (!text.toLowerCase().includes(value)) return false;
        }
        return true;
      }
      function inMissing(s) { return missing.some(([a, b]) => s >= a && s <= b); }
      function rebuild() {
        const rows = [];
        const terms = parseQuery(query);
        if (terms.length) {
          for (let s = 1; s <= newest; s++) {
            const r = events.get(s);
            if (r && matches(r, terms)) rows.push({kind: "event", seq: s});
          }
          $("matches").textContent = rows.length + " match" + (rows.length === 1 ? "" : "es");
        } else {
          $("matches").textContent = "";
          let s = 1;
          while (s <= newest) {
            const r = events.get(s);
            if (!r) {
              let end = s;
              while (end + 1 <= newest && !events.has(end + 1)) end++;
              rows.push({kind: "gap", from: s, to: end});
              s = end + 1;
              continue;
            }
            let end = s;
            const key = runKey(r);
            while (end + 1 <= newest && events.has(end + 1) && runKey(events.get(end + 1)) === key) end++;
            if (end - s + 1 >= foldMin) {
              const open = openFolds.has(s);
              rows.push({kind: "fold", from: s, to: end, open: open});
              if (open) for (let m = s; m <= end; m++) rows.push({kind: "event", seq: m, member: true});
            } else {
              for (let m = s; m <= end; m++) rows.push({kind: "event", seq: m});
            }
            s = end + 1;
          }
        }
        displayRows = rows;
        $("list-spacer").style.height = rows.length * rowHeight + "px";
      }
      function time(r) { return r.time.length >= 23 ? r.time.slice(11, 23) : r.time; }
      function render() {
        if (dirty) { rebuild(); dirty = false; }
        const scroller = $("list-scroll");
        if (follow) scroller.scrollTop = scroller.scrollHeight;
        const first = Math.max(0, Math.floor(scroller.scrollTop / rowHeight) - 10);
        const last = Math.min(displayRows.length, first + Math.ceil(scroller.clientHeight / rowHeight) + 20);
        const spacer = $("list-spacer");
        spacer.replaceChildren();
        for (let i = first; i < last; i++) spacer.appendChild(rowElement(displayRows[i], i));
        renderStatus();
      }
      function rowElement(row, index) {
        const node = el("div", "row");
        node.style.top = index * rowHeight + "px";
        if (row.kind === "gap") {
          node.classList.add("gap");
          node.id = "gap-" + row.from;
          node.appendChild(el("span", "seq", "#" + row.from + "–#" + row.to));
          node.appendChild(el("span", null, ""));
          node.appendChild(el("span", null, (row.to - row.from + 1) + " event(s) not received yet: catching up…"));
          return node;
        }
        if (row.kind === "fold") {
          const r = events.get(row.from);
          node.classList.add("fold");
          node.id = "fold-" + row.from;
          node.appendChild(el("span", "seq", "#" + row.from + "–#" + row.to));
          node.appendChild(el("span", null, time(r)));
          node.appendChild(el("span", "type", (row.open ? "▾ " : "▸ ") + r.type + " ×" + (row.to - row.from + 1)));
          node.appendChild(sourceCell(r));
          node.appendChild(el("span", null, r.actor));
          node.addEventListener("click", () => { if (row.open) openFolds.delete(row.from); else openFolds.add(row.from); dirty = true; schedule(); });
          return node;
        }
        const r = events.get(row.seq);
        node.id = "event-" + r.seq;
        node.dataset.seq = String(r.seq);
        if (row.member) node.classList.add("member");
        if (r.seq === selected) node.classList.add("selected");
        if (skipped.has(r.seq)) node.classList.add("skipped");
        if (changed.has(r.seq)) node.classList.add("changed");
        if (status.mode !== "live" && r.seq === status.shown) node.classList.add("shown");
        node.appendChild(el("span", "seq", String(r.seq)));
        node.appendChild(el("span", null, time(r)));
        node.appendChild(el("span", "type", r.type));
        node.appendChild(sourceCell(r));
        node.appendChild(el("span", null, r.actor));
        node.addEventListener("click", () => choose(r.seq));
        return node;
      }
      function sourceCell(r) {
        const cell = el("span");
        cell.appendChild(el("span", "tag " + r.source, r.source));
        if (r.cause != null) cell.appendChild(el("span", null, " ← #" + r.cause));
        return cell;
      }
      let scheduled = false;
      function schedule() {
        if (scheduled) return;
        scheduled = true;
        // At most a few renders a second while events pour in: the list is rebuilt, not patched.
        setTimeout(() => requestAnimationFrame(() => { scheduled = false; render(); }), received > 20000 ? 200 : 16);
      }

      // MARK: Status, gaps and the slider

      function renderStatus() {
        const skippedText = status.skipped && status.skipped.length ? " · skipped #" + status.skipped.join(", #") : "";
        $("status").textContent = status.mode + (status.mode === "live" ? "" : " at #" + status.shown) +
          " · newest #" + newest + (status.queued ? " · " + status.queued + " held" : "") + skippedText;
        const count = missing.reduce((n, [a, b]) => n + (b - a + 1), 0);
        const banner = $("gap-banner");
        banner.hidden = count === 0;
        banner.textContent = count ? "Behind: " + count + " event(s) not received yet (" +
          missing.slice(0, 3).map(([a, b]) => "#" + a + "–#" + b).join(", ") + (missing.length > 3 ? ", …" : "") + "), catching up…" : "";
        const slider = $("slider");
        slider.max = String(newest);
        if (document.activeElement !== slider) slider.value = String(status.mode === "live" ? newest : status.shown);
        $("slider-label").textContent = "#" + slider.value;
        document.body.dataset.mode = status.mode;
        document.body.dataset.shown = String(status.shown);
        document.body.dataset.newest = String(newest);
        document.body.dataset.received = String(received);
        document.body.dataset.missing = String(count);
        document.body.dataset.gaps = String(gapsSeen);
        document.body.dataset.skipped = (status.skipped || []).join(",");
        document.body.dataset.changed = (status.changed || []).join(",");
      }
      function setStatus(s) {
        status = s;
        skipped = new Set(s.skipped || []);
        changed = new Set(s.changed || []);
        if (s.reason === "queue-full") say("The app's queue of held sends filled up: it returned to live by itself.");
        dirty = true;
        schedule();
      }

      // MARK: Detail

      // The changes as a tree of their paths: list.rows[id=3].title becomes list > rows[id=3] > title.
      function changeTree(changes) {
        const root = {children: new Map(), changes: []};
        for (const c of changes) {
          const parts = c.path.match(/[^.\[]+|\[[^\]]*\]/g) || [c.path];
          let node = root;
          for (const part of parts) {
            if (!node.children.has(part)) node.children.set(part, {children: new Map(), changes: []});
            node = node.children.get(part);
          }
          node.changes.push(c);
        }
        function draw(node, label) {
          const box = el("details");
          box.open = true;
          box.appendChild(el("summary", "key", label));
          for (const c of node.changes) {
            const text = c.op === "set" ? quote(c.old) + " → " + quote(c.new) : c.op === "insert" ? "+ " + quote(c.new)
              : c.op === "remove" ? "− " + quote(c.old) : "reordered";
            box.appendChild(el("div", "leaf diff-" + c.op, text));
          }
          for (const [key, child] of node.children) box.appendChild(draw(child, key));
          return box;
        }
        const out = el("div", "tree");
        out.id = "changes-tree";
        for (const [key, child] of root.children) out.appendChild(draw(child, key));
        return out;
      }
      function causeChain(r) {
        const parts = [];
        let cause = r.cause, guard = 0;
        while (cause != null && guard++ < 50) {
          const c = events.get(cause);
          parts.push("#" + cause + (c ? " " + c.type + " (" + c.source + (c.actor ? ", " + c.actor : "") + ")" : ""));
          cause = c ? c.cause : null;
        }
        return parts;
      }
      function field(list, name, value) {
        list.appendChild(el("dt", null, name));
        list.appendChild(el("dd", null, value === undefined || value === null || value === "" ? "-" : String(value)));
      }
      function renderDetail() {
        const detail = $("detail");
        detail.replaceChildren();
        const r = events.get(selected);
        if (!r) return;
        const raw = JSON.parse(r.text);
        detail.appendChild(el("h2", null, "Event #" + r.seq + ": " + r.type));
        const list = el("dl");
        field(list, "time", r.time); field(list, "actor", r.actor); field(list, "source", r.source);
        const chain = causeChain(r);
        if (chain.length) field(list, "caused by", chain.join(" ← "));
        field(list, "correlation", raw.correlation);
        detail.appendChild(list);
        const buttons = el("div", "commands");
        const jump = el("button", null, "Jump here");
        jump.id = "jump-selected";
        jump.addEventListener("click", () => command({type: "jump", to: r.seq}));
        const skip = el("button", null, skipped.has(r.seq) ? "Unskip" : "Skip");
        skip.id = "skip-selected";
        skip.addEventListener("click", () => command({type: skipped.has(r.seq) ? "unskip" : "skip", seq: r.seq}));
        const state = el("button", null, "State at #" + r.seq);
        state.id = "state-selected";
        state.addEventListener("click", () => loadState(r.seq, ""));
        buttons.append(jump, skip, state);
        detail.appendChild(buttons);
        detail.appendChild(el("h2", null, "Payload"));
        const payload = el("div", "tree");
        payload.id = "payload";
        payload.appendChild(tree(raw.payload, r.kind));
        detail.appendChild(payload);
        detail.appendChild(el("h2", null, "Changes"));
        const changes = raw.changes;
        if (!Array.isArray(changes)) detail.appendChild(el("p", "hint", "Not known (following a log, or the state before it could not be rebuilt)."));
        else if (!changes.length) detail.appendChild(el("p", "hint", "This event changed nothing."));
        else detail.appendChild(changeTree(changes));
        if (raw.changesTruncated) detail.appendChild(el("p", "hint", raw.changesTruncated + " more changes not listed"));
      }
      function choose(seq) {
        selected = seq;
        follow = false;
        renderDetail();
        render();
      }

      // "Which event last changed this path?": the newest event at or before the selected one whose changes
      // touch the path (the path itself, a value inside it, or a value that holds it).
      function lastChange(path) {
        const from = selected === null ? newest : selected;
        for (let s = from; s >= 1; s--) {
          const r = events.get(s);
          if (!r || !r.paths) continue;
          for (const p of r.paths.split("\n")) {
            if (p === path || p.startsWith(path + ".") || p.startsWith(path + "[") || path.startsWith(p + ".") || path.startsWith(p + "[")) return r;
          }
        }
        return null;
      }
      $("which-go").addEventListener("click", () => {
        const path = $("which-path").value.trim();
        const out = $("which-result");
        out.replaceChildren();
        if (!path) return;
        const r = lastChange(path);
        if (!r) {
          out.appendChild(el("p", "hint", "No received event changed " + path + (missing.length ? " (some events are not received yet)" : "")));
          return;
        }
        const link = el("a", null, "#" + r.seq + " " + r.type + " (" + r.source + (r.actor ? ", " + r.actor : "") + ")");
        link.href = "#";
        link.id = "which-answer";
        link.addEventListener("click", ev => { ev.preventDefault(); choose(r.seq); });
        out.appendChild(link);
        const chain = causeChain(r);
        if (chain.length) out.appendChild(el("div", "hint", "caused by " + chain.join(" ← ")));
      });

      // MARK: Commands

      async function command(body) {
        try {
          const response = await fetch(api("/api/command"), {
            method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
          });
          const text = await response.text();
          if (!response.ok) { say(text); return null; }
          const reply = JSON.parse(text);
          if (reply.ok === false) say("refused: " + (reply.reason || reply.error));
          else say(body.type + ": done", true);
          return reply;
        } catch (error) { say("the tool did not answer: " + error); return null; }
      }
      $("live").addEventListener("click", () => command({type: "live"}));
      $("pause").addEventListener("click", () => command({type: "pause"}));
      $("undo").addEventListener("click", () => command({type: "undo"}));
      $("redo").addEventListener("click", () => command({type: "redo"}));
      $("slider").addEventListener("input", () => { $("slider-label").textContent = "#" + $("slider").value; });
      $("slider").addEventListener("change", () => command({type: "jump", to: Number($("slider").value)}));
      $("dispatch-go").addEventListener("click", async () => {
        const out = $("dispatch-result");
        out.replaceChildren();
        let action;
        try { action = JSON.parse($("dispatch-json").value); } catch (error) {
          out.appendChild(el("p", "refused", "not JSON: " + error.message));
          return;
        }
        const reply = await command({type: "dispatch", action: action});
        if (reply && reply.ok) out.appendChild(el("p", "accepted", "sent as #" + reply.seq + " (" + reply.actionType + ")"));
        else if (reply) out.appendChild(el("p", "refused", "refused: " + reply.reason));
      });
      async function loadState(at, path) {
        const reply = await command({type: "state", at: at, path: path, limit: 200});
        if (!reply || !reply.ok) return;
        $("state-title").textContent = "State at #" + at;
        const box = $("state-tree");
        if (path === "") box.replaceChildren();
        const target = path === "" ? box : document.querySelector('[data-state-path="' + CSS.escape(path) + '"]');
        if (!target) return;
        const node = reply.node;
        if (node.children) {
          for (const child of node.children) {
            if (child.hasChildren) {
              const item = el("details");
              item.dataset.statePath = child.path;
              const summary = el("summary");
              summary.appendChild(el("span", "key", child.key + ": "));
              summary.appendChild(el("span", null, child.type));
              item.appendChild(summary);
              item.addEventListener("toggle", () => { if (item.open && item.children.length === 1) loadState(at, child.path); }, {once: false});
              target.appendChild(item);
            } else {
              target.appendChild(tree(child.preview, child.key));
            }
          }
          if (node.count > node.children.length + node.offset) target.appendChild(el("div", "hint", "… " + (node.count - node.children.length) + " more"));
        } else {
          target.appendChild(tree(node.value, path || "state"));
        }
      }

      // MARK: Wiring

      $("search").addEventListener("input", () => { query = $("search").value; dirty = true; schedule(); });
      $("list-scroll").addEventListener("scroll", () => {
        const s = $("list-scroll");
        follow = s.scrollTop + s.clientHeight >= s.scrollHeight - rowHeight;
        schedule();
      });
      const stream = new EventSource(api("/events"));
      stream.addEventListener("info", ev => {
        const info = JSON.parse(ev.data);
        $("title").textContent = "Rewind live: " + info.title;
        readOnly = info.readOnly;
        document.body.classList.toggle("read-only", readOnly);
        $("connection").textContent = readOnly ? "following a log (read-only)" : "attached";
        document.body.dataset.ready = "true";
      });
      // From the app's clock stamping an event to the page holding it, in ms (the same machine's clock): for
      // measuring, read by Scripts/inspect-latency.sh.
      const latencies = [];
      window.rewindLatencies = latencies;
      stream.addEventListener("events", ev => {
        const arrived = Date.now();
        for (const e of JSON.parse(ev.data)) {
          if (!events.has(e.seq) && latencies.length < 200000 && e.time) latencies.push(arrived - Date.parse(e.time));
          insert(e);
        }
        if (selected !== null && !events.get(selected)) selected = null;
        schedule();
      });
      stream.addEventListener("gap", ev => { const g = JSON.parse(ev.data); addGap(g.from, g.to, g.behind); schedule(); });
      stream.addEventListener("status", ev => setStatus(JSON.parse(ev.data)));
      stream.addEventListener("ended", ev => {
        $("connection").textContent = "the app disconnected: " + JSON.parse(ev.data).reason;
        document.body.dataset.ended = "true";
        stream.close();
      });
      window.addEventListener("resize", schedule);
      schedule();
    })();
    """#
}
