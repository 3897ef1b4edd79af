//! Reading tables of numbers from delimited text files: readmatrix csvread dlmread readcell
//! importdata (the parsing lives in `io::delimited`; the writers are in delimited_write.rs).

use super::text_files::{name_values, not_found};
use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::io::delimited::{self as dl, Delim};
use crate::values::class::Class;
use crate::values::containers::{CellArray, StructArray};
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;
use std::rc::Rc;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("readmatrix", 1, -1, 1, "A = readmatrix(name, Name, Value): the numbers of a delimited text file (.csv .txt .dat) as a matrix; header lines are found, missing or text fields are NaN. Options: Delimiter, NumHeaderLines, Range, OutputType.", readmatrix),
        b("csvread", 1, 4, 1, "M = csvread(name, row, col, range): a comma-separated file of numbers, from zero-based row and column offsets; empty fields are 0.", csvread),
        b("dlmread", 1, 5, 1, "M = dlmread(name, delimiter, row, col, range): a delimited file of numbers from zero-based offsets; empty fields are 0.", dlmread),
        b("readcell", 1, -1, 1, "C = readcell(name, Name, Value): every field of a delimited text file in a cell array, numbers as doubles and text as char; empty fields are [] (MATLAB gives missing). Options: Delimiter, NumHeaderLines.", readcell),
        b("importdata", 1, 3, 3, "A = importdata(name, delimiter, nheaderlines): the numbers of a delimited text file; with header text, a struct with data, textdata and colheaders.", importdata),
    ]
}

fn read_text(name: &str) -> MResult<Vec<u8>> {
    if std::path::Path::new(name).is_dir() {
        return Err(not_found(name));
    }
    let b = std::fs::read(name).map_err(|_| not_found(name))?;
    let b = dl::strip_bom(&b).to_vec();
    Ok(b)
}

pub(super) fn delim_arg(v: &Value, fname: &str) -> MResult<Delim> {
    let t = text_arg(v, fname)?;
    Delim::from_name(&t).ok_or_else(|| bad_arg(fname, "The delimiter must not be empty."))
}

/// A spreadsheet-style range ('A1:C3', 'B2') or a numeric one ([r1 c1 r2 c2], [r c]), as
/// zero-based (first row, first column, last row, last column) with None for open ends.
type Range = (usize, usize, Option<usize>, Option<usize>);

fn cell_ref(s: &str) -> Option<(usize, usize)> {
    let s = s.trim().to_ascii_uppercase();
    let letters: String = s.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    let digits = &s[letters.len()..];
    if letters.is_empty() || digits.is_empty() || letters.len() > 3 {
        return None;
    }
    let col = letters
        .bytes()
        .fold(0usize, |acc, c| acc * 26 + (c - b'A' + 1) as usize);
    let row: usize = digits.parse().ok()?;
    (row >= 1).then_some((row - 1, col - 1))
}

fn range_arg(v: &Value, fname: &str, one_based: bool) -> MResult<Range> {
    let bad = || {
        MError::new(
            format!("MATLAB:{fname}:InvalidRange"),
            "The range must be like 'A1:C3', 'B2', [r c] or [r1 c1 r2 c2].",
        )
    };
    if v.is_text() {
        let t = text_arg(v, fname)?;
        let parts: Vec<&str> = t.split([':', '.']).filter(|p| !p.is_empty()).collect();
        return match parts.as_slice() {
            [a] => {
                let (r, c) = cell_ref(a).ok_or_else(bad)?;
                Ok((r, c, None, None))
            }
            [a, b] => {
                let (r1, c1) = cell_ref(a).ok_or_else(bad)?;
                let (r2, c2) = cell_ref(b).ok_or_else(bad)?;
                Ok((r1.min(r2), c1.min(c2), Some(r1.max(r2)), Some(c1.max(c2))))
            }
            _ => Err(bad()),
        };
    }
    let d = v.tensor()?.to_f64().into_owned();
    let base = if one_based { 1.0 } else { 0.0 };
    let idx = |x: f64| -> MResult<usize> {
        if x.is_finite() && x >= base && x.fract() == 0.0 {
            Ok((x - base) as usize)
        } else {
            Err(bad())
        }
    };
    match d.as_slice() {
        [r, c] => Ok((idx(*r)?, idx(*c)?, None, None)),
        [r1, c1, r2, c2] => {
            let (r1, c1, r2, c2) = (idx(*r1)?, idx(*c1)?, idx(*r2)?, idx(*c2)?);
            if r2 < r1 || c2 < c1 {
                return Err(bad());
            }
            Ok((r1, c1, Some(r2), Some(c2)))
        }
        _ => Err(bad()),
    }
}

