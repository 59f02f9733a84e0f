//! How `check` and `lint` read their inputs: a bounded read of large files and devices, paths
//! that hold no robots.txt files, standard input, and text output of awkward names.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the binary with `args` from the crate root, feeding `stdin` when given.
fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_robots-explorer"));
    cmd.current_dir(root())
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("the binary runs");
    if let Some(bytes) = stdin {
        use std::io::Write;
        let mut w = child.stdin.take().expect("stdin");
        w.write_all(bytes).expect("write stdin");
    }
    child.wait_with_output().expect("the binary runs")
}

/// 520,027 bytes: two lines of rules, 520 comment lines of 1,000 bytes (the limit cuts the
/// 512th), then 50 rules: 58 lines, 50 of them rules, start past the parsing limit.
fn long_body() -> Vec<u8> {
    let mut body = b"User-agent: *\nDisallow: /a\n".to_vec();
    for _ in 0..520 {
        body.push(b'#');
        body.extend_from_slice(&[b'x'; 998]);
        body.push(b'\n');
    }
    for _ in 0..50 {
        body.extend_from_slice(b"Disallow: /z\n");
    }
    body
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn lint_reads_only_the_start_of_a_huge_file_and_says_counts_are_partial() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("big.txt");
    std::fs::write(&p, long_body()).unwrap();
    // 3 GiB in all; the rest is a hole that reads as NUL bytes.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&p)
        .unwrap()
        .set_len(3 << 30)
        .unwrap();
    let o = run(&["lint", "--format", "json", p.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let diags = v["files"][0]["diagnostics"]
        .as_array()
        .expect("diagnostics");
    let beyond = diags
        .iter()
        .find(|d| d["name"] == "beyond-parsing-limit")
        .expect("beyond-parsing-limit");
    let msg = beyond["message"].as_str().unwrap();
    assert!(
        msg.starts_with(
            "the file is 3,221,225,472 bytes long, and only its first 16,777,216 bytes were read"
        ),
        "{msg}"
    );
    // The rules past the limit, and the start of the hole, are in the part read.
    assert!(msg.contains("with at least 50 rules"), "{msg}");
}

#[cfg(unix)]
#[test]
fn check_stops_reading_an_endless_device() {
    let o = run(&["check", "-a", "x", "-u", "/a", "/dev/zero"], None);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout),
        "/dev/zero\t/a\tx\tALLOWED\tno group for this crawler\n"
    );
}

#[test]
fn a_prefix_with_unknown_size_is_described_as_such() {
    let robots = robots_explorer::RobotsTxt::parse_prefix(&long_body(), None);
    let a = robots_explorer::analysis::analyze(&robots);
    let d = a
        .diagnostics
        .iter()
        .find(|d| d.name == "beyond-parsing-limit")
        .expect("beyond-parsing-limit");
    assert!(
        d.message
            .starts_with("the input is longer than the 520,677 bytes read (its size is unknown)"),
        "{}",
        d.message
    );
    assert!(
        d.message
            .contains("with at least 50 rules (at least 58 lines in all) in the part read"),
        "{}",
        d.message
    );
}

#[test]
fn a_directory_without_robots_files_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.md"), "not a robots.txt file").unwrap();
    let d = dir.path().to_str().unwrap();
    for args in [
        &["lint", d][..],
        &["check", "-a", "Googlebot", "-u", "/", d][..],
    ] {
        let o = run(args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = text(&o.stderr);
        assert!(err.contains(d), "{args:?}: {err}");
        assert!(err.contains("no `.txt` files"), "{args:?}: {err}");
    }
    // Other paths still run: the error does not stop the batch.
    let o = run(
        &[
            "check",
            "-a",
            "x",
            "-u",
            "/a",
            d,
            "fixtures/hosts/bom.example.txt",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stdout).starts_with("fixtures/hosts/bom.example.txt\t/a\tx\tALLOWED"));
}

