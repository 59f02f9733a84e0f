#!/usr/bin/env bash
# Scale benchmark of `report`: builds an input of N hosts from the corpus (hard links, so the
# input costs inodes, not bytes; 1,000 files per folder) and measures one run over it.
#
#   benches/scale.sh N [WORK_DIR]        e.g. benches/scale.sh 1000000 /tmp/robots-scale
#
# Prints one tab-separated line: hosts, wall seconds, user and system CPU seconds, CPU
# milliseconds per host, peak RSS in MiB, output bytes, output bytes per host, index.html bytes,
# index pages. With RE_BROWSER=1 and playwright-core installed (NODE_PATH), it also times the
# index in headless Chromium: first page, first search (loading the data), a second search and
# a sort. RE_REPORT_ARGS adds options to the report (say `--pages none` where the disk cannot
# hold a page per host). The input is kept between runs of the same N; the site is replaced (see
# RE_SETTLE below).
# With RE_INPUT_ONLY=1 it only builds the input and prints its folder (benches/shard.sh uses it).
set -euo pipefail
n=${1:?usage: benches/scale.sh N [WORK_DIR]}
work=${2:-/tmp/robots-scale}
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${RE_CORPUS:-$here/../shared/corpus/files}
bin=${RE_BIN:-$here/target/release/robots-explorer}
[ -x "$bin" ] || (cd "$here" && cargo build --release --quiet)
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 2; }
input=$work/in-$n
if [ ! -f "$input/.complete" ]; then
  rm -rf "$input"
  mkdir -p "$input"
  # Hard links made in one process (a process per link takes an hour for a million).
  python3 - "$corpus" "$input" "$n" <<'PY'
import os, sys
corpus, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
files = sorted(f for f in os.listdir(corpus) if f.endswith(".txt"))
for i in range(n):
    d = os.path.join(out, str(i // 1000))
    if i % 1000 == 0:
        os.makedirs(d, exist_ok=True)
    f = files[i % len(files)]
    os.link(os.path.join(corpus, f), os.path.join(d, "h%07d-%s" % (i, f)))
PY
  touch "$input/.complete"
fi
if [ "${RE_INPUT_ONLY:-0}" = 1 ]; then
  echo "$input"
  exit 0
fi
site=$work/site-$n
if [ -e "$site" ]; then
  rm -rf "$site"
  # ext4 without a journal (this machine's disk: `cat /sys/fs/ext4/*/journal_task` says
  # <none>) does not hand out an inode freed less than 60 seconds ago, or less than 360 while
  # the block of the inode table holding it is dirty, which creating any file beside it makes
  # it (fs/ext4/ialloc.c, `recently_deleted`). Each new file then walks past every such inode,
  # one buffer lookup each, from the start of its group: right after deleting a site of
  # thousands of files, writing the next one costs seconds of system time that belong to the
  # deletion. Write back and wait that out (RE_SETTLE seconds, 0 to skip).
  sync
  sleep "${RE_SETTLE:-370}"
fi
stats=$(mktemp)
# The inputs are named h<number>-<digest>.txt, not like robots.txt files: --include reads them.
# shellcheck disable=SC2086 # RE_REPORT_ARGS holds several words
/usr/bin/time -f '%e %U %S %M' -o "$stats" "$bin" report "$input" --include '*.txt' -o "$site" -q \
  --now 2026-10-21T09:00:00Z ${RE_REPORT_ARGS:-} || true
read -r wall user sys rss < "$stats"
rm -f "$stats"
bytes=$(du -sb "$site" | cut -f1)
index=$(stat -c %s "$site/index.html")
pages=$(( $(find "$site/index" -name '*.html' 2>/dev/null | wc -l) + 1 ))
awk -v n="$n" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" -v b="$bytes" -v i="$index" -v p="$pages" \
  'BEGIN { printf "hosts\t%d\twall_s\t%.1f\tuser_s\t%.1f\tsys_s\t%.1f\tcpu_ms_per_host\t%.3f\trss_mib\t%.0f\toutput_bytes\t%.0f\tbytes_per_host\t%.0f\tindex_bytes\t%d\tindex_pages\t%d\n", n, w, u, s, (u + s) * 1000 / n, r / 1024, b, b / n, i, p }'
if [ "${RE_BROWSER:-0}" = 1 ]; then
  node "$here/benches/index_timing.js" "$site"
fi
