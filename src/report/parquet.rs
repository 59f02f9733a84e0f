//! `hosts.parquet`: the table of `summary.csv` (one row per host) as Apache Parquet, for
//! DuckDB, pandas, Polars or Spark, written a row group of [`ROW_GROUP`] hosts at a time with
//! the `parquet` crate (arrow-rs).
//!
//! # Schema
//!
//! | column | type | null when |
//! |---|---|---|
//! | `host`, `outcome`, `effect`, `effect_rfc`, `effect_google` | string | never |
//! | `page`, `file`, `sidecar`, `file_uri`, `encoding`, `fetch_error`, `read_error`, `sidecar_error` | string | absent (`page`: left out by `--pages`) |
//! | `status` | int32 | no status recorded |
//! | `cache_age_seconds`, `bytes` | int64 | unknown |
//! | `lines`, `groups`, `rules`, `sitemaps`, `errors`, `warnings`, `infos` | int64 | never |
//! | `blocks_everything`, `readings_differ` | boolean | never |
//! | `root:<token>`, one per crawler of the matrix | boolean | unknown |
//! | `ai:<token>`, one per known AI crawler | string: `blocked`, `partly`, `open`, `unknown` | never |
//!
//! The meaning of each column is that of the same field in `hosts.jsonl` (see
//! [`super::summary`]); nested fields (paths, decisions, diagnostics) are only there.

use super::summary::HostRow;
use parquet::basic::{LogicalType, Repetition, Type as Physical};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, Int32Type, Int64Type};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;
use std::sync::Arc;

/// Hosts per row group: memory holds one row group's values (about 1 KB per host).
pub const ROW_GROUP: usize = 10_000;

