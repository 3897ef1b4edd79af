//! Reductions along one dimension (`sum prod mean max min any all`), with MATLAB's output
//! classes, empty-input rules and NaN flags; plus cumulative sums and products.

use super::elementwise::cmp_complex;
use super::{Red, reduce_fast};
use crate::interp::error::MResult;
use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use num_complex::Complex64;

/// (inner, len, outer): element (i, k, o) of the lanes along `dim` sits at
/// `i + k*inner + o*inner*len`.
pub fn lanes(shape: &Shape, dim: usize) -> (usize, usize, usize) {
    let dims = shape.dims();
    let inner: usize = dims[..dim.min(dims.len())].iter().product();
    let len = shape.dim(dim);
    let outer: usize = dims.get(dim + 1..).map(|r| r.iter().product()).unwrap_or(1);
    (inner, len, outer)
}

/// The dimension a reduction works along when none is given.
pub fn default_dim(shape: &Shape) -> usize {
    shape.first_nonsingleton()
}

pub fn out_class(op: Red, c: Class) -> Class {
    match op {
        Red::Any | Red::All => Class::Logical,
        // integers, logicals and chars sum in double unless 'native' is asked for
        Red::Sum | Red::Prod => {
            if c == Class::Single {
                c
            } else {
                Class::Double
            }
        }
        Red::Mean => {
            if c == Class::Single {
                c
            } else {
                Class::Double
            }
        }
        Red::Max | Red::Min => {
            if matches!(c, Class::Logical | Class::Char) {
                Class::Double
            } else {
                c
            }
        }
    }
}

/// Reduces `t` along `dim` (None: the default dimension, with MATLAB's 0×0 special case).
pub fn reduce(op: Red, t: &Tensor, dim: Option<usize>, omitnan: bool) -> MResult<Tensor> {
    reduce_shaped(op, t, &t.shape, dim, omitnan)
}

