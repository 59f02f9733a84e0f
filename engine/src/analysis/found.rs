//! [`Found`]: the findings of one analysis as the checks push them, bounded per name.
//!
//! A hostile file can hold half a million lines that each deserve the same finding (a colon
//! with no field name, say). Listing them one by one costs memory and output in proportion and
//! tells the reader nothing new after the first few hundred. So at most [`PER_NAME`] findings
//! of one name (and reading tag) are kept one by one; the rest are counted and become one
//! summary finding of the same name, placed at the first one left out.

use super::Readings;
use super::diagnostic::Diagnostic;
use super::text::thousands;
use rustc_hash::FxHashMap as HashMap;

/// Findings of one name (and reading tag) kept one by one in a file.
pub(crate) const PER_NAME: usize = 1_000;

/// The findings left out for one name and reading tag.
#[derive(Debug)]
struct LeftOut {
    /// The first finding left out (where the summary goes).
    first: Diagnostic,
    /// How many were left out.
    count: usize,
    /// 1-based line of the last one left out.
    last_line: usize,
}

/// Findings as the checks push them; see the module documentation.
#[derive(Debug, Default)]
pub(crate) struct Found {
    list: Vec<Diagnostic>,
    kept: HashMap<(&'static str, Readings), usize>,
    left_out: Vec<((&'static str, Readings), LeftOut)>,
}

impl Found {
    /// Whether a finding of `name` with `readings` should still be built and pushed: while
    /// fewer than [`PER_NAME`] are kept, and once more for the summary; after that checks may
    /// skip building the message and call [`Found::count_left_out`].
    pub(crate) fn wants(&self, name: &'static str, readings: Readings) -> bool {
        // The first finding past the limit is still wanted: it becomes the summary's position.
        self.kept
            .get(&(name, readings))
            .is_none_or(|&n| n < PER_NAME)
            || !self.left_out.iter().any(|(k, _)| *k == (name, readings))
    }

    /// Adds a finding, or counts it when [`PER_NAME`] of its name and tag are kept already.
    pub(crate) fn push(&mut self, d: Diagnostic) {
        let key = (d.name, d.readings);
        let n = self.kept.entry(key).or_insert(0);
        if *n < PER_NAME {
            *n += 1;
            if self.list.capacity() == 0 {
                // Most files with a finding have several: room for them at once.
                self.list.reserve(16);
            }
            self.list.push(d);
            return;
        }
        match self.left_out.iter_mut().find(|(k, _)| *k == key) {
            Some((_, l)) => {
                l.count += 1;
                l.last_line = l.last_line.max(d.line);
            }
            None => {
                let last_line = d.line;
                self.left_out.push((
                    key,
                    LeftOut {
                        first: d,
                        count: 1,
                        last_line,
                    },
                ));
            }
        }
    }

    /// Counts a finding left out without building it (after [`Found::wants`] said no).
    pub(crate) fn count_left_out(&mut self, name: &'static str, readings: Readings, line: usize) {
        if let Some((_, l)) = self
            .left_out
            .iter_mut()
            .find(|(k, _)| *k == (name, readings))
        {
            l.count += 1;
            l.last_line = l.last_line.max(line);
        }
    }

    /// The findings read so far (kept ones only).
    #[cfg(test)]
    pub(crate) fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.list.iter()
    }

    /// The kept findings, then one summary per name and tag with findings left out.
    pub(crate) fn into_vec(self) -> Vec<Diagnostic> {
        let mut list = self.list;
        for ((name, _), l) in self.left_out {
            let mut d = l.first;
            d.message = format!(
                "{} more `{name}` findings like the {} above, on lines {}–{}, are not listed one \
by one",
                thousands(l.count),
                thousands(PER_NAME),
                d.line,
                l.last_line
            );
            d.suggestion = None;
            d.fix = None;
            list.push(d);
        }
        list
    }
}
