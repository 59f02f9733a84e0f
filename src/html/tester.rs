//! The tester of host pages and of the guide's playground: the engine compiled to
//! WebAssembly (the `wasm/` crate, built by the build script) and the script that puts
//! questions to it.
//!
//! Pages opened from disk cannot fetch a `.wasm` file, so the module travels inside a script,
//! `assets/engine.js`: the module gzipped and base64-encoded, unpacked in the browser with
//! `DecompressionStream` (by `assets/tester.js`'s `robotsExplorerGunzip`, which also unpacks the
//! packed runs of long listings) and instantiated with `WebAssembly.instantiate`. The page loads it
//! only when the reader first uses the tester (`assets/tester.js` adds the script then). The
//! glue is a few lines written by hand against the module's C-style interface (see the
//! `robots-explorer-wasm` crate): the questions and answers are JSON, so generated bindings
//! (`wasm-bindgen`) would add a build tool and a second toolchain version to keep in step for
//! nothing the pages need.

use base64::Engine as _;
use std::sync::OnceLock;

/// The WebAssembly module, gzipped at the best level (empty when the build could not make it;
/// see `build.rs`).
const MODULE_GZ: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/tester.wasm.gz"));

/// The script of the tester's user interface (`assets/tester.js`).
pub const TESTER_JS: &str = include_str!("../../templates/assets/tester.js");

/// How much of a file a page embeds for the tester when the file is longer than
/// [`EMBED_WHOLE_UP_TO`]: the parsing limit's worth (512,000 bytes, RFC 9309 §2.5), which
/// decides every URL as the whole file does.
pub const EMBED_PREFIX: usize = robots_explorer_engine::decode::PARSING_LIMIT;

/// Files up to this many bytes are embedded whole, so that the tester's diagnostics about
/// what lies past the parsing limit are those of the page.
pub const EMBED_WHOLE_UP_TO: usize = 640_000;

/// Whether this build has the WebAssembly module.
pub fn available() -> bool {
    !MODULE_GZ.is_empty()
}

/// `assets/engine.js`: the module inside a script that defines `window.robotsExplorerEngine`,
/// a promise of the engine (`decide`, `analyze`, `crawlers`, each taking the file's bytes and a
/// request object and returning the answer object). Without the module, the promise is
/// rejected with a message saying why. Built once per process.
pub fn engine_script() -> &'static str {
    static SCRIPT: OnceLock<String> = OnceLock::new();
    SCRIPT.get_or_init(|| {
        let b64 = base64::engine::general_purpose::STANDARD.encode(MODULE_GZ);
        GLUE.replace("%MODULE%", &b64)
            .replace("%VERSION%", env!("CARGO_PKG_VERSION"))
    })
}

/// The glue of `assets/engine.js`; `%MODULE%` is the gzipped module in base64.
const GLUE: &str = r#"/* robots-explorer %VERSION%: the robots.txt engine compiled to WebAssembly, for the
   tester of the pages. Runs entirely in this page; nothing is sent anywhere. */
(function () {
  'use strict';
  var MODULE = '%MODULE%';
  function unpack() {
    if (!MODULE) {
      return Promise.reject(new Error('this site was built without the WebAssembly engine ' +
        '(the build could not compile it for wasm32-unknown-unknown)'));
    }
    if (!window.robotsExplorerGunzip) {
      return Promise.reject(new Error('assets/engine.js is loaded by assets/tester.js, which unpacks it'));
    }
    return window.robotsExplorerGunzip(MODULE).then(function (r) { return r.arrayBuffer(); });
  }
  window.robotsExplorerEngine = unpack().then(function (bytes) {
    return WebAssembly.instantiate(bytes, {});
  }).then(function (r) {
    var x = r.instance.exports, enc = new TextEncoder(), dec = new TextDecoder();
    function put(bytes) {
      var p = x.re_alloc(bytes.length);
      new Uint8Array(x.memory.buffer, p, bytes.length).set(bytes);
      return p;
    }
    function call(op, file, req) {
      var q = enc.encode(JSON.stringify(req || {}));
      var fp = put(file), qp = put(q);
      var n = x.re_call(op, fp, file.length, qp, q.length);
      x.re_free(fp, file.length);
      x.re_free(qp, q.length);
      return JSON.parse(dec.decode(new Uint8Array(x.memory.buffer, x.re_output_ptr(), n)));
    }
    return {
      decide: function (file, req) { return call(1, file, req); },
      analyze: function (file, req) { return call(2, file, req); },
      crawlers: function () { return call(3, new Uint8Array(0), {}); }
    };
  });
})();
"#;

