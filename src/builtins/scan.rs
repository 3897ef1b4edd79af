//! Formatted reading from text: sscanf (fscanf in file_io.rs shares the engine in
//! `io::scanf` and the shaping here). A size argument shapes the result column by column;
//! text-only formats give char.

use super::{Builtin, b, bad_arg, text_arg};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::Frame;
use crate::io::scanf::{self, Format, Scan};
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("sscanf", 2, 3, 4, "[A, count, errmsg, next] = sscanf(text, format, size): read formatted data from text.", sscanf),
    ]
}

/// A size argument: n, Inf, [m n] or [m Inf] as (rows or count, columns).
pub type Dims = Option<(usize, Option<usize>)>;

pub fn size_arg(v: Option<&Value>, name: &str) -> MResult<Dims> {
    let Some(v) = v else { return Ok(None) };
    let d = v.tensor()?.to_f64().into_owned();
    let as_count = |x: f64| (x.is_finite() && x >= 0.0).then_some(x as usize);
    match d.as_slice() {
        [n] if n.is_nan() || *n < 0.0 => Err(bad_arg(name, "Invalid size.")),
        [n] => Ok(Some((as_count(*n).unwrap_or(usize::MAX), None))),
        [m, n] => {
            let m = as_count(*m).ok_or_else(|| bad_arg(name, "Invalid size."))?;
            if n.is_nan() || *n < 0.0 {
                return Err(bad_arg(name, "Invalid size."));
            }
            Ok(Some((m, Some(as_count(*n).unwrap_or(usize::MAX)))))
        }
        _ => Err(bad_arg(
            name,
            "Size must be a scalar or a 2-element vector.",
        )),
    }
}

/// How many values a size allows.
pub fn limit(dims: Dims) -> Option<usize> {
    dims.map(|(m, n)| match n {
        Some(n) => m.saturating_mul(n),
        None => m,
    })
}

/// The scanned values shaped as MATLAB shapes them: filled column by column into [m n] or
/// [m Inf] (padded with zeros), a column otherwise, char when every conversion was text.
pub fn shaped(r: Scan, dims: Dims) -> Value {
    let n = r.values.len();
    let shape = match dims {
        Some((m, Some(_))) if m > 0 => Shape::matrix(m, n.div_ceil(m)),
        Some((0, Some(_))) => Shape::matrix(0, 0),
        _ if r.all_text && n > 0 => Shape::row(n),
        _ => Shape::col(n),
    };
    let mut vals = r.values;
    vals.resize(shape.numel(), 0.0);
    if r.all_text && n > 0 {
        let codes = vals.iter().map(|&c| c as u16).collect();
        Value::from_tensor(Tensor::new(shape, crate::values::tensor::Data::Char(codes)))
    } else {
        Value::from(Tensor::f64(shape, vals))
    }
}

fn sscanf(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let text = text_arg(&a[0], "sscanf")?;
    let fmt = text_arg(&a[1], "sscanf")?;
    let dims = size_arg(a.get(2), "sscanf")?;
    let r = scanf::scan(text.as_bytes(), &Format::parse(&fmt), limit(dims));
    // `next` counts characters, not bytes
    let next = text.as_bytes()[..r.used]
        .iter()
        .filter(|&&c| (c & 0xc0) != 0x80)
        .count()
        + 1;
    let (count, error) = (r.count, r.error.clone());
    let mut out = vec![
        shaped(r, dims),
        Value::Num(count as f64),
        Value::str(&error),
        Value::Num(next as f64),
    ];
    out.truncate(nargout.clamp(1, 4));
    Ok(out)
}
