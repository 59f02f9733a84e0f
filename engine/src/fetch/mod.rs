//! The fetch outcome of a host, from its sidecar: what the HTTP exchange means for a crawler.
//!
//! RFC 9309 §2.3.1 sorts the answers to a robots.txt request into four cases, and Google
//! documents its own handling of each ("Handling of errors and HTTP status codes"):
//!
//! | answer | RFC 9309 | Google |
//! |---|---|---|
//! | 2xx | §2.3.1.1: follow the rules that parse | the same |
//! | 3xx | §2.3.1.2: follow at least five redirects; the rules apply to the authority first asked; after more than five the file may be taken as unavailable | follows at least five hops, then treats the file as a 404 |
//! | 4xx | §2.3.1.3: unavailable; anything may be fetched | the same, except 429, which the page leaves out of that rule without saying how it is handled (this report assumes: like a server error) |
//! | 5xx, network error | §2.3.1.4: unreachable; assume complete disallow | stops crawling for 12 hours, then uses the last good copy for up to 30 days; with none, no restrictions |
//!
//! After more than five redirects the report takes the file as unavailable in both readings,
//! whatever the end of the chain answered: Google documents this, and RFC 9309 allows it.
//!
//! A 304 (Not Modified) is not a redirect: it answers a conditional request and says that the
//! copy the crawler already holds is still current (RFC 9110 §15.4.5). Neither RFC 9309 nor
//! Google's page names it. RFC 9309 §2.4 lets crawlers use standard HTTP cache control
//! (RFC 9111), under which the copy stays in use; Google fetches robots.txt with a
//! non-conditional GET, and the report assumes such a request would get the same file. So a
//! 304 with a cached copy is successful and the cached copy is in force in both readings
//! (its cache age counts from the 304, which confirmed it); a 304 with no copy recorded leaves
//! the rules in force unknown, and is a problem of the record.
//!
//! §2.4 adds that a cached copy should not be used for more than 24 hours unless the file is
//! unreachable; Google generally caches for up to 24 hours, may cache longer when refreshing is
//! not possible, and may lengthen or shorten the lifetime after a `Cache-Control: max-age`.
//!
//! [`assess`] turns a [`Sidecar`] (or its absence) into an [`Assessment`]: the [`Outcome`], the
//! [`Effect`] in each reading, the redirect chain, the authority the rules bind to, and the
//! cache age at a given time. No I/O.

pub mod sidecar;

use crate::Reading;
use crate::text::{Units, duration};
use sidecar::{Sidecar, format_time, parse_time};
use time::OffsetDateTime;

/// RFC 9309 §2.3.1.2: crawlers should follow at least this many consecutive redirects.
pub const REDIRECT_HOPS: usize = 5;
/// RFC 9309 §2.4: a cached copy should not be used for longer than this, in seconds, unless
/// the file is unreachable.
pub const CACHE_BOUND_SECONDS: i64 = 24 * 3600;
/// HTTP 304 (Not Modified, RFC 9110 §15.4.5): the copy the crawler holds is still current.
pub const NOT_MODIFIED: u16 = 304;

/// How the fetch of the file ended.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// A 2xx answer (RFC 9309 §2.3.1.1), or a 304 (Not Modified) that confirms the cached copy
    /// (RFC 9309 §2.4: standard HTTP cache control).
    Successful,
    /// A 4xx answer (RFC 9309 §2.3.1.3).
    Unavailable,
    /// A 5xx answer or a network error (RFC 9309 §2.3.1.4).
    Unreachable,
    /// More than five redirects (RFC 9309 §2.3.1.2): more than five hops recorded, whatever the
    /// last answer, or five hops and a last answer that is still a redirect. Taken as
    /// unavailable in both readings (allow all), as Google documents and RFC 9309 permits.
    TooManyRedirects,
    /// The record stops early: a redirect within five hops, a 1xx status, a 2xx status without
    /// a `.txt` file holding the body, a 304 (Not Modified) without a cached copy for it to
    /// confirm, or neither status nor error.
    Incomplete,
    /// No sidecar: the file is read as if it had been served with a 2xx status.
    NotRecorded,
}

impl Outcome {
    /// Machine name, e.g. `too-many-redirects`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Successful => "successful",
            Outcome::Unavailable => "unavailable",
            Outcome::Unreachable => "unreachable",
            Outcome::TooManyRedirects => "too-many-redirects",
            Outcome::Incomplete => "incomplete",
            Outcome::NotRecorded => "not-recorded",
        }
    }
    /// Human label, e.g. `too many redirects`.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Successful => "successful",
            Outcome::Unavailable => "unavailable",
            Outcome::Unreachable => "unreachable",
            Outcome::TooManyRedirects => "too many redirects",
            Outcome::Incomplete => "incomplete record",
            Outcome::NotRecorded => "not recorded",
        }
    }
    /// All outcomes, in display order.
    pub const ALL: [Outcome; 6] = [
        Outcome::Successful,
        Outcome::Unavailable,
        Outcome::Unreachable,
        Outcome::TooManyRedirects,
        Outcome::Incomplete,
        Outcome::NotRecorded,
    ];
}

/// What a crawler does with the outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Effect {
    /// Follow the rules of the file received.
    FollowFile,
    /// Follow the rules of the cached copy (the `.txt` file, from an earlier fetch).
    FollowCachedCopy,
    /// No restrictions: anything may be fetched.
    AllowAll,
    /// Complete disallow: nothing may be fetched.
    DisallowAll,
    /// The record does not say.
    Unknown,
}

impl Effect {
    /// Machine name, e.g. `disallow-all`.
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::FollowFile => "follow-file",
            Effect::FollowCachedCopy => "follow-cached-copy",
            Effect::AllowAll => "allow-all",
            Effect::DisallowAll => "disallow-all",
            Effect::Unknown => "unknown",
        }
    }
    /// A phrase completing "a crawler …".
    pub fn phrase(self) -> &'static str {
        match self {
            Effect::FollowFile => "follows the rules of this file",
            Effect::FollowCachedCopy => "follows the rules of its cached copy",
            Effect::AllowAll => "may fetch anything: there are no restrictions",
            Effect::DisallowAll => "must not fetch anything: complete disallow",
            Effect::Unknown => "cannot be told from this record",
        }
    }
    /// Whether the file's rules decide (as opposed to allow-all or disallow-all).
    pub fn uses_rules(self) -> bool {
        matches!(self, Effect::FollowFile | Effect::FollowCachedCopy)
    }
}