#[test]
fn a_dash_reads_standard_input() {
    let body = b"User-agent: *\nDisallow: /private/\nDisallow /tmp/\n";
    let o = run(
        &["check", "-a", "Googlebot", "-u", "/private/x", "-"],
        Some(body),
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout),
        "<stdin>\t/private/x\tGooglebot\tDISALLOWED\tline 2: disallow: /private/ (longest match)\n"
    );
    let o = run(&["lint", "--format", "json", "-"], Some(body));
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["files"][0]["path"], "<stdin>");
    assert_eq!(v["files"][0]["diagnostics"][0]["name"], "missing-colon");
}

#[test]
fn check_text_output_escapes_control_characters() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("a\tb\nc.txt");
    std::fs::write(&p, "User-agent: *\nDisallow: /x\u{1b}[31m\n").unwrap();
    let o = run(
        &[
            "check",
            "-a",
            "bad\tbot",
            "-u",
            "/x\u{1b}[31m",
            "-u",
            "/y\nz",
            p.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let name = format!("{}/a\\tb\\nc.txt", dir.path().display());
    assert_eq!(
        out,
        format!(
            "{name}\t/x\\u{{1b}}[31m\tbad\\tbot\tDISALLOWED\tline 2: disallow: /x\\u{{1b}}[31m (longest match)\n\
             {name}\t/y\\nz\tbad\\tbot\tALLOWED\tno matching rule\n"
        )
    );
    // Every line has exactly five tab-separated fields.
    assert!(out.lines().all(|l| l.split('\t').count() == 5));
    // lint's text format escapes the path too.
    let o = run(&["lint", p.to_str().unwrap()], None);
    let out = text(&o.stdout);
    assert!(out.contains(&format!("{name}:")), "{out}");
    assert!(!out.contains('\u{1b}'), "{out}");
}

#[test]
fn check_rejects_an_empty_agent_and_warns_about_other_non_tokens() {
    let f = "fixtures/hosts/bom.example.txt";
    let o = run(&["check", "-a", "", "-u", "/", f], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("the agent is empty"));
    assert!(o.stdout.is_empty());

    let o = run(&["check", "-a", "bot1", "-u", "/", f], None);
    assert_eq!(o.status.code(), Some(0));
    let err = text(&o.stderr);
    assert!(
        err.contains("warning: `bot1` is not a product token"),
        "{err}"
    );
    assert!(
        err.contains("can never select a group named for it"),
        "{err}"
    );
    assert!(err.contains("whole values are compared"), "{err}");

    let o = run(&["check", "-a", "Googlebot/2.1", "-u", "/", f], None);
    assert!(text(&o.stderr).contains("give `--agent Googlebot`"));

    let o = run(&["check", "-a", "Googlebot", "-u", "/", f], None);
    assert!(o.stderr.is_empty(), "{}", text(&o.stderr));
}

#[test]
fn check_says_what_is_wrong_with_a_url() {
    let f = "fixtures/hosts/bom.example.txt";
    for (url, says) in [
        ("http://", "has no host"),
        ("https://example.com:99999/", "invalid port"),
        (
            "javascript:alert(1)",
            "the scheme `javascript:`, which names no host",
        ),
        (
            "page.html",
            "neither an absolute URL nor a path starting with `/`",
        ),
        ("example.com/a", "did you mean `https://example.com/a`?"),
        ("", "is empty"),
    ] {
        let o = run(&["check", "-a", "Googlebot", "-u", url, f], None);
        assert_eq!(o.status.code(), Some(2), "{url}");
        let err = text(&o.stderr);
        assert!(err.contains(says), "{url}: {err}");
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn guide_and_build_exit_2_with_a_hint_when_an_input_directory_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let missing = dir.path().join("no-such-dir");
    let o = run(
        &[
            "guide",
            "--content",
            missing.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains(&format!("--content {}: cannot read", missing.display())),
        "{err}"
    );
    // `build` run from a directory that is not the repository: the defaults do not resolve.
    let o = Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
        .current_dir(dir.path())
        .args(["build", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains("--content content: cannot read the directory"),
        "{err}"
    );
    assert!(err.contains("--content, --hosts and --data"), "{err}");
    assert!(err.contains("`fixtures/hosts/`"), "{err}");
    assert!(!out.exists());
}
