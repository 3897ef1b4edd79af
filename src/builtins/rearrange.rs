//! Rearranging arrays: reshape repmat cat permute squeeze transpose, and repelem ipermute shiftdim.

use super::{Builtin, b, bad_arg, dim_arg, one};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::ops::{concat, shape_ops};
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("repelem", 2, -1, 1, "repelem(v, n), repelem(A, r1, r2, ...): repeat each element.", repelem),
        b("ipermute", 2, 2, 1, "ipermute(B, order): inverse of permute.", ipermute),
        b("shiftdim", 1, 2, 2, "shiftdim(X, n): shift dimensions left by n (right, adding singletons, for n < 0); [B, n] = shiftdim(X) drops leading singletons.", shiftdim),
        b("repmat", 2, -1, 1, "repmat(A, m, n) or repmat(A, [m n ...]): tile an array.", repmat),
        b("reshape", 2, -1, 1, "reshape(A, m, n, ...) or reshape(A, sz): same elements, new size ([] infers one size).", reshape),
        b("cat", 1, -1, 1, "cat(dim, A, B, ...): concatenate along a dimension.", cat),
        b("horzcat", 0, -1, 1, "horzcat(A, B, ...): the same as [A, B, ...].", horzcat),
        b("vertcat", 0, -1, 1, "vertcat(A, B, ...): the same as [A; B; ...].", vertcat),
        b("permute", 2, 2, 1, "permute(A, order): rearrange dimensions.", permute),
        b("squeeze", 1, 1, 1, "squeeze(A): remove singleton dimensions.", squeeze),
        b("transpose", 1, 1, 1, "transpose(A): the same as A.'.", transpose),
        b("ctranspose", 1, 1, 1, "ctranspose(A): the same as A'.", ctranspose),
    ]
}

fn int_list(v: &Value) -> MResult<Vec<usize>> {
    let t = v.tensor()?;
    t.to_f64()
        .iter()
        .map(|&x| {
            // negative counts replicate zero times, as zeros(-1) is empty
            if x.fract() != 0.0 || x.is_nan() {
                Err(MError::new(
                    "MATLAB:repmat:invalidReplications",
                    "Replication factors must be a row vector of integers or integer scalars.",
                ))
            } else {
                Ok(x.max(0.0) as usize)
            }
        })
        .collect()
}

fn repmat(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let reps: Vec<usize> = if a.len() == 2 {
        let r = int_list(&a[1])?;
        if r.len() == 1 { vec![r[0], r[0]] } else { r }
    } else {
        a[1..]
            .iter()
            .map(|v| int_list(v).map(|l| l.first().copied().unwrap_or(0)))
            .collect::<MResult<_>>()?
    };
    let src = a[0].shape();
    let out: Vec<usize> = (0..reps.len().max(src.ndims()))
        .map(|d| src.dim(d).saturating_mul(reps.get(d).copied().unwrap_or(1)))
        .collect();
    crate::values::limits::check_dims(&out, 8)?;
    if let (Value::Tensor(t), 2, [rr, rc]) = (&a[0], src.ndims(), reps.as_slice()) {
        return one(repmat_columns(t, *rr, *rc));
    }
    let (pos, shape) = shape_ops::repmat_plan(&src, &reps);
    one(shape_ops::gather_value(&a[0], &pos, shape)?)
}

/// A matrix tiled rr×rc by copying its columns (no position per element: repmat of a
/// 1000×1000 matrix 10×20 times was 11 s through the general gather). The result is written
/// in blocks across the cores, not cleared first: each output column is its source column
/// repeated, or one value filled down for a row (`repmat(r, 1000, 1)` of a single row was
/// 2.9x NumPy's time when it was pushed element by element), with a look at Ctrl-C every
/// block.
fn repmat_columns(t: &Tensor, rr: usize, rc: usize) -> Tensor {
    let (r, c) = (t.shape.rows(), t.shape.cols());
    let n = r * rr * c * rc;
    let data = crate::map_data!(&t.data, v => tile_columns(v, r, c, rr, n));
    Tensor::new(Shape::matrix(r * rr, c * rc), data)
}

/// The `n` elements of `v` (r×c, column-major) tiled rr times down and as often across as
/// `n` asks.
fn tile_columns<T: Copy + Send + Sync>(v: &[T], r: usize, c: usize, rr: usize, n: usize) -> Vec<T> {
    let tall = r * rr;
    if n == 0 || tall == 0 || c == 0 || v.len() < r * c {
        return Vec::new();
    }
    let watch = crate::interp::interrupt::Watch::current();
    crate::values::ops::kernels::fill_new(n, |start, dst| {
        watch.check();
        let mut p = start;
        let mut rest = dst;
        while !rest.is_empty() {
            let (col, row) = (p / tall, p % tall);
            let take = (tall - row).min(rest.len());
            let (seg, tail) = std::mem::take(&mut rest).split_at_mut(take);
            let src = &v[(col % c) * r..(col % c + 1) * r];
            if let [x] = src {
                for o in seg.iter_mut() {
                    o.write(*x);
                }
            } else {
                // from row `row` of the tiled column: the source column from `row % r`
                let mut i = row % r;
                let mut seg = seg;
                while !seg.is_empty() {
                    let m = (r - i).min(seg.len());
                    let (now, later) = seg.split_at_mut(m);
                    for (o, &x) in now.iter_mut().zip(&src[i..i + m]) {
                        o.write(x);
                    }
                    seg = later;
                    i = 0;
                }
            }
            p += take;
            rest = tail;
        }
    })
}

