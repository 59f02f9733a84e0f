//! The robots-explorer engine for the browser.
//!
//! Built for `wasm32-unknown-unknown`, this crate is the WebAssembly module behind the tester
//! of the report's host pages and the guide's playground: the same engine as the command line
//! (no second implementation in JavaScript), answering questions put as JSON.
//!
//! # Interface
//! The module exports five functions with C types only, so the page's glue is a few lines of
//! JavaScript and needs no generated bindings:
//!
//! - `re_alloc(len) -> ptr` and `re_free(ptr, len)`: a buffer of `len` bytes in the module's
//!   memory, for the page to copy the robots.txt bytes and the request into.
//! - `re_call(op, file_ptr, file_len, req_ptr, req_len) -> len`: answers operation `op` (see
//!   [`Op`]) for the file and the request (JSON, UTF-8) and keeps the answer (JSON, UTF-8,
//!   `len` bytes) until the next call;
//! - `re_output_ptr() -> ptr`: where that answer starts.
//!
//! [`answer`] is the same computation for Rust callers (the tests compare it with
//! `robots-explorer check`).

use robots_explorer_engine::decide::Profile;
use robots_explorer_engine::{Decision, Reading, RobotsTxt, analysis, crawlers, one_pass, request};
use serde::Deserialize;
use serde_json::{Value, json};
use std::cell::RefCell;

/// The operations of [`answer`] and `re_call`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Op {
    /// 1: decide URLs for one crawler in both readings. Request: [`DecideRequest`]. Answer:
    /// `{"agent", "crawler", "profile_note", "answers": [{"url", "target" | "error",
    /// "google": Decision, "rfc": Decision}]}`, one answer per URL, in order; a `Decision` is
    /// the engine's [`Decision`] as JSON (`allowed`, `reason`, `rule` {`line` 1-based, `kind`,
    /// `pattern`}, `via_token`, `groups`, `path`).
    Decide = 1,
    /// 2: read the file. Request: ignored. Answer: `{"text", "lines", "bytes", "diagnostics":
    /// [Diagnostic], "groups": {"google": [Group], "rfc": [Group]}, "sitemaps": {"google":
    /// [line]}}` where `text` is the file as the engine decoded it (UTF-8, what the listing
    /// shows), a `Diagnostic` is the engine's diagnostic as JSON (`name`, `severity`, `message`,
    /// `line`, `column`, `readings`, `suggestion`, `reference`) and a `Group` is `{"first_line",
    /// "last_line", "user_agents": [text], "rules": n}` with 1-based lines.
    Analyze = 2,
    /// 3: the known crawler profiles. Request: ignored. Answer: `[{"token", "name", "operator",
    /// "purpose", "note"}]`.
    Crawlers = 3,
}

impl Op {
    /// The operation numbered `n`, if any.
    pub fn from_u32(n: u32) -> Option<Op> {
        match n {
            1 => Some(Op::Decide),
            2 => Some(Op::Analyze),
            3 => Some(Op::Crawlers),
            _ => None,
        }
    }
}

/// The request of [`Op::Decide`].
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DecideRequest {
    /// A known crawler, by product token or display name (as `check --crawler`): decided with
    /// its profile. Takes precedence over `agent`.
    pub crawler: Option<String>,
    /// A product token (as `check --agent`).
    pub agent: Option<String>,
    /// URLs as typed: absolute, or paths starting with `/` (as `check --url`).
    pub urls: Vec<String>,
    /// Total size in bytes of the whole file when the bytes given are only its first bytes
    /// (the report embeds at most the parsing limit's worth); `None` when they are all of it.
    pub total: Option<u64>,
}

/// Answers `op` for the robots.txt `file` (raw bytes) and the JSON request `req`. Never
/// panics on any input: a request that is not valid JSON, an unknown crawler or operation
/// gives `{"error": "..."}`; a URL that cannot be decided gives an answer with `error`.
pub fn answer(op: u32, file: &[u8], req: &[u8]) -> Value {
    match Op::from_u32(op) {
        Some(Op::Decide) => match serde_json::from_slice::<DecideRequest>(req) {
            Ok(r) => decide(file, &r),
            Err(e) => json!({ "error": format!("the request is not valid: {e}") }),
        },
        Some(Op::Analyze) => {
            let total = serde_json::from_slice::<DecideRequest>(req)
                .ok()
                .and_then(|r| r.total);
            analyze(file, total)
        }
        Some(Op::Crawlers) => crawler_list(),
        None => json!({ "error": format!("no operation {op}") }),
    }
}