/// One hop of the redirect chain, resolved.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Hop {
    /// HTTP status of the redirecting answer, if recorded.
    pub status: Option<u16>,
    /// Where it pointed, resolved against the URL before it when relative.
    pub location: String,
    /// The authority (`scheme://host[:port]`) of `location`, when it parses.
    pub authority: Option<String>,
    /// The location was already visited in this chain (a loop).
    pub repeats: bool,
}

/// A cache age at the report's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CacheAge {
    /// Whether the rules in use are a cached copy from an earlier fetch (else the file received
    /// by this attempt).
    pub cached_copy: bool,
    /// When the copy in use was fetched (Unix seconds), or, when `revalidated`, when a 304
    /// (Not Modified) confirmed it.
    pub fetched_at: i64,
    /// Its age at the report's time, in seconds (negative: fetched after that time).
    pub seconds: i64,
    /// Whether the age is within RFC 9309 §2.4's 24 hours.
    pub within_bound: bool,
    /// Whether the age counts from a 304 (Not Modified) that confirmed the cached copy, rather
    /// than from when the copy was fetched.
    pub revalidated: bool,
}

/// What the sidecar says, interpreted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assessment {
    /// The outcome.
    pub outcome: Outcome,
    /// Final HTTP status, if any.
    pub status: Option<u16>,
    /// Network error, if any.
    pub error: Option<String>,
    /// The URL first asked for, as written.
    pub url: Option<String>,
    /// `scheme://host[:port]` of the URL first asked for: the only authority the rules bind.
    pub authority: Option<String>,
    /// The redirect chain.
    pub hops: Vec<Hop>,
    /// The effect in the RFC 9309 reading.
    pub effect_rfc: Effect,
    /// The effect in Google's documented behaviour, in the hours after the attempt.
    pub effect_google: Effect,
    /// The cache age of the rules in use, when the times are known and not after `now`.
    pub cache: Option<CacheAge>,
    /// Sentences explaining the outcome (plain text, in order).
    pub explanation: Vec<String>,
    /// Problems with the sidecar itself (sidecar warnings): bad or future timestamps, unknown
    /// fields, a `url` that is not an http(s) URL of `/robots.txt`, `error` beside `status`, a
    /// 304 (Not Modified) with no cached copy to confirm.
    pub problems: Vec<String>,
}

impl Assessment {
    /// Whether the redirect chain ended at another authority than the one first asked: the
    /// file's rules still bind the first (RFC 9309 §2.3.1.2), not the host that served it.
    pub fn served_elsewhere(&self) -> bool {
        matches!(
            (&self.authority, self.hops.last()),
            (Some(first), Some(last)) if last.authority.as_ref() != Some(first)
        )
    }

    /// Whether the answer the outcome rests on is a 304 (Not Modified): a final status of 304,
    /// with no network error and within the redirects a crawler follows.
    pub fn not_modified(&self) -> bool {
        self.status == Some(NOT_MODIFIED)
            && self.error.is_none()
            && self.outcome != Outcome::TooManyRedirects
    }

    /// Whether a 304 (Not Modified) confirmed the cached copy, which is then the file in force.
    pub fn confirms_cached_copy(&self) -> bool {
        self.not_modified() && self.outcome == Outcome::Successful
    }

    /// The effect in `reading`.
    pub fn effect(&self, reading: Reading) -> Effect {
        match reading {
            Reading::Google => self.effect_google,
            Reading::Rfc9309 => self.effect_rfc,
        }
    }
}

/// `scheme://host[:port]` of a URL, with the port only when it is not the scheme's default.
pub fn authority_of(url: &url::Url) -> Option<String> {
    let host = url.host_str()?;
    Some(match url.port() {
        Some(p) => format!("{}://{host}:{p}", url.scheme()),
        None => format!("{}://{host}", url.scheme()),
    })
}

/// Whether `u` is an `http` or `https` URL with a host: the only kind a robots.txt is fetched
/// from (RFC 9309 §2.3).
pub fn is_web_url(u: &url::Url) -> bool {
    matches!(u.scheme(), "http" | "https") && u.host_str().is_some_and(|h| !h.is_empty())
}

/// The host a robots.txt at `u` applies to (RFC 9309 §2.3: scheme, host and port): its host
/// name, with `:port` when the port is not the scheme's default, lower-cased. `None` when `u`
/// has no host.
pub fn host_name(u: &url::Url) -> Option<String> {
    let h = u.host_str()?;
    Some(
        match u.port() {
            Some(p) => format!("{h}:{p}"),
            None => h.to_string(),
        }
        .to_lowercase(),
    )
}

/// The outcome RFC 9309 §2.3.1 gives a final HTTP status: 2xx is successful (§2.3.1.1), 4xx
/// unavailable (§2.3.1.3), 5xx unreachable (§2.3.1.4). `None` for the other statuses: a 3xx is
/// a redirect to follow (§2.3.1.2), and the RFC does not cover the rest.
pub fn status_outcome(status: u16) -> Option<Outcome> {
    match status {
        200..=299 => Some(Outcome::Successful),
        400..=499 => Some(Outcome::Unavailable),
        500..=599 => Some(Outcome::Unreachable),
        _ => None,
    }
}

impl CacheAge {
    /// The age at `now` of a copy fetched at `fetched_at`, against RFC 9309 §2.4's bound.
    pub fn at(cached_copy: bool, fetched_at: OffsetDateTime, now: OffsetDateTime) -> CacheAge {
        let seconds = (now - fetched_at).whole_seconds();
        CacheAge {
            cached_copy,
            fetched_at: fetched_at.unix_timestamp(),
            seconds,
            within_bound: (0..=CACHE_BOUND_SECONDS).contains(&seconds),
            revalidated: false,
        }
    }