fn reshape(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let shape = reshape_shape(a[0].numel(), &a[1..])?;
    // a host array keeps its storage (moved when nothing else holds it, else one copy): the
    // order of the elements does not change, so no position per element is needed
    let mut a = a;
    if matches!(a.first(), Some(Value::Tensor(_))) {
        if let Value::Tensor(t) = a.swap_remove(0) {
            return one(std::rc::Rc::unwrap_or_clone(t).reshaped(shape));
        }
    }
    let pos: Vec<usize> = (0..shape.numel()).collect();
    one(shape_ops::gather_value(&a[0], &pos, shape)?)
}

/// The shape `reshape(A, sizes...)` gives `n` elements (`sizes` one vector or several
/// scalars, one of them `[]` to infer).
pub fn reshape_shape(n: usize, sizes: &[Value]) -> MResult<Shape> {
    let mut dims: Vec<Option<usize>> = Vec::new();
    if let [v] = sizes {
        for d in int_list(v)? {
            dims.push(Some(d));
        }
    } else {
        for v in sizes {
            if v.is_empty() {
                dims.push(None);
            } else {
                dims.push(Some(int_list(v)?.first().copied().unwrap_or(0)));
            }
        }
    }
    let unknown = dims.iter().filter(|d| d.is_none()).count();
    if unknown > 1 {
        return Err(MError::new(
            "MATLAB:getReshapeDims:unknownDim",
            "Size can only have one unknown dimension.",
        ));
    }
    let known: usize = dims.iter().flatten().product();
    let dims: Vec<usize> = if unknown == 1 {
        if known == 0 || n % known != 0 {
            return Err(MError::new(
                "MATLAB:getReshapeDims:notDivisible",
                format!("Size is not divisible by the product of known dimensions ({known})."),
            ));
        }
        dims.iter().map(|d| d.unwrap_or(n / known)).collect()
    } else {
        dims.into_iter().flatten().collect()
    };
    let shape = Shape::new(&dims);
    if shape.numel() != n {
        return Err(MError::new(
            "MATLAB:getReshapeDims:notSameNumel",
            "Number of elements must not change. Use [] as one of the size inputs to automatically calculate the appropriate size for that dimension.",
        ));
    }
    Ok(shape)
}

fn cat(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let d = dim_arg(&a[0])?;
    if a.len() == 1 {
        return one(Value::empty());
    }
    one(concat::cat(d, &a[1..])?)
}

fn horzcat(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if a.is_empty() {
        return one(Value::empty());
    }
    one(concat::cat(1, &a)?)
}

fn vertcat(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if a.is_empty() {
        return one(Value::empty());
    }
    one(concat::cat(0, &a)?)
}

fn permute(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let order: Vec<usize> = int_list(&a[1])?
        .into_iter()
        .map(|d| d.saturating_sub(1))
        .collect();
    let mut seen = vec![false; order.len()];
    for &d in &order {
        if d >= order.len() || seen[d] {
            return Err(MError::new(
                "MATLAB:permute:badIndex",
                "ORDER must be a permutation of 1:N for an N-D array.",
            ));
        }
        seen[d] = true;
    }
    if order.len() < a[0].shape().ndims() {
        return Err(MError::new(
            "MATLAB:permute:tooFewIndices",
            "ORDER must have at least N elements for an N-D array.",
        ));
    }
    let (pos, shape) = shape_ops::permute_plan(&a[0].shape(), &order);
    one(shape_ops::gather_value(&a[0], &pos, shape)?)
}

fn squeeze(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let s = a[0].shape();
    if s.ndims() <= 2 {
        return one(a[0].clone());
    }
    let dims: Vec<usize> = s.dims().iter().copied().filter(|&d| d != 1).collect();
    let shape = match dims.len() {
        0 => Shape::scalar(),
        1 => Shape::col(dims[0]),
        _ => Shape::new(&dims),
    };
    let pos: Vec<usize> = (0..s.numel()).collect();
    one(shape_ops::gather_value(&a[0], &pos, shape)?)
}

fn transpose(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(shape_ops::transpose_value(&a[0])?)
}

fn ctranspose(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(crate::interp::eval::unary_op(
        crate::syntax::ast::UnOp::CTranspose,
        &a[0],
    )?)
}