/// One column's values for the row group being filled.
enum Values {
    /// Strings; `None` is null.
    Text(Vec<Option<String>>),
    /// Strings from a fixed set (outcomes, effects, access classes).
    Fixed(Vec<&'static str>),
    /// 32-bit integers.
    Int32(Vec<Option<i32>>),
    /// 64-bit integers.
    Int64(Vec<Option<i64>>),
    /// Booleans.
    Bool(Vec<Option<bool>>),
}

impl Values {
    fn clear(&mut self) {
        match self {
            Values::Text(v) => v.clear(),
            Values::Fixed(v) => v.clear(),
            Values::Int32(v) => v.clear(),
            Values::Int64(v) => v.clear(),
            Values::Bool(v) => v.clear(),
        }
    }
}

/// Definition levels of a column's values (1 present, 0 null), for a column that may be null.
fn levels<T>(v: &[Option<T>], nullable: bool) -> Option<Vec<i16>> {
    nullable.then(|| v.iter().map(|x| i16::from(x.is_some())).collect())
}

/// Writes a column of plain values (numbers, booleans) with its definition levels.
fn write_plain<T: parquet::data_type::DataType>(
    col: &mut parquet::file::writer::SerializedColumnWriter<'_>,
    v: &[Option<T::T>],
    nullable: bool,
) -> Result<(), ParquetError>
where
    T::T: Clone,
{
    let present: Vec<T::T> = v.iter().flatten().cloned().collect();
    col.typed::<T>()
        .write_batch(&present, levels(v, nullable).as_deref(), None)?;
    Ok(())
}

/// One value of a row, before it joins its column.
enum Cell {
    Text(Option<String>),
    Fixed(&'static str),
    Int32(Option<i32>),
    Int64(Option<i64>),
    Bool(Option<bool>),
}

/// A column: name, whether it may be null, and its values.
struct Column {
    name: String,
    nullable: bool,
    values: Values,
}

/// The `hosts.parquet` writer.
pub struct HostsParquet {
    writer: SerializedFileWriter<std::io::BufWriter<std::fs::File>>,
    columns: Vec<Column>,
    /// Crawlers of the matrix (one `root:` column each).
    crawlers: usize,
    rows: usize,
}

fn text(name: &str, nullable: bool) -> Column {
    Column {
        name: name.to_string(),
        nullable,
        values: Values::Text(Vec::new()),
    }
}

fn fixed(name: &str) -> Column {
    Column {
        name: name.to_string(),
        nullable: false,
        values: Values::Fixed(Vec::new()),
    }
}

fn int64(name: &str, nullable: bool) -> Column {
    Column {
        name: name.to_string(),
        nullable,
        values: Values::Int64(Vec::new()),
    }
}

fn boolean(name: &str, nullable: bool) -> Column {
    Column {
        name: name.to_string(),
        nullable,
        values: Values::Bool(Vec::new()),
    }
}

/// The columns of the schema, in order, for a matrix of `crawlers`.
fn columns(crawlers: &[String]) -> Vec<Column> {
    let mut c = vec![
        text("host", false),
        text("page", true),
        text("file", true),
        text("sidecar", true),
        text("file_uri", true),
        fixed("outcome"),
        Column {
            name: "status".to_string(),
            nullable: true,
            values: Values::Int32(Vec::new()),
        },
        text("fetch_error", true),
        fixed("effect"),
        fixed("effect_rfc"),
        fixed("effect_google"),
        int64("cache_age_seconds", true),
        int64("bytes", true),
        text("encoding", true),
        int64("lines", false),
        int64("groups", false),
        int64("rules", false),
        int64("sitemaps", false),
        int64("errors", false),
        int64("warnings", false),
        int64("infos", false),
        boolean("blocks_everything", false),
        boolean("readings_differ", false),
        text("read_error", true),
        text("sidecar_error", true),
    ];
    c.extend(crawlers.iter().map(|t| boolean(&format!("root:{t}"), true)));
    c.extend(
        crate::crawlers::known()
            .iter()
            .filter(|k| k.purpose.is_ai())
            .map(|k| fixed(&format!("ai:{}", k.token))),
    );
    c
}

impl HostsParquet {
    /// Starts `hosts.parquet` in `file` for a matrix of `crawlers`.
    ///
    /// # Errors
    /// Errors of the Parquet writer (the schema, the file).
    pub fn new(file: std::fs::File, crawlers: &[String]) -> Result<HostsParquet, ParquetError> {
        let columns = columns(crawlers);
        let fields = columns
            .iter()
            .map(|c| {
                let (physical, logical) = match c.values {
                    Values::Text(_) | Values::Fixed(_) => {
                        (Physical::BYTE_ARRAY, Some(LogicalType::String))
                    }
                    Values::Int32(_) => (Physical::INT32, None),
                    Values::Int64(_) => (Physical::INT64, None),
                    Values::Bool(_) => (Physical::BOOLEAN, None),
                };
                Type::primitive_type_builder(&c.name, physical)
                    .with_repetition(if c.nullable {
                        Repetition::OPTIONAL
                    } else {
                        Repetition::REQUIRED
                    })
                    .with_logical_type(logical)
                    .build()
                    .map(Arc::new)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let schema = Type::group_type_builder("host")
            .with_fields(fields)
            .build()?;
        let props = WriterProperties::builder()
            .set_created_by(format!("robots-explorer {}", env!("CARGO_PKG_VERSION")))
            .build();
        let writer = SerializedFileWriter::new(
            std::io::BufWriter::with_capacity(1 << 16, file),
            Arc::new(schema),
            Arc::new(props),
        )?;
        Ok(HostsParquet {
            writer,
            columns,
            crawlers: crawlers.len(),
            rows: 0,
        })
    }

    /// Adds one host's row, writing a row group when [`ROW_GROUP`] rows are waiting.
    ///
    /// # Errors
    /// Errors of the Parquet writer.
    pub fn push(&mut self, r: &HostRow) -> Result<(), ParquetError> {
        let n = |v: usize| Cell::Int64(Some(v as i64));
        // In schema order (see [`columns`]).
        let mut cells = vec![
            Cell::Text(Some(r.host.clone())),
            Cell::Text(r.page.clone()),
            Cell::Text(r.file.clone()),
            Cell::Text(r.sidecar.clone()),
            Cell::Text(r.file_uri.clone()),
            Cell::Fixed(r.outcome.as_str()),
            Cell::Int32(r.status.map(i32::from)),
            Cell::Text(r.fetch_error.clone()),
            Cell::Fixed(r.effect),
            Cell::Fixed(r.effect_rfc),
            Cell::Fixed(r.effect_google),
            Cell::Int64(r.cache_age_seconds),
            Cell::Int64(r.bytes.map(|b| i64::try_from(b).unwrap_or(i64::MAX))),
            Cell::Text(r.encoding.map(str::to_string)),
            n(r.lines),
            n(r.groups),
            n(r.rules),
            n(r.sitemaps),
            n(r.counts.error),
            n(r.counts.warning),
            n(r.counts.info),
            Cell::Bool(Some(r.blocks_everything)),
            Cell::Bool(Some(r.readings_differ)),
            Cell::Text(r.read_error.clone()),
            Cell::Text(r.sidecar_error.clone()),
        ];
        cells.extend((0..self.crawlers).map(|i| Cell::Bool(r.root_allowed(i))));
        cells.extend(r.ai_crawlers.iter().map(|a| Cell::Fixed(a.access.as_str())));
        if cells.len() != self.columns.len() {
            return Err(ParquetError::General(format!(
                "a row of {} values for {} columns",
                cells.len(),
                self.columns.len()
            )));
        }
        for (c, cell) in self.columns.iter_mut().zip(cells) {
            match (&mut c.values, cell) {
                (Values::Text(v), Cell::Text(x)) => v.push(x),
                (Values::Fixed(v), Cell::Fixed(x)) => v.push(x),
                (Values::Int32(v), Cell::Int32(x)) => v.push(x),
                (Values::Int64(v), Cell::Int64(x)) => v.push(x),
                (Values::Bool(v), Cell::Bool(x)) => v.push(x),
                _ => {
                    return Err(ParquetError::General(format!(
                        "column {} given a value of another type",
                        c.name
                    )));
                }
            }
        }
        self.rows += 1;
        if self.rows == ROW_GROUP {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes the waiting rows as a row group.
    fn flush(&mut self) -> Result<(), ParquetError> {
        if self.rows == 0 {
            return Ok(());
        }
        let mut group = self.writer.next_row_group()?;
        for c in &mut self.columns {
            let Some(mut col) = group.next_column()? else {
                break;
            };
            match &c.values {
                Values::Text(v) => {
                    let present: Vec<ByteArray> = v
                        .iter()
                        .flatten()
                        .map(|s| ByteArray::from(s.as_bytes().to_vec()))
                        .collect();
                    let levels = levels(v, c.nullable);
                    col.typed::<ByteArrayType>()
                        .write_batch(&present, levels.as_deref(), None)?;
                }
                Values::Fixed(v) => {
                    let all: Vec<ByteArray> = v
                        .iter()
                        .map(|s| ByteArray::from(s.as_bytes().to_vec()))
                        .collect();
                    col.typed::<ByteArrayType>().write_batch(&all, None, None)?;
                }
                Values::Int32(v) => write_plain::<Int32Type>(&mut col, v, c.nullable)?,
                Values::Int64(v) => write_plain::<Int64Type>(&mut col, v, c.nullable)?,
                Values::Bool(v) => write_plain::<BoolType>(&mut col, v, c.nullable)?,
            }
            col.close()?;
            c.values.clear();
        }
        group.close()?;
        self.rows = 0;
        Ok(())
    }

    /// Writes the last row group and the footer; returns the file's size in bytes.
    ///
    /// # Errors
    /// Errors of the Parquet writer.
    pub fn finish(mut self) -> Result<u64, ParquetError> {
        self.flush()?;
        let file = self.writer.into_inner()?;
        let file = file
            .into_inner()
            .map_err(|e| ParquetError::External(Box::new(e.into_error())))?;
        Ok(file.metadata().map_or(0, |m| m.len()))
    }
}
