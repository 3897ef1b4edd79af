//! Writing tables of numbers to delimited text files: writematrix csvwrite dlmwrite.

use super::delimited::{delim_arg, offset_arg};
use super::text_files::{name_values, write_file};
use super::{Builtin, b, bad_arg, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::io::delimited as dl;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("writematrix", 2, -1, 0, "writematrix(A, name, Name, Value): write a matrix (numeric, logical, char, string or cell) to a delimited text file, numbers with 15 significant digits. Options: Delimiter, WriteMode (overwrite, append).", writematrix),
        b("csvwrite", 2, 4, 0, "csvwrite(name, M, row, col): write a matrix separated by commas (5 significant digits).", csvwrite),
        b("dlmwrite", 2, -1, 0, "dlmwrite(name, M, delimiter, row, col), dlmwrite(name, M, '-append', Name, Value): write a matrix to a delimited file (delimiter, newline, roffset, coffset, precision).", dlmwrite),
    ]
}

/// The text of each element of a writable array, row by row: (rows, columns, fields).
fn fields_of(
    v: &Value,
    delim: &str,
    num: &dyn Fn(f64) -> String,
) -> MResult<(usize, usize, Vec<String>)> {
    let shape = v.shape();
    let m = shape.rows();
    let n = if m == 0 { 0 } else { shape.numel() / m };
    let at = |i: usize, j: usize| j * m + i;
    let mut out = Vec::with_capacity(m * n);
    match v {
        Value::Cell(c) => {
            for i in 0..m {
                for j in 0..n {
                    let e = &c.data[at(i, j)];
                    out.push(if e.is_text() || e.is_char() {
                        dl::quote_field(&e.text().unwrap_or_default(), delim)
                    } else if e.is_empty() {
                        String::new()
                    } else if e.is_numeric_like() && e.numel() == 1 {
                        let t = e.tensor()?;
                        if t.is_complex() {
                            return Err(bad_arg(
                                "writematrix",
                                "Complex cell elements are not supported.",
                            ));
                        }
                        num(t.get_f64(0))
                    } else {
                        return Err(bad_arg(
                            "writematrix",
                            "Cell elements must be scalars, text or empty.",
                        ));
                    });
                }
            }
        }
        Value::Str(s) => {
            for i in 0..m {
                for j in 0..n {
                    out.push(dl::quote_field(&s.data[at(i, j)], delim));
                }
            }
        }
        _ if v.is_char() => {
            // each row of a char matrix is one field
            let t = v.tensor()?;
            let codes = t.to_f64();
            let cols = shape.numel() / m.max(1);
            for i in 0..m {
                let row: String = (0..cols)
                    .map(|j| char::from_u32(codes[at(i, j)] as u32).unwrap_or('?'))
                    .collect();
                out.push(dl::quote_field(&row, delim));
            }
            return Ok((m, 1, out));
        }
        _ if v.is_numeric_like() => {
            let t = v.tensor()?;
            if t.is_complex() {
                let z = t.to_c64();
                for i in 0..m {
                    for j in 0..n {
                        let c = z[at(i, j)];
                        let sign = if c.im < 0.0 || (c.im == 0.0 && c.im.is_sign_negative()) {
                            "-"
                        } else {
                            "+"
                        };
                        out.push(format!("{}{sign}{}i", num(c.re), num(c.im.abs())));
                    }
                }
            } else {
                let x = t.to_f64();
                for i in 0..m {
                    for j in 0..n {
                        out.push(num(x[at(i, j)]));
                    }
                }
            }
        }
        other => {
            return Err(bad_arg(
                "writematrix",
                format!("Data of class {} cannot be written.", other.class_name()),
            ));
        }
    }
    Ok((m, n, out))
}

fn join_rows(m: usize, n: usize, fields: &[String], delim: &str, newline: &str) -> String {
    let mut s = String::with_capacity(fields.iter().map(|f| f.len() + 1).sum());
    for i in 0..m {
        crate::interp::interrupt::poll();
        for j in 0..n {
            if j > 0 {
                s.push_str(delim);
            }
            s.push_str(&fields[i * n + j]);
        }
        s.push_str(newline);
    }
    s
}

fn writematrix(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let value = a[0].clone().host()?;
    let name = text_arg(&a[1], "writematrix")?;
    let rest = &a[2..];
    let lower = name.to_lowercase();
    if [".xls", ".xlsx", ".xlsm", ".xlsb", ".ods"]
        .iter()
        .any(|e| lower.ends_with(e))
    {
        return Err(MError::new(
            "MATLAB:table:write:UnsupportedFileType",
            "Spreadsheet files are not supported here; write a .csv or .txt file.",
        ));
    }
    let mut delim = ",".to_string();
    let mut append = false;
    for (n, v) in name_values(rest, "writematrix")? {
        match n.as_str() {
            "delimiter" => {
                delim = delim_arg(&v, "writematrix")?.text();
            }
            "writemode" => {
                append = match text_arg(&v, "writematrix")?.to_lowercase().as_str() {
                    "append" => true,
                    "overwrite" | "inplace" | "overwritesheet" => false,
                    other => {
                        return Err(bad_arg(
                            "writematrix",
                            format!("Unsupported WriteMode '{other}'."),
                        ));
                    }
                }
            }
            "filetype" | "encoding" | "quotestrings" | "linebreak" => {}
            other => {
                return Err(MError::new(
                    "MATLAB:table:write:UnknownParameter",
                    format!("'{other}' is not a recognized parameter."),
                ));
            }
        }
    }
    let (m, n, fields) = fields_of(&value, &delim, &|x| dl::number_text(x, 15, true))?;
    let text = join_rows(m, n, &fields, &delim, "\n");
    write_file(&name, text.as_bytes(), append, "writematrix")?;
    Ok(vec![])
}

