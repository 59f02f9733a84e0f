#!/usr/bin/env bash
# Shard and merge timings of `report`: over an input of N hosts built from the corpus (as
# benches/scale.sh builds it), one single run, then the S shards of the same run one after
# another (`--shard K/S`) and their merge (`report merge`); checks that the merged site is
# byte-identical to the single run (diff -r) and prints one tab-separated line per step: step,
# wall seconds, user and system CPU seconds, peak RSS in MiB, and bytes of the files written.
#
#   benches/shard.sh N [S] [WORK_DIR]        e.g. benches/shard.sh 43740 2 /tmp/robots-shard
#
# The inputs are named h<number>-<digest>.txt, so every run reads them with --include '*.txt'.
# RE_REPORT_ARGS adds options to every run (the shards and the single run alike).
set -euo pipefail
n=${1:?usage: benches/shard.sh N [SHARDS] [WORK_DIR]}
shards=${2:-2}
work=${3:-/tmp/robots-shard}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${RE_BIN:-$here/target/release/robots-explorer}
[ -x "$bin" ] || (cd "$here" && cargo build --release --quiet)
input=$(RE_INPUT_ONLY=1 RE_BIN="$bin" "$here/benches/scale.sh" "$n" "$work")
now=2026-10-21T09:00:00Z
stats=$(mktemp)
trap 'rm -f "$stats"' EXIT
# Runs the command after the step's name under /usr/bin/time -v and prints the step's line.
measure() {
  local step=$1 out=$2
  shift 2
  /usr/bin/time -v -o "$stats" "$@" >/dev/null
  awk -v step="$step" -v bytes="$(find "$out" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')" -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, t, ":"); wall = (n == 3) ? t[1] * 3600 + t[2] * 60 + t[3] : t[1] * 60 + t[2] }
    /User time/ { user = $2 } /System time/ { sys = $2 } /Maximum resident/ { rss = $2 }
    END { printf "%s\t%.1f\t%.1f\t%.1f\t%.0f\t%.0f\n", step, wall, user, sys, rss / 1024, bytes }' "$stats"
}
printf 'step\twall_s\tuser_s\tsys_s\trss_mib\tbytes\n'
rm -rf "$work/single-$n" "$work/merged-$n" "$work"/part-"$n"-*
# shellcheck disable=SC2086 # RE_REPORT_ARGS holds several words
measure "single run ($n hosts)" "$work/single-$n" \
  "$bin" report "$input" --include '*.txt' -q --now "$now" --out "$work/single-$n" ${RE_REPORT_ARGS:-}
parts=()
for k in $(seq 1 "$shards"); do
  part=$work/part-$n-$k-of-$shards
  parts+=("$part")
  # shellcheck disable=SC2086
  measure "shard $k/$shards" "$part" \
    "$bin" report "$input" --include '*.txt' -q --now "$now" --shard "$k/$shards" --out "$part" \
    ${RE_REPORT_ARGS:-}
done
measure "merge of $shards" "$work/merged-$n" \
  "$bin" report merge -q "${parts[@]}" --out "$work/merged-$n"
diff -r "$work/single-$n" "$work/merged-$n" >/dev/null \
  && echo "merged site = single run: byte-identical" \
  || { echo "merged site differs from the single run" >&2; exit 1; }