/// The numbers of the file's lines `r0..` (every line counts, blank ones too) and columns
/// `c0..`, as a matrix; fields that are not numbers are `fill`.
fn block(text: &[u8], d: &Delim, range: Range, fill: f64, text_is_error: bool) -> MResult<Tensor> {
    let (r0, c0, r1, c1) = range;
    let mut fields = Vec::new();
    let mut rows: Vec<Vec<f64>> = Vec::new();
    let mut ncols = 0;
    for (k, l) in dl::lines(text).enumerate() {
        if k < r0 {
            continue;
        }
        if r1.is_some_and(|r1| k > r1) {
            break;
        }
        dl::split(l, d, &mut fields);
        let mut row = Vec::new();
        for (j, f) in fields.iter().enumerate().skip(c0) {
            if c1.is_some_and(|c1| j > c1) {
                break;
            }
            let v = match dl::number(f) {
                Some(v) => v,
                None if dl::trim(f).is_empty() => fill,
                None if text_is_error => {
                    return Err(MError::new(
                        "MATLAB:textscan:handleErrorAndShowInfo",
                        format!(
                            "Mismatch between file and format character vector.\nTrouble reading 'Numeric' field from file (row number {}, field number {}) ==> {}",
                            k + 1,
                            j + 1,
                            String::from_utf8_lossy(l)
                        ),
                    ));
                }
                None => fill,
            };
            row.push(v);
        }
        if text_is_error && row.is_empty() && dl::trim(l).is_empty() {
            continue;
        }
        ncols = ncols.max(row.len());
        rows.push(row);
    }
    if let (Some(c1), true) = (c1, !rows.is_empty()) {
        ncols = ncols.max(c1 + 1 - c0);
    }
    let m = rows.len();
    Ok(Tensor::f64(
        Shape::matrix(m, ncols),
        dl::column_major(&rows, ncols, fill),
    ))
}

fn readmatrix(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let name = text_arg(&a[0], "readmatrix")?;
    let mut delim = None;
    let mut header = None;
    let mut range = None;
    let mut class = Class::Double;
    for (n, v) in name_values(&a[1..], "readmatrix")? {
        match n.as_str() {
            "delimiter" => delim = Some(delim_arg(&v, "readmatrix")?),
            "numheaderlines" => {
                header = Some(super::count_arg(&v, "readmatrix", "NumHeaderLines")?)
            }
            "range" => range = Some(range_arg(&v, "readmatrix", true)?),
            "outputtype" => {
                let t = text_arg(&v, "readmatrix")?;
                class = Class::from_name(&t)
                    .filter(|c| *c != Class::Char)
                    .ok_or_else(|| {
                        bad_arg("readmatrix", format!("Unsupported OutputType '{t}'."))
                    })?;
            }
            "filetype" | "texttype" | "expectedncolumns" | "emptylinerule" | "encoding" => {}
            other => {
                return Err(MError::new(
                    "MATLAB:textio:io:UnknownOption",
                    format!("'{other}' is not a recognized parameter."),
                ));
            }
        }
    }
    let text = read_text(&name)?;
    let d = delim.unwrap_or_else(|| dl::detect(&text));
    let t = match range {
        Some(r) => block(&text, &d, r, f64::NAN, false)?,
        None => {
            let skip = header.unwrap_or_else(|| dl::detect_header(&text, &d));
            let (m, n, rows) = dl::numeric_rows(&text, &d, skip, f64::NAN);
            Tensor::f64(Shape::matrix(m, n), dl::column_major(&rows, n, f64::NAN))
        }
    };
    one(Value::from_tensor(if class == Class::Double {
        t
    } else {
        t.cast(class)
    }))
}

