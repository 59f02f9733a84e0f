//! Builds the WebAssembly module of the pages' tester (the `wasm/` crate, the engine compiled
//! for `wasm32-unknown-unknown`) and leaves it in `$OUT_DIR/tester.wasm`, which the
//! application embeds and writes into every site as `assets/engine.js`.
//!
//! The module is built by a nested `cargo build` into a target directory of its own (beside
//! the outer build's profile directories), so it is rebuilt only when the engine or the
//! `wasm/` crate change. When the `wasm32-unknown-unknown` target is missing, `rustup target
//! add` is tried once; if the module still cannot be built, the build goes on with an empty
//! module and a warning, and the sites say the tester is unavailable. Setting
//! `ROBOTS_EXPLORER_NO_WASM=1` skips the module on purpose.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "wasm32-unknown-unknown";

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    for watched in [
        "engine/src",
        "engine/Cargo.toml",
        "wasm/src",
        "wasm/Cargo.toml",
        "Cargo.lock",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(watched).display());
    }
    println!("cargo:rerun-if-env-changed=ROBOTS_EXPLORER_NO_WASM");
    let module = out_dir.join("tester.wasm");
    let built = if std::env::var_os("ROBOTS_EXPLORER_NO_WASM").is_some_and(|v| v != "0") {
        Err("ROBOTS_EXPLORER_NO_WASM is set".to_string())
    } else {
        build_module(&root, &out_dir).or_else(|first| {
            // The target may simply not be installed yet (rust-toolchain.toml lists it, but not
            // every rustup installs listed targets): add it once and try again.
            let added = Command::new("rustup")
                .args(["target", "add", TARGET])
                .status()
                .is_ok_and(|s| s.success());
            if added {
                build_module(&root, &out_dir)
            } else {
                Err(first)
            }
        })
    };
    match built {
        Ok(wasm) => std::fs::copy(&wasm, &module).map(|_| ()),
        Err(why) => {
            println!(
                "cargo:warning=the tester's WebAssembly module was not built ({why}); sites will \
say the tester is unavailable. Install the target with `rustup target add {TARGET}`."
            );
            std::fs::write(&module, b"")
        }
    }
    .expect("OUT_DIR is writable");
    // Sites embed the module gzipped: compressed here once, at its smallest, rather than by
    // every run of the tool (about 0.1 s of CPU at the best level).
    let wasm = std::fs::read(&module).expect("written above");
    let gz = if wasm.is_empty() {
        Vec::new()
    } else {
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(&wasm).expect("writing to memory");
        z.finish().expect("writing to memory")
    };
    std::fs::write(out_dir.join("tester.wasm.gz"), gz).expect("OUT_DIR is writable");
}

/// Runs the nested build; returns the module's path, or why it failed.
fn build_module(root: &Path, out_dir: &Path) -> Result<PathBuf, String> {
    // OUT_DIR is <target>/<profile>/build/<package>-<hash>/out: build beside the profiles, so
    // that debug, release and test builds share one module build.
    let target_dir = out_dir
        .ancestors()
        .nth(4)
        .unwrap_or(out_dir)
        .join("wasm-tester");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args([
        "build",
        "--quiet",
        "-p",
        "robots-explorer-wasm",
        "--profile",
        "wasm",
    ])
    .args(["--target", TARGET])
    .arg("--manifest-path")
    .arg(root.join("Cargo.toml"))
    .arg("--target-dir")
    .arg(&target_dir);
    // What the outer build was asked for (flags for the host, clippy as the compiler, another
    // target) must not leak into the module's build.
    for var in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTC_WORKSPACE_WRAPPER",
        "RUSTC_WRAPPER",
        "CARGO_BUILD_TARGET",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_RUSTFLAGS",
    ] {
        cmd.env_remove(var);
    }
    let status = cmd
        .status()
        .map_err(|e| format!("cargo could not be run: {e}"))?;
    if !status.success() {
        return Err(format!("cargo build for {TARGET} failed ({status})"));
    }
    let wasm = target_dir
        .join(TARGET)
        .join("wasm")
        .join("robots_explorer_wasm.wasm");
    if wasm.is_file() {
        Ok(wasm)
    } else {
        Err(format!("{} is missing", wasm.display()))
    }
}
