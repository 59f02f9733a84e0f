//! Safe output file names for host pages.
//!
//! A host name comes from a file name or a sidecar URL, so it may hold anything: `/`, `..`,
//! upper case, characters a file system rejects, names Windows reserves. [`slug`] keeps only
//! lower-case ASCII letters, digits, `.`, `-` and `_`, so a page name can never leave its
//! folder. [`assign`] then makes the names unique, also on case-insensitive file systems: when a
//! slug is not the host name itself, is reserved, or is shared by several inputs, a short hash of
//! the input's unique key is appended. The result depends only on the set of inputs, not on the
//! order of processing.

/// Longest slug kept before the hash suffix, in bytes.
const MAX_SLUG: usize = 80;

/// Names Windows reserves for devices, in any case and with any extension.
const RESERVED: &[&str] = &[
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9", "index",
];

/// A file-name-safe form of `name`: lower-case ASCII letters, digits, `.`, `-`, `_`; other
/// characters become `-` (one for a run of them), `..` becomes `.`, leading and trailing `.`/`-` are dropped, and
/// `..` cannot occur. Never empty (`host` stands in).
pub fn slug(name: &str) -> String {
    let mut out = String::with_capacity(name.len().min(MAX_SLUG));
    for c in name.chars() {
        let c = c.to_ascii_lowercase();
        let keep = c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_' || c == '.';
        // A replaced character after a `-` adds nothing; `..` never occurs.
        if (!keep && out.ends_with('-')) || (c == '.' && out.ends_with('.')) {
            continue;
        }
        let c = if keep { c } else { '-' };
        out.push(c);
        if out.len() >= MAX_SLUG {
            break;
        }
    }
    let trimmed = out.trim_matches(|c| c == '.' || c == '-');
    if trimmed.is_empty() {
        "host".to_string()
    } else {
        trimmed.to_string()
    }
}

/// FNV-1a, 64 bits: a small, stable hash (the same on every platform and run).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_more(FNV1A_BASIS, bytes)
}

/// The offset basis of 64-bit FNV-1a: the hash of no bytes.
pub const FNV1A_BASIS: u64 = 0xcbf2_9ce4_8422_2325;