/// A zero-based offset argument.
pub(super) fn offset_arg(v: Option<&Value>, fname: &str) -> MResult<usize> {
    match v {
        None => Ok(0),
        Some(v) => {
            let x = v.scalar_f64()?;
            if !(x >= 0.0) || x.fract() != 0.0 || !x.is_finite() {
                return Err(bad_arg(
                    fname,
                    "Row and column offsets must be nonnegative integers.",
                ));
            }
            Ok(x as usize)
        }
    }
}

fn dlmread_with(name: &str, d: Option<Delim>, a: &[Value], fname: &str) -> R {
    // dlmread(name, delimiter, range): a range in place of the offsets
    if a.len() == 1 && (a[0].is_text() || a[0].numel() == 4) {
        let text = read_text(name)?;
        let d = d.unwrap_or_else(|| dl::detect(&text));
        let range = range_arg(&a[0], fname, false)?;
        return one(Value::from_tensor(block(&text, &d, range, 0.0, true)?));
    }
    let r0 = offset_arg(a.first(), fname)?;
    let c0 = offset_arg(a.get(1), fname)?;
    let range = match a.get(2) {
        Some(v) => range_arg(v, fname, false)?,
        None => (r0, c0, None, None),
    };
    let text = read_text(name)?;
    let d = d.unwrap_or_else(|| dl::detect(&text));
    one(Value::from_tensor(block(&text, &d, range, 0.0, true)?))
}

fn csvread(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let name = text_arg(&a[0], "csvread")?;
    dlmread_with(&name, Some(Delim::Byte(b',')), &a[1..], "csvread")
}

fn dlmread(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let name = text_arg(&a[0], "dlmread")?;
    let (d, rest) = match a.get(1) {
        Some(v) if v.is_text() => (Some(delim_arg(v, "dlmread")?), &a[2..]),
        _ => (None, &a[1..]),
    };
    dlmread_with(&name, d, rest, "dlmread")
}

/// Every field of the lines after `skip` as cells (numbers, text, [] for empty ones).
fn cells(text: &[u8], d: &Delim, skip: usize) -> CellArray {
    let mut fields = Vec::new();
    let mut rows: Vec<Vec<Value>> = Vec::new();
    let mut ncols = 0;
    for l in dl::lines(text).skip(skip) {
        if dl::trim(l).is_empty() {
            continue;
        }
        dl::split(l, d, &mut fields);
        let row: Vec<Value> = fields
            .iter()
            .map(|f| match dl::number(f) {
                Some(v) => Value::Num(v),
                None if dl::trim(f).is_empty() => Value::empty(),
                None => Value::str(&dl::field_text(f)),
            })
            .collect();
        ncols = ncols.max(row.len());
        rows.push(row);
    }
    let m = rows.len();
    let mut data = vec![Value::empty(); m * ncols];
    for (i, r) in rows.into_iter().enumerate() {
        for (j, v) in r.into_iter().enumerate() {
            data[j * m + i] = v;
        }
    }
    CellArray::new(Shape::matrix(m, ncols), data)
}

fn readcell(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let name = text_arg(&a[0], "readcell")?;
    let mut delim = None;
    let mut header = 0;
    for (n, v) in name_values(&a[1..], "readcell")? {
        match n.as_str() {
            "delimiter" => delim = Some(delim_arg(&v, "readcell")?),
            "numheaderlines" => header = super::count_arg(&v, "readcell", "NumHeaderLines")?,
            "filetype" | "texttype" | "emptylinerule" | "encoding" => {}
            other => {
                return Err(MError::new(
                    "MATLAB:textio:io:UnknownOption",
                    format!("'{other}' is not a recognized parameter."),
                ));
            }
        }
    }
    let text = read_text(&name)?;
    let d = delim.unwrap_or_else(|| dl::detect(&text));
    one(Value::Cell(Rc::new(cells(&text, &d, header))))
}