/// A file as a page embeds it for the tester.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Embedded {
    /// The bytes embedded (the whole file, or its first [`EMBED_PREFIX`] bytes), in base64;
    /// with [`Embedded::listing`], only those past the bytes the listing spells out (often
    /// none).
    pub base64: String,
    /// The whole file's size in bytes when only a prefix is embedded; `None` when it is whole.
    pub total: Option<u64>,
    /// Where the page's listing spells out the file's first bytes exactly
    /// ([`super::listing::exact_text`]): the tester reads them from the listing, followed by
    /// [`Embedded::base64`], and the page holds them once.
    pub listing: Option<super::listing::ExactText>,
}

impl Embedded {
    /// Whether the page needs the embedded bytes' element (`#robots-file`): some bytes are not
    /// in the listing, or only a prefix of the file is embedded.
    pub fn holder(&self) -> bool {
        self.listing.is_none() || !self.base64.is_empty() || self.total.is_some()
    }
}

/// The part of `bytes` a page embeds (the whole file, or its first [`EMBED_PREFIX`] bytes) and
/// the whole size when that is a prefix; `size` as for [`embed`].
fn embedded_part(bytes: &[u8], size: Option<u64>) -> (&[u8], Option<u64>) {
    let read_whole = size.is_none_or(|s| s <= bytes.len() as u64);
    if read_whole && bytes.len() <= EMBED_WHOLE_UP_TO {
        (bytes, None)
    } else {
        let cut = bytes.len().min(EMBED_PREFIX);
        (&bytes[..cut], Some(size.unwrap_or(bytes.len() as u64)))
    }
}

/// What a page embeds of `bytes`, the file as read (`size`: its whole size in bytes, when
/// known; larger than `bytes.len()` when the read stopped early).
pub fn embed(bytes: &[u8], size: Option<u64>) -> Embedded {
    let (part, total) = embedded_part(bytes, size);
    Embedded {
        base64: base64::engine::general_purpose::STANDARD.encode(part),
        total,
        listing: None,
    }
}

/// What a host page embeds of `robots`, parsed from `bytes` (`size` as for [`embed`]): when its
/// listing spells out the file's first bytes exactly, only the embedded bytes past them (none
/// for a whole file within the parsing limit), else [`embed`].
pub fn embed_for_listing(
    robots: &robots_explorer_engine::RobotsTxt,
    bytes: &[u8],
    size: Option<u64>,
) -> Embedded {
    let (part, total) = embedded_part(bytes, size);
    match super::listing::exact_text(robots) {
        Some(x)
            if x.bytes <= part.len() && robots.bytes().get(..x.bytes) == part.get(..x.bytes) =>
        {
            Embedded {
                base64: base64::engine::general_purpose::STANDARD.encode(&part[x.bytes..]),
                total,
                listing: Some(x),
            }
        }
        _ => embed(bytes, size),
    }
}

/// The tester's form, as the template `report/tester.html` shows it on a host page or the
/// guide's playground.
pub struct TesterView {
    /// Relative path from the page to the site's root, where `assets/` is.
    pub root: &'static str,
    /// The host's file, on a host page; `None` on the playground (the file is typed in).
    pub file: Option<Embedded>,
    /// The reading chosen at first: `google` or `rfc`.
    pub reading: &'static str,
    /// The URLs filled in at first, one per line.
    pub urls: String,
    /// The playground's file at first (empty on host pages: the engine decodes the embedded
    /// bytes when editing starts).
    pub text: String,
    /// A note beside the download link (e.g. that the edited file is saved as UTF-8).
    pub edit_note: Option<super::Html>,
}

