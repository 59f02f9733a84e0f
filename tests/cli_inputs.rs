//! How `check` and `lint` read their inputs: a bounded read of large files and devices, paths
//! that hold no robots.txt files, which files a directory walk reads (default names,
//! `--include`, `--exclude`), standard input, and text output of awkward names; `check` with
//! several crawlers, `--urls`, CSV and `--exit-code`.

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
    assert!(
        msg.contains("the part of it that was read holds 50 rules"),
        "{msg}"
    );
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
            .contains("the part of it that was read holds 50 rules (58 lines in all)"),
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
        assert!(err.contains("no robots.txt files"), "{args:?}: {err}");
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
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with(&format!("{d}\t/a\tx\tERROR\tthe file cannot be read")),
        "{out}"
    );
    assert!(
        lines[1].starts_with("fixtures/hosts/bom.example.txt\t/a\tx\tALLOWED"),
        "{out}"
    );
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
    let o = run(
        &["lint", "--format", "json", "--fail-on", "warning", "-"],
        Some(body),
    );
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
            "{name}\t/x\\u{{1b}}[31m (sent as /x%1B[31m)\tbad\\tbot\tALLOWED\tno matching rule\n\
             {name}\t/y\\nz (sent as /yz)\tbad\\tbot\tALLOWED\tno matching rule\n"
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
fn check_answers_an_empty_agent_with_a_warning_and_warns_about_other_non_tokens() {
    let f = "fixtures/hosts/bom.example.txt";
    // As google/robotstxt-spec-test's empty-string cases: no group names the empty agent, so
    // only `*` groups apply.
    let dir = tempfile::tempdir().unwrap();
    let star = dir.path().join("star.txt");
    std::fs::write(
        &star,
        "User-agent: FooBot\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n",
    )
    .unwrap();
    let o = run(
        &[
            "check",
            "-a",
            "",
            "-u",
            "/",
            "-u",
            "/x",
            star.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o.stderr).contains("the agent is empty"));
    let out = text(&o.stdout);
    let verdicts: Vec<&str> = out.lines().map(|l| l.split('\t').nth(3).unwrap()).collect();
    assert_eq!(verdicts, ["ALLOWED", "DISALLOWED"], "{out}");

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
        ("http://[::1", "invalid IPv6 address"),
    ] {
        // One bad URL among several: an error row for it, the others are still answered.
        let o = run(
            &[
                "check",
                "-a",
                "Googlebot",
                "-u",
                "/",
                "-u",
                url,
                "-u",
                "/b",
                f,
            ],
            None,
        );
        assert_eq!(o.status.code(), Some(2), "{url}");
        let err = text(&o.stderr);
        assert!(err.contains(says), "{url}: {err}");
        let out = text(&o.stdout);
        let verdicts: Vec<&str> = out.lines().map(|l| l.split('\t').nth(3).unwrap()).collect();
        assert_eq!(verdicts, ["ALLOWED", "ERROR", "ALLOWED"], "{url}: {out}");
        assert!(out.lines().nth(1).unwrap().contains(says), "{out}");
        let o = run(
            &["check", "-a", "Googlebot", "-u", url, "--format", "json", f],
            None,
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert!(v["error"].as_str().unwrap().contains(says), "{v}");
        assert!(v.get("allowed").is_none(), "{v}");
    }
    // An empty URL is the site's root, with a warning.
    let o = run(&["check", "-a", "Googlebot", "-u", "", f], None);
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o.stderr).contains("an empty URL is decided as `/`"));
    assert!(text(&o.stdout).contains("\tALLOWED\t"));
}

