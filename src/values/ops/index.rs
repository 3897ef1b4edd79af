//! Indexing, planned on shapes alone: which linear positions a read selects, where a write
//! lands (and how the array grows), which elements a deletion keeps. Every container (numeric
//! tensors, cells, structs, strings) gathers and scatters with the same plans.

use crate::interp::error::{MError, MResult};
use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::tensor::Data;
use crate::values::value::Value;

/// One subscript, converted to 0-based positions.
#[derive(Debug, Clone)]
pub enum Sub {
    /// `:`
    All,
    /// Positions, with the shape the index value had (for the shape of a linear read).
    List(Vec<usize>, Shape),
}

impl Sub {
    fn len(&self, extent: usize) -> usize {
        match self {
            Sub::All => extent,
            Sub::List(v, _) => v.len(),
        }
    }
    fn at(&self, k: usize) -> usize {
        match self {
            Sub::All => k,
            Sub::List(v, _) => v[k],
        }
    }
    fn max(&self) -> Option<usize> {
        match self {
            Sub::All => None,
            Sub::List(v, _) => v.iter().copied().max(),
        }
    }
}

fn invalid_index(pos: usize, nargs: usize) -> MError {
    if nargs == 1 {
        MError::new(
            "MATLAB:badsubscript",
            "Array indices must be positive integers or logical values.",
        )
    } else {
        MError::new(
            "MATLAB:badsubscript",
            format!(
                "Index in position {pos} is invalid. Array indices must be positive integers or logical values."
            ),
        )
    }
}

/// Converts an index argument (numbers, a logical mask, or `':'`) to a subscript.
pub fn to_sub(v: &Value, pos: usize, nargs: usize) -> MResult<Sub> {
    match v {
        Value::Num(x) => {
            let x = *x;
            if x >= 1.0 && x.fract() == 0.0 && x.is_finite() {
                Ok(Sub::List(vec![x as usize - 1], Shape::scalar()))
            } else {
                Err(invalid_index(pos, nargs))
            }
        }
        Value::Bool(b) => Ok(Sub::List(
            if *b { vec![0] } else { vec![] },
            if *b {
                Shape::scalar()
            } else {
                Shape::matrix(0, 0)
            },
        )),
        Value::Tensor(t) => {
            if t.class() == Class::Char && t.numel() == 1 && t.get_f64(0) == ':' as u32 as f64 {
                return Ok(Sub::All);
            }
            if let Data::Bool(m) = &t.data {
                let pos: Vec<usize> = m
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| **b)
                    .map(|(i, _)| i)
                    .collect();
                let n = pos.len();
                let shape = if t.shape.is_row() {
                    Shape::row(n)
                } else {
                    Shape::col(n)
                };
                return Ok(Sub::List(pos, shape));
            }
            if t.is_complex() {
                return Err(invalid_index(pos, nargs));
            }
            let xs = t.to_f64();
            let mut out = Vec::with_capacity(xs.len());
            let mut tick = crate::interp::interrupt::Ticker::new();
            for &x in xs.iter() {
                tick.tick();
                if !(x >= 1.0 && x.fract() == 0.0 && x.is_finite()) {
                    return Err(invalid_index(pos, nargs));
                }
                out.push(x as usize - 1);
            }
            Ok(Sub::List(out, t.shape.clone()))
        }
        other => Err(MError::new(
            "MATLAB:badsubscript",
            format!(
                "Unable to use a value of type {} as an index.",
                other.class_name()
            ),
        )),
    }
}

pub fn to_subs(args: &[Value]) -> MResult<Vec<Sub>> {
    args.iter()
        .enumerate()
        .map(|(k, a)| to_sub(a, k + 1, args.len()))
        .collect()
}

/// Dimensions seen by `k` subscripts: the trailing ones fold into the last.
fn folded_dims(shape: &Shape, k: usize) -> Vec<usize> {
    let d = shape.dims();
    let mut out: Vec<usize> = (0..k).map(|i| shape.dim(i)).collect();
    if k < d.len() && k > 0 {
        out[k - 1] = d[k - 1..].iter().product();
    }
    out
}

