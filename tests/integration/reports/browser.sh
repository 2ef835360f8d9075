#!/usr/bin/env bash
# Opens the HTML report in headless Chromium: no console errors, every chart drawn with a
# non-zero size, a benchmark named with <script> did not run, and a screenshot kept as an
# artefact under $BUILD_DIR/test-artifacts/reports/.
source "$(dirname "$0")/../lib.sh"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || fail "$CHROMIUM not found (scripts/setup installs Debian's chromium)"
ARTIFACTS="$BUILD_DIR/test-artifacts/reports"
mkdir -p "$ARTIFACTS"

rm -f "$ARTIFACTS/report.png"
"$BUILD_DIR/tests/perfgate_render_sample" "$WORK/report" html >/dev/null
cp "$WORK/report/report.html" "$ARTIFACTS/report.html"

# chromium URL [flags...]: a fresh profile each time, no D-Bus (none in CI), log on stderr.
chromium() {
  local url=$1; shift
  local profile; profile=$(mktemp -d "$WORK/profile.XXXXXX")
  DBUS_SESSION_BUS_ADDRESS=disabled: timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --enable-logging=stderr --v=0 "$@" "$url"
}
console_errors() { grep -E 'CONSOLE|Uncaught|Refused to' "$1" || true; }

# The console capture itself must see an error when there is one.
printf '<!DOCTYPE html><title>x</title><script>console.error("probe-error")</script>' >"$WORK/probe.html"
chromium "file://$WORK/probe.html" --dump-dom >/dev/null 2>"$WORK/probe.log"
console_errors "$WORK/probe.log" | grep -q probe-error || { cat "$WORK/probe.log"; fail "console capture saw nothing"; }

# One launch (each costs seconds): the DOM after the page's script ran, and the screenshot.
chromium "file://$WORK/report/report.html" --dump-dom --screenshot="$ARTIFACTS/report.png" \
  --window-size=1280,2400 >"$WORK/dom.html" 2>"$WORK/chrome.log"
errors=$(console_errors "$WORK/chrome.log")
[ -z "$errors" ] || { echo "$errors"; fail "console errors while loading the report"; }

grep -q '<pre id="selfcheck">{' "$WORK/dom.html" || fail "the page's script did not run (no self-check)"
python3 - "$WORK/dom.html" <<'PY' || fail "self-check failed"
import json, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
check = json.loads(re.search(r'<pre id="selfcheck">(.*?)</pre>', dom, re.S).group(1))
print("self-check:", check)
problems = []
if check["svg"] != 4: problems.append(f"expected 4 charts, found {check['svg']}")
if check["svg_sized"] != check["svg"]: problems.append("a chart has zero size")
if check["marks"] == 0 or check["marks_drawn"] != check["marks"]: problems.append("chart marks not drawn")
if check["scripts"] != 1: problems.append(f"{check['scripts']} script elements: a name became a script")
if check["rows"] != 10: problems.append(f"verdict table has {check['rows']} rows")
title = re.search(r"<title>(.*?)</title>", dom).group(1)
if title != "perfgate premerge": problems.append(f"title changed to {title!r}: injected script ran")
if "<script>document.title" in dom or "<img src" in dom: problems.append("a hostile name was parsed as markup")
if "&lt;script&gt;document.title" not in dom: problems.append("the hostile name is not shown as text")
for p in problems: print("problem:", p)
sys.exit(1 if problems else 0)
PY

[ "$(head -c 8 "$ARTIFACTS/report.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] ||
  fail "screenshot is not a PNG"
echo "screenshot: $ARTIFACTS/report.png"