/// A URL typed by a person is decided as a browser sends it; the output says so.
#[test]
fn check_decides_urls_as_a_client_sends_them() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("r.txt");
    std::fs::write(&p, "User-agent: *\nDisallow: /café\nDisallow: /a b\n").unwrap();
    let f = p.to_str().unwrap();
    let ask = |reading: &str, url: &str| {
        let o = run(
            &[
                "check",
                "-a",
                "x",
                "--reading",
                reading,
                "-u",
                url,
                "--format",
                "json",
                f,
            ],
            None,
        );
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    for reading in ["google", "rfc"] {
        let v = ask(reading, "/café");
        assert_eq!(v["allowed"], false, "{reading}");
        assert_eq!(v["decided"], "/caf%C3%A9");
        assert_eq!(
            ask(reading, "https://example.com/x/../café#top")["allowed"],
            false
        );
        assert_eq!(ask(reading, "/a b")["decided"], "/a%20b");
    }
    // A client sends a space as `%20`: the RFC reading encodes the pattern's space the same
    // way; Google's library leaves spaces in patterns as they are, so the rule never matches.
    assert_eq!(ask("rfc", "/a b")["allowed"], false);
    assert_eq!(ask("google", "/a b")["allowed"], true);
    // Escapes with lower-case hex digits: Google's library compares bytes, RFC 3986 says escapes
    // are case-insensitive.
    assert_eq!(ask("google", "/caf%c3%a9")["allowed"], true);
    assert_eq!(ask("rfc", "/caf%c3%a9")["allowed"], false);
    let o = run(&["check", "-a", "x", "-u", "/café", f], None);
    assert!(text(&o.stdout).contains("/café (sent as /caf%C3%A9)"));
}

/// `--crawler` applies a known crawler's profile; `--agent` asks the raw question.
#[test]
fn check_crawler_profiles() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("r.txt");
    std::fs::write(
        &p,
        "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /g/\n",
    )
    .unwrap();
    let f = p.to_str().unwrap();
    let verdict = |who: &[&str], url: &str| {
        let mut args = vec!["check"];
        args.extend_from_slice(who);
        args.extend_from_slice(&["-u", url, "--format", "json", f]);
        let o = run(&args, None);
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    // Googlebot-Image has no group: with its profile it follows Googlebot's group, as raw token
    // it falls to `*`.
    let v = verdict(&["--crawler", "Googlebot-Image"], "/page");
    assert_eq!(v["allowed"], true, "{v}");
    assert_eq!(v["via_token"], "Googlebot");
    assert_eq!(
        verdict(&["--crawler", "googlebot-image"], "/g/x")["allowed"],
        false
    );
    assert_eq!(
        verdict(&["--agent", "Googlebot-Image"], "/page")["allowed"],
        false
    );
    // AdsBot-Google ignores the `*` group.
    assert_eq!(
        verdict(&["--crawler", "AdsBot-Google"], "/page")["allowed"],
        true
    );
    assert_eq!(
        verdict(&["--agent", "AdsBot-Google"], "/page")["allowed"],
        false
    );
    // An unknown crawler name is a usage error.
    let o = run(&["check", "--crawler", "NoSuchBot", "-u", "/", f], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("not a known crawler"));
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

/// Runs the binary with standard output and standard error connected to pipes whose reading
/// ends are already closed, as in `robots-explorer … 2>&1 | head -0`.
#[cfg(unix)]
fn run_with_closed_pipes(args: &[&str]) -> std::process::ExitStatus {
    use std::os::fd::{FromRawFd, OwnedFd};
    let pipe = || {
        let mut fds = [0i32; 2];
        // SAFETY: `pipe` fills the two descriptors, which are then owned here.
        assert_eq!(unsafe { libc_pipe(fds.as_mut_ptr()) }, 0);
        let read = unsafe { OwnedFd::from_raw_fd(fds[0]) };
        let write = unsafe { OwnedFd::from_raw_fd(fds[1]) };
        drop(read);
        write
    };
    Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
        .current_dir(root())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::from(pipe()))
        .stderr(Stdio::from(pipe()))
        .status()
        .expect("the binary runs")
}

#[cfg(unix)]
unsafe extern "C" {
    #[link_name = "pipe"]
    fn libc_pipe(fds: *mut i32) -> i32;
}

#[cfg(unix)]
#[test]
fn no_command_panics_on_a_closed_stdout_or_stderr() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let missing = tmp.path().join("missing.txt");
    let guide_out = tmp.path().join("guide");
    let cases: Vec<Vec<&str>> = vec![
        vec!["lint", "fixtures/diagnostics", missing.to_str().unwrap()],
        vec!["lint", "--format", "sarif", "fixtures/diagnostics"],
        vec![
            "check",
            "fixtures/diagnostics",
            "--agent",
            "x",
            "--url",
            "/",
            "--url",
            "http://[::1",
        ],
        vec![
            "report",
            "fixtures/hosts",
            "--out",
            out.to_str().unwrap(),
            "--agents",
            "MJ12bot",
        ],
        vec![
            "guide",
            "--list-checks",
            "--out",
            guide_out.to_str().unwrap(),
        ],
        vec!["--help"],
    ];
    for args in cases {
        let status = run_with_closed_pipes(&args);
        assert!(
            matches!(status.code(), Some(0..=2)),
            "{args:?} ended with {status:?} (101 is a panic)"
        );
    }
}

