#!/usr/bin/env bash
# WARC benchmark of `report`: writes a .warc.gz of N robots.txt captures (one gzip member per
# record, a request and a response each, the bodies taken in turn from the corpus) and measures
# one run of `report` over it with /usr/bin/time -v.
#
#   benches/warc.sh [N] [WORK_DIR]        e.g. benches/warc.sh 100000 /tmp/robots-warc
#
# Every 50th capture is a 301 to another host's capture, every 97th a 503, every 89th a 404,
# and every host is captured twice (a second, later capture of the same file for one host in
# ten), so chains, timelines and outcomes are all exercised. RE_REDIRECT_EVERY=K makes every Kth
# capture a 301 instead (K=2: half the hosts redirect, as when most sites move http to https). RE_REPORT_ARGS adds options to
# the report (default `--pages none`: a page per host would need about 60 KB each); set it to
# an empty string for every page. RE_PAD_MB pads the file with non-robots.txt records up to
# that many megabytes of gzip (to measure a 1 GB file: RE_PAD_MB=1024).
#
# Prints one tab-separated line: captures, WARC bytes, wall seconds, user and system CPU
# seconds, peak RSS in MiB, hosts reported.
set -euo pipefail
n=${1:-100000}
work=${2:-/tmp/robots-warc}
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${RE_CORPUS:-$here/../shared/corpus/files}
bin=${RE_BIN:-${CARGO_TARGET_DIR:-$here/target}/release/robots-explorer}
pad=${RE_PAD_MB:-0}
every=${RE_REDIRECT_EVERY:-50}
[ -x "$bin" ] || (cd "$here" && cargo build --release --quiet)
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 2; }
mkdir -p "$work"
warc=$work/crawl-$n-$pad-$every.warc.gz
if [ ! -f "$warc" ]; then
  python3 - "$corpus" "$warc.part" "$n" "$pad" "$every" <<'PY'
import gzip, hashlib, base64, os, sys, io
corpus, out, n, pad_mb = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
every = int(sys.argv[5])
files = sorted(f for f in os.listdir(corpus) if f.endswith(".txt"))
bodies = [open(os.path.join(corpus, f), "rb").read() for f in files]
seq = [0]

def record(w, kind, url, date, block, extra=()):
    seq[0] += 1
    rid = "<urn:uuid:%08x-0000-4000-8000-%012x>" % (seq[0] >> 48, seq[0])
    head = ["WARC/1.1", "WARC-Type: " + kind, "WARC-Record-ID: " + rid, "WARC-Date: " + date,
            "WARC-Target-URI: " + url]
    head += ["%s: %s" % kv for kv in extra]
    head += ["Content-Type: application/http; msgtype=" + kind, "Content-Length: %d" % len(block)]
    data = ("\r\n".join(head) + "\r\n\r\n").encode() + block + b"\r\n\r\n"
    w.write(gzip.compress(data, compresslevel=6))
    return rid

def day(i):
    return "2024-%02d-%02dT%02d:%02d:%02dZ" % (1 + i % 12, 1 + i % 28, i % 24, i % 60, (i // 60) % 60)

with open(out, "wb") as w:
    captures = 0
    i = 0
    while captures < n:
        host = "h%07d.example" % i
        url = "https://%s/robots.txt" % host
        body = bodies[i % len(bodies)]
        date = day(i)
        req = record(w, "request", url, date, b"GET /robots.txt HTTP/1.1\r\nHost: " + host.encode() + b"\r\n\r\n")
        if i % every == every - 1:
            target = "https://www.%s/robots.txt" % host
            answer = b"HTTP/1.1 301 Moved Permanently\r\nLocation: " + target.encode() + b"\r\n\r\n"
            record(w, "response", url, date, answer, [("WARC-Concurrent-To", req)])
            captures += 1
            url, host = target, "www." + host
        status = b"200 OK"
        if i % 97 == 0:
            status, body = b"503 Service Unavailable", b""
        elif i % 89 == 0:
            status, body = b"404 Not Found", b"<html>not found</html>"
        answer = b"HTTP/1.1 " + status + b"\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % len(body) + body
        digest = "sha1:" + base64.b32encode(hashlib.sha1(body).digest()).decode()
        record(w, "response", url, date, answer, [("WARC-Payload-Digest", digest)])
        captures += 1
        if i % 10 == 0 and captures < n:
            record(w, "response", url, day(i + 1000), answer, [("WARC-Payload-Digest", digest)])
            captures += 1
        i += 1
    # Padding: records that are not robots.txt captures (pages), until the file is pad_mb MB.
    page = os.urandom(30000)
    j = 0
    while w.tell() < pad_mb * 1024 * 1024:
        record(w, "response", "https://pad.example/page%d.html" % j, day(j), b"HTTP/1.1 200 OK\r\n\r\n" + page)
        j += 1
PY
  mv "$warc.part" "$warc"
fi
site=$work/site
rm -rf "$site"
args=${RE_REPORT_ARGS---pages none}
# shellcheck disable=SC2086
/usr/bin/time -v "$bin" report "$warc" --out "$site" --quiet --now 2025-01-01T00:00:00Z $args \
  2> "$work/time.txt" || { cat "$work/time.txt" >&2; exit 1; }
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time.txt" \
  | awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }')
user=$(awk -F': ' '/User time/ {print $2}' "$work/time.txt")
sys=$(awk -F': ' '/System time/ {print $2}' "$work/time.txt")
rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$work/time.txt")
hosts=$(wc -l < "$site/hosts.jsonl")
printf 'captures\twarc_bytes\twall_s\tuser_s\tsys_s\tpeak_rss_mib\thosts\n'
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$(stat -c %s "$warc")" "$wall" "$user" "$sys" "$rss" "$hosts"
