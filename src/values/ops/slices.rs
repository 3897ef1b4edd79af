//! Reads of a contiguous block or a band of rows of a host array: `x(a:b)` of a vector,
//! `A(:, k)`, `A(:, a:b)`, `A(i, :)`, `A(a:b, :)`. They copy straight out of the storage, a
//! slice at a time, with no position list (which cost as much memory as the result twice over:
//! the index values, their positions, then a gather). Anything else returns None and takes the
//! general plan.

use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;

/// A subscript that is a unit-step run of positions: (first, count), 0-based.
fn run(v: &Value) -> Option<(usize, usize)> {
    match v {
        Value::Num(x) if *x >= 1.0 && x.fract() == 0.0 => Some((*x as usize - 1, 1)),
        Value::Tensor(t) if t.shape.is_vector() && t.numel() > 0 => {
            let Data::F64(d) = &t.data else {
                return None;
            };
            let a = d[0];
            if !(a >= 1.0 && a.fract() == 0.0 && a < 9.0e15) {
                return None;
            }
            // checked a block at a time (vectorised), not element by element
            let unit = d.chunks(1024).enumerate().all(|(c, ch)| {
                let base = a + (c * 1024) as f64;
                ch.iter()
                    .enumerate()
                    .fold(true, |ok, (k, &x)| ok & (x == base + k as f64))
            });
            unit.then_some((a as usize - 1, d.len()))
        }
        _ => None,
    }
}

fn is_colon(v: &Value) -> bool {
    matches!(v, Value::Tensor(t) if matches!(&t.data, Data::Char(c) if c.as_slice() == [b':' as u16]))
}

/// One subscript of a block read.
#[derive(Clone, Copy)]
pub enum Part {
    /// `:`
    All,
    /// A unit-step run of positions: (first, count), 0-based.
    Run(usize, usize),
}

/// The read `t(args)` when it selects a block or a band of rows; None otherwise.
pub fn read(t: &Tensor, args: &[Value]) -> Option<Tensor> {
    let parts: Option<Vec<Part>> = args
        .iter()
        .map(|v| {
            if is_colon(v) {
                Some(Part::All)
            } else {
                run(v).map(|(a, n)| Part::Run(a, n))
            }
        })
        .collect();
    let parts = parts?;
    // one scalar subscript keeps the general path's own fast read
    if let [Part::Run(_, 1)] = parts.as_slice() {
        if !matches!(args[0], Value::Tensor(_)) {
            return None;
        }
    }
    block(t, &parts)
}

/// The read of `t` the parts select, when it is a block or a band of rows (in bounds, not
/// empty); None otherwise.
pub fn block(t: &Tensor, parts: &[Part]) -> Option<Tensor> {
    let s = &t.shape;
    if s.ndims() > 2 {
        return None;
    }
    let (rows, cols) = (s.rows(), s.cols());
    match *parts {
        [Part::Run(a, n)] if s.is_vector() && t.numel() > 1 && n > 0 => {
            (a + n <= t.numel()).then(|| {
                let shape = if rows == 1 {
                    Shape::row(n)
                } else {
                    Shape::col(n)
                };
                Tensor::new(shape, crate::map_data!(&t.data, v => v[a..a + n].to_vec()))
            })
        }
        [Part::All, Part::Run(a, n)] if n > 0 => (a + n <= cols).then(|| {
            Tensor::new(
                Shape::matrix(rows, n),
                crate::map_data!(&t.data, v => v[a * rows..(a + n) * rows].to_vec()),
            )
        }),
        [Part::Run(a, m), Part::All] if m > 0 => (a + m <= rows).then(|| {
            let data = crate::map_data!(&t.data, v => {
                let mut o = Vec::with_capacity(m * cols);
                if m == 1 {
                    o.extend(v.iter().skip(a).step_by(rows.max(1)).take(cols));
                } else {
                    for j in 0..cols {
                        o.extend_from_slice(&v[j * rows + a..j * rows + a + m]);
                    }
                }
                o
            });
            Tensor::new(Shape::matrix(m, cols), data)
        }),
        _ => None,
    }
}