/// Positions of the array whose dimension d takes the source indices `maps[d]`.
fn positions_from_maps(shape: &Shape, maps: &[Vec<usize>]) -> (Vec<usize>, Shape) {
    let nd = maps.len();
    let strides: Vec<usize> = (0..nd)
        .map(|d| (0..d).map(|k| shape.dim(k)).product())
        .collect();
    let out_dims: Vec<usize> = maps.iter().map(|m| m.len()).collect();
    let n: usize = out_dims.iter().product();
    let mut pos = Vec::with_capacity(n);
    let mut idx = vec![0usize; nd];
    for _ in 0..n {
        pos.push((0..nd).map(|d| maps[d][idx[d]] * strides[d]).sum());
        for d in 0..nd {
            idx[d] += 1;
            if idx[d] < out_dims[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    (pos, Shape::new(&out_dims))
}

/// Source indices 0..len, each repeated by its count.
fn repeat_map(len: usize, counts: &Value) -> MResult<Vec<usize>> {
    let c: Vec<f64> = counts.tensor()?.to_f64().into_owned();
    if c.iter().any(|&x| !(x >= 0.0) || x.fract() != 0.0) {
        return Err(bad_arg(
            "repelem",
            "Replication factors must be nonnegative integers.",
        ));
    }
    if c.len() != 1 && c.len() != len {
        return Err(MError::new(
            "MATLAB:repelem:mismatchedReplications",
            "Replication vector must have the same length as the corresponding dimension.",
        ));
    }
    let total: f64 = if c.len() == 1 {
        c[0] * len as f64
    } else {
        c.iter().sum()
    };
    crate::values::limits::check_count(total.min(u64::MAX as f64) as usize, 8)?;
    let mut out = Vec::with_capacity(total as usize);
    for i in 0..len {
        let k = if c.len() == 1 { c[0] } else { c[i] } as usize;
        out.extend(std::iter::repeat_n(i, k));
    }
    Ok(out)
}

fn repelem(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let v = &a[0];
    let shape = v.shape();
    if a.len() == 2 {
        if !shape.is_vector() && v.numel() != 1 {
            return Err(MError::new(
                "MATLAB:repelem:invalidReplications",
                "Use repelem(A, r1, r2, ...) for a matrix input.",
            ));
        }
        let map = repeat_map(v.numel(), &a[1])?;
        let out = if shape.is_row() || v.numel() == 1 && a[1].numel() >= 1 && shape.is_row() {
            Shape::row(map.len())
        } else {
            Shape::col(map.len())
        };
        return one(shape_ops::gather_value(v, &map, out)?);
    }
    let nd = (a.len() - 1).max(shape.ndims());
    let maps: Vec<Vec<usize>> = (0..nd)
        .map(|d| match a.get(d + 1) {
            Some(c) => repeat_map(shape.dim(d), c),
            None => Ok((0..shape.dim(d)).collect()),
        })
        .collect::<MResult<_>>()?;
    let (pos, out) = positions_from_maps(&shape, &maps);
    one(shape_ops::gather_value(v, &pos, out)?)
}

fn ipermute(i: &mut Interp, f: &mut Frame, a: A, n: usize) -> R {
    let order = int_list(&a[1])?;
    let mut inverse = vec![0.0; order.len()];
    for (k, &d) in order.iter().enumerate() {
        if d == 0 || d > order.len() {
            return Err(MError::new(
                "MATLAB:permute:badIndex",
                "ORDER must be a permutation of 1:N for an N-D array.",
            ));
        }
        inverse[d - 1] = (k + 1) as f64;
    }
    permute(i, f, vec![a[0].clone(), Value::row(inverse)], n)
}

fn shiftdim(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let v = &a[0];
    let dims = v.shape().dims().to_vec();
    let nd = dims.len();
    let n: i64 = match a.get(1) {
        Some(x) => {
            let k = x.scalar_f64()?;
            if k.fract() != 0.0 || !k.is_finite() {
                return Err(bad_arg("shiftdim", "N must be an integer."));
            }
            k as i64
        }
        None => dims
            .iter()
            .take_while(|&&d| d == 1)
            .count()
            .min(nd.saturating_sub(1)) as i64,
    };
    let out = if n >= 0 {
        // rotate the dimensions left; the data order is a permutation of dimensions
        let k = (n as usize) % nd.max(1);
        let order: Vec<usize> = (0..nd).map(|d| (d + k) % nd).collect();
        let (pos, shape) = shape_ops::permute_plan(&v.shape(), &order);
        shape_ops::gather_value(v, &pos, shape)?
    } else {
        // prepend singleton dimensions: the data order is unchanged
        let mut new_dims = vec![1; (-n) as usize];
        new_dims.extend_from_slice(&dims);
        let pos: Vec<usize> = (0..v.numel()).collect();
        shape_ops::gather_value(v, &pos, Shape::new(&new_dims))?
    };
    let mut r = vec![out];
    if nargout > 1 {
        r.push(Value::Num(n as f64));
    }
    Ok(r)
}
