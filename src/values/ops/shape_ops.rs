//! Rearranging elements without computing on them: transpose, permute, repmat, circshift,
//! flip. Planned as position lists so every container kind shares them.

use crate::interp::error::{MError, MResult};
use crate::values::containers::{CellArray, StrArray, StructArray};
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

/// Source positions, in output order, of `permute(A, order)` (order is 0-based).
pub fn permute_plan(shape: &Shape, order: &[usize]) -> (Vec<usize>, Shape) {
    let nd = order.len().max(shape.ndims());
    let in_dims: Vec<usize> = (0..nd).map(|d| shape.dim(d)).collect();
    let in_strides: Vec<usize> = {
        let mut s = vec![1; nd];
        for d in 1..nd {
            s[d] = s[d - 1] * in_dims[d - 1];
        }
        s
    };
    let out_dims: Vec<usize> = order
        .iter()
        .map(|&d| in_dims.get(d).copied().unwrap_or(1))
        .collect();
    let out_shape = Shape::new(&out_dims);
    let n = shape.numel();
    let mut pos = Vec::with_capacity(n);
    if n == 0 {
        return (pos, out_shape);
    }
    let mut ctr = vec![0usize; order.len()];
    let mut tick = crate::interp::interrupt::Ticker::new();
    for _ in 0..n {
        tick.tick();
        let mut p = 0;
        for (k, &d) in order.iter().enumerate() {
            p += ctr[k] * in_strides.get(d).copied().unwrap_or(0);
        }
        pos.push(p);
        for k in 0..order.len() {
            ctr[k] += 1;
            if ctr[k] < out_dims[k] {
                break;
            }
            ctr[k] = 0;
        }
    }
    (pos, out_shape)
}

/// Applies a position plan to any value.
pub fn gather_value(v: &Value, pos: &[usize], shape: Shape) -> MResult<Value> {
    Ok(match v {
        Value::Num(_)
        | Value::Bool(_)
        | Value::Tensor(_)
        | Value::Device(_)
        | Value::DeviceComplex(_) => Value::from(v.tensor()?.gather(pos, shape)),
        Value::Cell(c) => Value::from(CellArray::new(
            shape,
            pos.iter().map(|&i| c.data[i].clone()).collect(),
        )),
        Value::Str(s) => Value::from(StrArray::new(
            shape,
            pos.iter().map(|&i| s.data[i].clone()).collect(),
        )),
        Value::Struct(s) => Value::from(StructArray {
            shape,
            fields: s.fields.clone(),
            elems: pos.iter().map(|&i| s.elems[i].clone()).collect(),
        }),
        Value::Func(_) | Value::Object(_) => v.clone(),
    })
}

pub fn transpose(t: &Tensor) -> MResult<Tensor> {
    if t.shape.ndims() > 2 {
        return Err(MError::new(
            "MATLAB:transpose:ndArray",
            "Transpose on ND array is not defined. Use PERMUTE instead.",
        ));
    }
    if t.shape.rows() == 1 || t.shape.cols() == 1 {
        return Ok(t
            .clone()
            .reshaped(Shape::matrix(t.shape.cols(), t.shape.rows())));
    }
    let (r, c) = (t.shape.rows(), t.shape.cols());
    let data = crate::map_data!(&t.data, v => transposed(v, r, c));
    Ok(Tensor::new(Shape::matrix(c, r), data))
}

/// The c×r transpose of an r×c column-major matrix, in square tiles (both arrays are read or
/// written a cache line at a time, not one line per element), with no position vector: a
/// 1000×1000 transpose through `permute_plan` and a gather took 10 ms.
fn transposed<T: Copy>(v: &[T], r: usize, c: usize) -> Vec<T> {
    const TILE: usize = 32;
    let n = r * c;
    let mut out: Vec<T> = Vec::with_capacity(n);
    let dst = &mut out.spare_capacity_mut()[..n];
    for ib in (0..r).step_by(TILE) {
        crate::interp::interrupt::poll_now();
        let ie = (ib + TILE).min(r);
        for jb in (0..c).step_by(TILE) {
            let je = (jb + TILE).min(c);
            // output rows written in runs, the input read down a tile's columns
            for i in ib..ie {
                let row = &mut dst[i * c + jb..i * c + je];
                let src = &v[i + jb * r..];
                for (k, d) in row.iter_mut().enumerate() {
                    d.write(src[k * r]);
                }
            }
        }
    }
    // SAFETY: the tiles cover every (i, j), so all n elements were written.
    unsafe { out.set_len(n) };
    out
}

/// `v.'` for any value.
pub fn transpose_value(v: &Value) -> MResult<Value> {
    match v {
        Value::Num(_) | Value::Bool(_) => Ok(v.clone()),
        Value::Tensor(t) => Ok(Value::from(transpose(t)?)),
        _ => {
            let s = v.shape();
            if s.ndims() > 2 {
                return Err(MError::new(
                    "MATLAB:transpose:ndArray",
                    "Transpose on ND array is not defined. Use PERMUTE instead.",
                ));
            }
            let (pos, shape) = permute_plan(&s, &[1, 0]);
            gather_value(v, &pos, shape)
        }
    }
}

/// Source positions of `repmat(A, reps)`.
pub fn repmat_plan(shape: &Shape, reps: &[usize]) -> (Vec<usize>, Shape) {
    let nd = reps.len().max(shape.ndims());
    let in_dims: Vec<usize> = (0..nd).map(|d| shape.dim(d)).collect();
    let out_dims: Vec<usize> = (0..nd)
        .map(|d| in_dims[d] * reps.get(d).copied().unwrap_or(1))
        .collect();
    let out = Shape::new(&out_dims);
    let strides = shape.strides();
    let n = out.numel();
    let mut pos = Vec::with_capacity(n);
    if n == 0 {
        return (pos, out);
    }
    let mut ctr = vec![0usize; nd];
    let mut tick = crate::interp::interrupt::Ticker::new();
    for _ in 0..n {
        tick.tick();
        let mut p = 0;
        for d in 0..nd {
            p += (ctr[d] % in_dims[d]) * strides.get(d).copied().unwrap_or(0);
        }
        pos.push(p);
        for d in 0..nd {
            ctr[d] += 1;
            if ctr[d] < out_dims[d] {
                break;
            }
            ctr[d] = 0;
        }
    }
    (pos, out)
}

/// Source positions of shifting by `shifts[d]` along each dimension (circshift) or reversing
/// dimension `flip` (flip).
pub fn shift_plan(shape: &Shape, shifts: &[i64], flip: Option<usize>) -> Vec<usize> {
    let nd = shape.ndims().max(shifts.len());
    let dims: Vec<usize> = (0..nd).map(|d| shape.dim(d)).collect();
    let strides = shape.strides();
    let n = shape.numel();
    let mut pos = Vec::with_capacity(n);
    if n == 0 {
        return pos;
    }
    let mut ctr = vec![0usize; nd];
    let mut tick = crate::interp::interrupt::Ticker::new();
    for _ in 0..n {
        tick.tick();
        let mut p = 0;
        for d in 0..nd {
            let len = dims[d] as i64;
            let mut src = ctr[d] as i64;
            if let Some(&s) = shifts.get(d) {
                src = (src - s).rem_euclid(len);
            }
            if flip == Some(d) {
                src = len - 1 - src;
            }
            p += src as usize * strides.get(d).copied().unwrap_or(0);
        }
        pos.push(p);
        for d in 0..nd {
            ctr[d] += 1;
            if ctr[d] < dims[d] {
                break;
            }
            ctr[d] = 0;
        }
    }
    pos
}