/// Linear positions and result shape of reading `A(subs...)`.
pub fn plan_read(shape: &Shape, subs: &[Sub]) -> MResult<(Vec<usize>, Shape)> {
    let numel = shape.numel();
    match subs.len() {
        0 => Ok(((0..numel).collect(), shape.clone())),
        1 => match &subs[0] {
            Sub::All => Ok(((0..numel).collect(), Shape::col(numel))),
            Sub::List(v, ishape) => {
                if let Some(&m) = v.iter().max() {
                    if m >= numel {
                        return Err(MError::new(
                            "MATLAB:badsubscript",
                            format!(
                                "Index exceeds the number of array elements. Index must not exceed {numel}."
                            ),
                        ));
                    }
                }
                Ok((v.clone(), linear_read_shape(shape, ishape, v.len())))
            }
        },
        k => {
            let dims = folded_dims(shape, k);
            for (i, s) in subs.iter().enumerate() {
                if let Some(m) = s.max() {
                    if m >= dims[i] {
                        return Err(MError::new(
                            "MATLAB:badsubscript",
                            format!(
                                "Index in position {} exceeds array bounds. Index must not exceed {}.",
                                i + 1,
                                dims[i]
                            ),
                        ));
                    }
                }
            }
            let lens: Vec<usize> = subs.iter().zip(&dims).map(|(s, &d)| s.len(d)).collect();
            Ok((positions(subs, &dims, &lens), Shape::new(&lens)))
        }
    }
}

/// Shape of `A(idx)` with one subscript: `n` elements chosen by an index of shape `ishape`.
pub fn linear_read_shape(shape: &Shape, ishape: &Shape, n: usize) -> Shape {
    let numel = shape.numel();
    // a vector source indexed by a vector keeps the source's orientation, also when that
    // orientation is along a higher dimension (1x1xN)
    let along: Vec<usize> = (0..shape.ndims()).filter(|&d| shape.dim(d) != 1).collect();
    if along.len() == 1 && numel != 1 && ishape.is_vector() {
        let mut dims = vec![1; shape.ndims()];
        dims[along[0]] = n;
        Shape::new(&dims)
    } else if shape.is_vector() && numel == 0 && ishape.is_vector() {
        if shape.is_row() {
            Shape::row(n)
        } else {
            Shape::col(n)
        }
    } else {
        ishape.clone()
    }
}

/// Column-major enumeration of the selected positions in an array of extents `dims`.
fn positions(subs: &[Sub], dims: &[usize], lens: &[usize]) -> Vec<usize> {
    let total: usize = lens.iter().product();
    let mut out = Vec::with_capacity(total);
    if total == 0 {
        return out;
    }
    let k = subs.len();
    let mut strides = vec![1usize; k];
    for i in 1..k {
        strides[i] = strides[i - 1] * dims[i - 1];
    }
    let mut ctr = vec![0usize; k];
    let mut tick = crate::interp::interrupt::Ticker::new();
    loop {
        tick.tick();
        let mut p = 0;
        for i in 0..k {
            p += subs[i].at(ctr[i]) * strides[i];
        }
        out.push(p);
        let mut i = 0;
        loop {
            ctr[i] += 1;
            if ctr[i] < lens[i] {
                break;
            }
            ctr[i] = 0;
            i += 1;
            if i == k {
                return out;
            }
        }
    }
}

/// Where an indexed write lands: the array's new shape and the positions (in that shape) that
/// receive the right-hand side's elements, in order.
pub struct WritePlan {
    pub shape: Shape,
    pub positions: Vec<usize>,
}

fn numel_mismatch() -> MError {
    MError::new(
        "MATLAB:subsassignnumelmismatch",
        "Unable to perform assignment because the indices on the left side are not compatible with the size of the right side.",
    )
}

fn dims_text(d: &[usize]) -> String {
    d.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join("-by-")
}

pub fn plan_write(shape: &Shape, subs: &[Sub], rhs: &Shape) -> MResult<WritePlan> {
    // a growing array must stay within the size limit (checked before any shape arithmetic)
    let mut ext: Vec<usize> = (0..subs.len().max(shape.ndims()))
        .map(|d| shape.dim(d))
        .collect();
    for (i, s) in subs.iter().enumerate() {
        if let Some(m) = s.max() {
            if subs.len() == 1 {
                crate::values::limits::check_dims(&[m + 1], 8)?;
            } else if m + 1 > ext[i] {
                ext[i] = m + 1;
            }
        }
    }
    crate::values::limits::check_dims(&ext, 8)?;
    plan_write_checked(shape, subs, rhs)
}