    /// Whether RFC 9309 §2.4 lets a crawler use the copy: within the bound, or past it when a
    /// new fetch finds the file unreachable (`refetch` is the outcome of that fetch, if any).
    pub fn usable(&self, refetch: Option<Outcome>) -> bool {
        self.within_bound || refetch == Some(Outcome::Unreachable)
    }
}

/// Interprets a sidecar (or its absence) at time `now`. `has_file` says whether a `.txt` file
/// was found beside it.
pub fn assess(sidecar: Option<&Sidecar>, has_file: bool, now: OffsetDateTime) -> Assessment {
    let unknown_or_file = if has_file {
        Effect::FollowFile
    } else {
        Effect::Unknown
    };
    let mut assessment = Assessment {
        outcome: Outcome::NotRecorded,
        status: None,
        error: None,
        url: None,
        authority: None,
        hops: Vec::new(),
        effect_rfc: unknown_or_file,
        effect_google: unknown_or_file,
        cache: None,
        explanation: Vec::new(),
        problems: Vec::new(),
    };
    let Some(sidecar) = sidecar else {
        assessment.explanation.push(
            "No sidecar: how this file was fetched is not recorded, so the report reads it as if \
             it had been served with a 2xx status (RFC 9309 §2.3.1.1)."
                .into(),
        );
        return assessment;
    };
    read_answer(&mut assessment, sidecar);
    let first_url = read_first_url(&mut assessment, sidecar);
    assessment.hops = redirect_chain(first_url, sidecar);
    let times = FetchTimes::read(sidecar, &mut assessment.problems);
    let has_copy = has_file && sidecar.cached.is_some();
    if sidecar.cached.is_some() && !has_file {
        assessment.problems.push(
            "The sidecar describes a cached copy, but no .txt file holds it; it is treated as absent."
                .into(),
        );
    }
    assessment.outcome = classify(&mut assessment, sidecar, has_file, has_copy);
    let google_429 = assessment.outcome == Outcome::Unavailable && sidecar.status == Some(429);
    decide_effects(&mut assessment, google_429, has_file, has_copy);
    explain_served_file(&mut assessment, sidecar);
    times.check_against(now, &mut assessment.problems);
    assessment.cache = times.age_of_rules_in_use(&assessment, google_429, has_file, has_copy, now);
    assessment
}

/// The sidecar's unknown fields, status, error and URL as written.
fn read_answer(assessment: &mut Assessment, sidecar: &Sidecar) {
    for f in sidecar.unknown_fields() {
        assessment.problems.push(format!(
            "The sidecar field `{f}` is not known; it was ignored."
        ));
    }
    assessment.status = sidecar.status;
    assessment.error = sidecar.error.clone().filter(|e| !e.trim().is_empty());
    if let (Some(e), Some(st)) = (&assessment.error, sidecar.status) {
        assessment.problems.push(format!(
            "The sidecar gives both `error` ({e}) and `status` ({st}), which exclude each other. \
             The error was used: the attempt is read as getting no HTTP answer, and the status \
             is ignored."
        ));
    }
    assessment.url = sidecar.url.clone();
}

/// The URL first asked for, when it is an http(s) URL; sets the authority the rules bind to and
/// records what is wrong with the URL.
fn read_first_url(assessment: &mut Assessment, sidecar: &Sidecar) -> Option<url::Url> {
    match sidecar.url.as_deref().map(url::Url::parse) {
        Some(Ok(u)) if is_web_url(&u) => {
            assessment.authority = authority_of(&u);
            if u.path() != "/robots.txt" {
                assessment.problems.push(format!(
                    "The sidecar's `url` asks for `{}`, not `/robots.txt`. Crawlers only look for \
                     the file at the top of the host (RFC 9309 §2.3), so what was fetched there \
                     says nothing about the rules crawlers apply.",
                    u.path()
                ));
            }
            Some(u)
        }
        Some(Ok(u)) => {
            assessment.problems.push(format!(
                "The sidecar's `url` ({u}) is not an http or https URL with a host name. The host \
                 name shown comes from the file name, and no authority is bound to the rules."
            ));
            None
        }
        Some(Err(e)) => {
            assessment.problems.push(format!(
                "The sidecar's `url` does not parse as a URL ({e}). The host name shown comes \
                 from the file name."
            ));
            None
        }
        None => None,
    }
}

/// The redirect chain, each location resolved against the URL before it.
fn redirect_chain(first_url: Option<url::Url>, sidecar: &Sidecar) -> Vec<Hop> {
    // Locations met so far, for loops: a set, since a sidecar may list tens of thousands of
    // hops.
    let mut seen: rustc_hash::FxHashSet<String> = first_url.iter().map(|u| u.to_string()).collect();
    let mut prev = first_url;
    let mut hops = Vec::with_capacity(sidecar.redirects.len());
    for r in &sidecar.redirects {
        let raw = r.location.clone().unwrap_or_default();
        let resolved = match &prev {
            Some(p) => p.join(&raw).ok(),
            None => url::Url::parse(&raw).ok(),
        };
        let location = resolved.as_ref().map_or(raw.clone(), |u| u.to_string());
        let repeats = !seen.insert(location.clone());
        hops.push(Hop {
            status: r.status,
            location,
            authority: resolved.as_ref().and_then(authority_of),
            repeats,
        });
        if resolved.is_some() {
            prev = resolved;
        }
    }
    hops
}