#[test]
fn unreadable_inputs_are_shown_in_every_lint_format() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("gone.txt");
    let missing = missing.to_str().unwrap();
    let o = run(&["lint", missing], None);
    assert_eq!(o.status.code(), Some(2));
    let out = text(&o.stdout);
    assert!(out.contains("error[unreadable]: cannot be read"), "{out}");
    assert!(!out.contains("No problems found in 0 files"), "{out}");
    assert!(out.contains("1 input could not be read"), "{out}");
    let o = run(&["lint", "--format", "json", missing], None);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["files"][0]["path"], missing);
    assert!(
        v["files"][0]["error"]
            .as_str()
            .unwrap()
            .contains("No such file")
    );
    let o = run(&["lint", "--format", "sarif", missing], None);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let inv = &v["runs"][0]["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false);
    assert_eq!(inv["toolExecutionNotifications"][0]["level"], "error");
    let o = run(&["lint", "--format", "github", missing], None);
    assert!(
        text(&o.stdout).starts_with("::error file="),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn unreadable_inputs_get_an_error_answer_in_every_check_format() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("gone.txt");
    let missing = missing.to_str().unwrap();
    let good = "fixtures/hosts/shop.example.txt";
    let args = |format: &'static str| {
        vec![
            "check",
            "--format",
            format,
            "-a",
            "Googlebot",
            "-u",
            "/",
            "-u",
            "/cart/",
            missing,
            good,
        ]
    };
    let o = run(&args("text"), None);
    assert_eq!(o.status.code(), Some(2));
    let out = text(&o.stdout);
    assert_eq!(
        out.lines()
            .filter(|l| l.contains("\tERROR\tthe file cannot be read"))
            .count(),
        2,
        "{out}"
    );
    assert_eq!(out.lines().count(), 4, "{out}");
    let o = run(&args("json"), None);
    let rows: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["file"], missing);
    assert!(rows[0]["allowed"].is_null());
    assert!(
        rows[0]["error"]
            .as_str()
            .unwrap()
            .contains("cannot be read")
    );
    assert_eq!(rows[3]["allowed"], false);
    let o = run(&args("csv"), None);
    let out = text(&o.stdout);
    assert_eq!(
        out.lines().filter(|l| l.contains(",ERROR,")).count(),
        2,
        "{out}"
    );
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_loop_is_called_a_loop() {
    let tmp = tempfile::tempdir().unwrap();
    let link = tmp.path().join("loop.txt");
    std::os::unix::fs::symlink(&link, &link).unwrap();
    let o = run(&["lint", link.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stdout).contains("a loop of symbolic links"),
        "{}",
        text(&o.stdout)
    );
}