impl TesterView {
    /// The tester `root` away from the site's root, for `file` (or the playground without),
    /// starting in `reading` with `urls`.
    pub fn new(
        root: &'static str,
        file: Option<Embedded>,
        reading: robots_explorer_engine::Reading,
        urls: &[String],
    ) -> TesterView {
        TesterView {
            root,
            file,
            reading: reading.as_str(),
            urls: if urls.is_empty() {
                "/".to_string()
            } else {
                urls.join("\n")
            },
            text: String::new(),
            edit_note: None,
        }
    }
}

/// A crawler's label in the tester's menu: `token (operator)`.
fn label(c: &robots_explorer_engine::crawlers::Crawler) -> String {
    format!("{} ({})", c.token, c.operator)
}

/// `assets/tester.js`: [`TESTER_JS`] with the known crawlers (product token and label),
/// those of the default matrix first, which the script puts in each page's menu (pages hold
/// none, to stay small). Built once per process.
pub fn tester_script() -> &'static str {
    static SCRIPT: OnceLock<String> = OnceLock::new();
    SCRIPT.get_or_init(|| {
        let known = robots_explorer_engine::crawlers::known();
        let all: Vec<(&str, String)> = known
            .iter()
            .filter(|c| c.default_matrix)
            .chain(known.iter().filter(|c| !c.default_matrix))
            .map(|c| (c.token.as_str(), label(c)))
            .collect();
        let json = serde_json::to_string(&all).expect("strings serialise");
        TESTER_JS.replace("/*CRAWLERS*/[]", &json)
    })
}

/// The tester on a page of its own (the guide's playground).
#[derive(askama::Template)]
#[template(path = "report/tester.html")]
pub struct Standalone<'a> {
    /// The tester.
    pub t: &'a TesterView,
}

/// The address of the guide's playground (`playground.html`, beside the chapters) opened with
/// `file` and, when given, `urls` and a crawler or product token: the page reads them from the
/// fragment (`#file=…&url=…&crawler=…`), so nothing leaves the browser. Not yet HTML-escaped.
pub fn playground_href(file: &str, urls: &[&str], agent: Option<&str>) -> String {
    let mut href = format!("playground.html#file={}", super::url_component(file));
    for u in urls {
        href.push_str("&url=");
        href.push_str(&super::url_component(u));
    }
    if let Some(a) = agent {
        href.push_str("&crawler=");
        href.push_str(&super::url_component(a));
    }
    href
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_files_are_embedded_whole() {
        let e = embed(b"User-agent: *\nDisallow: /\n", Some(26));
        assert_eq!(e.total, None);
        assert_eq!(
            base64::engine::general_purpose::STANDARD
                .decode(&e.base64)
                .unwrap(),
            b"User-agent: *\nDisallow: /\n"
        );
    }

    #[test]
    fn long_files_are_embedded_to_the_parsing_limit() {
        let big = vec![b'#'; 700_000];
        let e = embed(&big, Some(700_000));
        assert_eq!(e.total, Some(700_000));
        let back = base64::engine::general_purpose::STANDARD
            .decode(&e.base64)
            .unwrap();
        assert_eq!(back.len(), EMBED_PREFIX);
        // A read that stopped early is a prefix even when what was read is short.
        let e = embed(&big[..1000], Some(20_000_000));
        assert_eq!(e.total, Some(20_000_000));
    }

    #[test]
    fn the_engine_script_carries_the_module() {
        let s = engine_script();
        assert!(s.contains("window.robotsExplorerEngine"));
        assert_eq!(available(), !s.contains("var MODULE = '';"));
    }
}