/// The outcome of the exchange, with the sentences that explain it. `has_copy` says whether a
/// cached copy is at hand (a `cached:` field and a `.txt` file holding it).
fn classify(
    assessment: &mut Assessment,
    sidecar: &Sidecar,
    has_file: bool,
    has_copy: bool,
) -> Outcome {
    let status = sidecar.status;
    let n_hops = assessment.hops.len();
    let hops_text = if n_hops == 0 {
        String::new()
    } else {
        format!(
            " after {n_hops} redirect{}",
            if n_hops == 1 { "" } else { "s" }
        )
    };
    let explanation = &mut assessment.explanation;
    if n_hops > REDIRECT_HOPS {
        // More than five hops: the crawler gave up before the last answer, whatever it was.
        let last = match (&assessment.error, status) {
            (Some(e), _) => format!("a network error ({e})"),
            (None, Some(st)) => format!("status {st}"),
            (None, None) => "no recorded answer".to_string(),
        };
        explanation.push(format!(
            "The request was redirected {n_hops} times, more than five. RFC 9309 §2.3.1.2 asks \
             crawlers to follow at least five consecutive redirects and lets them treat the file \
             as unavailable after more; Google follows at least five hops, then treats the file \
             as a 404. This report applies that in both readings: the file is unavailable and a \
             crawler may fetch anything. What the chain finally led to ({last}) is not used."
        ));
        Outcome::TooManyRedirects
    } else if let Some(err) = &assessment.error {
        explanation.push(format!(
            "No HTTP answer arrived{hops_text} (network error: {err}). RFC 9309 §2.3.1.4 counts \
             network errors like server errors: the file is unreachable."
        ));
        Outcome::Unreachable
    } else if status == Some(NOT_MODIFIED) {
        let answered = format!("The server answered 304 (Not Modified){hops_text}");
        let copy_fetched_at = sidecar
            .cached
            .as_ref()
            .and_then(|c| c.fetched_at.as_deref());
        let copy = has_copy.then_some(copy_fetched_at);
        classify_not_modified(assessment, &answered, copy, has_file)
    } else if let Some(st) = status {
        let answered = format!("The server answered {st}{hops_text}");
        classify_status(st, &answered, n_hops, has_file, explanation)
    } else {
        explanation.push(
            "The sidecar records neither a status nor an error, so the outcome is unknown.".into(),
        );
        Outcome::Incomplete
    }
}

/// The outcome of a final 304 (Not Modified), which RFC 9309 does not cover: successful when a
/// cached copy is at hand for it to confirm (`copy`: `Some`, with the copy's `fetched_at` as
/// written), incomplete otherwise, with a problem saying so. `answered` is the start of the
/// sentence that explains it (`The server answered 304 (Not Modified) after 1 redirect`).
fn classify_not_modified(
    assessment: &mut Assessment,
    answered: &str,
    copy: Option<Option<&str>>,
    has_file: bool,
) -> Outcome {
    const NOT_A_REDIRECT: &str = "A 304 is not a redirect: it answers a conditional request \
        (one that names the copy the crawler holds) and carries no file of its own (RFC 9110 \
        §15.4.5).";
    let explanation = &mut assessment.explanation;
    if let Some(fetched_at) = copy {
        let when = fetched_at.map_or_else(String::new, |t| format!(", fetched at {}", t.trim()));
        explanation.push(format!(
            "{answered}: the copy the crawler already holds is still current, so the file in \
             force is the cached copy (the file shown below{when})."
        ));
        explanation.push(format!(
            "{NOT_A_REDIRECT} RFC 9309 does not name 304; its §2.4 lets crawlers use standard HTTP \
             cache control (RFC 9111), under which a 304 keeps the stored copy in use, so a \
             crawler follows the rules of the cached copy as it would those of a successful \
             fetch (§2.3.1.1). Google's page says its crawlers fetch robots.txt with a \
             non-conditional GET, so Google itself is not answered 304; this report assumes \
             such a request would have received the same file, the cached copy."
        ));
        explanation.push(
            "The cache age counts from this 304, when the copy was last confirmed: RFC 9309 §2.4 \
             does not say which time counts, and HTTP caching (RFC 9111 §4.3.4) freshens a \
             stored copy that a 304 confirms."
                .into(),
        );
        return Outcome::Successful;
    }
    explanation.push(format!(
        "{answered}: it says that a copy the crawler already holds is still current, but \
         this record keeps no such copy, so the rules in force are not known."
    ));
    explanation.push(format!(
        "{NOT_A_REDIRECT} RFC 9309 does not name 304. This report assumes a crawler that asked \
         conditionally follows the copy it holds, as the standard HTTP cache control that RFC \
         9309 §2.4 allows (RFC 9111) has it: in the RFC 9309 reading the rules in force are that \
         copy's, which is not recorded, so the effect is unknown. Google's page says its \
         crawlers fetch robots.txt with a non-conditional GET, which a server should not answer \
         with 304, and does not say what Google does with one; this report assumes Google would \
         receive the file the 304 vouches for, which is not recorded either, so the effect is \
         unknown in Google's reading too."
    ));
    assessment.problems.push(if has_file {
        "The server answered 304 (Not Modified), but the sidecar does not say that the .txt file \
         is a cached copy (no `cached:` field). A 304 carries no body, so the .txt file cannot be \
         this answer's; if it is the copy the 304 confirms, add `cached:` with its `fetched_at` \
         to the sidecar."
            .into()
    } else {
        "The server answered 304 (Not Modified), but the record keeps no cached copy for it to \
         confirm, so the rules in force are unknown. A 304 only makes sense beside the copy the \
         crawler asked about: keep that copy (in a sidecar, a .txt file and a `cached:` field \
         with its `fetched_at`)."
            .into()
    });
    Outcome::Incomplete
}

