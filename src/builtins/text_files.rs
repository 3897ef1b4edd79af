//! Text files as a whole: textscan (on a file identifier or a char vector), fileread,
//! readlines, writelines, type.

use super::file_io::{file, file_error};
use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::interp::output;
use crate::io::files::Encoding;
use crate::io::textscan::{self, Column, Kind, Options, Spec};
use crate::values::class::Class;
use crate::values::containers::{CellArray, StrArray};
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("textscan", 1, -1, 2, "C = textscan(fid or text, format, N, Name, Value): read fields into a cell row, one cell per conversion (%f %d %u %s %q %c %[..] %*s, literal text). Options: Delimiter, HeaderLines, CollectOutput, EndOfLine, MultipleDelimsAsOne, TreatAsEmpty, CommentStyle, Whitespace, EmptyValue, ReturnOnError.", textscan_fn),
        b("fileread", 1, 3, 1, "text = fileread(name), fileread(name, 'Encoding', enc): a file's contents as a char row.", fileread),
        b("readlines", 1, -1, 1, "S = readlines(name, Name, Value): a file's lines as a string column (EmptyLineRule, WhitespaceRule, LineEnding, Encoding).", readlines),
        b("writelines", 2, -1, 0, "writelines(lines, name, Name, Value): write text, one element per line (WriteMode overwrite or append, LineEnding).", writelines),
        b("type", 1, -1, 0, "type name: print the contents of a file (name, or name.m on the path).", type_fn),
    ]
}

/// Name-value pairs after the positional arguments (names lowercased).
pub fn name_values(a: &[Value], fname: &str) -> MResult<Vec<(String, Value)>> {
    if a.len() % 2 != 0 {
        return Err(MError::new(
            format!("MATLAB:{fname}:invalidNameValue"),
            "Name-value arguments must come in pairs.",
        ));
    }
    a.chunks(2)
        .map(|p| {
            let n = text_arg(&p[0], fname)?;
            Ok((n.to_lowercase(), p[1].clone()))
        })
        .collect()
}

/// Texts of a char row, string array or cell array of texts.
pub fn texts(v: &Value, fname: &str) -> MResult<Vec<String>> {
    match v {
        Value::Str(s) => Ok(s.data.clone()),
        Value::Cell(c) => c.data.iter().map(|x| text_arg(x, fname)).collect(),
        _ => Ok(vec![text_arg(v, fname)?]),
    }
}

/// The error of a file that cannot be read by the table readers and readlines.
pub fn not_found(name: &str) -> MError {
    MError::new(
        "MATLAB:textio:textio:FileNotFound",
        format!(
            "Unable to find or open '{name}'. Check the path and filename or file permissions."
        ),
    )
}

fn bytes_of(s: &str) -> Vec<u8> {
    crate::display::printf::unescape(s).into_bytes()
}

fn textscan_options(opts: &[(String, Value)]) -> MResult<(Options, bool)> {
    let mut o = Options::default();
    let mut collect = false;
    for (n, v) in opts {
        match n.as_str() {
            "delimiter" => {
                o.delimiters = texts(v, "textscan")?.iter().map(|s| bytes_of(s)).collect()
            }
            "headerlines" => o.header_lines = super::count_arg(v, "textscan", "HeaderLines")?,
            "collectoutput" => collect = v.truthy()?,
            "endofline" => {
                let t = bytes_of(&text_arg(v, "textscan")?);
                o.end_of_line = if t.is_empty() { vec![] } else { vec![t] };
            }
            "multipledelimsasone" => o.multiple_delims_as_one = v.truthy()?,
            "treatasempty" => {
                o.treat_as_empty = texts(v, "textscan")?
                    .into_iter()
                    .map(String::into_bytes)
                    .collect()
            }
            "commentstyle" => {
                let t = texts(v, "textscan")?;
                o.comment = match t.as_slice() {
                    [s] => Some((s.clone().into_bytes(), None)),
                    [s, e] => Some((s.clone().into_bytes(), Some(e.clone().into_bytes()))),
                    _ => return Err(bad_arg("textscan", "CommentStyle takes one or two texts.")),
                };
            }
            "whitespace" => o.whitespace = bytes_of(&text_arg(v, "textscan")?),
            "emptyvalue" => o.empty_value = v.scalar_f64()?,
            "returnonerror" => o.return_on_error = v.truthy()?,
            "bufsize" | "expchars" | "datetimelocale" | "texttype" => {}
            other => {
                return Err(MError::new(
                    "MATLAB:textscan:UnknownOption",
                    format!("'{other}' is not a recognized parameter."),
                ));
            }
        }
    }
    Ok((o, collect))
}