fn importdata(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let name = text_arg(&a[0], "importdata")?;
    let text = read_text(&name)?;
    let d = match a.get(1) {
        Some(v) => delim_arg(v, "importdata")?,
        None => dl::detect(&text),
    };
    let header = match a.get(2) {
        Some(v) => super::count_arg(v, "importdata", "The number of header lines")?,
        None => dl::detect_header(&text, &d),
    };
    // leading columns that hold text in every data row are row headers, not data
    let mut fields = Vec::new();
    let data_lines: Vec<&[u8]> = dl::lines(&text)
        .skip(header)
        .filter(|l| !dl::trim(l).is_empty())
        .collect();
    let mut text_cols = usize::MAX;
    let mut labels: Vec<Vec<String>> = Vec::new();
    for l in &data_lines {
        dl::split(l, &d, &mut fields);
        let k = fields
            .iter()
            .take_while(|f| dl::number(f).is_none() && !dl::trim(f).is_empty())
            .count();
        text_cols = text_cols.min(k);
        labels.push(fields.iter().map(|f| dl::field_text(f)).collect());
    }
    if data_lines.is_empty() {
        text_cols = 0;
    }
    let (m, n_all, rows) = dl::numeric_rows(&text, &d, header, f64::NAN);
    let n = n_all.saturating_sub(text_cols);
    let rows: Vec<Vec<f64>> = rows
        .into_iter()
        .map(|r| r.into_iter().skip(text_cols).collect())
        .collect();
    let data = Value::from_tensor(Tensor::f64(
        Shape::matrix(m, n),
        dl::column_major(&rows, n, f64::NAN),
    ));
    let delim_text = d.text();
    if header == 0 && text_cols == 0 {
        let mut out = vec![data, Value::str(&delim_text), Value::Num(0.0)];
        out.truncate(nargout.clamp(1, 3));
        return Ok(out);
    }
    let head: Vec<&[u8]> = dl::lines(&text).take(header).collect();
    let mut s = StructArray::scalar();
    s.set(0, "data", data);
    let mut colheaders = Vec::new();
    if let Some(last) = head.last() {
        dl::split(last, &d, &mut fields);
        colheaders = fields.iter().map(|f| dl::field_text(f)).collect::<Vec<_>>();
    }
    let width = colheaders.len().max(text_cols).max(1);
    // textdata: the header lines (the last split into fields), then the row headers
    let nrows = head.len() + if text_cols > 0 { labels.len() } else { 0 };
    let empty = Value::from_tensor(Tensor::new(
        Shape::matrix(0, 0),
        crate::values::tensor::Data::Char(vec![]),
    ));
    let mut td = vec![empty; nrows * width];
    for (r, l) in head.iter().enumerate() {
        if r + 1 == head.len() && colheaders.len() > 1 {
            for (j, c) in colheaders.iter().enumerate() {
                td[j * nrows + r] = Value::str(c);
            }
        } else {
            td[r] = Value::str(&String::from_utf8_lossy(l));
        }
    }
    if text_cols > 0 {
        for (i, row) in labels.iter().enumerate() {
            for (j, c) in row.iter().take(text_cols).enumerate() {
                td[j * nrows + head.len() + i] = Value::str(c);
            }
        }
    }
    let textdata = if nrows == 1 && colheaders.len() <= 1 {
        CellArray::new(Shape::matrix(1, 1), td.into_iter().take(1).collect())
    } else {
        CellArray::new(Shape::matrix(nrows, width), td)
    };
    s.set(0, "textdata", Value::Cell(Rc::new(textdata)));
    if colheaders.len() == n_all && n_all > 0 {
        let names: Vec<Value> = colheaders.iter().map(|c| Value::str(c)).collect();
        s.set(0, "colheaders", Value::Cell(Rc::new(CellArray::row(names))));
    }
    if text_cols == 1 {
        let names: Vec<Value> = labels
            .iter()
            .map(|r| Value::str(r.first().map_or("", |x| x)))
            .collect();
        s.set(0, "rowheaders", Value::Cell(Rc::new(CellArray::col(names))));
    }
    let mut out = vec![
        Value::Struct(Rc::new(s)),
        Value::str(&delim_text),
        Value::Num(header as f64),
    ];
    out.truncate(nargout.clamp(1, 3));
    Ok(out)
}
