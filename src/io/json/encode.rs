//! Values to JSON text by MATLAB's `jsonencode` mapping: scalars as JSON scalars, vectors as
//! flat arrays, matrices and N-D arrays as arrays nested along the first dimension outermost,
//! cells as flat arrays, structs as objects (struct arrays as arrays of them), NaN and Inf as
//! null unless `ConvertInfAndNaN` is false.

use crate::interp::error::{MError, MResult};
use crate::values::class::Class;
use crate::values::containers::Object;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;

#[derive(Clone, Copy, Debug)]
pub struct EncodeOptions {
    pub pretty: bool,
    pub convert_inf_and_nan: bool,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            pretty: false,
            convert_inf_and_nan: true,
        }
    }
}

/// A JSON tree with numbers already as text.
enum Json {
    Null,
    Bool(bool),
    Number(String),
    Text(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

pub fn encode(v: &Value, o: &EncodeOptions) -> MResult<String> {
    let tree = to_json(v, o, 0)?;
    let mut out = String::new();
    write(&tree, o.pretty, 0, &mut out);
    Ok(out)
}

fn unsupported(class: &str) -> MError {
    MError::new(
        "MATLAB:json:UnsupportedClass",
        format!("Unable to encode a value of class '{class}' as JSON."),
    )
}

fn to_json(v: &Value, o: &EncodeOptions, depth: usize) -> MResult<Json> {
    if depth > 500 {
        return Err(MError::new(
            "MATLAB:json:NestingTooDeep",
            "Cells and structs are nested too deeply to encode as JSON.",
        ));
    }
    Ok(match v {
        Value::Num(x) => number(*x, o),
        Value::Bool(b) => Json::Bool(*b),
        Value::Device(_) | Value::DeviceComplex(_) => return to_json(&v.clone().host()?, o, depth),
        Value::Tensor(t) => tensor(t, o)?,
        Value::Str(s) => nest(&s.shape, &mut |k| Json::Text(s.data[k].clone())),
        Value::Cell(c) => Json::Array(
            c.data
                .iter()
                .map(|e| to_json(e, o, depth + 1))
                .collect::<MResult<_>>()?,
        ),
        Value::Struct(s) => {
            let mut objects = Vec::with_capacity(s.elems.len());
            for e in &s.elems {
                let mut fields = Vec::with_capacity(e.len());
                for (name, fv) in s.fields.iter().zip(e) {
                    fields.push((name.clone(), to_json(fv, o, depth + 1)?));
                }
                objects.push(fields);
            }
            let mut objects = objects.into_iter().map(Some).collect::<Vec<_>>();
            nest(&s.shape, &mut |k| {
                Json::Object(objects[k].take().unwrap_or_default())
            })
        }
        Value::Object(obj) => match &**obj {
            Object::Map(m) => {
                let m = m.borrow();
                let mut fields = Vec::new();
                for (k, v) in &m.text {
                    fields.push((k.clone(), to_json(v, o, depth + 1)?));
                }
                for (k, v) in &m.num {
                    fields.push((format_number(*k), to_json(v, o, depth + 1)?));
                }
                Json::Object(fields)
            }
            // datetime, duration and calendarDuration: their display texts (NaT as null)
            Object::Time(t) => {
                let texts = crate::dates::display::element_texts(t);
                nest(&t.shape, &mut |k| match texts.get(k) {
                    Some(x) if x != "NaT" => Json::Text(x.clone()),
                    _ => Json::Null,
                })
            }
            other => return Err(unsupported(other.class_name())),
        },
        Value::Func(_) => return Err(unsupported("function_handle")),
    })
}

fn tensor(t: &Tensor, o: &EncodeOptions) -> MResult<Json> {
    if t.is_complex() {
        return Err(MError::new(
            "MATLAB:json:ComplexNotSupported",
            "Unable to encode complex numbers as JSON.",
        ));
    }
    if let Data::Char(c) = &t.data {
        // a char row is one string; a char matrix one string per row
        let rows = t.shape.rows();
        if rows <= 1 {
            return Ok(Json::Text(String::from_utf16_lossy(c)));
        }
        let cols = t.numel() / rows;
        return Ok(Json::Array(
            (0..rows)
                .map(|r| {
                    let row: Vec<u16> = (0..cols).map(|k| c[r + k * rows]).collect();
                    Json::Text(String::from_utf16_lossy(&row))
                })
                .collect(),
        ));
    }
    let class = t.class();
    Ok(nest(&t.shape, &mut |k| element(t, class, k, o)))
}

fn element(t: &Tensor, class: Class, k: usize, o: &EncodeOptions) -> Json {
    match &t.data {
        Data::Bool(v) => Json::Bool(v[k]),
        Data::F32(v) => {
            let x = v[k];
            if x.is_finite() {
                Json::Number(if x.fract() == 0.0 && x.abs() < 1e15 {
                    format!("{x:.0}")
                } else {
                    shortest(format!("{x}"), format!("{x:e}"), x.abs() as f64)
                })
            } else {
                number(x as f64, o)
            }
        }
        Data::I64(v) => Json::Number(v[k].to_string()),
        Data::U64(v) => Json::Number(v[k].to_string()),
        _ if class.is_int() => Json::Number(format!("{:.0}", t.get_f64(k))),
        _ => number(t.get_f64(k), o),
    }
}

fn number(x: f64, o: &EncodeOptions) -> Json {
    // once per number: Ctrl-C is looked at every so many of them
    crate::interp::interrupt::poll();
    if x.is_finite() {
        return Json::Number(format_number(x));
    }
    if o.convert_inf_and_nan {
        return Json::Null;
    }
    Json::Number(
        if x.is_nan() {
            "NaN"
        } else if x > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        }
        .into(),
    )
}

/// The shortest text that reads back as `x`: integers in full, exponents for very large or
/// small magnitudes.
fn format_number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        return format!("{x:.0}");
    }
    shortest(format!("{x}"), format!("{x:e}"), x.abs())
}

