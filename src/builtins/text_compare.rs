//! Text comparison: strcmp strcmpi strncmp strncmpi.

use super::{Builtin, b, one};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("strcmp", 2, 2, 1, "strcmp(a, b): true if the texts are identical (elementwise over cells).", strcmp),
        b("strcmpi", 2, 2, 1, "strcmpi(a, b): strcmp ignoring case.", strcmpi),
        b("strncmp", 3, 3, 1, "strncmp(a, b, n): compare the first n characters.", strncmp),
        b("strncmpi", 3, 3, 1, "strncmpi(a, b, n): strncmp ignoring case.", strncmpi),
    ]
}

fn compare(a: &Value, b: &Value, f: &dyn Fn(&str, &str) -> bool, whole: bool) -> Value {
    let as_text = |v: &Value| -> Option<String> {
        match v {
            Value::Tensor(t) if t.class() == Class::Char && t.shape.rows() <= 1 => {
                Some(t.to_text())
            }
            Value::Str(s) if s.data.len() == 1 => Some(s.data[0].clone()),
            _ => None,
        }
    };
    let list = |v: &Value| -> Option<(Vec<Option<String>>, Shape)> {
        match v {
            Value::Cell(c) => Some((
                c.data
                    .iter()
                    .map(|e| {
                        crate::interp::interrupt::poll();
                        if e.is_char() || e.is_string() {
                            e.text().ok()
                        } else {
                            None
                        }
                    })
                    .collect(),
                c.shape.clone(),
            )),
            Value::Str(s) if s.data.len() != 1 => Some((
                s.data
                    .iter()
                    .inspect(|_| crate::interp::interrupt::poll())
                    .cloned()
                    .map(Some)
                    .collect(),
                s.shape.clone(),
            )),
            _ => None,
        }
    };
    match (list(a), list(b)) {
        (Some((la, sa)), Some((lb, sb))) => {
            if la.len() == lb.len() {
                Value::from(Tensor::bools(
                    sa,
                    la.iter()
                        .zip(&lb)
                        .map(|(x, y)| matches!((x, y), (Some(x), Some(y)) if f(x, y)))
                        .collect(),
                ))
            } else if lb.len() == 1 {
                Value::from(Tensor::bools(
                    sa,
                    la.iter()
                        .map(|x| matches!((x, &lb[0]), (Some(x), Some(y)) if f(x, y)))
                        .collect(),
                ))
            } else if la.len() == 1 {
                Value::from(Tensor::bools(
                    sb,
                    lb.iter()
                        .map(|y| matches!((&la[0], y), (Some(x), Some(y)) if f(x, y)))
                        .collect(),
                ))
            } else {
                Value::Bool(false)
            }
        }
        (Some((la, sa)), None) => {
            let y = as_text(b);
            Value::from(Tensor::bools(
                sa,
                la.iter()
                    .map(|x| matches!((x, &y), (Some(x), Some(y)) if f(x, y)))
                    .collect(),
            ))
        }
        (None, Some((lb, sb))) => {
            let x = as_text(a);
            Value::from(Tensor::bools(
                sb,
                lb.iter()
                    .map(|y| matches!((&x, y), (Some(x), Some(y)) if f(x, y)))
                    .collect(),
            ))
        }
        (None, None) => {
            // char matrices compare whole (same size and contents)
            if whole
                && a.is_char()
                && b.is_char()
                && a.shape() != b.shape()
                && !(a.is_empty() && b.is_empty())
            {
                return Value::Bool(false);
            }
            match (as_text(a), as_text(b)) {
                (Some(x), Some(y)) => Value::Bool(f(&x, &y)),
                _ => {
                    if a.is_char() && b.is_char() {
                        Value::Bool(
                            a.tensor().ok().map(|t| t.to_text())
                                == b.tensor().ok().map(|t| t.to_text()),
                        )
                    } else {
                        Value::Bool(false)
                    }
                }
            }
        }
    }
}

fn strcmp(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(compare(&a[0], &a[1], &|x, y| x == y, true))
}

fn strcmpi(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(compare(
        &a[0],
        &a[1],
        &|x, y| x.to_lowercase() == y.to_lowercase(),
        true,
    ))
}

fn prefix_eq(x: &str, y: &str, n: usize, fold: bool) -> bool {
    let xs: Vec<char> = x.chars().collect();
    let ys: Vec<char> = y.chars().collect();
    // the first n characters of each (all of a shorter one) must be the same
    if xs.len().min(n) != ys.len().min(n) {
        return false;
    }
    (0..xs.len().min(n)).all(|i| {
        if fold {
            xs[i].to_lowercase().eq(ys[i].to_lowercase())
        } else {
            xs[i] == ys[i]
        }
    })
}

fn strncmp(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let n = a[2].scalar_f64()?.max(0.0) as usize;
    one(compare(
        &a[0],
        &a[1],
        &|x, y| prefix_eq(x, y, n, false),
        false,
    ))
}

fn strncmpi(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let n = a[2].scalar_f64()?.max(0.0) as usize;
    one(compare(
        &a[0],
        &a[1],
        &|x, y| prefix_eq(x, y, n, true),
        false,
    ))
}