fn plan_write_checked(shape: &Shape, subs: &[Sub], rhs: &Shape) -> MResult<WritePlan> {
    let numel = shape.numel();
    let rn = rhs.numel();
    match subs.len() {
        0 => Err(MError::new(
            "MATLAB:index:noSubscripts",
            "Indexed assignment needs at least one index.",
        )),
        1 => {
            let (positions, new_shape) = match &subs[0] {
                Sub::All => {
                    if numel == 0 && rn > 0 && shape.dims() == [0, 0] {
                        // x(:) = v on an empty x makes x a copy of v's elements as a column
                        ((0..rn).collect(), Shape::col(rn))
                    } else {
                        ((0..numel).collect(), shape.clone())
                    }
                }
                Sub::List(v, _) => {
                    let m = v.iter().copied().max();
                    let new_shape = match m {
                        Some(m) if m >= numel => {
                            let n = m + 1;
                            if shape.ndims() > 2 || (shape.rows() > 1 && shape.cols() > 1) {
                                return Err(MError::new(
                                    "MATLAB:indexed:ambiguousGrowth",
                                    "Attempt to grow array along ambiguous dimension.",
                                ));
                            }
                            if shape.cols() == 1 && shape.rows() >= 1 && !(shape.rows() == 1)
                                || shape.dims() == [0, 1]
                            {
                                Shape::col(n)
                            } else {
                                Shape::row(n)
                            }
                        }
                        _ => shape.clone(),
                    };
                    (v.clone(), new_shape)
                }
            };
            if rn != 1 && rn != positions.len() {
                return Err(numel_mismatch());
            }
            Ok(WritePlan {
                shape: new_shape,
                positions,
            })
        }
        k => {
            let folded = shape.ndims() > k;
            let mut dims = folded_dims(shape, k);
            // `:` over an empty extent of [] takes its length from the right-hand side
            let unknown: Vec<usize> = (0..k)
                .filter(|&i| matches!(subs[i], Sub::All) && dims[i] == 0)
                .collect();
            if shape.dims() == [0, 0] && !unknown.is_empty() {
                let known: usize = (0..k)
                    .filter(|i| !unknown.contains(i))
                    .map(|i| subs[i].len(dims[i].max(subs[i].max().map(|m| m + 1).unwrap_or(0))))
                    .product();
                for (j, &i) in unknown.iter().enumerate() {
                    dims[i] = if rn == 1 {
                        1
                    } else if unknown.len() == 1 {
                        if known == 0 || rn % known != 0 {
                            return Err(numel_mismatch());
                        }
                        rn / known
                    } else {
                        let _ = j;
                        rhs.dim(i)
                    };
                }
            }
            let mut lens = Vec::with_capacity(k);
            for (i, s) in subs.iter().enumerate() {
                if let Some(m) = s.max() {
                    if m >= dims[i] {
                        if folded && i == k - 1 {
                            return Err(MError::new(
                                "MATLAB:indexed:ambiguousGrowth",
                                "Attempt to grow array along ambiguous dimension.",
                            ));
                        }
                        dims[i] = m + 1;
                    }
                }
                lens.push(s.len(dims[i]));
            }
            let count: usize = lens.iter().product();
            if rn != 1 {
                let lhs_ns: Vec<usize> = lens.iter().copied().filter(|&d| d != 1).collect();
                let rhs_ns: Vec<usize> = rhs.dims().iter().copied().filter(|&d| d != 1).collect();
                let vectors = lhs_ns.len() <= 1 && rhs_ns.len() <= 1;
                if rn != count || (lhs_ns != rhs_ns && !vectors) {
                    return Err(MError::new(
                        "MATLAB:subsassigndimmismatch",
                        format!(
                            "Unable to perform assignment because the size of the left side is {} and the size of the right side is {}.",
                            dims_text(&lens),
                            dims_text(rhs.dims())
                        ),
                    ));
                }
            }
            let new_shape = if folded {
                // the folded trailing extent did not grow: keep the trailing dimensions
                let mut d: Vec<usize> = shape.dims().to_vec();
                d[..k - 1].copy_from_slice(&dims[..k - 1]);
                Shape::new(&d)
            } else {
                Shape::new(&dims)
            };
            Ok(WritePlan {
                shape: new_shape,
                positions: positions(subs, &dims, &lens),
            })
        }
    }
}

/// For growing an array: where each old element lands in the new shape (None when the shape
/// is unchanged).
pub fn relayout(old: &Shape, new: &Shape) -> Option<Vec<usize>> {
    if old == new {
        return None;
    }
    let n = old.numel();
    if old.ndims() <= 2
        && new.ndims() <= 2
        && (old.rows() == new.rows() || old.cols() <= 1 && new.cols() <= 1)
    {
        if old.rows() == new.rows() || n == 0 {
            return Some((0..n).collect());
        }
    }
    let od = old.dims();
    let ns = new.strides();
    let mut out = Vec::with_capacity(n);
    let mut ctr = vec![0usize; od.len()];
    for _ in 0..n {
        let mut p = 0;
        for (i, &c) in ctr.iter().enumerate() {
            p += c * ns.get(i).copied().unwrap_or(0);
        }
        out.push(p);
        for i in 0..od.len() {
            ctr[i] += 1;
            if ctr[i] < od[i] {
                break;
            }
            ctr[i] = 0;
        }
    }
    Some(out)
}

