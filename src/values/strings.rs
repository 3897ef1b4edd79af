//! String arrays (`"text"`) in arithmetic and comparisons, and conversions to them.

use super::containers::StrArray;
use super::ops::elementwise::map2;
use super::ops::{Bin, BinKind};
use super::shape::Shape;
use super::tensor::Tensor;
use super::value::Value;
use crate::interp::error::{MError, MResult};

/// Shortest text MATLAB's `string()`/`num2str` gives a number: up to 5 significant digits for
/// non-integers ("3.1416"), integers in full.
pub fn number_text(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Inf".into() } else { "-Inf".into() };
    }
    if x.fract() == 0.0 && x.abs() < 1e15 {
        return format!("{}", x as i64);
    }
    crate::display::printf::format_g(x, 5, false)
}

/// Converts a value to a string array (chars become one string per row).
pub fn to_string_array(v: &Value) -> MResult<StrArray> {
    match v {
        Value::Str(s) => Ok(StrArray::new(
            s.shape.clone(),
            s.data
                .iter()
                .inspect(|_| crate::interp::interrupt::poll())
                .cloned()
                .collect(),
        )),
        Value::Tensor(t) if t.class() == super::class::Class::Char => {
            if t.shape.rows() <= 1 {
                Ok(StrArray::scalar(t.to_text()))
            } else {
                let r = t.shape.rows();
                Ok(StrArray::new(Shape::col(r), t.char_rows()))
            }
        }
        Value::Num(_) | Value::Bool(_) | Value::Tensor(_) => {
            let t = v.tensor()?;
            let data = (0..t.numel())
                .map(|i| {
                    crate::interp::interrupt::poll();
                    if t.is_complex() {
                        let z = t.get_c64(i);
                        crate::display::numeric::complex_text(z)
                    } else if t.class() == super::class::Class::Logical {
                        if t.nonzero(i) {
                            "true".into()
                        } else {
                            "false".into()
                        }
                    } else {
                        number_text(t.get_f64(i))
                    }
                })
                .collect();
            Ok(StrArray::new(t.shape.clone(), data))
        }
        Value::Cell(c) => {
            let mut data = Vec::with_capacity(c.data.len());
            for e in &c.data {
                crate::interp::interrupt::poll();
                let s = to_string_array(e)?;
                if s.data.len() != 1 {
                    return Err(MError::new(
                        "MATLAB:string:MustBeCellOfText",
                        "Conversion from cell failed: every element must be a char row vector or string scalar.",
                    ));
                }
                data.push(s.data[0].clone());
            }
            Ok(StrArray::new(c.shape.clone(), data))
        }
        other => Err(MError::new(
            "MATLAB:invalidConversion",
            format!(
                "Conversion to string from {} is not possible.",
                other.class_name()
            ),
        )),
    }
}

/// Binary operations where one side is a string array: `+` concatenates, comparisons compare
/// text.
pub fn string_binary(op: Bin, a: &Value, b: &Value) -> MResult<Value> {
    let (sa, sb) = (to_string_array(a)?, to_string_array(b)?);
    let out = Shape::broadcast_checked(&sa.shape, &sb.shape)?;
    match op {
        Bin::Add => {
            let r = map2(&idx(&sa), &sa.shape, &idx(&sb), &sb.shape, &out, |i, j| {
                format!("{}{}", sa.data[i], sb.data[j])
            });
            Ok(Value::from(StrArray::new(out, r)))
        }
        _ if op.kind() == BinKind::Compare => {
            let r = map2(&idx(&sa), &sa.shape, &idx(&sb), &sb.shape, &out, |i, j| {
                let (x, y) = (&sa.data[i], &sb.data[j]);
                match op {
                    Bin::Eq => x == y,
                    Bin::Ne => x != y,
                    Bin::Lt => x < y,
                    Bin::Le => x <= y,
                    Bin::Gt => x > y,
                    _ => x >= y,
                }
            });
            Ok(Value::from(Tensor::bools(out, r)))
        }
        _ => Err(MError::new(
            "MATLAB:UndefinedFunction",
            format!(
                "Operator '{}' is not supported for operands of type 'string'.",
                op.symbol()
            ),
        )),
    }
}

fn idx(s: &StrArray) -> Vec<usize> {
    (0..s.data.len()).collect()
}
