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
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
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

/// Assigns a unique, safe file stem to each `(host name, unique key)`; returns the stems in the
/// same order. The key (e.g. the input's relative path) must be unique among the inputs.
///
/// A host gets its plain slug when the slug equals the lower-cased host name, is not reserved
/// and no other input has the same slug; otherwise `slug-xxxxxxxx` with 8 hex digits of the
/// key's hash. Remaining clashes (hash collisions) get `-2`, `-3`, … in key order.
pub fn assign(inputs: &[(&str, &str)]) -> Vec<String> {
    // Sorting index vectors instead of building maps of strings keeps this within a few bytes
    // per input beyond the names themselves (a million hosts are one run).
    let mut names: Vec<String> = inputs.iter().map(|(h, _)| slug(h)).collect();
    let by_name = |names: &[String]| {
        let mut order: Vec<usize> = (0..names.len()).collect();
        order.sort_by(|&a, &b| {
            names[a]
                .cmp(&names[b])
                .then_with(|| inputs[a].1.cmp(inputs[b].1))
        });
        order
    };
    let order = by_name(&names);
    let mut shared = vec![false; names.len()];
    for run in order.chunk_by(|&a, &b| names[a] == names[b]) {
        if run.len() > 1 {
            for &i in run {
                shared[i] = true;
            }
        }
    }
    for (i, (host, key)) in inputs.iter().enumerate() {
        let plain = !shared[i] && names[i] == host.to_ascii_lowercase() && !is_reserved(&names[i]);
        if !plain {
            names[i] = format!("{}-{:08x}", names[i], fnv1a(key.as_bytes()) as u32);
        }
    }
    // Remaining clashes (hash collisions): in key order, the first keeps its name and the
    // others get `-2`, `-3`, … , skipping every name already given.
    let order = by_name(&names);
    let clashing: Vec<Vec<usize>> = order
        .chunk_by(|&a, &b| names[a] == names[b])
        .filter(|run| run.len() > 1)
        .map(|run| run[1..].to_vec())
        .collect();
    if clashing.is_empty() {
        return names;
    }
    let mut taken: std::collections::HashSet<String> = clashing
        .iter()
        .flat_map(|run| run.iter().map(|&i| names[i].clone()))
        .collect();
    let exists = |names: &[String], order: &[usize], candidate: &str| {
        order
            .binary_search_by(|&i| names[i].as_str().cmp(candidate))
            .is_ok()
    };
    let mut renamed: Vec<(usize, String)> = Vec::new();
    for run in clashing {
        for i in run {
            let base = names[i].clone();
            let mut n = 2;
            let mut candidate = format!("{base}-{n}");
            while taken.contains(&candidate) || exists(&names, &order, &candidate) {
                n += 1;
                candidate = format!("{base}-{n}");
            }
            taken.insert(candidate.clone());
            renamed.push((i, candidate));
        }
    }
    for (i, name) in renamed {
        names[i] = name;
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
        let names = assign(&inputs);
        let lower: std::collections::BTreeSet<String> =
            names.iter().map(|n| n.to_ascii_lowercase()).collect();
        assert_eq!(lower.len(), names.len());
        assert_eq!(names[3], "other.example");
        assert!(names[0].starts_with("shop.example-"));
        assert!(names[4].starts_with("con-"));
        // Independent of input order.
        let mut rev = inputs;
        rev.reverse();
        let mut names_rev = assign(&rev);
        names_rev.reverse();
        assert_eq!(names, names_rev);
    }
}