/// `reduce` of `t`'s elements taken in `shape` (of as many elements): `sum(x, 'all')` reduces
/// a shared array as one column without copying it.
pub fn reduce_shaped(
    op: Red,
    t: &Tensor,
    shape: &Shape,
    dim: Option<usize>,
    omitnan: bool,
) -> MResult<Tensor> {
    let cls = out_class(op, t.class());
    if dim.is_none() && shape.dims() == [0, 0] {
        return Ok(match op {
            Red::Sum => Tensor::new(Shape::scalar(), Data::from_f64(cls, vec![0.0])),
            Red::Prod => Tensor::new(Shape::scalar(), Data::from_f64(cls, vec![1.0])),
            Red::Mean => Tensor::new(Shape::scalar(), Data::from_f64(cls, vec![f64::NAN])),
            Red::Max | Red::Min => Tensor::zeros(cls, Shape::empty()),
            Red::Any => Tensor::bools(Shape::scalar(), vec![false]),
            Red::All => Tensor::bools(Shape::scalar(), vec![true]),
        });
    }
    let d = dim.unwrap_or_else(|| default_dim(shape));
    let (inner, len, outer) = lanes(shape, d);
    let out_shape = if len == 0 && matches!(op, Red::Max | Red::Min) {
        shape.with_dim(d, 0)
    } else {
        shape.with_dim(d, 1)
    };
    if matches!(op, Red::Max | Red::Min) && len == 0 {
        return Ok(Tensor::zeros(cls, out_shape));
    }
    let n = inner * outer;
    // typed kernels for real data; the general loops below keep complex data and prod
    let l = (inner, len, outer);
    match op {
        Red::Any | Red::All => {
            if let Some(r) = reduce_fast::any_all(&t.data, l, op) {
                return Ok(Tensor::bools(out_shape, r));
            }
        }
        Red::Sum | Red::Mean => {
            if let Some(r) = reduce_fast::sums(&t.data, l, omitnan, op == Red::Mean) {
                return Ok(Tensor::new(out_shape, Data::from_f64(cls, r)));
            }
        }
        Red::Max | Red::Min => {
            if let Some(v) = strided_extreme_values(t, l, &out_shape, op == Red::Max, omitnan) {
                return Ok(v);
            }
            if let Some(k) = reduce_fast::extreme_positions(&t.data, l, op == Red::Max, omitnan) {
                return Ok(extremes_at(t, &k, l, out_shape, cls));
            }
        }
        Red::Prod => {}
    }
    if matches!(op, Red::Any | Red::All) {
        let mut r = Vec::with_capacity(n);
        let mut tick = crate::interp::interrupt::Ticker::new();
        for o in 0..outer {
            for i in 0..inner {
                tick.add(len);
                let mut acc = op == Red::All;
                for k in 0..len {
                    let p = i + k * inner + o * inner * len;
                    // any ignores NaN; for all a NaN is nonzero
                    let nz = t.nonzero(p)
                        && !(op == Red::Any && t.class().is_float() && t.get_f64(p).is_nan());
                    if op == Red::Any && nz {
                        acc = true;
                        break;
                    }
                    if op == Red::All && !nz {
                        acc = false;
                        break;
                    }
                }
                r.push(acc);
            }
        }
        return Ok(Tensor::bools(out_shape, r));
    }
    if t.is_complex() {
        let z = t.to_c64();
        let mut r = Vec::with_capacity(n);
        let mut tick = crate::interp::interrupt::Ticker::new();
        for o in 0..outer {
            for i in 0..inner {
                tick.add(len);
                let lane = (0..len).map(|k| z[i + k * inner + o * inner * len]);
                r.push(match op {
                    Red::Sum => lane
                        .filter(|v| !(omitnan && (v.re.is_nan() || v.im.is_nan())))
                        .fold(Complex64::new(0.0, 0.0), |a, b| a + b),
                    Red::Prod => lane.product(),
                    Red::Mean => {
                        let v: Vec<Complex64> = lane
                            .filter(|v| !(omitnan && (v.re.is_nan() || v.im.is_nan())))
                            .collect();
                        v.iter().sum::<Complex64>() / v.len() as f64
                    }
                    _ => {
                        let mut best: Option<Complex64> = None;
                        for v in lane {
                            if v.re.is_nan() || v.im.is_nan() {
                                continue;
                            }
                            best = Some(match best {
                                None => v,
                                Some(b) => {
                                    let c = cmp_complex(v, b);
                                    if (op == Red::Max && c > 0) || (op == Red::Min && c < 0) {
                                        v
                                    } else {
                                        b
                                    }
                                }
                            });
                        }
                        best.unwrap_or(Complex64::new(f64::NAN, 0.0))
                    }
                });
            }
        }
        return Ok(super::elementwise::demote_complex(Tensor::new(
            out_shape,
            Data::from_c64(cls, r),
        )));
    }
    let x = t.to_f64();
    let mut r = Vec::with_capacity(n);
    let mut tick = crate::interp::interrupt::Ticker::new();
    for o in 0..outer {
        for i in 0..inner {
            tick.add(len);
            let base = i + o * inner * len;
            let lane = (0..len).map(|k| x[base + k * inner]);
            r.push(match op {
                Red::Sum => {
                    if omitnan {
                        lane.filter(|v| !v.is_nan()).fold(0.0, |a, b| a + b)
                    } else {
                        // fold from +0.0: an empty sum is 0, not -0
                        lane.fold(0.0, |a, b| a + b)
                    }
                }
                Red::Prod => {
                    if omitnan {
                        lane.filter(|v| !v.is_nan()).product()
                    } else {
                        lane.product()
                    }
                }
                Red::Mean => {
                    let (s, c) = lane.fold((0.0, 0usize), |(s, c), v| {
                        if omitnan && v.is_nan() {
                            (s, c)
                        } else {
                            (s + v, c + 1)
                        }
                    });
                    s / c as f64
                }
                Red::Max | Red::Min => {
                    let mut best = f64::NAN;
                    for v in lane {
                        if v.is_nan() {
                            if !omitnan {
                                // 'includenan'
                                best = f64::NAN;
                                break;
                            }
                            continue;
                        }
                        if best.is_nan()
                            || (op == Red::Max && v > best)
                            || (op == Red::Min && v < best)
                        {
                            best = v;
                        }
                    }
                    best
                }
                Red::Any | Red::All => 0.0,
            });
        }
    }
    Ok(Tensor::new(out_shape, Data::from_f64(cls, r)))
}

