//! Data kept beside the checkout in `../shared` (the real corpus, the C++ matcher's answers).
//!
//! A fresh clone has no `../shared`: the tests that need it print a loud SKIPPED line and pass.
//! With `ROBOTS_EXPLORER_REQUIRE_SHARED` set (as `.ci/run` sets it), a missing folder fails them.

#![allow(dead_code)]

use std::path::PathBuf;

/// `../shared/<sub>` if it exists; otherwise prints why `test` was skipped and returns `None`,
/// or panics when `ROBOTS_EXPLORER_REQUIRE_SHARED` is set.
pub fn dir(sub: &str, test: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(sub);
    if path.exists() {
        return Some(path);
    }
    if std::env::var_os("ROBOTS_EXPLORER_REQUIRE_SHARED").is_some() {
        panic!(
            "{test}: {} is required (ROBOTS_EXPLORER_REQUIRE_SHARED is set) but missing",
            path.display()
        );
    }
    // Written to the standard error handle itself, not through `eprintln!`, so that the test
    // harness does not capture it: a skip must be seen.
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "\n*** SKIPPED {test}: {} not found. This test needs the shared data beside the \
         checkout (../shared); CI has it and requires it. ***\n",
        path.display()
    );
    None
}
