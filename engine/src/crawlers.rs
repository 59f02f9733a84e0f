//! Known crawlers: product tokens, operators and purposes, from `src/crawlers.yaml`
//! (kept in the repository and compiled into the binary).

use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// What a crawler fetches pages for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Purpose {
    /// A search engine's index.
    Search,
    /// Training data for AI models.
    AiTraining,
    /// Fetches on behalf of a user of an AI assistant.
    AiAssistant,
    /// An AI-based search or answer engine's index.
    AiSearch,
    /// SEO and marketing analysis.
    Seo,
    /// Web archiving.
    Archive,
    /// Link previews for social networks.
    Social,
    /// Uptime and performance monitoring.
    Monitoring,
    /// Anything else (ads quality, shopping, …).
    Other,
}

impl Purpose {
    /// Human label, e.g. `AI training`.
    pub fn label(self) -> &'static str {
        match self {
            Purpose::Search => "search",
            Purpose::AiTraining => "AI training",
            Purpose::AiAssistant => "AI assistant",
            Purpose::AiSearch => "AI search",
            Purpose::Seo => "SEO",
            Purpose::Archive => "archive",
            Purpose::Social => "social previews",
            Purpose::Monitoring => "monitoring",
            Purpose::Other => "other",
        }
    }
    /// Whether the purpose is one of the AI purposes.
    pub fn is_ai(self) -> bool {
        matches!(
            self,
            Purpose::AiTraining | Purpose::AiAssistant | Purpose::AiSearch
        )
    }
}

/// One known crawler.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crawler {
    /// The product token its operator documents for robots.txt, e.g. `GPTBot`.
    pub token: String,
    /// Display name.
    pub name: String,
    /// Who runs it.
    pub operator: String,
    /// What it fetches for.
    pub purpose: Purpose,
    /// `true`, `false` or `"unknown"`: whether the operator says it follows robots.txt.
    #[serde(default)]
    pub honours_robots: serde_json::Value,
    /// A short note.
    #[serde(default)]
    pub note: String,
    /// The operator's documentation page, if any.
    #[serde(default)]
    pub docs: Option<String>,
    /// Shown by default in decision matrices.
    #[serde(default)]
    pub default_matrix: bool,
    /// Product tokens the crawler obeys, in order, when no group names its own token, as its
    /// operator documents (Googlebot-Image → Googlebot).
    #[serde(default)]
    pub fallback_tokens: Vec<String>,
    /// Whether the crawler obeys the `*` group when no group names any of its tokens; `false`
    /// for crawlers whose operator says they ignore it (Google's special-case crawlers).
    #[serde(default = "yes")]
    pub obeys_global: bool,
}

fn yes() -> bool {
    true
}

impl Crawler {
    /// The crawler's product tokens in order of precedence: its own, then its fallbacks.
    pub fn tokens(&self) -> Vec<&str> {
        std::iter::once(self.token.as_str())
            .chain(self.fallback_tokens.iter().map(String::as_str))
            .collect()
    }

    /// How the crawler chooses its groups, borrowing `tokens` (from [`Crawler::tokens`]).
    pub fn profile<'a>(&self, tokens: &'a [&'a str]) -> crate::decide::Profile<'a> {
        crate::decide::Profile {
            tokens,
            obeys_global: self.obeys_global,
        }
    }

    /// A sentence on how the crawler chooses its groups when that differs from a plain product
    /// token, e.g. "Obeys the Googlebot group when no group names Googlebot-Image."
    pub fn profile_note(&self) -> Option<String> {
        let mut parts = Vec::new();
        if !self.fallback_tokens.is_empty() {
            parts.push(format!(
                "obeys the {} group when no group names {}",
                self.fallback_tokens.join(", then the "),
                self.token
            ));
        }
        if !self.obeys_global {
            parts.push("ignores the `*` group".to_string());
        }
        if parts.is_empty() {
            return None;
        }
        let s = parts.join("; it ");
        let mut c = s.chars();
        Some(
            c.next().map_or(String::new(), |f| {
                f.to_uppercase().collect::<String>() + c.as_str()
            }) + ".",
        )
    }
}

/// `src/crawlers.yaml` as JSON (converted by the build script).
const DATA: &str = include_str!(concat!(env!("OUT_DIR"), "/crawlers.json"));

/// All known crawlers, in file order.
pub fn known() -> &'static [Crawler] {
    static CELL: OnceLock<Vec<Crawler>> = OnceLock::new();
    CELL.get_or_init(|| serde_json::from_str(DATA).expect("src/crawlers.yaml is valid"))
}

/// The product tokens of [`known`] in ASCII lower case, in the same order (made once).
pub fn lowercase_tokens() -> &'static [String] {
    static CELL: OnceLock<Vec<String>> = OnceLock::new();
    CELL.get_or_init(|| {
        known()
            .iter()
            .map(|c| c.token.to_ascii_lowercase())
            .collect()
    })
}

/// The crawlers shown by default in decision matrices.
pub fn default_matrix() -> Vec<&'static Crawler> {
    known().iter().filter(|c| c.default_matrix).collect()
}

/// The known crawler named `name`: its product token or its display name (case-insensitive).
pub fn find_by_name(name: &str) -> Option<&'static Crawler> {
    find(name).or_else(|| known().iter().find(|c| c.name.eq_ignore_ascii_case(name)))
}

/// The known crawler with product token `token` (case-insensitive).
pub fn find(token: &str) -> Option<&'static Crawler> {
    // Token in ASCII lower case → the first crawler with it, made once: checks look tokens up
    // for every user-agent line.
    static BY_TOKEN: OnceLock<rustc_hash::FxHashMap<&[u8], usize>> = OnceLock::new();
    let by_token = BY_TOKEN.get_or_init(|| {
        let mut map = rustc_hash::FxHashMap::default();
        for (i, t) in lowercase_tokens().iter().enumerate() {
            map.entry(t.as_bytes()).or_insert(i);
        }
        map
    });
    // Looked up in lower case, copied onto the stack when short (every known token is).
    const SHORT: usize = 64;
    let i = if token.len() <= SHORT {
        let mut lower = [0u8; SHORT];
        let lower = &mut lower[..token.len()];
        lower.copy_from_slice(token.as_bytes());
        lower.make_ascii_lowercase();
        by_token.get(&*lower)
    } else {
        by_token.get(token.to_ascii_lowercase().as_bytes())
    };
    i.map(|&i| &known()[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_known_token_is_empty() {
        // `analysis::groups` searches values for every token at once; an empty one would
        // match everywhere.
        assert!(known().iter().all(|c| !c.token.trim().is_empty()));
    }
}
