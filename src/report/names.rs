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
/// unique key); returns, in index order, `(i, stem)` for each input whose stem is not its host
/// name (the others' stem is their host name). The key (e.g. the input's relative path) must be
/// unique among the inputs.
///
/// A host gets its plain slug when the slug equals the lower-cased host name, is not reserved
/// and no other input has the same slug; otherwise `slug-xxxxxxxx` with 8 hex digits of the
/// key's hash. Remaining clashes (hash collisions) get `-2`, `-3`, … in key order.
///
/// A million hosts are one run, so nothing is kept per input but a 64-bit hash of its name and
/// its index (16 bytes); `input` is called again for the inputs whose hashes meet, and a few
/// times per input in all.
pub fn assign<H: AsRef<str>, K: AsRef<[u8]>>(
    n: usize,
    input: impl Fn(usize) -> (H, K),
) -> Vec<(usize, String)> {
    let slug_of = |i: usize| slug(input(i).0.as_ref());
    // Inputs whose slug another input has too.
    let mut by_hash: Vec<(u64, u32)> = (0..n)
        .map(|i| (fnv1a(slug_of(i).as_bytes()), i as u32))
        .collect();
    let shared: rustc_hash::FxHashSet<u32> = equal_names(&mut by_hash, &slug_of)
        .into_iter()
        .flatten()
        .collect();
    // The name of each input after the first step: its slug, or the slug and the key's hash.
    let first_name_of = |i: usize, host: &str, key: &[u8]| -> String {
        let current = slug(host);
        let plain = !shared.contains(&(i as u32))
            && current == host.to_ascii_lowercase()
            && !is_reserved(&current);
        if plain {
            current
        } else {
            format!("{current}-{:08x}", fnv1a(key) as u32)
        }
    };
    let first_name = |i: usize| -> String {
        let (host, key) = input(i);
        first_name_of(i, host.as_ref(), key.as_ref())
    };
    for (h, i) in by_hash.iter_mut() {
        *h = fnv1a(first_name(*i as usize).as_bytes());
    }
    // Remaining clashes (hash collisions): in key order, the first keeps its name and the
    // others get `-2`, `-3`, … , skipping every name already given.
    let mut clashing = equal_names(&mut by_hash, &first_name);
    for run in &mut clashing {
        run.sort_by_cached_key(|&i| input(i as usize).1.as_ref().to_vec());
    }
    clashing.sort_by_cached_key(|run| first_name(run[0] as usize));
    let mut renamed: rustc_hash::FxHashMap<u32, String> = Default::default();
    if !clashing.is_empty() {
        let mut taken: std::collections::HashSet<String> = clashing
            .iter()
            .flat_map(|run| run[1..].iter().map(|&i| first_name(i as usize)))
            .collect();
        let exists = |candidate: &str| {
            let h = fnv1a(candidate.as_bytes());
            let from = by_hash.partition_point(|&(x, _)| x < h);
            by_hash[from..]
                .iter()
                .take_while(|&&(x, _)| x == h)
                .any(|&(_, i)| first_name(i as usize) == candidate)
        };
        for run in &clashing {
            for &i in &run[1..] {
                let base = first_name(i as usize);
                let mut k = 2;
                let mut candidate = format!("{base}-{k}");
                while taken.contains(&candidate) || exists(&candidate) {
                    k += 1;
                    candidate = format!("{base}-{k}");
                }
                taken.insert(candidate.clone());
                renamed.insert(i, candidate);
            }
        }
    }
    // A name equal to the host name is the host name.
    (0..n)
        .filter_map(|i| {
            // One read of the input for both: it may come from disk.
            let (host, key) = input(i);
            let name = renamed
                .remove(&(i as u32))
                .unwrap_or_else(|| first_name_of(i, host.as_ref(), key.as_ref()));
            (name != host.as_ref()).then_some((i, name))
        })
        .collect()
}

/// Sorts `by_hash` (a name's hash and the input's index) and returns the inputs whose names,
/// given by `name`, are equal, as runs of two or more indices (in index order).
fn equal_names(by_hash: &mut [(u64, u32)], name: &impl Fn(usize) -> String) -> Vec<Vec<u32>> {
    by_hash.sort_unstable();
    let mut runs = Vec::new();
    for same_hash in by_hash.chunk_by(|a, b| a.0 == b.0) {
        if same_hash.len() < 2 {
            continue;
        }
        let mut named: Vec<(String, u32)> = same_hash
            .iter()
            .map(|&(_, i)| (name(i as usize), i))
            .collect();
        named.sort_unstable();
        runs.extend(
            named
                .chunk_by(|a, b| a.0 == b.0)
                .filter(|run| run.len() > 1)
                .map(|run| run.iter().map(|&(_, i)| i).collect()),
        );
    }
    runs
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
            let mut names: Vec<String> = inputs.iter().map(|(h, _)| h.to_string()).collect();
            for (i, stem) in assign(inputs.len(), |i| (inputs[i].0, inputs[i].1.as_bytes())) {
                names[i] = stem;
            }
            names
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

    #[test]
    fn hashed_names_that_meet_a_host_name_get_a_number() {
        // `x y` is named `x-y-<hash of its key>`, which another host is called already.
        let taken = format!("x-y-{:08x}", fnv1a(b"k1") as u32);
        let inputs = [("x y", "k1"), (taken.as_str(), "k0"), ("x-y", "k2")];
        let stems = assign(inputs.len(), |i| (inputs[i].0, inputs[i].1.as_bytes()));
        assert_eq!(
            stems,
            [
                (0, format!("{taken}-2")),
                (2, format!("x-y-{:08x}", fnv1a(b"k2") as u32))
            ]
        );
    }
}
