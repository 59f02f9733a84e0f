#!/usr/bin/env bash
# Size and speed of the pages' tester: builds a report over a generated 500 KB file (groups of
# allow and disallow rules with `*` and `$`) and a small file, then measures assets/engine.js
# and decisions in headless Chromium.
# Needs the release binary, node with playwright-core in node_modules, and /usr/bin/chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in"
printf 'User-agent: *\nDisallow: /search\nAllow: /search/help\n' >"$work/in/small.example.txt"
python3 - "$work/in/large.example.txt" <<'PY'
import sys, random
random.seed(9309)
out = ["User-agent: *"]
size = 12
i = 0
while size < 500_000:
    i += 1
    if i % 400 == 0:
        line = f"User-agent: bot{i}"
    else:
        kind = "Allow" if i % 3 == 0 else "Disallow"
        line = f"{kind}: /section-{i % 97}/*/page-{i}{'$' if i % 5 == 0 else ''}"
    out.append(line)
    size += len(line) + 1
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
cargo build --release --quiet
./target/release/robots-explorer report "$work/in" --out "$work/site" >/dev/null
NODE_PATH=node_modules node benches/tester_timing.js "$work/site" small.example.html large.example.html
