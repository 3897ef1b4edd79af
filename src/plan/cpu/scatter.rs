//! Range assignment in place on the host (`plan::in_place` decides that nothing else can
//! reach the old array): the assigned values are computed by the host executor into a
//! temporary (they may read the old array, which blocks must not see half written) and
//! copied into the old array's storage, run by run along the region's first subscript. The
//! array then moves to the embed, so a loop of `u(2:end-1) = f(u)` keeps one array alive,
//! not one per step.

use crate::graph::{Data, Node, Region};
use crate::interp::error::MResult;
use crate::values::tensor::{Data as TData, Tensor};
use std::rc::Rc;

/// Embed `n` of `values` into `old`'s region, written into `old`'s host tensor; None when
/// it does not apply (the caller computes the embed as a new array).
pub fn embed(
    n: &Rc<Node>,
    region: &Region,
    old: &Rc<Node>,
    values: &Rc<Node>,
) -> MResult<Option<Data>> {
    let sizes = region.folded_sizes(&n.shape);
    let counts: Vec<usize> = region.dims.iter().map(|p| p.count).collect();
    let (offset, steps) = region.addresses(&sizes);
    if values.numel() != region.count() && values.numel() != 1 {
        return Ok(None);
    }
    {
        let data = old.data.borrow();
        let Some(Data::Host(t)) = &*data else {
            return Ok(None);
        };
        // held by the old node alone (and by `data`'s borrow, which is no reference)
        let typed = matches!(
            (&t.data, n.class),
            (TData::F32(_), crate::values::class::Class::Single)
                | (TData::F64(_), crate::values::class::Class::Double)
        );
        if Rc::strong_count(t) != 1 || !typed || !within(t.numel(), offset, &counts, &steps) {
            return Ok(None);
        }
    }
    // The values, computed before anything is written.
    let vals: Rc<Tensor> = if values.is_realised() {
        crate::plan::to_host(values)?
    } else {
        let g = crate::plan::fitted_group(values)?;
        Rc::new(super::run(&g, n.class)?)
    };
    let Some(Data::Host(mut t)) = old.data.borrow_mut().take() else {
        return Ok(None);
    };
    let written = match (&mut Rc::make_mut(&mut t).data, &vals.data) {
        (TData::F32(d), TData::F32(v)) => put(d, v, offset, &counts, &steps),
        (TData::F64(d), TData::F64(v)) => put(d, v, offset, &counts, &steps),
        (TData::F32(d), v) => put(d, &vals_as::<f32>(v), offset, &counts, &steps),
        (TData::F64(d), v) => put(d, &vals_as::<f64>(v), offset, &counts, &steps),
        _ => false,
    };
    if !written {
        // not reached: the checks above hold; the old node keeps its data
        *old.data.borrow_mut() = Some(Data::Host(t));
        return Ok(None);
    }
    Ok(Some(Data::Host(t)))
}

/// Values of another storage type converted (logical or double values into a single array:
/// as the kernel would write them).
fn vals_as<T: FromF64>(v: &TData) -> Vec<T> {
    let t = Tensor::new(crate::values::shape::Shape::col(v.len()), v.clone());
    t.to_f64().iter().map(|&x| T::from_f64(x)).collect()
}

trait FromF64 {
    fn from_f64(x: f64) -> Self;
}
impl FromF64 for f32 {
    fn from_f64(x: f64) -> f32 {
        x as f32
    }
}
impl FromF64 for f64 {
    fn from_f64(x: f64) -> f64 {
        x
    }
}

/// Whether every address of the region lies in an array of `len` elements.
fn within(len: usize, offset: i64, counts: &[usize], steps: &[i64]) -> bool {
    if counts.contains(&0) {
        return true;
    }
    let (mut lo, mut hi) = (offset, offset);
    for (&c, &s) in counts.iter().zip(steps) {
        let span = (c as i64 - 1) * s;
        if span < 0 {
            lo += span;
        } else {
            hi += span;
        }
    }
    lo >= 0 && (hi as u64) < len as u64
}

/// Writes `v` (region order; one value: everywhere) at the region's addresses.
fn put<T: Copy>(d: &mut [T], v: &[T], offset: i64, counts: &[usize], steps: &[i64]) -> bool {
    let (Some(&c0), Some(&s0)) = (counts.first(), steps.first()) else {
        return false;
    };
    if !within(d.len(), offset, counts, steps)
        || (v.len() != 1 && v.len() != counts.iter().product::<usize>())
    {
        return false;
    }
    let outer: usize = counts[1..].iter().product();
    for o in 0..outer {
        let mut rem = o;
        let mut base = offset;
        for (&c, &s) in counts[1..].iter().zip(&steps[1..]) {
            base += (rem % c) as i64 * s;
            rem /= c;
        }
        let b = base as usize;
        match (v.len() == 1, s0 == 1) {
            (true, _) => {
                for k in 0..c0 {
                    d[(base + k as i64 * s0) as usize] = v[0];
                }
            }
            (false, true) => d[b..b + c0].copy_from_slice(&v[o * c0..(o + 1) * c0]),
            (false, false) => {
                for (k, &x) in v[o * c0..(o + 1) * c0].iter().enumerate() {
                    d[(base + k as i64 * s0) as usize] = x;
                }
            }
        }
    }
    true
}
