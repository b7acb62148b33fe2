#!/usr/bin/env bash
# Measures inspect/latency-p50 and -p99 in the browser: a store with an inspector sends 1,000 actions a second
# (rewind-bench's `serve` mode), `rewind attach` serves the live page, headless Chromium opens it, and the
# page records, for each event it receives over its stream, the time from the app's clock stamping the
# event to the page holding it (window.rewindLatencies; one machine, one clock, millisecond resolution).
#
# usage: bash Scripts/inspect-latency.sh [SECONDS]   (default 10; builds release products first)
# Needs chromium (Scripts/install-browser.sh) and python3. Prints one JSON line per percentile.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
swift build -c release --product rewind-bench > /dev/null
swift build -c release --product rewind > /dev/null
work="$(mktemp -d)"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

REWIND_BENCH_INSPECT_ONLY=serve REWIND_BENCH_INSPECT_SECONDS="$seconds" \
  REWIND_BENCH_INSPECT_TOKEN_FILE="$work/token.json" REWIND_BENCH_INSPECT_START="$work/start" \
  .build/release/rewind-bench inspect > "$work/bench.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/token.json" ] && break; sleep 0.1; done
.build/release/rewind attach "$work/token.json" > "$work/attach.out" 2> "$work/attach.err" &
pids+=($!)
for _ in $(seq 100); do grep -q '^open ' "$work/attach.out" 2> /dev/null && break; sleep 0.1; done
url="$(sed -n 's/^open //p' "$work/attach.out")"
browser="$(command -v chromium || command -v chromium-browser || command -v google-chrome)"

python3 - "$browser" "$url" "$work" "$seconds" <<'PY'
import json, os, subprocess, sys, time
browser, url, work, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
to_child, from_child = os.pipe(), os.pipe()
# The child reads commands on descriptor 3 and writes answers on 4: the pipe ends are moved out of the way
# first, then onto 3 and 4, which are the only ones kept open besides the standard three.
child_in, child_out = 100, 101
os.dup2(to_child[0], child_in); os.dup2(from_child[1], child_out)
def setup():
    os.dup2(child_in, 3); os.dup2(child_out, 4)
child = subprocess.Popen([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--user-data-dir=" + work + "/profile", "--remote-debugging-pipe", "about:blank"],
    preexec_fn=setup, pass_fds=(3, 4), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
for fd in (to_child[0], from_child[1], child_in, child_out): os.close(fd)
buffer, ids = b"", [0]
def call(method, params=None, session=None):
    global buffer
    ids[0] += 1
    message = {"id": ids[0], "method": method, "params": params or {}}
    if session: message["sessionId"] = session
    os.write(to_child[1], json.dumps(message).encode() + b"\0")
    while True:
        while b"\0" in buffer:
            text, buffer = buffer.split(b"\0", 1)
            answer = json.loads(text)
            if answer.get("id") == ids[0]:
                if "error" in answer: raise RuntimeError(answer["error"])
                return answer.get("result", {})
        chunk = os.read(from_child[0], 65536)
        if not chunk: raise RuntimeError("the browser exited")
        buffer += chunk
try:
    target = call("Target.createTarget", {"url": url})["targetId"]
    session = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    def evaluate(expression):
        return call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)["result"].get("value")
    for _ in range(200):
        if evaluate("document.body.dataset.ready === 'true'"): break
        time.sleep(0.05)
    open(work + "/start", "w").close()
    expected = int(seconds * 1000)
    deadline = time.time() + seconds + 30
    while time.time() < deadline and (evaluate("window.rewindLatencies ? window.rewindLatencies.length : 0") or 0) < expected:
        time.sleep(0.2)
    values = sorted(evaluate("window.rewindLatencies || []") or [])
    if not values: raise RuntimeError("the page received no events")
    pick = lambda p: values[min(len(values) - 1, int(len(values) * p))]
    for name, p in (("inspect/latency-p50", 0.5), ("inspect/latency-p99", 0.99)):
        print(json.dumps({"name": name, "unit": "ms", "median": pick(p), "events": len(values),
                          "measured": "browser"}))
finally:
    child.kill()
PY