fn column_value(c: Column) -> Value {
    match c {
        Column::Num(class, v) => {
            let n = v.len();
            Value::from_tensor(Tensor::from_f64(class, Shape::col(n), v))
        }
        Column::Text(t) => {
            let n = t.len();
            Value::Cell(std::rc::Rc::new(CellArray::new(
                Shape::col(n),
                t.iter().map(|s| Value::str(s)).collect(),
            )))
        }
        Column::Chars(v) => {
            let n = v.len();
            Value::from_tensor(Tensor::new(Shape::col(n), Data::Char(v)))
        }
    }
}

/// CollectOutput: neighbouring columns of one class become one matrix (or one cell array).
fn collect_columns(cols: Vec<Column>) -> Vec<Value> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < cols.len() {
        let mut j = k + 1;
        let same = |a: &Column, b: &Column| match (a, b) {
            (Column::Num(x, _), Column::Num(y, _)) => x == y,
            (Column::Text(_), Column::Text(_)) => true,
            _ => false,
        };
        while j < cols.len() && same(&cols[k], &cols[j]) {
            j += 1;
        }
        let group = &cols[k..j];
        let rows = group
            .iter()
            .map(|c| match c {
                Column::Num(_, v) => v.len(),
                Column::Text(t) => t.len(),
                Column::Chars(v) => v.len(),
            })
            .max()
            .unwrap_or(0);
        if group.len() == 1 {
            out.push(column_value(group[0].clone()));
        } else {
            match &group[0] {
                Column::Num(class, _) => {
                    let mut all = Vec::with_capacity(rows * group.len());
                    for c in group {
                        if let Column::Num(_, v) = c {
                            all.extend_from_slice(v);
                            all.extend(std::iter::repeat_n(f64::NAN, rows - v.len()));
                        }
                    }
                    out.push(Value::from_tensor(Tensor::from_f64(
                        *class,
                        Shape::matrix(rows, group.len()),
                        all,
                    )));
                }
                _ => {
                    let mut all = Vec::with_capacity(rows * group.len());
                    for c in group {
                        if let Column::Text(t) = c {
                            all.extend(t.iter().map(|s| Value::str(s)));
                            all.extend(std::iter::repeat_n(Value::str(""), rows - t.len()));
                        }
                    }
                    out.push(Value::Cell(std::rc::Rc::new(CellArray::new(
                        Shape::matrix(rows, group.len()),
                        all,
                    ))));
                }
            }
        }
        k = j;
    }
    out
}