fn shortest(plain: String, exp: String, mag: f64) -> String {
    if (1e-5..1e15).contains(&mag) {
        plain
    } else {
        exp
    }
}

/// An array's elements as JSON: a scalar alone, a vector flat, a matrix or N-D array nested
/// with the first dimension outermost; empties as `[]`.
fn nest(shape: &Shape, elem: &mut dyn FnMut(usize) -> Json) -> Json {
    let n = shape.numel();
    if n == 0 {
        return Json::Array(vec![]);
    }
    if shape.is_scalar() {
        return elem(0);
    }
    if shape.is_vector() && shape.ndims() == 2 {
        return Json::Array((0..n).map(elem).collect());
    }
    let dims = shape.dims();
    let strides = shape.strides();
    fn go(
        dims: &[usize],
        strides: &[usize],
        d: usize,
        base: usize,
        elem: &mut dyn FnMut(usize) -> Json,
    ) -> Json {
        Json::Array(
            (0..dims[d])
                .map(|i| {
                    let at = base + i * strides[d];
                    if d + 1 == dims.len() {
                        elem(at)
                    } else {
                        go(dims, strides, d + 1, at, elem)
                    }
                })
                .collect(),
        )
    }
    go(dims, &strides, 0, 0, elem)
}

fn write(j: &Json, pretty: bool, indent: usize, out: &mut String) {
    let pad = |out: &mut String, n: usize| {
        if pretty {
            out.push('\n');
            out.extend(std::iter::repeat_n(' ', n * 2));
        }
    };
    match j {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(s) => out.push_str(s),
        Json::Text(s) => out.push_str(&quoted(s)),
        Json::Array(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (k, it) in items.iter().enumerate() {
                crate::interp::interrupt::poll();
                if k > 0 {
                    out.push(',');
                }
                pad(out, indent + 1);
                write(it, pretty, indent + 1, out);
            }
            pad(out, indent);
            out.push(']');
        }
        Json::Object(fields) => {
            if fields.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (k, (name, v)) in fields.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                pad(out, indent + 1);
                out.push_str(&quoted(name));
                out.push_str(if pretty { ": " } else { ":" });
                write(v, pretty, indent + 1, out);
            }
            pad(out, indent);
            out.push('}');
        }
    }
}

/// A JSON string literal (serde_json's escaping).
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}