fn decide(file: &[u8], r: &DecideRequest) -> Value {
    let crawler = match r.crawler.as_deref().filter(|c| !c.is_empty()) {
        Some(name) => match crawlers::find_by_name(name) {
            Some(c) => Some(c),
            None => return json!({ "error": format!("`{name}` is not a known crawler") }),
        },
        None => None,
    };
    let agent = crawler.map_or_else(|| r.agent.clone().unwrap_or_default(), |c| c.token.clone());
    let tokens: Vec<&str> = match crawler {
        Some(c) => c.tokens(),
        None => vec![agent.as_str()],
    };
    let profile = Profile {
        tokens: &tokens,
        obeys_global: crawler.is_none_or(|c| c.obeys_global),
    };
    let targets: Vec<Result<String, String>> = r
        .urls
        .iter()
        .map(|u| request::request_target(u).map_err(|e| e.problem))
        .collect();
    let ok: Vec<&str> = targets.iter().filter_map(|t| t.as_deref().ok()).collect();
    let mut per_reading: Vec<std::vec::IntoIter<Decision>> = Reading::ALL
        .iter()
        .map(|&reading| one_pass::decide_many(file, reading, &profile, &ok).into_iter())
        .collect();
    let answers: Vec<Value> = r
        .urls
        .iter()
        .zip(&targets)
        .map(|(url, target)| match target {
            Ok(t) => {
                let google = per_reading[0].next();
                let rfc = per_reading[1].next();
                json!({ "url": url, "target": t, "google": google, "rfc": rfc })
            }
            Err(problem) => json!({ "url": url, "error": format!("the URL `{url}` {problem}") }),
        })
        .collect();
    json!({
        "agent": agent,
        "crawler": crawler.map(|c| c.name.as_str()),
        "profile_note": crawler.and_then(|c| c.profile_note()),
        "answers": answers,
    })
}

fn analyze(file: &[u8], total: Option<u64>) -> Value {
    let robots = match total {
        Some(t) if t > file.len() as u64 => RobotsTxt::parse_prefix(file, Some(t)),
        _ => RobotsTxt::parse(file),
    };
    let diagnostics: Vec<Value> = analysis::diagnose(&robots)
        .into_iter()
        .map(|d| {
            json!({
                "name": d.name,
                "severity": d.severity().as_str(),
                "message": d.message,
                "line": d.line,
                "column": d.column,
                "readings": d.readings,
                "suggestion": d.suggestion,
                "reference": d.reference,
            })
        })
        .collect();
    let mut groups = serde_json::Map::new();
    let mut sitemaps = serde_json::Map::new();
    for reading in Reading::ALL {
        let policy = robots.policy(reading);
        let list: Vec<Value> = policy
            .groups
            .iter()
            .map(|g| {
                json!({
                    "first_line": g.first_line + 1,
                    "last_line": g.last_line + 1,
                    "user_agents": g.user_agents.iter().map(|u| robots.text(u.value)).collect::<Vec<_>>(),
                    "rules": g.rules.iter().filter(|r| !r.derived).count(),
                })
            })
            .collect();
        groups.insert(reading.as_str().into(), Value::Array(list));
        let lines: Vec<usize> = policy.sitemaps.iter().map(|s| s.line + 1).collect();
        sitemaps.insert(reading.as_str().into(), json!(lines));
    }
    let text = String::from_utf8_lossy(robots.bytes());
    let lines = text.lines().count();
    json!({
        "text": text,
        "lines": lines,
        "bytes": total.unwrap_or(file.len() as u64),
        "diagnostics": diagnostics,
        "groups": groups,
        "sitemaps": sitemaps,
    })
}

fn crawler_list() -> Value {
    Value::Array(
        crawlers::known()
            .iter()
            .map(|c| {
                json!({
                    "token": c.token,
                    "name": c.name,
                    "operator": c.operator,
                    "purpose": c.purpose,
                    "note": c.profile_note(),
                })
            })
            .collect(),
    )
}

thread_local! {
    /// The last answer of `re_call`, kept until the next call so the page can copy it out.
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Allocates `len` bytes in the module's memory for the page to write into; free with
/// [`re_free`]. Returns a dangling (non-null, aligned) pointer for `len == 0`.
#[unsafe(no_mangle)]
pub extern "C" fn re_alloc(len: usize) -> *mut u8 {
    let mut buf = std::mem::ManuallyDrop::new(Vec::<u8>::with_capacity(len));
    buf.as_mut_ptr()
}

/// Frees a buffer of [`re_alloc`].
///
/// # Safety
/// `ptr` must come from `re_alloc(len)` with the same `len`, and be freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn re_free(ptr: *mut u8, len: usize) {
    // SAFETY: the caller passes back a buffer of `re_alloc` with its capacity.
    drop(unsafe { Vec::from_raw_parts(ptr, 0, len) });
}

/// Runs [`answer`] on the bytes at `file_ptr` (`file_len` bytes) and `req_ptr` (`req_len`
/// bytes) and keeps the JSON answer for [`re_output_ptr`]; returns its length in bytes.
///
/// # Safety
/// Both ranges must be readable memory of this module (buffers of [`re_alloc`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn re_call(
    op: u32,
    file_ptr: *const u8,
    file_len: usize,
    req_ptr: *const u8,
    req_len: usize,
) -> usize {
    // SAFETY: the caller guarantees both ranges are live buffers of this module.
    let (file, req) = unsafe { (slice_at(file_ptr, file_len), slice_at(req_ptr, req_len)) };
    let out = serde_json::to_vec(&answer(op, file, req)).unwrap_or_default();
    let len = out.len();
    OUTPUT.with(|o| *o.borrow_mut() = out);
    len
}

/// Where the last answer of [`re_call`] starts in the module's memory.
#[unsafe(no_mangle)]
pub extern "C" fn re_output_ptr() -> *const u8 {
    OUTPUT.with(|o| o.borrow().as_ptr())
}

/// `len` bytes at `ptr`, or the empty slice for a null pointer or zero length.
///
/// # Safety
/// A non-null `ptr` must point to `len` readable bytes.
unsafe fn slice_at<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if ptr.is_null() || len == 0 {
        &[]
    } else {
        // SAFETY: guaranteed by the caller.
        unsafe { std::slice::from_raw_parts(ptr, len) }
    }
}