fn textscan_fn(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    // textscan(src), textscan(src, format), textscan(src, format, N), then name-value pairs
    let fmt = match a.get(1) {
        Some(v) if v.is_text() => text_arg(v, "textscan")?,
        Some(_) => {
            return Err(bad_arg(
                "textscan",
                "The format must be a character vector or string scalar.",
            ));
        }
        None => String::new(),
    };
    let mut rest = a.get(2..).unwrap_or(&[]);
    let mut repeat = None;
    if let Some(v) = rest.first() {
        if !v.is_text() {
            let n = v.scalar_f64()?;
            if n >= 0.0 && n.is_finite() {
                repeat = Some(n as usize);
            } else if !(n == -1.0 || n == f64::INFINITY) {
                return Err(bad_arg(
                    "textscan",
                    "N must be a nonnegative integer, -1 or Inf.",
                ));
            }
            rest = &rest[1..];
        }
    }
    let (opts, collect) = textscan_options(&name_values(rest, "textscan")?)?;
    let from_file = !a[0].is_char() && !a[0].is_string();
    let (bytes, enc) = if from_file {
        let f = file(i, &a[0])?;
        f.skip_bom();
        (f.rest().map_err(|m| file_error(f, m))?, f.encoding)
    } else {
        let t = text_arg(&a[0], "textscan")?;
        let t = t.strip_prefix('\u{feff}').unwrap_or(&t).to_string();
        (t.into_bytes(), Encoding::Utf8)
    };
    let bytes = if enc == Encoding::Utf8 {
        bytes
    } else {
        enc.decode_string(&bytes).into_bytes()
    };
    let specs: Vec<Spec> = if fmt.trim().is_empty() {
        let n = textscan::count_fields(&bytes, &opts);
        (0..n)
            .map(|_| Spec {
                kind: Kind::Num(Class::Double),
                skip: false,
                width: None,
            })
            .collect()
    } else {
        textscan::parse_format(&fmt)
            .map_err(|m| MError::new("MATLAB:textscan:BadFormatString", m))?
    };
    let r = textscan::scan(&bytes, &specs, &opts, repeat);
    if let Some(msg) = &r.failure {
        if !opts.return_on_error {
            return Err(MError::new(
                "MATLAB:textscan:handleErrorAndShowInfo",
                msg.clone(),
            ));
        }
    }
    if from_file {
        let f = file(i, &a[0])?;
        f.advance(r.used.min(bytes.len()), r.used >= bytes.len());
    }
    let cells = if collect {
        collect_columns(r.columns)
    } else {
        r.columns.into_iter().map(column_value).collect()
    };
    let mut out = vec![Value::Cell(std::rc::Rc::new(CellArray::row(cells)))];
    if nargout > 1 {
        let pos = if from_file {
            file(i, &a[0])?.tell() as f64
        } else {
            r.used as f64
        };
        out.push(Value::Num(pos));
    }
    Ok(out)
}

/// A whole file's bytes, or MATLAB's error naming it.
fn read_all(name: &str, fname: &str) -> MResult<Vec<u8>> {
    if std::path::Path::new(name).is_dir() {
        return Err(MError::new(
            format!("MATLAB:{fname}:cannotOpenFile"),
            format!("Could not open file {name}. Is a directory."),
        ));
    }
    std::fs::read(name).map_err(|e| {
        MError::new(
            format!("MATLAB:{fname}:cannotOpenFile"),
            format!(
                "Could not open file {name}. {}.",
                crate::io::files::os_message(&e)
            ),
        )
    })
}

fn encoding_option(opts: &[(String, Value)], fname: &str) -> MResult<Encoding> {
    let mut enc = Encoding::Utf8;
    for (n, v) in opts {
        if n == "encoding" {
            let t = text_arg(v, fname)?;
            enc = Encoding::from_name(&t)
                .ok_or_else(|| bad_arg(fname, format!("Unsupported encoding '{t}'.")))?;
        }
    }
    Ok(enc)
}

fn fileread(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let name = text_arg(&a[0], "fileread")?;
    let enc = encoding_option(&name_values(&a[1..], "fileread")?, "fileread")?;
    let bytes = read_all(&name, "fileread")?;
    let bytes = crate::io::delimited::strip_bom(&bytes);
    let chars = enc.decode(bytes);
    one(Value::from_tensor(Tensor::new(
        Shape::row(chars.len()),
        Data::Char(chars),
    )))
}

