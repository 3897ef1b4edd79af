//! Operators on graphics handles: `==` and `~=` compare the objects named (so `h == gcf`
//! works), `isequal` compares handle arrays, and `[h1 h2]` / `[h1; h2]` join handles into
//! one array (empties are skipped, as MATLAB does).

use super::handle::Handles;
use crate::interp::error::{MError, MResult};
use crate::syntax::ast::BinOp;
use crate::values::containers::Object;
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;
use std::rc::Rc;

fn handles_of(v: &Value) -> Option<&Handles> {
    match v {
        Value::Object(o) => match o.as_ref() {
            Object::Graphics(h) => Some(h),
            _ => None,
        },
        _ => None,
    }
}

/// `a == b` or `a ~= b` where one side is a graphics handle array: Some(result), or None
/// for other operators and operands (they take the usual paths and errors).
pub fn binary(op: BinOp, a: &Value, b: &Value) -> Option<MResult<Value>> {
    if !matches!(op, BinOp::Eq | BinOp::Ne) {
        return None;
    }
    let (x, y) = (handles_of(a), handles_of(b));
    if x.is_none() && y.is_none() {
        return None;
    }
    let equal = op == BinOp::Eq;
    let (Some(x), Some(y)) = (x, y) else {
        // a handle against anything else: no element names the same object
        let other = if x.is_some() { b } else { a };
        let h = x.or(y)?;
        if other.is_numeric_like() || other.is_text() {
            let shape = if h.ids.len() == 1 {
                other.shape()
            } else {
                h.shape.clone()
            };
            let n = shape.numel();
            return Some(Ok(Tensor::bools(shape, vec![!equal; n]).into()));
        }
        return None;
    };
    let same_scene = x.scene.ptr_eq(&y.scene);
    let (shape, n) = if x.ids.len() == 1 {
        (y.shape.clone(), y.ids.len())
    } else if y.ids.len() == 1 || x.shape == y.shape {
        (x.shape.clone(), x.ids.len())
    } else {
        return Some(Err(MError::new(
            "MATLAB:sizeDimensionsMustMatch",
            "Arrays have incompatible sizes for this operation.",
        )));
    };
    let pick = |h: &Handles, k: usize| h.ids.get(if h.ids.len() == 1 { 0 } else { k }).copied();
    let out = (0..n)
        .map(|k| (same_scene && pick(x, k) == pick(y, k)) == equal)
        .collect();
    Some(Ok(Tensor::bools(shape, out).into()))
}

/// isequal of two handle arrays: the same objects in the same shape.
pub fn same(a: &Value, b: &Value) -> Option<bool> {
    let (x, y) = (handles_of(a)?, handles_of(b)?);
    Some(x.scene.ptr_eq(&y.scene) && x.shape == y.shape && x.ids == y.ids)
}

/// Concatenation with a handle among the parts: Some(result) (an error for parts that are
/// neither handles nor empty), None when no part is a handle.
pub fn concat(dim: usize, vals: &[Value]) -> Option<MResult<Value>> {
    let first = vals.iter().find_map(handles_of)?;
    let mut ids = Vec::new();
    for v in vals {
        match handles_of(v) {
            Some(h) => ids.extend(h.ids.iter().copied()),
            None if v.is_empty() => {}
            None => {
                return Some(Err(MError::new(
                    "MATLAB:concatenation:InvalidConversion",
                    format!(
                        "Conversion to matlab.graphics.Graphics from {} is not possible.",
                        v.class_name()
                    ),
                )));
            }
        }
    }
    let shape = if dim == 0 {
        Shape::col(ids.len())
    } else {
        Shape::row(ids.len())
    };
    Some(Ok(Value::Object(Rc::new(Object::Graphics(Handles {
        ids,
        shape,
        scene: first.scene.clone(),
    })))))
}