/// sum/prod of an integer array in its own class ('native'), exact and saturating.
pub fn reduce_native_int(op: Red, t: &Tensor, dim: Option<usize>) -> MResult<Tensor> {
    let cls = t.class();
    let Some(v) = t.data.as_i128() else {
        return reduce(op, t, dim, false);
    };
    let d = dim.unwrap_or_else(|| default_dim(&t.shape));
    let (inner, len, outer) = lanes(&t.shape, d);
    let (lo, hi) = cls.int_range();
    let mut r = Vec::with_capacity(inner * outer);
    for o in 0..outer {
        for i in 0..inner {
            let lane = (0..len).map(|k| v[i + k * inner + o * inner * len]);
            r.push(if op == Red::Sum {
                lane.fold(0i128, |a, b| (a + b).clamp(lo, hi))
            } else {
                lane.fold(1i128, |a, b| a.saturating_mul(b).clamp(lo, hi))
            });
        }
    }
    Ok(Tensor::new(
        t.shape.with_dim(d, 1),
        Data::from_i128(cls, r.into_iter()),
    ))
}

/// The elements at lane positions `k` (one per lane), in class `cls`.
fn extremes_at(
    t: &Tensor,
    k: &[usize],
    (inner, len, outer): (usize, usize, usize),
    out_shape: Shape,
    cls: Class,
) -> Tensor {
    let positions: Vec<usize> = (0..outer)
        .flat_map(|o| (0..inner).map(move |i| (i, o)))
        .zip(k.iter())
        .map(|((i, o), &k)| i + k * inner + o * inner * len)
        .collect();
    let vals = t.gather(&positions, out_shape);
    if vals.class() != cls {
        vals.cast(cls)
    } else {
        vals
    }
}

/// max/min along `dim` with the (1-based) index of the first extreme element.
pub fn extreme_with_index(
    t: &Tensor,
    dim: Option<usize>,
    is_max: bool,
    omitnan: bool,
) -> MResult<(Tensor, Tensor)> {
    extreme_with_index_shaped(t, &t.shape, dim, is_max, omitnan)
}

/// max/min of single or double lanes along a later dimension as running values (no
/// positions); None for other data and for contiguous lanes.
fn strided_extreme_values(
    t: &Tensor,
    l: (usize, usize, usize),
    out_shape: &Shape,
    is_max: bool,
    omitnan: bool,
) -> Option<Tensor> {
    if l.0 < 2 || l.1 == 0 {
        return None;
    }
    let d = super::extreme_values::strided_values(&t.data, l, is_max, omitnan)?;
    Some(Tensor::new(out_shape.clone(), d))
}

/// max/min along `dim` without the positions (`max(A, [], 2)` with one output): the values
/// of `extreme_with_index_shaped`.
pub fn extreme_shaped(
    t: &Tensor,
    shape: &Shape,
    dim: Option<usize>,
    is_max: bool,
    omitnan: bool,
) -> MResult<Tensor> {
    if !(dim.is_none() && shape.dims() == [0, 0]) {
        let d = dim.unwrap_or_else(|| default_dim(shape));
        if let Some(v) =
            strided_extreme_values(t, lanes(shape, d), &shape.with_dim(d, 1), is_max, omitnan)
        {
            return Ok(v);
        }
    }
    Ok(extreme_with_index_shaped(t, shape, dim, is_max, omitnan)?.0)
}

