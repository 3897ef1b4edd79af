//! `save -ascii` and `load` of plain numeric text: rows of numbers separated by spaces, tabs
//! or commas, `%` comments, every row as long as the first.

use crate::display::cformat::format_e;
use crate::interp::error::{MError, MResult};
use crate::values::tensor::Tensor;
use crate::values::value::Value;

/// The text `save -ascii` writes for one array (8 significant digits, or 17 with `-double`;
/// tabs between columns with `-tabs`). None for a value that is not numeric, logical or char.
pub fn text(v: &Value, double: bool, tabs: bool) -> MResult<Option<String>> {
    if !v.is_numeric_like() {
        return Ok(None);
    }
    let t = v.tensor()?;
    let (prec, width) = if double { (16, 26) } else { (7, 16) };
    let rows = t.shape.rows();
    let cols = if rows == 0 { 0 } else { t.numel() / rows };
    let mut out = String::new();
    // Ctrl-C is looked at every so many elements (3e6 of them are a second of formatting)
    let mut tick = crate::interp::interrupt::Ticker::new();
    for r in 0..rows {
        for c in 0..cols {
            tick.add(64);
            let x = t.get_f64(r + c * rows);
            let s = format_e(x, prec, false);
            if tabs {
                out.push('\t');
                out.push_str(&s);
            } else {
                out.push_str(&format!("{s:>width$}"));
            }
        }
        out.push('\n');
    }
    Ok(Some(out))
}

/// Parses numeric text into a double matrix, as `load` of a text file does.
pub fn parse(text: &str, file: &str) -> MResult<Tensor> {
    let mut rows: Vec<Vec<f64>> = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.split('%').next().unwrap_or("");
        let mut row = Vec::new();
        for word in line
            .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
            .filter(|w| !w.is_empty())
        {
            row.push(number(word).ok_or_else(|| {
                MError::new(
                    "MATLAB:load:unknownText",
                    format!(
                        "Unable to read file '{file}'. Input must be a MAT-file or an ASCII file containing numeric data with same number of columns in each row (unknown text '{word}' on line {}).",
                        k + 1
                    ),
                )
            })?);
        }
        if row.is_empty() {
            continue;
        }
        if let Some(first) = rows.first() {
            if first.len() != row.len() {
                return Err(MError::new(
                    "MATLAB:load:numColumnsNotSame",
                    format!(
                        "Number of columns on line {} of ASCII file {file} must be the same as previous lines.",
                        k + 1
                    ),
                ));
            }
        }
        rows.push(row);
    }
    let (m, n) = (rows.len(), rows.first().map_or(0, |r| r.len()));
    let mut data = vec![0.0; m * n];
    for (i, row) in rows.iter().enumerate() {
        for (j, &x) in row.iter().enumerate() {
            data[i + j * m] = x;
        }
    }
    let shape = if m == 0 {
        crate::values::shape::Shape::empty()
    } else {
        crate::values::shape::Shape::matrix(m, n)
    };
    Ok(Tensor::f64(shape, data))
}

fn number(w: &str) -> Option<f64> {
    match w.to_ascii_lowercase().as_str() {
        "nan" | "+nan" | "-nan" => Some(f64::NAN),
        "inf" | "+inf" => Some(f64::INFINITY),
        "-inf" => Some(f64::NEG_INFINITY),
        _ => w.replace(['d', 'D'], "e").parse().ok(),
    }
}

/// The variable `load` of a text file makes: the file's name without folder and extension,
/// made a valid name (a leading non-letter gets an `X`, other characters become `_`).
pub fn variable_name(path: &str) -> String {
    let stem = std::path::Path::new(path)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut name: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name.insert(0, 'X');
    }
    name.truncate(63);
    name
}