/// Continues the FNV-1a hash `h` (of the bytes hashed so far) over `bytes`:
/// `fnv1a_more(fnv1a(a), b) == fnv1a(a ++ b)`.
pub fn fnv1a_more(h: u64, bytes: &[u8]) -> u64 {
    let mut h = h;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn is_reserved(slug: &str) -> bool {
    let stem = slug.split('.').next().unwrap_or(slug);
    RESERVED.contains(&stem)
}

/// Assigns a unique, safe file stem to each of `n` inputs, given by `input(i)` as (host name,
/// unique key); returns, in the same order, the stem of each input whose stem is not its host
/// name (`None` where it is). The key (e.g. the input's relative path) must be unique among the
/// inputs.
///
/// A host gets its plain slug when the slug equals the lower-cased host name, is not reserved
/// and no other input has the same slug; otherwise `slug-xxxxxxxx` with 8 hex digits of the
/// key's hash. Remaining clashes (hash collisions) get `-2`, `-3`, … in key order.
pub fn assign<'a>(n: usize, input: impl Fn(usize) -> (&'a str, &'a [u8])) -> Vec<Option<String>> {
    // A million hosts are one run: a name is stored only where it is not the host name itself,
    // and orders are vectors of indices, not maps of strings.
    let mut names: Vec<Option<String>> = (0..n)
        .map(|i| {
            let host = input(i).0;
            let s = slug(host);
            (s != host).then_some(s)
        })
        .collect();
    fn pick<'b>(stored: &'b Option<String>, host: &'b str) -> &'b str {
        stored.as_deref().unwrap_or(host)
    }
    let by_name = |names: &[Option<String>]| {
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_unstable_by(|&a, &b| {
            pick(&names[a as usize], input(a as usize).0)
                .cmp(pick(&names[b as usize], input(b as usize).0))
                .then_with(|| input(a as usize).1.cmp(input(b as usize).1))
        });
        order
    };
    let order = by_name(&names);
    let mut shared = vec![false; n];
    for run in order.chunk_by(|&a, &b| {
        pick(&names[a as usize], input(a as usize).0)
            == pick(&names[b as usize], input(b as usize).0)
    }) {
        if run.len() > 1 {
            for &i in run {
                shared[i as usize] = true;
            }
        }
    }
    for i in 0..n {
        let (host, key) = input(i);
        let current = pick(&names[i], input(i).0);
        let plain = !shared[i] && current == host.to_ascii_lowercase() && !is_reserved(current);
        if !plain {
            names[i] = Some(format!("{current}-{:08x}", fnv1a(key) as u32));
        }
    }
    // Remaining clashes (hash collisions): in key order, the first keeps its name and the
    // others get `-2`, `-3`, … , skipping every name already given.
    let order = by_name(&names);
    let clashing: Vec<Vec<u32>> = order
        .chunk_by(|&a, &b| {
            pick(&names[a as usize], input(a as usize).0)
                == pick(&names[b as usize], input(b as usize).0)
        })
        .filter(|run| run.len() > 1)
        .map(|run| run[1..].to_vec())
        .collect();
    if !clashing.is_empty() {
        let mut taken: std::collections::HashSet<String> = clashing
            .iter()
            .flat_map(|run| {
                run.iter()
                    .map(|&i| pick(&names[i as usize], input(i as usize).0).to_string())
            })
            .collect();
        let exists = |names: &[Option<String>], candidate: &str| {
            order
                .binary_search_by(|&i| pick(&names[i as usize], input(i as usize).0).cmp(candidate))
                .is_ok()
        };
        let mut renamed: Vec<(usize, String)> = Vec::new();
        for run in clashing {
            for i in run {
                let base = pick(&names[i as usize], input(i as usize).0).to_string();
                let mut k = 2;
                let mut candidate = format!("{base}-{k}");
                while taken.contains(&candidate) || exists(&names, &candidate) {
                    k += 1;
                    candidate = format!("{base}-{k}");
                }
                taken.insert(candidate.clone());
                renamed.push((i as usize, candidate));
            }
        }
        for (i, stem) in renamed {
            names[i] = Some(stem);
        }
    }
    // A name that ended up equal to the host name is the host name.
    for (i, stem) in names.iter_mut().enumerate() {
        if stem.as_deref() == Some(input(i).0) {
            *stem = None;
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_cannot_escape_or_hide() {
        assert_eq!(slug("shop.example"), "shop.example");
        assert_eq!(slug("../../etc/passwd"), "etc-passwd");
        assert_eq!(slug("..."), "host");
        assert_eq!(slug(""), "host");
        assert_eq!(slug("Ex ample:8080"), "ex-ample-8080");
        assert_eq!(slug("<script>"), "script");
        assert_eq!(slug("a\\b/c"), "a-b-c");
        assert_eq!(slug("xn--caf-dma.example"), "xn--caf-dma.example");
        assert_eq!(slug("café.example"), "caf-.example");
        assert!(slug(&"a".repeat(500)).len() <= MAX_SLUG);
    }

    #[test]
    fn names_are_unique_ignoring_case() {
        let inputs = [
            ("Shop.example", "a/Shop.example"),
            ("shop.example", "b/shop.example"),
            ("SHOP.EXAMPLE", "c/SHOP.EXAMPLE"),
            ("other.example", "other.example"),
            ("con", "con"),
        ];
        let stems = |inputs: &[(&str, &str)]| -> Vec<String> {
            assign(inputs.len(), |i| (inputs[i].0, inputs[i].1.as_bytes()))
                .into_iter()
                .zip(inputs)
                .map(|(s, (h, _))| s.unwrap_or_else(|| h.to_string()))
                .collect()
        };
        let names = stems(&inputs);
        let lower: std::collections::BTreeSet<String> =
            names.iter().map(|n| n.to_ascii_lowercase()).collect();
        assert_eq!(lower.len(), names.len());
        assert_eq!(names[3], "other.example");
        assert!(names[0].starts_with("shop.example-"));
        assert!(names[4].starts_with("con-"));
        // Independent of input order.
        let mut rev = inputs;
        rev.reverse();
        let mut names_rev = stems(&rev);
        names_rev.reverse();
        assert_eq!(names, names_rev);
    }
}