#[cfg(unix)]
#[test]
fn sarif_uris_keep_every_byte_of_a_file_name() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    std::fs::create_dir(&dir).unwrap();
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9 #1?.txt");
    std::fs::write(dir.join(name), "User-agent: *\nDisallow: /\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
        .current_dir(tmp.path())
        .args(["lint", "--format", "sarif", "--include", "*.txt", "in"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let uri =
        &v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
    assert_eq!(uri, "in/caf%E9%20%231%3F.txt");
}

/// The paths `lint --format json` reads for `args`.
fn linted_paths(args: &[&str], cwd: &std::path::Path) -> Vec<String> {
    let o = Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
        .current_dir(cwd)
        .args([
            "lint",
            "--no-config",
            "--format",
            "json",
            "--fail-on",
            "never",
        ])
        .args(args)
        .output()
        .unwrap();
    let v: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&o.stderr)));
    v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn walks_read_robots_files_by_default_and_globs_choose_others() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    for (p, body) in [
        ("public/robots.txt", "User-agent: *\nDisallow:\n"),
        ("public/humans.txt", "/* TEAM */"),
        ("public/llms.txt", "# site"),
        ("requirements.txt", "serde==1"),
        ("staging.robots.txt", "User-agent: *\nDisallow: /\n"),
        ("hosts/shop.example.txt", "User-agent: *\n"),
        ("hosts/00074c0d6ce3f195.txt", "User-agent: *\n"),
        ("hosts/www.example.com/robots.txt", "User-agent: *\n"),
        ("vendor/lib/robots.txt", "User-agent: *\n"),
        (".git/robots.txt", "User-agent: *\n"),
        ("notes.txt", "notes"),
    ] {
        let path = r.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
    assert_eq!(
        linted_paths(&["."], r),
        [
            "./hosts/00074c0d6ce3f195.txt",
            "./hosts/shop.example.txt",
            "./hosts/www.example.com/robots.txt",
            "./public/robots.txt",
            "./staging.robots.txt",
            "./vendor/lib/robots.txt",
        ]
    );
    assert_eq!(
        linted_paths(&["--exclude", "vendor", "--exclude", "hosts/*.txt", "."], r),
        [
            "./hosts/www.example.com/robots.txt",
            "./public/robots.txt",
            "./staging.robots.txt",
        ]
    );
    assert_eq!(
        linted_paths(
            &["--include", "public/*.txt", "--exclude", "humans.txt", "."],
            r
        ),
        ["./public/llms.txt", "./public/robots.txt"]
    );
    // A file named on the command line is always read.
    assert_eq!(linted_paths(&["notes.txt"], r), ["notes.txt"]);
    // A bad glob is a usage error.
    let o = run(&["lint", "--include", "a[", "fixtures/hosts"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--include `a[`"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn the_demo_hosts_and_the_corpus_are_read_whole_by_default() {
    let hosts = root().join("fixtures/hosts");
    let txt = std::fs::read_dir(&hosts)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "txt")
        })
        .count();
    assert_eq!(linted_paths(&["fixtures/hosts"], &root()).len(), txt);
    let corpus = root().join("../shared/corpus/files");
    if corpus.is_dir() {
        let n = std::fs::read_dir(&corpus).unwrap().count();
        let o = run(
            &[
                "check",
                "-a",
                "Googlebot",
                "-u",
                "/",
                "--format",
                "json",
                corpus.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(text(&o.stdout).lines().count(), n);
    }
}

#[test]
fn check_answers_several_crawlers_and_a_list_of_urls() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("robots.txt");
    std::fs::write(
        &p,
        "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n",
    )
    .unwrap();
    let list = dir.path().join("urls.txt");
    std::fs::write(
        &list,
        "# pages to keep open\n/\n\n  /private/x  \nhttps://shop.example/a?b\n",
    )
    .unwrap();
    let f = p.to_str().unwrap();
    let l = list.to_str().unwrap();
    let o = run(
        &[
            "check",
            "-a",
            "GPTBot",
            "-a",
            "Googlebot",
            "--crawler",
            "Googlebot-Image",
            "--urls",
            l,
            "--format",
            "json",
            f,
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    let rows: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let got: Vec<(String, String, bool)> = rows
        .iter()
        .map(|r| {
            (
                r["crawler"]
                    .as_str()
                    .unwrap_or(r["agent"].as_str().unwrap())
                    .to_string(),
                r["url"].as_str().unwrap().to_string(),
                r["allowed"].as_bool().unwrap(),
            )
        })
        .collect();
    let want = |who: &str, url: &str, ok: bool| (who.to_string(), url.to_string(), ok);
    assert_eq!(
        got,
        [
            want("GPTBot", "/", false),
            want("GPTBot", "/private/x", false),
            want("GPTBot", "https://shop.example/a?b", false),
            want("Googlebot", "/", true),
            want("Googlebot", "/private/x", false),
            want("Googlebot", "https://shop.example/a?b", true),
            want("Googlebot Image", "/", true),
            want("Googlebot Image", "/private/x", false),
            want("Googlebot Image", "https://shop.example/a?b", true),
        ]
    );
    // `--urls -` reads standard input, after the --url values.
    let o = run(
        &["check", "-a", "Googlebot", "-u", "/a", "--urls", "-", f],
        Some(b"/private/\n#x\n"),
    );
    let out = text(&o.stdout);
    let urls: Vec<&str> = out.lines().map(|l| l.split('\t').nth(1).unwrap()).collect();
    assert_eq!(urls, ["/a", "/private/"]);
    // Both reading standard input is refused; a missing list is an error.
    let o = run(&["check", "-a", "x", "--urls", "-", "-"], Some(b""));
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["check", "-a", "x", "--urls", "/no/such/list", f], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("/no/such/list"));
}

#[test]
fn check_csv_and_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("robots.txt");
    std::fs::write(
        &p,
        "User-agent: *\nDisallow: /private/\nAllow: /private/ok\n",
    )
    .unwrap();
    let f = p.to_str().unwrap();
    let o = run(
        &[
            "check",
            "-a",
            "Googlebot",
            "-u",
            "/private/x",
            "-u",
            "/private/ok,1",
            "-u",
            "http://[::1",
            "--format",
            "csv",
            f,
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2), "the URL that cannot be decided");
    let mut r = csv::Reader::from_reader(&o.stdout[..]);
    let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(
        header,
        [
            "file",
            "url",
            "decided",
            "agent",
            "crawler",
            "reading",
            "verdict",
            "line",
            "kind",
            "pattern",
            "reason",
            "via_token",
            "error"
        ]
    );
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(&rows[0][6], "DISALLOWED");
    assert_eq!(&rows[0][7], "2");
    assert_eq!(&rows[0][8], "disallow");
    assert_eq!(&rows[0][10], "longest-match");
    assert_eq!(&rows[1][1], "/private/ok,1", "a comma survives quoting");
    assert_eq!(&rows[1][6], "ALLOWED");
    assert_eq!(&rows[2][6], "ERROR");
    assert!(!rows[2][12].is_empty());
    // --exit-code: 1 when something is disallowed, 0 when all is allowed, 2 wins over 1.
    let code = |urls: &[&str]| {
        let mut a = vec!["check", "--exit-code", "-a", "Googlebot"];
        for u in urls {
            a.extend(["-u", u]);
        }
        a.push(f);
        run(&a, None).status.code()
    };
    assert_eq!(code(&["/", "/private/ok"]), Some(0));
    assert_eq!(code(&["/", "/private/x"]), Some(1));
    assert_eq!(code(&["/private/x", "http://[::1"]), Some(2));
    assert_eq!(
        run(&["check", "-a", "Googlebot", "-u", "/private/x", f], None)
            .status
            .code(),
        Some(0),
        "without --exit-code a verdict is no failure"
    );
}

