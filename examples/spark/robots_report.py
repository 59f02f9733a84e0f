"""One robots-explorer report on a Spark cluster.

The driver lists the host inputs, fixes the report's time (--now) so every shard shares it, and
runs one task per shard: each task runs the robots-explorer binary (shipped to every executor
with `spark-submit --files`, found with SparkFiles.get) as

    robots-explorer report INPUT --shard K/N --now NOW --out PARTIALS/shard-K-of-N/partial

which reads the whole input (so page names and duplicates come out as in one run) but processes
only the hosts of shard K, and writes a partial to a directory every node and the driver can
reach. The driver then runs

    robots-explorer report merge PARTIALS/shard-*-of-N/partial --out SITE

which gives the same bytes as one `robots-explorer report INPUT --now NOW` run. Spark does the
scheduling (and retries a failed task: a shard's run replaces its own partial); nothing here
schedules work itself.

Run it (see README.md beside this file):

    spark-submit --master local[2] --files target/release/robots-explorer \\
        examples/spark/robots_report.py fixtures/hosts --out site --partials /tmp/partials
"""

import argparse
import datetime
import os
import stat
import subprocess
import sys
import time

from pyspark import SparkFiles
from pyspark.sql import SparkSession


def list_inputs(root):
    """The host inputs under `root` as robots-explorer discovers them: `<host>.txt`,
    `<host>/robots.txt` and sidecars (`.yaml`, `.yml`) at any depth, hidden entries skipped."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith("."):
                continue
            if name.endswith((".txt", ".yaml", ".yml")):
                found.append(os.path.join(folder, name))
    return found


def executable(path):
    """`path`, made executable when the copy Spark fetched lost the bit."""
    mode = os.stat(path).st_mode
    if not mode & stat.S_IXUSR:
        os.chmod(path, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def binary(name):
    """The robots-explorer binary shipped with --files (on an executor or the driver)."""
    return executable(SparkFiles.get(name))


def run_shard(k, n, args, extra):
    """One task: the partial of shard k of n. Returns what the driver reports."""
    # A folder of its own per shard: a run sweeps what interrupted runs left beside its output,
    # and runs on other machines beside it must not look interrupted.
    out = os.path.join(args.partials, "shard-%d-of-%d" % (k, n), "partial")
    command = [
        binary(args.binary_name), "report", args.input,
        "--shard", "%d/%d" % (k, n), "--now", args.now, "--out", out, "-q",
    ] + extra
    started = time.time()
    done = subprocess.run(command, capture_output=True, text=True)
    return {
        "shard": k,
        "partial": out,
        "status": done.returncode,
        "stderr": done.stderr[-4000:],
        "seconds": round(time.time() - started, 2),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="the input directory, on a file system every node reads")
    parser.add_argument("--out", required=True, help="the site's folder (on the driver)")
    parser.add_argument(
        "--partials", required=True,
        help="a directory every executor writes and the driver reads (one partial per shard)")
    parser.add_argument(
        "--shards", type=int, default=0,
        help="number of shards; default: the cluster's parallelism, more for large inputs")
    parser.add_argument(
        "--hosts-per-shard", type=int, default=50000,
        help="with no --shards, at most about this many hosts per shard")
    parser.add_argument(
        "--now", default=None,
        help="the report's time (RFC 3339); default: now, fixed once for every shard")
    parser.add_argument(
        "--binary-name", default="robots-explorer",
        help="the file name of the binary given to spark-submit --files")
    parser.add_argument(
        "--report-option", action="append", default=[], dest="extra",
        help="an option passed to every shard's report (repeat), e.g. --report-option=--pages=none")
    args = parser.parse_args()
    args.input = os.path.abspath(args.input)
    args.partials = os.path.abspath(args.partials)
    if args.now is None:
        now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
        args.now = now.strftime("%Y-%m-%dT%H:%M:%SZ")

    spark = SparkSession.builder.appName("robots-explorer report").getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("WARN")
    inputs = list_inputs(args.input)
    if not inputs:
        sys.exit("no host inputs in %s" % args.input)
    n = args.shards or max(sc.defaultParallelism, -(-len(inputs) // args.hosts_per_shard))
    print("robots_report: %d host inputs in %s; %d shards; --now %s"
          % (len(inputs), args.input, n, args.now), flush=True)
    os.makedirs(args.partials, exist_ok=True)

    extra = list(args.extra)
    # One partition per shard, so that Spark runs (and retries) each shard as one task.
    results = (
        sc.parallelize(range(1, n + 1), n)
        .map(lambda k: run_shard(k, n, args, extra))
        .collect()
    )
    failed = [r for r in results if r["status"] != 0]
    for r in sorted(results, key=lambda r: r["shard"]):
        print("robots_report: shard %d/%d: status %d in %.2f s → %s"
              % (r["shard"], n, r["status"], r["seconds"], r["partial"]), flush=True)
    if failed:
        for r in failed:
            sys.stderr.write("shard %d/%d failed:\n%s\n" % (r["shard"], n, r["stderr"]))
        spark.stop()
        sys.exit(2)

    parts = [r["partial"] for r in sorted(results, key=lambda r: r["shard"])]
    merge = [binary(args.binary_name), "report", "merge"] + parts + ["--out", args.out]
    status = subprocess.run(merge).returncode
    spark.stop()
    sys.exit(status)


if __name__ == "__main__":
    main()