/// The outcome of a final HTTP status `st`; `answered` is the start of the sentence that
/// explains it (`The server answered 404 after 1 redirect`).
fn classify_status(
    st: u16,
    answered: &str,
    n_hops: usize,
    has_file: bool,
    explanation: &mut Vec<String>,
) -> Outcome {
    match status_outcome(st) {
        Some(Outcome::Successful) if !has_file => {
            explanation.push(format!(
                "{answered}, but no .txt file holds the body that came with it, so the record is \
                 incomplete: the rules a crawler would follow are unknown."
            ));
            Outcome::Incomplete
        }
        Some(Outcome::Successful) => {
            explanation.push(format!(
                "{answered}: the file was fetched successfully, and a crawler must follow the \
                 rules it can parse from it (RFC 9309 §2.3.1.1). Google does the same."
            ));
            Outcome::Successful
        }
        Some(Outcome::Unavailable) if st == 429 => {
            explanation.push(format!(
                "{answered} (Too Many Requests). For RFC 9309 every 4xx status makes the file \
                 unavailable (§2.3.1.3): a crawler may fetch anything. Google's robots.txt page \
                 leaves 429 out of its rule that a 4xx means no robots.txt, but does not say how \
                 it handles it; this report assumes Google treats it like a server error, as if \
                 the file were unreachable."
            ));
            Outcome::Unavailable
        }
        Some(Outcome::Unavailable) => {
            explanation.push(format!(
                "{answered}: the file is unavailable (RFC 9309 §2.3.1.3), and a crawler may fetch \
                 anything on this host, as if there were no robots.txt. Google does the same for \
                 every 4xx status except 429."
            ));
            if st == 401 || st == 403 {
                explanation.push(
                    "Google advises against 401 and 403 for limiting the crawl rate: 4xx statuses \
                     other than 429 do not change the crawl rate, and they lift every robots.txt \
                     restriction."
                        .into(),
                );
            }
            Outcome::Unavailable
        }
        Some(Outcome::Unreachable) => {
            explanation.push(format!(
                "{answered}: the file is unreachable (RFC 9309 §2.3.1.4), and a crawler must \
                 assume complete disallow."
            ));
            Outcome::Unreachable
        }
        _ if (300..=399).contains(&st) && n_hops >= REDIRECT_HOPS => {
            explanation.push(format!(
                "{answered}, and the last answer was still a redirect. RFC 9309 §2.3.1.2 asks \
                 crawlers to follow at least five consecutive redirects and lets them treat the \
                 file as unavailable after more than five. Google follows at least five hops, \
                 then treats the file as a 404."
            ));
            Outcome::TooManyRedirects
        }
        _ if (300..=399).contains(&st) => {
            explanation.push(format!(
                "{answered}: the record ends with a redirect, before the five hops a crawler \
                 should follow (RFC 9309 §2.3.1.2), so it does not show what a crawler would end \
                 up with."
            ));
            Outcome::Incomplete
        }
        _ => {
            explanation.push(format!(
                "{answered}, a status outside 2xx–5xx that RFC 9309 does not cover."
            ));
            Outcome::Incomplete
        }
    }
}

/// The effect of the outcome in each reading, and the sentences on what an unreachable file
/// means. `google_429` says the answer was a 429, which the Google reading takes as a server
/// error.
fn decide_effects(assessment: &mut Assessment, google_429: bool, has_file: bool, has_copy: bool) {
    let outcome = assessment.outcome;
    let unreachable_google = outcome == Outcome::Unreachable || google_429;
    assessment.effect_rfc = match outcome {
        Outcome::Successful if assessment.not_modified() => Effect::FollowCachedCopy,
        Outcome::Successful | Outcome::NotRecorded if has_file => Effect::FollowFile,
        Outcome::Successful | Outcome::NotRecorded | Outcome::Incomplete => Effect::Unknown,
        Outcome::Unavailable | Outcome::TooManyRedirects => Effect::AllowAll,
        Outcome::Unreachable if has_copy => Effect::FollowCachedCopy,
        Outcome::Unreachable => Effect::DisallowAll,
    };
    // Google right after the attempt: a server error first pauses crawling for 12 hours; what
    // follows depends on how long the errors last, which one attempt cannot show. A 429 is handled
    // the same way here by assumption: Google's page excludes 429 from its 4xx rule without saying
    // what it does instead.
    assessment.effect_google = if unreachable_google {
        Effect::DisallowAll
    } else {
        assessment.effect_rfc
    };
    let explanation = &mut assessment.explanation;
    if unreachable_google {
        let copy = if has_copy {
            "the last good copy (here, the cached copy)"
        } else {
            "its last good copy; with none, as here, it assumes there are no restrictions"
        };
        explanation.push(format!(
            "Google: for the first 12 hours after a server error it stops crawling the site and \
             keeps retrying the file. If the errors go on, it then uses {copy} for up to 30 \
             days. After that it behaves as if there were no robots.txt when the rest of the site \
             is available, and keeps away when it is not. The report shows the first 12 hours: \
             a single recorded attempt does not show how long the errors lasted."
        ));
    }
    if outcome == Outcome::Unreachable {
        explanation.push(if has_copy {
            "A cached copy from an earlier fetch is kept (the file shown below). RFC 9309 §2.4 \
             lets a crawler go on using a cached copy beyond 24 hours while the file is \
             unreachable; without it, the crawler would have to assume complete disallow."
                .into()
        } else {
            "No cached copy is kept, so under RFC 9309 nothing may be fetched until the file can \
             be reached again. After a long time (the RFC's example is 30 days) a crawler may \
             instead treat the file as unavailable."
                .into()
        });
    }
}

/// For a file fetched successfully: the sentences on the authority its rules bind to, when the
/// chain ended elsewhere, and on a media type other than text/plain.
fn explain_served_file(assessment: &mut Assessment, sidecar: &Sidecar) {
    if assessment.outcome != Outcome::Successful {
        return;
    }
    if assessment.served_elsewhere()
        && let (Some(first), Some(last)) = (&assessment.authority, assessment.hops.last())
    {
        assessment.explanation.push(format!(
            "The file came from {}, but its rules apply to {first}, the authority first asked \
             (RFC 9309 §2.3.1.2), not to the host that served it.",
            last.authority.as_deref().unwrap_or(&last.location)
        ));
    }
    if let Some(ct) = &sidecar.content_type {
        let mime = ct
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if mime != "text/plain" && !mime.is_empty() {
            assessment.explanation.push(format!(
                "The answer was labelled `{ct}`, not text/plain as RFC 9309 §2.3 asks. Google \
                 documents that it parses the body anyway and keeps only the valid lines; the \
                 rest is ignored."
            ));
        }
    }
}

/// The two times a sidecar may give, parsed.
struct FetchTimes {
    /// `fetched_at`: when this attempt was made.
    attempt_at: Option<OffsetDateTime>,
    /// `cached.fetched_at`: when the cached copy was fetched.
    cached_at: Option<OffsetDateTime>,
}

impl FetchTimes {
    /// Parses both times, recording the ones that do not parse in `problems`.
    fn read(sidecar: &Sidecar, problems: &mut Vec<String>) -> FetchTimes {
        let mut parse = |field: &str, value: Option<&str>| match value.map(parse_time) {
            Some(Ok(t)) => Some(t),
            Some(Err(e)) => {
                problems.push(format!("{field}: {e}"));
                None
            }
            None => None,
        };
        let attempt_at = parse("fetched_at", sidecar.fetched_at.as_deref());
        let cached_at = parse(
            "cached.fetched_at",
            sidecar
                .cached
                .as_ref()
                .and_then(|c| c.fetched_at.as_deref()),
        );
        FetchTimes {
            attempt_at,
            cached_at,
        }
    }