/// What deleting `A(subs...) = []` leaves: the new shape and the kept positions in order.
pub fn plan_delete(shape: &Shape, subs: &[Sub]) -> MResult<(Shape, Vec<usize>)> {
    let numel = shape.numel();
    match subs.len() {
        0 => Ok((shape.clone(), (0..numel).collect())),
        1 => match &subs[0] {
            Sub::All => Ok((Shape::matrix(0, 0), vec![])),
            Sub::List(v, _) => {
                if let Some(&m) = v.iter().max() {
                    if m >= numel {
                        return Err(MError::new(
                            "MATLAB:badsubscript",
                            format!(
                                "Index exceeds the number of array elements. Index must not exceed {numel}."
                            ),
                        ));
                    }
                }
                if v.is_empty() {
                    return Ok((shape.clone(), (0..numel).collect()));
                }
                let mut del = vec![false; numel];
                for &i in v {
                    del[i] = true;
                }
                let keep: Vec<usize> = (0..numel).filter(|&i| !del[i]).collect();
                let n = keep.len();
                let out = if shape.is_col() && shape.cols() == 1 && shape.rows() != 1 {
                    Shape::col(n)
                } else {
                    Shape::row(n)
                };
                Ok((out, keep))
            }
        },
        k => {
            let dims = folded_dims(shape, k);
            // exactly one subscript may select a strict subset
            let mut which = None;
            for (i, s) in subs.iter().enumerate() {
                let full = match s {
                    Sub::All => true,
                    Sub::List(v, _) => {
                        let mut seen = vec![false; dims[i]];
                        for &x in v {
                            if x >= dims[i] {
                                return Err(MError::new(
                                    "MATLAB:badsubscript",
                                    format!(
                                        "Index in position {} exceeds array bounds. Index must not exceed {}.",
                                        i + 1,
                                        dims[i]
                                    ),
                                ));
                            }
                            seen[x] = true;
                        }
                        seen.iter().all(|&b| b) && dims[i] > 0
                    }
                };
                if !full {
                    if which.is_some() {
                        return Err(MError::new(
                            "MATLAB:nullAssignmentNonColon",
                            "A null assignment can have only one non-colon index.",
                        ));
                    }
                    which = Some(i);
                }
            }
            let Some(d) = which else {
                // everything deleted along some dimension
                let mut nd = dims.clone();
                if let Some(first_list) = subs.iter().position(|s| matches!(s, Sub::List(..))) {
                    nd[first_list] = 0;
                } else {
                    nd[0] = 0;
                }
                return Ok((Shape::new(&nd), vec![]));
            };
            let Sub::List(v, _) = &subs[d] else {
                return Ok((shape.clone(), (0..numel).collect()));
            };
            let mut del = vec![false; dims[d]];
            for &x in v {
                del[x] = true;
            }
            let kept: Vec<usize> = (0..dims[d]).filter(|&i| !del[i]).collect();
            let mut nd = dims.clone();
            nd[d] = kept.len();
            let subs2: Vec<Sub> = (0..k)
                .map(|i| {
                    if i == d {
                        Sub::List(kept.clone(), Shape::row(kept.len()))
                    } else {
                        Sub::All
                    }
                })
                .collect();
            Ok((Shape::new(&nd), positions(&subs2, &dims, &nd)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    fn list(v: &[usize]) -> Sub {
        Sub::List(v.to_vec(), Shape::row(v.len()))
    }
    #[test]
    fn read_subscripts() {
        let s = Shape::matrix(3, 3);
        let (p, sh) = plan_read(&s, &[list(&[0, 2]), Sub::All]).unwrap();
        assert_eq!(sh, Shape::matrix(2, 3));
        assert_eq!(p, vec![0, 2, 3, 5, 6, 8]);
    }
    #[test]
    fn grow_vector_and_matrix() {
        let w = plan_write(&Shape::row(3), &[list(&[4])], &Shape::scalar()).unwrap();
        assert_eq!(w.shape, Shape::row(5));
        let w = plan_write(
            &Shape::matrix(2, 2),
            &[list(&[2]), list(&[2])],
            &Shape::scalar(),
        )
        .unwrap();
        assert_eq!(w.shape, Shape::matrix(3, 3));
        assert_eq!(w.positions, vec![8]);
        assert!(plan_write(&Shape::matrix(2, 2), &[list(&[6])], &Shape::scalar()).is_err());
        assert_eq!(
            relayout(&Shape::matrix(2, 2), &Shape::matrix(3, 3)).unwrap(),
            vec![0, 1, 3, 4]
        );
    }
    #[test]
    fn delete_columns() {
        let (sh, keep) = plan_delete(&Shape::matrix(2, 3), &[Sub::All, list(&[1])]).unwrap();
        assert_eq!(sh, Shape::matrix(2, 2));
        assert_eq!(keep, vec![0, 1, 4, 5]);
    }
}
