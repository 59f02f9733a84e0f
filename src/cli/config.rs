//! `robots-explorer.toml`: settings for `lint`, found upward from the working directory (or
//! given with `--config PATH`), as ruff finds `ruff.toml`.
//!
//! ```toml
//! select = ["error", "warning", "redundant-rule"]   # names or severities; default: all
//! ignore = ["html-body"]                            # names or severities
//! min-severity = "warning"                          # error | warning | info
//! reading = "google"                                # google | rfc
//! fail-on = "error"                                 # error | warning | info | never
//! format = "text"                                   # any `lint --format`
//! include = ["**/robots*.txt"]                      # walk globs, as `--include`
//! exclude = ["vendor"]                              # as `--exclude`
//!
//! [per-path-ignores]                                # like ruff's per-file-ignores
//! "staging/**" = ["blocks-everything"]
//! "legacy/*.txt" = ["warning"]
//! ```
//!
//! Every key is optional and unknown keys are refused, so a misspelt setting cannot pass
//! silently. The globs of `per-path-ignores` are matched against each linted file's path
//! relative to the folder holding the configuration file (a glob without `/` also against the
//! file name); `include` and `exclude` against paths relative to each directory walked, as the
//! flags are. Flags given on the command line win over the file: `--select` replaces `select`,
//! `--ignore` adds to `ignore`, and the others replace their setting.

use super::lint::MinSeverity;
use crate::output::{FailOn, Format};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The name of the configuration file.
pub const FILE_NAME: &str = "robots-explorer.toml";

/// The settings of a configuration file; see the module documentation.
#[derive(Debug, Default, Clone, serde::Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Config {
    /// Diagnostic names or severities to report (default: all).
    pub select: Option<Vec<String>>,
    /// Diagnostic names or severities never to report.
    #[serde(default)]
    pub ignore: Vec<String>,
    /// The lowest severity reported.
    pub min_severity: Option<MinSeverity>,
    /// `google` or `rfc`.
    pub reading: Option<String>,
    /// The lowest severity that makes the run exit with status 1.
    pub fail_on: Option<FailOn>,
    /// The output format.
    pub format: Option<Format>,
    /// Walk globs that replace the default file names.
    #[serde(default)]
    pub include: Vec<String>,
    /// Walk globs of files and folders to skip.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// Glob (relative to the file's folder) → names or severities not reported for the files
    /// it matches.
    #[serde(default)]
    pub per_path_ignores: BTreeMap<String, Vec<String>>,
    /// The folder holding the file (the base of `per-path-ignores`); not a setting.
    #[serde(skip)]
    pub dir: PathBuf,
}

/// The first `robots-explorer.toml` in `start` or a folder above it.
pub fn find(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .map(|d| d.join(FILE_NAME))
        .find(|p| p.is_file())
}

/// Reads and checks a configuration file.
///
/// # Errors
/// A message naming the file and what is wrong (I/O, TOML syntax with its line and column, an
/// unknown key or a value of the wrong kind).
pub fn load(path: &Path) -> Result<Config, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: {}", path.display(), super::inputs::describe_io(&e)))?;
    let mut c: Config = toml::from_str(&text).map_err(|e| {
        format!(
            "{}: {}",
            path.display(),
            e.to_string().trim_end().replace('\n', "\n  ")
        )
    })?;
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    c.dir = abs.parent().map(Path::to_path_buf).unwrap_or_default();
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_setting_and_refuses_unknown_keys() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(FILE_NAME);
        std::fs::write(
            &p,
            "select = [\"error\", \"redundant-rule\"]\nignore = [\"html-body\"]\n\
             min-severity = \"info\"\nreading = \"rfc\"\nfail-on = \"never\"\nformat = \"concise\"\n\
             exclude = [\"vendor\"]\n[per-path-ignores]\n\"staging/**\" = [\"blocks-everything\"]\n",
        )
        .unwrap();
        let c = load(&p).unwrap();
        assert_eq!(
            c.select,
            Some(vec!["error".to_string(), "redundant-rule".to_string()])
        );
        assert_eq!(c.min_severity, Some(MinSeverity::Info));
        assert_eq!(c.fail_on, Some(FailOn::Never));
        assert_eq!(c.format, Some(Format::Concise));
        assert_eq!(c.per_path_ignores["staging/**"], ["blocks-everything"]);
        assert_eq!(
            c.dir,
            std::path::absolute(dir.path()).unwrap(),
            "the base of per-path globs"
        );
        let sub = dir.path().join("a/b");
        std::fs::create_dir_all(&sub).unwrap();
        assert_eq!(find(&sub), Some(p.clone()));
        std::fs::write(&p, "selct = [\"error\"]\n").unwrap();
        let e = load(&p).unwrap_err();
        assert!(e.contains("selct"), "{e}");
    }
}
