//! Reading the YAML sidecar beside a robots.txt file (see
//! [`robots_explorer_engine::fetch::sidecar`] for its fields and parsing).

pub use crate::fetch::sidecar::{Sidecar, check_yaml_shape, format_time, parse_time};

/// Largest sidecar read, in bytes; larger files are reported as errors.
pub const MAX_SIDECAR_BYTES: u64 = 1024 * 1024;

/// Reads and parses the sidecar at `path` (at most [`MAX_SIDECAR_BYTES`]).
///
/// # Errors
/// A message for an I/O error, a file that is too large, text that is not UTF-8, or
/// YAML that does not parse.
pub fn read(path: &std::path::Path) -> Result<Sidecar, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if meta.len() > MAX_SIDECAR_BYTES {
        return Err(format!(
            "sidecar is {} bytes; at most {MAX_SIDECAR_BYTES} are read",
            meta.len()
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let text = String::from_utf8(bytes).map_err(|_| "sidecar is not UTF-8".to_string())?;
    Sidecar::parse(&text)
}
