/// The JavaScript the timeline page and the live page share: making an element, quoting a value the way
/// the tool escapes it, and drawing a value as a collapsible tree. Each page's script includes it at the top
/// of its closure, so the names stay local to the page.
enum PageScript {
  static let valueTree = #"""
          function el(tag, cls, text) {
            const node = document.createElement(tag);
            if (cls) node.className = cls;
            if (text !== undefined) node.textContent = text;
            return node;
          }
          // A value as JSON text, escaped by the tool's rule (JSONValue.serialized): DEL, the C1 controls,
          // the line separators and the bidirectional controls as \u escapes, so the page shows what the
          // terminal shows and a payload cannot reorder or break the text around it.
          function quote(value) {
            return JSON.stringify(value).replace(/[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
              c => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
          }
          // A value as a collapsible tree.
          function tree(value, label) {
            if (value !== null && typeof value === "object") {
              const isArray = Array.isArray(value);
              const keys = isArray ? value.map((_, i) => i) : Object.keys(value);
              const node = el("details");
              node.open = true;
              const summary = el("summary");
              if (label !== undefined) summary.appendChild(el("span", "key", label + ": "));
              summary.appendChild(el("span", null, isArray ? "[" + keys.length + "]" : "{" + keys.length + "}"));
              node.appendChild(summary);
              for (const k of keys) node.appendChild(tree(value[k], isArray ? "[" + k + "]" : k));
              return node;
            }
            const leaf = el("div", "leaf");
            if (label !== undefined) leaf.appendChild(el("span", "key", label + ": "));
            const cls = typeof value === "string" ? "str" : typeof value === "number" ? "num" : "lit";
            leaf.appendChild(el("span", cls, typeof value === "string" ? quote(value) : String(value)));
            return leaf;
          }
    """#
}