    /// Records, in `problems`, the times after the report's time `now`.
    fn check_against(&self, now: OffsetDateTime, problems: &mut Vec<String>) {
        for (field, t) in [
            ("fetched_at", self.attempt_at),
            ("cached.fetched_at", self.cached_at),
        ] {
            if let Some(t) = t
                && t > now
            {
                problems.push(format!(
                    "`{field}` ({}) is in the future: {} after the report's time ({}). The cache \
                     age cannot be judged; check the clock of the machine that recorded it, or \
                     --now.",
                    format_time(t),
                    duration((t - now).whole_seconds(), Units::Words),
                    format_time(now)
                ));
            }
        }
    }

    /// The cache age of the rules in use at `now`: the cached copy's when the Google or the
    /// RFC 9309 reading falls back on it, counted from the 304 when one confirmed it, the
    /// file's when it was fetched successfully. `None`
    /// without a time, or with one after `now` (see [`FetchTimes::check_against`]).
    fn age_of_rules_in_use(
        &self,
        assessment: &Assessment,
        google_429: bool,
        has_file: bool,
        has_copy: bool,
        now: OffsetDateTime,
    ) -> Option<CacheAge> {
        let copy_time = if assessment.outcome == Outcome::Unreachable || google_429 {
            if has_copy {
                self.cached_at.map(|t| (true, t))
            } else {
                None
            }
        } else if assessment.confirms_cached_copy() {
            // The copy's age counts from the 304 that confirmed it (RFC 9111 §4.3.4).
            return self.attempt_at.filter(|t| *t <= now).map(|t| CacheAge {
                revalidated: true,
                ..CacheAge::at(true, t, now)
            });
        } else if has_file && assessment.outcome == Outcome::Successful {
            self.attempt_at.map(|t| (false, t))
        } else {
            None
        };
        copy_time
            .filter(|(_, t)| *t <= now)
            .map(|(cached_copy, t)| CacheAge::at(cached_copy, t, now))
    }
}

/// A sentence about a cache age against RFC 9309 §2.4's 24 hours, at `now`.
pub fn cache_sentence(c: &CacheAge, now: OffsetDateTime, outcome: Outcome) -> String {
    let fetched = OffsetDateTime::from_unix_timestamp(c.fetched_at)
        .map(format_time)
        .unwrap_or_default();
    let what = if c.cached_copy {
        "The cached copy in use"
    } else {
        "The file"
    };
    if c.revalidated {
        return revalidated_sentence(c, &fetched, now);
    }
    if c.seconds < 0 {
        return format!(
            "{what} was fetched at {fetched}, in the future: {} after the report's time ({}); \
             the cache age cannot be judged.",
            duration(c.seconds, Units::Words),
            format_time(now)
        );
    }
    let age = duration(c.seconds, Units::Words);
    let base = format!(
        "{what} was fetched at {fetched}; at the report's time ({}) it is {age} old.",
        format_time(now)
    );
    if c.within_bound {
        format!(
            "{base} That is within the 24 hours for which RFC 9309 §2.4 lets a crawler rely on a \
             cached copy."
        )
    } else if c.cached_copy && outcome != Outcome::Unreachable {
        // Only a 429 gives a cached copy outside "unreachable": the Google reading's assumption.
        format!(
            "{base} That is beyond the 24 hours of RFC 9309 §2.4. Under RFC 9309 this answer makes \
             the file unavailable, so no copy is needed; the copy is used only in the Google \
             reading, which this report assumes handles 429 like a server error (Google's page \
             does not say how it handles 429)."
        )
    } else if outcome == Outcome::Unreachable || c.cached_copy {
        format!(
            "{base} That is beyond the 24 hours of RFC 9309 §2.4, which allows it only because the \
             file is unreachable now. Google keeps using its last good copy for up to 30 days in \
             that case."
        )
    } else {
        format!(
            "{base} That is beyond the 24 hours of RFC 9309 §2.4: a crawler should fetch the file \
             again rather than go on using a copy this old."
        )
    }
}