/// `extreme_with_index` of `t`'s elements taken in `shape`.
pub fn extreme_with_index_shaped(
    t: &Tensor,
    shape: &Shape,
    dim: Option<usize>,
    is_max: bool,
    omitnan: bool,
) -> MResult<(Tensor, Tensor)> {
    let cls = out_class(if is_max { Red::Max } else { Red::Min }, t.class());
    if dim.is_none() && shape.dims() == [0, 0] {
        return Ok((Tensor::zeros(cls, Shape::empty()), Tensor::empty()));
    }
    let d = dim.unwrap_or_else(|| default_dim(shape));
    let (inner, len, outer) = lanes(shape, d);
    if len == 0 {
        let s = shape.with_dim(d, 0);
        return Ok((
            Tensor::zeros(cls, s.clone()),
            Tensor::zeros(Class::Double, s),
        ));
    }
    let out_shape = shape.with_dim(d, 1);
    if let Some(k) = reduce_fast::extreme_positions(&t.data, (inner, len, outer), is_max, omitnan) {
        let index = Tensor::f64(
            out_shape.clone(),
            k.iter().map(|&k| (k + 1) as f64).collect(),
        );
        return Ok((
            extremes_at(t, &k, (inner, len, outer), out_shape, cls),
            index,
        ));
    }
    let complex = t.is_complex();
    let z = if complex { Some(t.to_c64()) } else { None };
    let x = t.to_f64();
    let mut idx = Vec::with_capacity(inner * outer);
    for o in 0..outer {
        for i in 0..inner {
            let mut best: Option<usize> = None;
            let mut nan_at = None;
            for k in 0..len {
                let p = i + k * inner + o * inner * len;
                let isnan = match &z {
                    Some(z) => z[p].re.is_nan() || z[p].im.is_nan(),
                    None => x[p].is_nan(),
                };
                if isnan {
                    if nan_at.is_none() {
                        nan_at = Some(k);
                    }
                    continue;
                }
                let better = match best {
                    None => true,
                    Some(b) => {
                        let bp = i + b * inner + o * inner * len;
                        let c = match &z {
                            Some(z) => cmp_complex(z[p], z[bp]),
                            None => {
                                if x[p] > x[bp] {
                                    1
                                } else if x[p] < x[bp] {
                                    -1
                                } else {
                                    0
                                }
                            }
                        };
                        (is_max && c > 0) || (!is_max && c < 0)
                    }
                };
                if better {
                    best = Some(k);
                }
            }
            let k = if !omitnan && nan_at.is_some() {
                nan_at
            } else {
                best.or(nan_at)
            };
            idx.push(k.unwrap_or(0));
        }
    }
    let positions: Vec<usize> = (0..outer)
        .flat_map(|o| (0..inner).map(move |i| (i, o)))
        .zip(idx.iter())
        .map(|((i, o), &k)| i + k * inner + o * inner * len)
        .collect();
    let mut vals = t.gather(&positions, out_shape.clone());
    if vals.class() != cls {
        vals = vals.cast(cls);
    }
    let index = Tensor::f64(out_shape, idx.iter().map(|&k| (k + 1) as f64).collect());
    Ok((vals, index))
}

/// cumsum / cumprod along `dim`.
pub fn cumulative(t: &Tensor, dim: Option<usize>, product: bool, omitnan: bool) -> MResult<Tensor> {
    let d = dim.unwrap_or_else(|| default_dim(&t.shape));
    let (inner, len, outer) = lanes(&t.shape, d);
    let cls = out_class(Red::Sum, t.class());
    if t.is_complex() {
        let mut z = t.to_c64().into_owned();
        let mut tick = crate::interp::interrupt::Ticker::new();
        for o in 0..outer {
            for i in 0..inner {
                let mut acc = if product {
                    Complex64::new(1.0, 0.0)
                } else {
                    Complex64::new(0.0, 0.0)
                };
                for k in 0..len {
                    tick.tick();
                    let p = i + k * inner + o * inner * len;
                    acc = if product { acc * z[p] } else { acc + z[p] };
                    z[p] = acc;
                }
            }
        }
        return Ok(Tensor::new(t.shape.clone(), Data::from_c64(cls, z)));
    }
    if cls == t.class() && t.numel() == inner * len * outer {
        if let Some(d) =
            super::scan_fast::cumulative(&t.data, (inner, len, outer), product, omitnan)
        {
            return Ok(Tensor::new(t.shape.clone(), d));
        }
    }
    let mut x = crate::interp::interrupt::copied(&t.to_f64());
    let mut tick = crate::interp::interrupt::Ticker::new();
    for o in 0..outer {
        for i in 0..inner {
            let mut acc = if product { 1.0 } else { 0.0 };
            for k in 0..len {
                tick.tick();
                let p = i + k * inner + o * inner * len;
                let v = x[p];
                if !(omitnan && v.is_nan()) {
                    acc = if product { acc * v } else { acc + v };
                }
                x[p] = acc;
            }
        }
    }
    Ok(Tensor::new(t.shape.clone(), Data::from_f64(cls, x)))
}