/// A long `--urls` list (answered one file at a time, each answer printed as it is decided)
/// gives, for every format, the answers of its parts asked one after another (answered a chunk
/// of files at a time), undecidable URLs and all, and the same warnings.
#[test]
fn check_answers_a_long_list_as_it_answers_its_parts() {
    let tmp = tempfile::tempdir().unwrap();
    let mut lines = Vec::new();
    for n in 0..20_000 {
        lines.push(match n % 1_000 {
            1 => "http://[::1".to_string(),
            2 => String::new(),
            3 => "# comment".to_string(),
            4 => format!("/caf\u{e9}/{n}"),
            5 => format!("//shop.example/cart/{n}"),
            _ => format!("https://shop.example/p/{n}?sort=x&n={n}"),
        });
    }
    let whole = tmp.path().join("whole.txt");
    std::fs::write(&whole, lines.join("\n")).unwrap();
    let parts: Vec<PathBuf> = lines
        .chunks(5_000)
        .enumerate()
        .map(|(i, c)| {
            let p = tmp.path().join(format!("part{i}.txt"));
            std::fs::write(&p, c.join("\n")).unwrap();
            p
        })
        .collect();
    for format in ["text", "json", "csv"] {
        let ask = |list: &std::path::Path| {
            run(
                &[
                    "check",
                    "--format",
                    format,
                    "--crawler",
                    "Googlebot-Image",
                    "--urls",
                    list.to_str().unwrap(),
                    "fixtures/hosts/shop.example.txt",
                ],
                None,
            )
        };
        let all = ask(&whole);
        assert_eq!(all.status.code(), Some(2));
        let mut stdout = Vec::new();
        for (i, p) in parts.iter().enumerate() {
            let o = ask(p);
            let out = String::from_utf8(o.stdout).unwrap();
            // The CSV header comes once, first.
            let out = if format == "csv" && i > 0 {
                out.split_once('\n').unwrap().1.to_string()
            } else {
                out
            };
            stdout.push(out);
        }
        assert_eq!(
            String::from_utf8(all.stdout).unwrap(),
            stdout.concat(),
            "{format}"
        );
        assert_eq!(
            String::from_utf8(all.stderr)
                .unwrap()
                .lines()
                .filter(|l| l.contains("http://[::1"))
                .count(),
            20
        );
    }
}