/// dlmwrite's precision: a number of significant digits or a C format.
fn precision_fn(p: Option<&Value>) -> MResult<Box<dyn Fn(f64) -> String>> {
    match p {
        None => Ok(Box::new(|x| dl::number_text_g(x, 5))),
        Some(v) if v.is_text() => {
            let f = text_arg(v, "dlmwrite")?;
            if !f.contains('%') {
                return Err(bad_arg(
                    "dlmwrite",
                    "The precision must be a number of digits or a format like '%.6f'.",
                ));
            }
            Ok(Box::new(move |x| {
                crate::display::printf::sprintf(&f, &[Value::Num(x)]).unwrap_or_default()
            }))
        }
        Some(v) => {
            let d = v.scalar_f64()?;
            if !(1.0..=100.0).contains(&d) {
                return Err(bad_arg(
                    "dlmwrite",
                    "The precision must be a positive number of digits.",
                ));
            }
            Ok(Box::new(move |x| dl::number_text_g(x, d as usize)))
        }
    }
}

fn write_delimited(
    name: &str,
    m: &Value,
    delim: &str,
    offsets: (usize, usize),
    append: bool,
    newline: &str,
    precision: Option<&Value>,
    fname: &str,
) -> MResult<()> {
    let value = m.clone().host()?;
    let num = precision_fn(precision)?;
    let (rows, cols, fields) = if value.is_char() {
        // dlmwrite writes a char array's characters as fields
        let t = value.tensor()?;
        let (r, c) = (t.shape.rows(), t.numel() / t.shape.rows().max(1));
        let codes = t.to_f64();
        let mut f = Vec::with_capacity(r * c);
        for i in 0..r {
            for j in 0..c {
                f.push(
                    char::from_u32(codes[j * r + i] as u32)
                        .unwrap_or('?')
                        .to_string(),
                );
            }
        }
        (r, c, f)
    } else if value.is_numeric_like() {
        fields_of(&value, delim, &*num)?
    } else {
        return Err(bad_arg(fname, "The data must be numeric or char."));
    };
    let (r0, c0) = offsets;
    let mut text = String::new();
    for _ in 0..r0 {
        text.push_str(&delim.repeat((cols + c0).saturating_sub(1)));
        text.push_str(newline);
    }
    let lead = delim.repeat(c0);
    for i in 0..rows {
        crate::interp::interrupt::poll();
        text.push_str(&lead);
        for j in 0..cols {
            if j > 0 {
                text.push_str(delim);
            }
            text.push_str(&fields[i * cols + j]);
        }
        text.push_str(newline);
    }
    write_file(name, text.as_bytes(), append, fname)
}

fn csvwrite(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let name = text_arg(&a[0], "csvwrite")?;
    let r0 = offset_arg(a.get(2), "csvwrite")?;
    let c0 = offset_arg(a.get(3), "csvwrite")?;
    write_delimited(&name, &a[1], ",", (r0, c0), false, "\n", None, "csvwrite")?;
    Ok(vec![])
}

fn dlmwrite(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let name = text_arg(&a[0], "dlmwrite")?;
    let mut delim = ",".to_string();
    let mut append = false;
    let mut offsets = (0, 0);
    let mut newline = "\n".to_string();
    let mut precision = None;
    let mut rest: Vec<Value> = a[2..].to_vec();
    // '-append' anywhere after the data
    if let Some(k) = rest
        .iter()
        .position(|v| v.is_text() && v.text().is_ok_and(|t| t == "-append"))
    {
        append = true;
        rest.remove(k);
    }
    let names = ["delimiter", "newline", "roffset", "coffset", "precision"];
    let is_name = |v: &Value| {
        v.is_text()
            && v.text()
                .is_ok_and(|t| names.contains(&t.to_lowercase().as_str()))
    };
    // positional: delimiter, row, col
    let mut k = 0;
    if rest.first().is_some_and(|v| v.is_text() && !is_name(v)) {
        delim = crate::display::printf::unescape(&text_arg(&rest[0], "dlmwrite")?);
        k = 1;
        if rest.len() >= k + 2 && !rest[k].is_text() {
            offsets = (
                offset_arg(rest.get(k), "dlmwrite")?,
                offset_arg(rest.get(k + 1), "dlmwrite")?,
            );
            k += 2;
        }
    }
    for (n, v) in name_values(&rest[k..], "dlmwrite")? {
        match n.as_str() {
            "delimiter" => delim = crate::display::printf::unescape(&text_arg(&v, "dlmwrite")?),
            "newline" => {
                newline = match text_arg(&v, "dlmwrite")?.to_lowercase().as_str() {
                    "pc" => "\r\n".into(),
                    "unix" => "\n".into(),
                    other => {
                        return Err(bad_arg("dlmwrite", format!("Unknown newline '{other}'.")));
                    }
                }
            }
            "roffset" => offsets.0 = offset_arg(Some(&v), "dlmwrite")?,
            "coffset" => offsets.1 = offset_arg(Some(&v), "dlmwrite")?,
            "precision" => precision = Some(v),
            other => return Err(bad_arg("dlmwrite", format!("Unknown attribute '{other}'."))),
        }
    }
    write_delimited(
        &name,
        &a[1],
        &delim,
        offsets,
        append,
        &newline,
        precision.as_ref(),
        "dlmwrite",
    )?;
    Ok(vec![])
}
