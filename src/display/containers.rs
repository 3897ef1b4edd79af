//! Display of string arrays, cell arrays, structs and objects.

use super::Format;
use crate::values::class::Class;
use crate::values::containers::{CellArray, Object, StrArray, StructArray};
use crate::values::tensor::Tensor;
use crate::values::value::Value;

/// A number as it appears inside a cell or a struct field: short format, no padding.
pub fn short_number(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Inf".into() } else { "-Inf".into() };
    }
    let a = x.abs();
    if x.fract() == 0.0 && a < 1e9 {
        return format!("{}", x as i64);
    }
    if (0.001..1000.0).contains(&a) {
        format!("{x:.4}")
    } else {
        super::printf::format_e(x, 4, false)
    }
}

fn elem_text(t: &Tensor, i: usize) -> String {
    if t.is_complex() {
        return super::numeric::complex_text(t.get_c64(i));
    }
    match &t.data {
        crate::values::tensor::Data::I64(v) => v[i].to_string(),
        crate::values::tensor::Data::U64(v) => v[i].to_string(),
        _ => short_number(t.get_f64(i)),
    }
}

/// Numeric rows short enough to show inline, like `[1 2 3]`.
fn inline_row(t: &Tensor, sep: &str) -> Option<String> {
    if !(t.shape.is_row() && t.numel() >= 2 && t.numel() <= 20) || t.class() == Class::Char {
        return None;
    }
    let parts: Vec<String> = (0..t.numel()).map(|i| elem_text(t, i)).collect();
    let s = parts.join(sep);
    if s.len() <= 60 { Some(s) } else { None }
}

fn size_class(v: &Value) -> String {
    format!("{} {}", v.shape().size_text(), v.class_name())
}

/// How a value shows inside a cell: (text, is_number). Numbers go inside `[ ]`.
fn cell_content(v: &Value) -> (String, bool) {
    match v {
        Value::Num(x) => (short_number(*x), true),
        Value::Bool(b) => ((*b as u8).to_string(), true),
        Value::Tensor(t) => {
            if t.class() == Class::Char {
                if t.shape.rows() == 1 && t.shape.ndims() == 2 && t.numel() > 0 {
                    return (format!("'{}'", t.to_text().replace('\n', "↵")), false);
                }
                return (size_class(v), false);
            }
            if t.numel() == 1 {
                return (elem_text(t, 0), true);
            }
            if t.numel() > 0 {
                if let Some(s) = inline_row(t, " ") {
                    return (s, true);
                }
            }
            (size_class(v), false)
        }
        Value::Str(s) if s.data.len() == 1 => {
            (format!("\"{}\"", s.data[0].replace('\n', "↵")), true)
        }
        Value::Func(h) => (h.display_text(), false),
        Value::Object(o) => match o.as_ref() {
            Object::Time(t) if t.numel() == 1 => (crate::dates::display::element_text(t, 0), true),
            _ => (size_class(v), false),
        },
        _ => (size_class(v), false),
    }
}

/// Column-aligned rows of `{...}` entries (indented 4, separated by 4 spaces).
fn cell_rows(c: &CellArray) -> Vec<String> {
    let (rows, cols) = (c.shape.rows(), c.shape.cols());
    let contents: Vec<(String, bool)> = c.data.iter().map(cell_content).collect();
    let widths: Vec<usize> = (0..cols)
        .map(|j| {
            (0..rows)
                .map(|i| {
                    let (s, num) = &contents[i + j * rows];
                    s.chars().count() + if *num { 2 } else { 0 }
                })
                .max()
                .unwrap_or(0)
        })
        .collect();
    (0..rows)
        .map(|i| {
            let parts: Vec<String> = (0..cols)
                .map(|j| {
                    let (s, num) = &contents[i + j * rows];
                    let n = s.chars().count() + if *num { 2 } else { 0 };
                    let pad = " ".repeat(widths[j] - n);
                    if *num {
                        format!("{{[{pad}{s}]}}")
                    } else {
                        format!("{{{s}{pad}}}")
                    }
                })
                .collect();
            format!("    {}", parts.join("    "))
        })
        .collect()
}

pub fn cell_lines(c: &CellArray, fmt: &Format, _width: usize, named: bool) -> Vec<String> {
    if c.data.is_empty() {
        return vec![format!("  {} empty cell array", c.shape.size_text())];
    }
    let mut out = Vec::new();
    if named {
        out.push(format!("  {} cell array", c.shape.size_text()));
        if !fmt.compact {
            out.push(String::new());
        }
    }
    if c.shape.ndims() > 2 {
        let (r, cc) = (c.shape.rows(), c.shape.dim(1));
        let n = r * cc;
        for k in 0..c.data.len() / n.max(1) {
            let page = CellArray::new(
                crate::values::shape::Shape::matrix(r, cc),
                c.data[k * n..(k + 1) * n].to_vec(),
            );
            out.extend(cell_rows(&page));
            out.push(String::new());
        }
        out.pop();
        return out;
    }
    out.extend(cell_rows(c));
    out
}

pub fn string_lines(s: &StrArray, named: bool) -> Vec<String> {
    if s.data.is_empty() {
        return vec![format!("  {} empty string array", s.shape.size_text())];
    }
    if s.data.len() == 1 {
        return vec![format!("    \"{}\"", s.data[0])];
    }
    let mut out = Vec::new();
    if named {
        out.push(format!("  {} string array", s.shape.size_text()));
        out.push(String::new());
    }
    let (rows, cols) = (s.shape.rows(), s.shape.cols());
    let widths: Vec<usize> = (0..cols)
        .map(|j| {
            (0..rows)
                .map(|i| s.data[i + j * rows].chars().count() + 2)
                .max()
                .unwrap_or(0)
        })
        .collect();
    for i in 0..rows {
        let parts: Vec<String> = (0..cols)
            .map(|j| {
                let q = format!("\"{}\"", s.data[i + j * rows].replace('\n', "↵"));
                let n = q.chars().count();
                format!("{q}{}", " ".repeat(widths[j] - n))
            })
            .collect();
        out.push(format!("    {}", parts.join("    ").trim_end()));
    }
    out
}