fn readlines(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let name = text_arg(&a[0], "readlines")?;
    let opts = name_values(&a[1..], "readlines")?;
    let enc = encoding_option(&opts, "readlines")?;
    let mut skip_empty = false;
    let mut ws_rule = "preserve".to_string();
    let mut ending: Option<Vec<String>> = None;
    for (n, v) in &opts {
        match n.as_str() {
            "emptylinerule" => {
                let t = text_arg(v, "readlines")?.to_lowercase();
                skip_empty = match t.as_str() {
                    "skip" => true,
                    "read" => false,
                    _ => {
                        return Err(bad_arg(
                            "readlines",
                            format!("Unsupported EmptyLineRule '{t}'."),
                        ));
                    }
                };
            }
            "whitespacerule" => ws_rule = text_arg(v, "readlines")?.to_lowercase(),
            "lineending" => {
                ending = Some(
                    texts(v, "readlines")?
                        .iter()
                        .map(|s| crate::display::printf::unescape(s))
                        .collect(),
                )
            }
            "encoding" => {}
            other => {
                return Err(bad_arg(
                    "readlines",
                    format!("'{other}' is not a recognized parameter."),
                ));
            }
        }
    }
    let bytes = std::fs::read(&name).map_err(|_| not_found(&name))?;
    let text = enc.decode_string(crate::io::delimited::strip_bom(&bytes));
    let mut lines: Vec<String> = match &ending {
        None => text
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string())
            .collect(),
        Some(ends) => {
            let mut v = vec![text.clone()];
            for e in ends.iter().filter(|e| !e.is_empty()) {
                v = v
                    .iter()
                    .flat_map(|s| s.split(e.as_str()))
                    .map(String::from)
                    .collect();
            }
            v
        }
    };
    // the line ending after the last line does not start another
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    for l in lines.iter_mut() {
        *l = match ws_rule.as_str() {
            "trim" => l.trim().to_string(),
            "trimleading" => l.trim_start().to_string(),
            "trimtrailing" => l.trim_end().to_string(),
            _ => std::mem::take(l),
        };
    }
    if skip_empty {
        lines.retain(|l| !l.is_empty());
    }
    let n = lines.len();
    one(Value::Str(std::rc::Rc::new(StrArray::new(
        Shape::col(n),
        lines,
    ))))
}

fn writelines(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let lines = texts(&a[0], "writelines")?;
    let name = text_arg(&a[1], "writelines")?;
    let mut append = false;
    let mut ending = "\n".to_string();
    for (n, v) in name_values(&a[2..], "writelines")? {
        match n.as_str() {
            "writemode" => {
                append = match text_arg(&v, "writelines")?.to_lowercase().as_str() {
                    "append" => true,
                    "overwrite" => false,
                    other => {
                        return Err(bad_arg(
                            "writelines",
                            format!("Unsupported WriteMode '{other}'."),
                        ));
                    }
                }
            }
            "lineending" => ending = crate::display::printf::unescape(&text_arg(&v, "writelines")?),
            "encoding" => {}
            other => {
                return Err(bad_arg(
                    "writelines",
                    format!("'{other}' is not a recognized parameter."),
                ));
            }
        }
    }
    let mut text = String::new();
    for l in &lines {
        text.push_str(l);
        text.push_str(&ending);
    }
    write_file(&name, text.as_bytes(), append, "writelines")?;
    Ok(vec![])
}

/// Writes (or appends) a whole file, with MATLAB's error when it cannot be written.
pub fn write_file(name: &str, bytes: &[u8], append: bool, fname: &str) -> MResult<()> {
    use std::io::Write;
    let mut o = std::fs::OpenOptions::new();
    o.create(true);
    if append {
        o.append(true);
    } else {
        o.write(true).truncate(true);
    }
    let r = o.open(name).and_then(|mut f| f.write_all(bytes));
    r.map_err(|e| {
        MError::new(
            format!("MATLAB:{fname}:FileOpenFailed"),
            format!(
                "Unable to open file '{name}' for writing. {}.",
                crate::io::files::os_message(&e)
            ),
        )
    })
}

fn type_fn(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let mut text = String::new();
    for v in &a {
        let name = text_arg(v, "type")?;
        let path = if std::path::Path::new(&name).is_file() {
            std::path::PathBuf::from(&name)
        } else if let Some(p) = i.find_file(&format!("{name}.m")) {
            p
        } else {
            return Err(MError::new(
                "MATLAB:type:fileNotFound",
                format!("File '{name}' not found."),
            ));
        };
        let bytes = std::fs::read(&path).map_err(|e| {
            MError::new(
                "MATLAB:type:fileNotFound",
                format!(
                    "Could not open file '{name}'. {}.",
                    crate::io::files::os_message(&e)
                ),
            )
        })?;
        text.push('\n');
        text.push_str(&String::from_utf8_lossy(&bytes));
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push('\n');
    }
    output::write_str(&text);
    Ok(vec![])
}
