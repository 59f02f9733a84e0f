//! `report --shard K/N` and `report merge`: the merged partials are the site of one run, byte
//! for byte, for N = 1, 2 and 3, over the demo hosts, a crafted input (duplicate host names,
//! skipped entries, a sidecar that cannot be read, `--urls`) and a slice of the real corpus;
//! partials that do not belong together, or are damaged, are refused with status 2; a shard
//! with no host works. The Spark example (`examples/spark/`) is run in local mode when
//! `pyspark` is installed.

mod shared;
mod tools;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const NOW: &str = "2026-10-21T09:00:00Z";

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hosts")
}

/// Runs the tool with `args`; returns its output.
fn run(args: &[&std::ffi::OsStr]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

fn os(s: &str) -> &std::ffi::OsStr {
    s.as_ref()
}

/// Runs the tool and asserts it succeeded.
fn ok(args: &[&std::ffi::OsStr]) {
    let o = run(args);
    assert!(
        o.status.success(),
        "{args:?} failed ({}): {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Every file under `dir` (hidden ones included), by `/`-separated relative path, with its
/// bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let path = e.path();
            if e.file_type().unwrap().is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                files.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

/// Asserts that the trees `a` and `b` hold the same files with the same bytes.
fn assert_same_tree(a: &Path, b: &Path) {
    let (ta, tb) = (tree(a), tree(b));
    let only_a: Vec<&String> = ta.keys().filter(|k| !tb.contains_key(*k)).collect();
    let only_b: Vec<&String> = tb.keys().filter(|k| !ta.contains_key(*k)).collect();
    assert!(
        only_a.is_empty() && only_b.is_empty(),
        "{} only: {only_a:?}; {} only: {only_b:?}",
        a.display(),
        b.display()
    );
    for (name, bytes) in &ta {
        assert!(
            bytes == &tb[name],
            "{name} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
    assert!(ta.contains_key("index.html") && ta.contains_key(".robots-explorer-site"));
}

/// One `report` run over `input` with `opts` into `work/single`, then for N = 1, 2, 3 every
/// shard into `work/N-K` and their merge (the partials given in reverse order) into
/// `work/merged-N`; asserts each merge is byte-identical to the single run. Returns the
/// single run's folder.
fn single_equals_merged(input: &Path, opts: &[&str], work: &Path) -> PathBuf {
    let single = work.join("single");
    let mut args: Vec<&std::ffi::OsStr> = vec![os("report"), input.as_os_str()];
    args.extend(opts.iter().map(|o| os(o)));
    args.extend([os("--now"), os(NOW), os("-q"), os("--out")]);
    let mut single_args = args.clone();
    single_args.push(single.as_os_str());
    ok(&single_args);
    for n in 1..=3u32 {
        let parts: Vec<PathBuf> = (1..=n).map(|k| work.join(format!("{n}-{k}"))).collect();
        for (k, part) in (1..=n).zip(&parts) {
            let shard = format!("{k}/{n}");
            let mut a = args.clone();
            a.extend([part.as_os_str(), os("--shard"), os(&shard)]);
            ok(&a);
            assert!(part.join("NOT-A-SITE.txt").is_file());
            assert!(!part.join("index.html").exists(), "a partial is not a site");
        }
        let merged = work.join(format!("merged-{n}"));
        let mut m: Vec<&std::ffi::OsStr> = vec![os("report"), os("merge"), os("-q")];
        m.extend(parts.iter().rev().map(|p| p.as_os_str()));
        m.extend([os("--out"), merged.as_os_str()]);
        ok(&m);
        assert_same_tree(&single, &merged);
    }
    single
}

#[test]
fn merging_the_shards_of_the_demo_hosts_gives_the_single_run() {
    let work = tempfile::tempdir().unwrap();
    single_equals_merged(&fixtures(), &[], work.path());
}

#[test]
fn merging_keeps_duplicates_skipped_entries_unreadable_sidecars_and_url_lists() {
    let work = tempfile::tempdir().unwrap();
    let input = work.path().join("in");
    std::fs::create_dir(&input).unwrap();
    for f in std::fs::read_dir(fixtures()).unwrap() {
        let f = f.unwrap();
        std::fs::copy(f.path(), input.join(f.file_name())).unwrap();
    }
    // Two inputs for one host name, a sidecar that is not YAML, an entry that is skipped.
    std::fs::write(
        input.join("SHOP.EXAMPLE.txt"),
        "User-agent: *\nDisallow: /\n",
    )
    .unwrap();
    std::fs::write(input.join("broken.example.txt"), "User-agent: *\n").unwrap();
    std::fs::write(input.join("broken.example.yaml"), "status: [\n").unwrap();
    std::fs::write(input.join("notes.md"), "not a host\n").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("/etc/hostname", input.join("outside.example.txt")).unwrap();
    let urls = work.path().join("urls.txt");
    std::fs::write(
        &urls,
        "https://shop.example/cart/x\nhttps://shop.example/\nhttp://shop.example/plain\n\
         https://nowhere.example/a\nnot a URL\n",
    )
    .unwrap();
    let runs = work.path().join("runs");
    std::fs::create_dir(&runs).unwrap();
    let opts = [
        "--urls",
        urls.to_str().unwrap(),
        "--agents",
        "Googlebot,GPTBot",
        "--url",
        "/cart/",
        "--pages",
        "problems",
        "--reading",
        "rfc",
    ];
    let single = single_equals_merged(&input, &opts, &runs);
    let summary = std::fs::read_to_string(single.join("summary.json")).unwrap();
    assert!(summary.contains("\"unassigned\": 1"), "{summary}");
    let csv = std::fs::read_to_string(single.join("urls.csv")).unwrap();
    assert!(
        csv.contains("nowhere.example") && csv.contains("not a URL"),
        "{csv}"
    );
    // Only shard 1 carries what belongs to no host.
    assert!(runs.join("2-1/urls-rest.jsonl").is_file());
    assert!(!runs.join("2-2/urls-rest.jsonl").exists());
}

#[test]
fn merging_the_shards_of_corpus_files_gives_the_single_run() {
    let Some(corpus) = shared::dir(
        "corpus/files",
        "merging_the_shards_of_corpus_files_gives_the_single_run",
    ) else {
        return;
    };
    let work = tempfile::tempdir().unwrap();
    let input = work.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    // More than one chunk of hosts (512) and more than one page of the index (250).
    for f in files.iter().take(700) {
        std::fs::copy(f, input.join(f.file_name().unwrap())).unwrap();
    }
    let runs = work.path().join("runs");
    std::fs::create_dir(&runs).unwrap();
    let single = single_equals_merged(&input, &[], &runs);
    assert!(single.join("index/3.html").is_file());
    // The shards share the hosts out: each host is in one partial, none in two.
    let mut rows = 0;
    for k in 1..=3 {
        let m: serde_json::Value = serde_json::from_slice(
            &std::fs::read(runs.join(format!("3-{k}/partial.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(m["discovery"]["hosts"], 700);
        let n = m["rows"].as_u64().unwrap();
        assert!(n > 100, "shard {k} holds {n} of 700 hosts");
        rows += n;
    }
    assert_eq!(rows, 700);
}

/// Hosts of very different sizes over several chunks (512 hosts each): the workers finish them
/// out of order, yet the site lists them in host order, as the merge of the shards (which
/// takes the rows back one by one) does.
#[test]
fn hosts_finished_out_of_order_are_listed_in_host_order() {
    let work = tempfile::tempdir().unwrap();
    let input = work.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let hosts = 1_100;
    for i in 0..hosts {
        let mut body = format!("User-agent: *\nDisallow: /p{i}/\n");
        // Every 37th host is large and slow to analyse.
        if i % 37 == 0 {
            for r in 0..2_000 {
                body.push_str(&format!(
                    "Disallow: /h{i}/r{r}/*.php$\nAllow: /h{i}/r{r}/\n"
                ));
            }
        }
        std::fs::write(input.join(format!("h{i:04}.example.txt")), body).unwrap();
    }
    let runs = work.path().join("runs");
    std::fs::create_dir(&runs).unwrap();
    let single = single_equals_merged(&input, &["--pages", "problems"], &runs);
    let jsonl = std::fs::read_to_string(single.join("hosts.jsonl")).unwrap();
    let listed: Vec<String> = jsonl
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["host"].as_str().unwrap().to_string()
        })
        .collect();
    let expected: Vec<String> = (0..hosts).map(|i| format!("h{i:04}.example")).collect();
    assert_eq!(listed, expected);
}

/// Two hosts in three shards: at least one shard is empty.
#[test]
fn an_empty_shard_is_a_partial_like_any_other() {
    let work = tempfile::tempdir().unwrap();
    let input = work.path().join("in");
    std::fs::create_dir(&input).unwrap();
    std::fs::write(input.join("a.example.txt"), "User-agent: *\nDisallow: /a\n").unwrap();
    std::fs::write(input.join("b.example.txt"), "User-agent: *\nAllow: /\n").unwrap();
    let runs = work.path().join("runs");
    std::fs::create_dir(&runs).unwrap();
    single_equals_merged(&input, &[], &runs);
    let empty: Vec<u32> = (1..=3)
        .filter(|k| {
            std::fs::read(runs.join(format!("3-{k}/rows.jsonl")))
                .unwrap()
                .is_empty()
        })
        .collect();
    assert!(!empty.is_empty(), "no shard of 3 was empty for 2 hosts");
}

/// `report merge` on `parts` into a fresh folder: asserts status 2 and that the message holds
/// every one of `expect`.
fn refused(parts: &[&Path], expect: &[&str]) {
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    let mut a: Vec<&std::ffi::OsStr> = vec![os("report"), os("merge")];
    a.extend(parts.iter().map(|p| p.as_os_str()));
    a.extend([os("--out"), site.as_os_str()]);
    let o = run(&a);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{parts:?}: {err}");
    for e in expect {
        assert!(err.contains(e), "{parts:?}: `{e}` not in: {err}");
    }
    assert!(!site.exists(), "a refused merge wrote {}", site.display());
}

fn shard(input: &Path, k: u32, n: u32, out: &Path, extra: &[&str]) {
    let s = format!("{k}/{n}");
    let mut a: Vec<&std::ffi::OsStr> = vec![
        os("report"),
        input.as_os_str(),
        os("--shard"),
        os(&s),
        os("-q"),
        os("--out"),
        out.as_os_str(),
    ];
    if !extra.contains(&"--now") {
        a.extend([os("--now"), os(NOW)]);
    }
    a.extend(extra.iter().map(|e| os(e)));
    ok(&a);
}

#[test]
fn partials_that_do_not_belong_together_are_refused() {
    let w = tempfile::tempdir().unwrap();
    let p = |name: &str| w.path().join(name);
    let hosts = fixtures();
    shard(&hosts, 1, 2, &p("a1"), &[]);
    shard(&hosts, 2, 2, &p("a2"), &[]);
    shard(&hosts, 2, 3, &p("b2"), &[]);
    shard(&hosts, 3, 3, &p("b3"), &[]);
    shard(
        &hosts,
        2,
        2,
        &p("late2"),
        &["--now", "2026-10-22T09:00:00Z"],
    );
    shard(&hosts, 2, 2, &p("rfc2"), &["--reading", "rfc"]);
    // Another input: the demo hosts less one.
    let other = p("other-in");
    std::fs::create_dir(&other).unwrap();
    for f in std::fs::read_dir(&hosts).unwrap() {
        let f = f.unwrap();
        if !f.file_name().to_string_lossy().starts_with("shop.") {
            std::fs::copy(f.path(), other.join(f.file_name())).unwrap();
        }
    }
    shard(&other, 2, 2, &p("other2"), &[]);

    refused(
        &[&p("a1"), &p("b2"), &p("b3")],
        &["not of one run", "1/2", "2/3"],
    );
    refused(&[&p("a1")], &["missing: 2/2"]);
    refused(&[&p("a1"), &p("a2"), &p("a2")], &["given twice"]);
    refused(
        &[&p("a1"), &p("late2")],
        &["different options", "now", "2026-10-22T09:00:00Z"],
    );
    refused(&[&p("a1"), &p("rfc2")], &["different options", "reading"]);
    refused(&[&p("a1"), &p("other2")], &["different inputs"]);
    // A site is not a partial, nor is an arbitrary folder.
    let site = p("site");
    ok(&[
        os("report"),
        hosts.as_os_str(),
        os("-q"),
        os("--now"),
        os(NOW),
        os("--out"),
        site.as_os_str(),
    ]);
    refused(&[&p("a1"), &site], &["is a site, not a partial"]);
    refused(&[&p("a1"), &hosts], &["is not a partial"]);
    // The parts still merge when they do belong together.
    let merged = p("merged");
    ok(&[
        os("report"),
        os("merge"),
        p("a2").as_os_str(),
        p("a1").as_os_str(),
        os("-q"),
        os("--out"),
        merged.as_os_str(),
    ]);
    assert_same_tree(&site, &merged);
}

/// Copies the partial `from` to `to` (a fresh folder).
fn copy_tree(from: &Path, to: &Path) {
    for (rel, bytes) in tree(from) {
        let path = to.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

#[test]
fn a_damaged_partial_is_refused_naming_the_file() {
    let w = tempfile::tempdir().unwrap();
    let p = |name: &str| w.path().join(name);
    let hosts = fixtures();
    shard(&hosts, 1, 2, &p("a1"), &[]);
    shard(&hosts, 2, 2, &p("a2"), &[]);
    let damaged = |name: &str, edit: &dyn Fn(&Path)| {
        let d = p(name);
        copy_tree(&p("a2"), &d);
        edit(&d);
        d
    };
    // A row cut in half.
    let cut = damaged("cut", &|d| {
        let rows = std::fs::read(d.join("rows.jsonl")).unwrap();
        std::fs::write(d.join("rows.jsonl"), &rows[..rows.len() / 2]).unwrap();
    });
    refused(&[&p("a1"), &cut], &["cut/rows.jsonl", "damaged"]);
    // A row of another shard.
    let moved = damaged("moved", &|d| {
        let theirs = std::fs::read_to_string(p("a1").join("rows.jsonl")).unwrap();
        let mine = std::fs::read_to_string(d.join("rows.jsonl")).unwrap();
        let mut lines: Vec<&str> = mine.lines().collect();
        lines[0] = theirs.lines().next().unwrap();
        std::fs::write(d.join("rows.jsonl"), lines.join("\n") + "\n").unwrap();
    });
    refused(
        &[&p("a1"), &moved],
        &["moved/rows.jsonl", "is not in shard 2/2"],
    );
    // A page missing.
    let lost = damaged("lost", &|d| {
        let page = std::fs::read_dir(d.join("hosts"))
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        std::fs::remove_file(page.path()).unwrap();
    });
    refused(&[&p("a1"), &lost], &["lost/hosts/", "missing"]);
    // A page pointing out of the partial.
    let escape = damaged("escape", &|d| {
        let rows = std::fs::read_to_string(d.join("rows.jsonl")).unwrap();
        let first = rows.lines().next().unwrap();
        let v: serde_json::Value = serde_json::from_str(first).unwrap();
        let page = v["page"][0].as_str().unwrap().to_string();
        let edited = first.replace(&format!("[\"{page}\""), "[\"hosts/../../a1/partial.json\"");
        assert_ne!(edited, first);
        std::fs::write(d.join("rows.jsonl"), rows.replacen(first, &edited, 1)).unwrap();
    });
    refused(
        &[&p("a1"), &escape],
        &["escape/rows.jsonl", "is not its page"],
    );
    // A manifest that is not JSON, and one of a later format.
    let garbled = damaged("garbled", &|d| {
        std::fs::write(d.join("partial.json"), "{\"format\": ").unwrap();
    });
    refused(&[&p("a1"), &garbled], &["garbled/partial.json", "not JSON"]);
    let later = damaged("later", &|d| {
        let m = std::fs::read_to_string(d.join("partial.json")).unwrap();
        let m = m.replace("report-partial/1", "report-partial/9");
        std::fs::write(d.join("partial.json"), m).unwrap();
    });
    refused(
        &[&p("a1"), &later],
        &["later/partial.json", "report-partial/9"],
    );
}

#[test]
fn shard_values_are_checked() {
    for bad in ["0/2", "3/2", "2", "x/y"] {
        let o = run(&[
            os("report"),
            fixtures().as_os_str(),
            os("--shard"),
            os(bad),
            os("--out"),
            os("/nonexistent/never-written"),
        ]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("K/N"),
            "{bad}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// The PySpark example over the demo hosts, in local mode with two shards, gives the site of
/// a single run.
#[test]
fn the_spark_example_gives_the_single_run() {
    // spark-submit as the pip package installs it, beside the module.
    let found = Command::new("python3")
        .args([
            "-c",
            "import os, pyspark; print(os.path.join(os.path.dirname(pyspark.__file__), 'bin', \
             'spark-submit'))",
        ])
        .output();
    let submit = match found {
        Ok(o) if o.status.success() => PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()),
        _ => {
            tools::missing("pyspark (pip install pyspark) for the Spark example");
            return;
        }
    };
    let has_java = Command::new("java")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_java {
        tools::missing("java for the Spark example");
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let single = work.path().join("single");
    ok(&[
        os("report"),
        fixtures().as_os_str(),
        os("-q"),
        os("--now"),
        os(NOW),
        os("--out"),
        single.as_os_str(),
    ]);
    let site = work.path().join("spark-site");
    let partials = work.path().join("partials");
    let script = tools::root().join("examples/spark/robots_report.py");
    let started = std::time::Instant::now();
    let o = Command::new(&submit)
        .args(["--master", "local[2]", "--conf", "spark.ui.enabled=false"])
        .arg("--files")
        .arg(env!("CARGO_BIN_EXE_robots-explorer"))
        .arg(&script)
        .arg(fixtures())
        .args(["--shards", "2", "--now", NOW])
        .arg("--partials")
        .arg(&partials)
        .arg("--out")
        .arg(&site)
        .env("SPARK_LOCAL_IP", "127.0.0.1")
        .output()
        .expect("spark-submit runs");
    assert!(
        o.status.success(),
        "the Spark example failed ({}):\n{}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "the Spark example took {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert_same_tree(&single, &site);
    for k in 1..=2 {
        assert!(
            partials
                .join(format!("shard-{k}-of-2/partial/partial.json"))
                .is_file()
        );
    }
}

/// Shards on several machines may write beside each other on a shared file system: a run
/// sweeps a folder of an interrupted run only when its process is gone on the machine that
/// wrote it (or the folder is old).
#[test]
fn a_run_of_another_machine_is_not_swept_for_a_process_gone_here() {
    use robots_explorer::report::{RUN_MARKER, TMP_PREFIX, sweep_stale};
    let Ok(here) = std::fs::read_to_string("/proc/sys/kernel/hostname") else {
        return;
    };
    let mut gone = Command::new("true").spawn().unwrap();
    let pid = gone.id();
    gone.wait().unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let parent = tempfile::tempdir().unwrap();
    let folder = |name: &str, host: &str| {
        let d = parent.path().join(format!("{TMP_PREFIX}{name}"));
        std::fs::create_dir(&d).unwrap();
        std::fs::write(
            d.join(RUN_MARKER),
            format!("pid {pid}\nstarted {now}\nhost {host}\n"),
        )
        .unwrap();
        d
    };
    let other = folder("other", "another-machine.example");
    let mine = folder("mine", here.trim());
    let removed = sweep_stale(parent.path());
    assert_eq!(removed, vec![mine.clone()]);
    assert!(other.exists() && !mine.exists());
}