/// [`cache_sentence`] for a cached copy a 304 (Not Modified) confirmed at `confirmed`.
fn revalidated_sentence(c: &CacheAge, confirmed: &str, now: OffsetDateTime) -> String {
    if c.seconds < 0 {
        return format!(
            "The cached copy in use was confirmed by a 304 at {confirmed}, in the future: {} after \
             the report's time ({}); the cache age cannot be judged.",
            duration(c.seconds, Units::Words),
            format_time(now)
        );
    }
    let base = format!(
        "The cached copy in use was confirmed as current by a 304 (Not Modified) at {confirmed}; \
         at the report's time ({}) that confirmation is {} old.",
        format_time(now),
        duration(c.seconds, Units::Words)
    );
    if c.within_bound {
        format!(
            "{base} That is within the 24 hours for which RFC 9309 §2.4 lets a crawler rely on a \
             cached copy."
        )
    } else {
        format!(
            "{base} That is beyond the 24 hours of RFC 9309 §2.4: a crawler should ask for the \
             file again rather than go on using this copy."
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn sc(yaml: &str) -> Sidecar {
        Sidecar::parse(yaml).unwrap()
    }

    const NOW: OffsetDateTime = datetime!(2026-10-21 09:00 UTC);

    #[test]
    fn success_follows_the_file_and_ages_the_cache() {
        let a = assess(
            Some(&sc(
                "url: https://a.example/robots.txt\nstatus: 200\nfetched_at: 2026-10-20T08:00:00Z\n",
            )),
            true,
            NOW,
        );
        assert_eq!(a.outcome, Outcome::Successful);
        assert_eq!(a.effect_rfc, Effect::FollowFile);
        assert_eq!(a.effect_google, Effect::FollowFile);
        assert_eq!(a.authority.as_deref(), Some("https://a.example"));
        let c = a.cache.unwrap();
        assert_eq!(c.seconds, 25 * 3600);
        assert!(!c.within_bound);
        assert!(cache_sentence(&c, NOW, a.outcome).contains("25 hours old"));
    }

    #[test]
    fn not_found_and_rate_limited() {
        let a = assess(
            Some(&sc("status: 404\nfetched_at: 2026-10-20T08:00:00Z\n")),
            false,
            NOW,
        );
        assert_eq!(a.outcome, Outcome::Unavailable);
        assert_eq!(
            (a.effect_rfc, a.effect_google),
            (Effect::AllowAll, Effect::AllowAll)
        );
        // 429: RFC unavailable; Google assumed (not documented) to pause as after a server error.
        let a = assess(
            Some(&sc("status: 429\nfetched_at: 2026-10-21T08:00:00Z\n")),
            false,
            NOW,
        );
        assert_eq!(a.outcome, Outcome::Unavailable);
        assert_eq!(a.effect_rfc, Effect::AllowAll);
        assert_eq!(a.effect_google, Effect::DisallowAll);
    }

    #[test]
    fn outage_without_copy_and_with_a_stale_copy() {
        let a = assess(
            Some(&sc("status: 503\nfetched_at: 2026-10-21T09:00:00Z\n")),
            false,
            NOW,
        );
        assert_eq!(a.outcome, Outcome::Unreachable);
        assert_eq!(
            (a.effect_rfc, a.effect_google),
            (Effect::DisallowAll, Effect::DisallowAll)
        );
        assert!(a.cache.is_none());
        let a = assess(
            Some(&sc(
                "status: 503\nfetched_at: 2026-10-21T09:00:00Z\ncached:\n  fetched_at: 2026-10-20T08:00:00Z\n  status: 200\n",
            )),
            true,
            NOW,
        );
        assert_eq!(a.effect_rfc, Effect::FollowCachedCopy);
        assert_eq!(
            a.effect_google,
            Effect::DisallowAll,
            "Google's 12-hour pause"
        );
        let c = a.cache.unwrap();
        assert!(c.cached_copy);
        assert_eq!(c.seconds, 25 * 3600);
        assert!(!c.within_bound);
    }

    #[test]
    fn redirects_bind_to_the_first_authority() {
        let moved = "url: https://moved.example/robots.txt\nstatus: 200\nfetched_at: 2026-10-20T08:00:00Z\nredirects:\n\
  - {status: 301, location: https://www.moved.example/robots.txt}\n\
  - {status: 302, location: /en/robots.txt}\n\
  - {status: 307, location: https://static.moved.example/robots.txt}\n\
  - {status: 308, location: https://moved-cdn.example/static/robots.txt}\n\
  - {status: 301, location: https://rules.moved-cdn.example/robots.txt}\n";
        let a = assess(Some(&sc(moved)), true, NOW);
        assert_eq!(a.outcome, Outcome::Successful);
        assert_eq!(a.hops.len(), 5);
        assert_eq!(
            a.hops[1].location,
            "https://www.moved.example/en/robots.txt"
        );
        assert_eq!(
            a.hops[4].authority.as_deref(),
            Some("https://rules.moved-cdn.example")
        );
        assert!(
            a.explanation
                .iter()
                .any(|e| e.contains("apply to https://moved.example"))
        );

        let mut lp =
            String::from("url: https://loop.example/robots.txt\nstatus: 301\nredirects:\n");
        for i in 0..6 {
            let host = if i % 2 == 0 {
                "www.loop.example"
            } else {
                "loop.example"
            };
            lp.push_str(&format!(
                "  - {{status: 301, location: https://{host}/robots.txt}}\n"
            ));
        }
        let a = assess(Some(&sc(&lp)), false, NOW);
        assert_eq!(a.outcome, Outcome::TooManyRedirects);
        assert_eq!(
            (a.effect_rfc, a.effect_google),
            (Effect::AllowAll, Effect::AllowAll)
        );
        assert!(a.hops[1].repeats && a.hops[2].repeats && !a.hops[0].repeats);
    }

    fn chain(hops: usize, last: &str) -> String {
        let mut y = format!("url: https://a.example/robots.txt\n{last}\nredirects:\n");
        for i in 0..hops {
            y.push_str(&format!(
                "  - {{status: 301, location: https://a.example/r{i}/robots.txt}}\n"
            ));
        }
        y
    }

    #[test]
    fn more_than_five_redirects_are_unavailable_whatever_the_end() {
        for hops in [6, 100] {
            for last in [
                "status: 200",
                "status: 503",
                "status: 404",
                "error: timeout",
            ] {
                let a = assess(Some(&sc(&chain(hops, last))), true, NOW);
                assert_eq!(a.outcome, Outcome::TooManyRedirects, "{hops} {last}");
                assert_eq!(
                    (a.effect_rfc, a.effect_google),
                    (Effect::AllowAll, Effect::AllowAll),
                    "{hops} {last}"
                );
                assert!(a.cache.is_none());
                assert!(a.explanation[0].contains(&format!("redirected {hops} times")));
            }
        }
        // Five hops then 200 is within what crawlers follow.
        let a = assess(Some(&sc(&chain(5, "status: 200"))), true, NOW);
        assert_eq!(a.outcome, Outcome::Successful);
        assert_eq!(a.effect_google, Effect::FollowFile);
        // Five hops then still a redirect is a sixth redirect.
        let a = assess(Some(&sc(&chain(5, "status: 301"))), false, NOW);
        assert_eq!(a.outcome, Outcome::TooManyRedirects);
    }

    #[test]
    fn sidecar_warnings() {
        // A time after the report's: a problem, and no cache age.
        let a = assess(
            Some(&sc(
                "url: https://a.example/robots.txt\nstatus: 200\nfetched_at: 2026-10-22T09:00:00Z\n",
            )),
            true,
            NOW,
        );
        assert!(a.cache.is_none());
        assert!(a.problems.iter().any(|p| {
            p.contains("`fetched_at` (2026-10-22T09:00:00Z) is in the future: 24 hours after")
        }));
        // Not an http(s) URL, or not /robots.txt.
        for url in [
            "ftp://a.example/robots.txt",
            "mailto:x@a.example",
            "file:///robots.txt",
        ] {
            let a = assess(Some(&sc(&format!("url: {url}\nstatus: 404\n"))), false, NOW);
            assert!(a.authority.is_none(), "{url}");
            assert!(
                a.problems
                    .iter()
                    .any(|p| p.contains("not an http or https URL")),
                "{url}"
            );
        }
        let a = assess(
            Some(&sc("url: https://a.example/en/robots.txt\nstatus: 404\n")),
            false,
            NOW,
        );
        assert!(
            a.problems
                .iter()
                .any(|p| p.contains("`/en/robots.txt`, not `/robots.txt`"))
        );
        let a = assess(
            Some(&sc("url: https://a.example/robots.txt\nstatus: 404\n")),
            false,
            NOW,
        );
        assert!(a.problems.is_empty(), "{:?}", a.problems);
        // Both error and status: the error is used, and the page says so.
        let a = assess(Some(&sc("status: 200\nerror: timeout\n")), true, NOW);
        assert_eq!(a.outcome, Outcome::Unreachable);
        assert!(a.problems.iter().any(|p| p.contains("The error was used")));
        // 2xx without a body: incomplete, not successful.
        let a = assess(Some(&sc("status: 200\n")), false, NOW);
        assert_eq!(a.outcome, Outcome::Incomplete);
        assert_eq!(
            (a.effect_rfc, a.effect_google),
            (Effect::Unknown, Effect::Unknown)
        );
        assert!(a.explanation[0].contains("no .txt file holds the body"));
    }

    #[test]
    fn not_modified_confirms_the_cached_copy() {
        let nm = "url: https://nm.example/robots.txt\nstatus: 304\nfetched_at: 2026-10-21T08:00:00Z\n\
                  cached:\n  fetched_at: 2026-10-18T08:00:00Z\n  status: 200\n";
        let a = assess(Some(&sc(nm)), true, NOW);
        assert_eq!(a.outcome, Outcome::Successful);
        assert_eq!(a.status, Some(304));
        assert!(a.not_modified() && a.confirms_cached_copy());
        assert_eq!(
            (a.effect_rfc, a.effect_google),
            (Effect::FollowCachedCopy, Effect::FollowCachedCopy)
        );
        assert!(a.problems.is_empty(), "{:?}", a.problems);
        assert!(a.explanation[0].starts_with(
            "The server answered 304 (Not Modified): the copy the crawler already holds is still \
             current, so the file in force is the cached copy (the file shown below, fetched at \
             2026-10-18T08:00:00Z)."
        ));
        assert!(a.explanation[1].starts_with("A 304 is not a redirect"));
        assert!(
            a.explanation
                .iter()
                .all(|e| !e.contains("ends with a redirect"))
        );
        // The cache age counts from the 304 (an hour), not from the copy's fetch (three days).
        let c = a.cache.unwrap();
        assert!(c.cached_copy && c.revalidated && c.within_bound);
        assert_eq!(c.seconds, 3600);
        let sentence = cache_sentence(&c, NOW, a.outcome);
        assert!(
            sentence.starts_with(
                "The cached copy in use was confirmed as current by a 304 (Not Modified) at \
                 2026-10-21T08:00:00Z; at the report's time (2026-10-21T09:00:00Z) that \
                 confirmation is 1 hour old. That is within the 24 hours"
            ),
            "{sentence}"
        );
        // A 304 at the end of five redirects is the answer, not a sixth redirect.
        let a = assess(
            Some(&sc(&format!(
                "{}cached:\n  status: 200\n",
                chain(5, "status: 304")
            ))),
            true,
            NOW,
        );
        assert_eq!(a.outcome, Outcome::Successful);
        assert_eq!(a.effect_google, Effect::FollowCachedCopy);
        // With an error beside it, the error is used.
        let a = assess(
            Some(&sc("status: 304\nerror: timeout\ncached:\n  status: 200\n")),
            true,
            NOW,
        );
        assert_eq!(a.outcome, Outcome::Unreachable);
        assert!(!a.not_modified());
    }

    #[test]
    fn not_modified_without_a_copy_is_a_problem_not_a_redirect() {
        // No copy at all; a .txt file without `cached:`; `cached:` without a .txt file.
        for (yaml, has_file, problem) in [
            (
                "status: 304\nfetched_at: 2026-10-21T08:00:00Z\n",
                false,
                "the record keeps no cached copy for it to confirm",
            ),
            (
                "status: 304\nfetched_at: 2026-10-21T08:00:00Z\n",
                true,
                "does not say that the .txt file is a cached copy (no `cached:` field)",
            ),
            (
                "status: 304\ncached:\n  fetched_at: 2026-10-20T08:00:00Z\n",
                false,
                "the record keeps no cached copy for it to confirm",
            ),
        ] {
            let a = assess(Some(&sc(yaml)), has_file, NOW);
            assert_eq!(a.outcome, Outcome::Incomplete, "{yaml}");
            assert!(a.not_modified() && !a.confirms_cached_copy(), "{yaml}");
            assert_eq!(
                (a.effect_rfc, a.effect_google),
                (Effect::Unknown, Effect::Unknown),
                "{yaml}"
            );
            assert!(a.cache.is_none(), "{yaml}");
            assert!(
                a.problems.iter().any(|p| p.contains(problem)),
                "{yaml}: {:?}",
                a.problems
            );
            let all = a.explanation.join(" ");
            assert!(all.contains("A 304 is not a redirect"), "{yaml}");
            assert!(!all.contains("ends with a redirect"), "{yaml}");
            assert!(
                all.contains("RFC 9309 does not name 304")
                    && all.contains("non-conditional GET")
                    && all.contains("unknown in Google's reading too"),
                "{yaml}: {all}"
            );
        }
    }

    #[test]
    fn network_error_is_unreachable() {
        let a = assess(
            Some(&sc("error: timeout\nfetched_at: 2026-10-20T08:00:00Z\n")),
            false,
            NOW,
        );
        assert_eq!(a.outcome, Outcome::Unreachable);
        assert_eq!(a.effect_rfc, Effect::DisallowAll);
        assert_eq!(a.effect_google, Effect::DisallowAll);
    }
}