/// A field value as struct display shows it.
pub fn field_text(v: &Value) -> String {
    if let Value::Device(_) | Value::DeviceComplex(_) = v {
        let dims: Vec<String> = v.shape().dims().iter().map(|x| x.to_string()).collect();
        return format!("[{} {}]", dims.join("×"), v.class_name());
    }
    match v {
        Value::Device(_) | Value::DeviceComplex(_) => String::new(),
        Value::Num(x) => short_number(*x),
        Value::Bool(b) => (*b as u8).to_string(),
        Value::Tensor(t) => {
            if t.class() == Class::Char {
                if t.numel() == 0 {
                    return "''".into();
                }
                if t.shape.rows() == 1 && t.shape.ndims() == 2 {
                    return format!("'{}'", t.to_text().replace('\n', "↵"));
                }
                return format!("[{}]", size_class(v));
            }
            if t.numel() == 0 && t.class() == Class::Double && t.shape.dims() == [0, 0] {
                return "[]".into();
            }
            if t.numel() == 1 {
                return elem_text(t, 0);
            }
            if let Some(s) = inline_row(t, " ") {
                return format!("[{s}]");
            }
            format!("[{}]", size_class(v))
        }
        Value::Str(s) if s.data.len() == 1 => format!("\"{}\"", s.data[0].replace('\n', "↵")),
        Value::Str(_) => format!("[{}]", size_class(v)),
        Value::Cell(c) => {
            if c.data.is_empty() {
                return "{}".into();
            }
            format!("{{{}}}", size_class(v))
        }
        Value::Struct(_) => format!("[{}]", size_class(v)),
        Value::Func(h) => h.display_text(),
        Value::Object(o) => match o.as_ref() {
            Object::Time(t) => crate::dates::display::brief(t),
            _ => format!("[1×1 {}]", o.class_name()),
        },
    }
}

fn field_block(names: &[String], values: &[String]) -> Vec<String> {
    let w = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    names
        .iter()
        .zip(values)
        .map(|(n, v)| format!("    {}{n}: {v}", " ".repeat(w - n.chars().count())))
        .collect()
}

pub fn struct_lines(s: &StructArray, fmt: &Format, named: bool) -> Vec<String> {
    let mut out = Vec::new();
    let blank = !fmt.compact;
    if s.numel() == 1 {
        if s.fields.is_empty() {
            out.push("  struct with no fields.".into());
            return out;
        }
        if named {
            out.push("  struct with fields:".into());
            if blank {
                out.push(String::new());
            }
        }
        let vals: Vec<String> = s.elems[0].iter().map(field_text).collect();
        out.extend(field_block(&s.fields, &vals));
        return out;
    }
    let empty = if s.numel() == 0 { " empty" } else { "" };
    if s.fields.is_empty() {
        out.push(format!(
            "  {}{empty} struct array with no fields.",
            s.shape.size_text()
        ));
        return out;
    }
    out.push(format!(
        "  {}{empty} struct array with fields:",
        s.shape.size_text()
    ));
    if blank {
        out.push(String::new());
    }
    for f in &s.fields {
        out.push(format!("    {f}"));
    }
    out
}

pub fn object_lines(o: &Object, fmt: &Format) -> Vec<String> {
    let mut out = Vec::new();
    let graphics_title;
    let (title, names, vals): (&str, Vec<String>, Vec<String>) = match o {
        Object::Graphics(h) => {
            let (t, names, vals) = crate::graphics::handle::display_parts(h);
            if names.is_empty() {
                out.push(t);
                return out;
            }
            graphics_title = t;
            (graphics_title.as_str(), names, vals)
        }
        Object::Map(m) => {
            let m = m.borrow();
            (
                "  Map with properties:",
                vec!["Count".into(), "KeyType".into(), "ValueType".into()],
                vec![
                    crate::interp::objects::count(&m).to_string(),
                    m.key_type.clone(),
                    m.value_type.clone(),
                ],
            )
        }
        Object::InputParser(p) => {
            let p = p.borrow();
            let names = crate::builtins::input_parser::PROPERTIES;
            let vals = names
                .iter()
                .map(|n| {
                    let v =
                        crate::builtins::input_parser::property(&p, n).unwrap_or_else(Value::empty);
                    match &v {
                        Value::Bool(b) => (*b as u8).to_string(),
                        Value::Struct(_) => "[1×1 struct]".to_string(),
                        Value::Cell(c) => format!("{{{}×{} cell}}", c.shape.rows(), c.shape.cols()),
                        v => format!("'{}'", v.text().unwrap_or_default()),
                    }
                })
                .collect();
            (
                "  inputParser with properties:",
                names.iter().map(|n| n.to_string()).collect(),
                vals,
            )
        }
        Object::Time(t) => return crate::dates::display::named_lines(t, 80, !fmt.compact),
        Object::MException(x) => (
            "  MException with properties:",
            vec![
                "identifier".into(),
                "message".into(),
                "cause".into(),
                "stack".into(),
                "Correction".into(),
            ],
            vec![
                format!("'{}'", x.identifier),
                format!("'{}'", x.message),
                "{}".into(),
                format!("[{}×1 struct]", x.stack.len()),
                "[]".into(),
            ],
        ),
    };
    out.push(title.into());
    if !fmt.compact {
        out.push(String::new());
    }
    out.extend(field_block(&names, &vals));
    out
}
