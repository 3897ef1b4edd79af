//! Sorting: sort sortrows issorted.

use super::sets::{Key, key_cmp, keys_of};
use super::sort_keys;
use super::{Builtin, b, bad_arg, dim_arg, one, split_flags};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::Frame;
use crate::values::ops::reduce::{default_dim, lanes};
use crate::values::tensor::Tensor;
use crate::values::value::Value;
use std::cmp::Ordering;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("sort", 1, 5, 2, "sort(A, dim, 'ascend'|'descend'), [B, I] = sort(...): sort elements (stable; NaN last).", sort),
        b("sortrows", 1, 3, 2, "sortrows(A, column), [B, I] = sortrows(...): sort rows (negative columns sort descending).", sortrows),
        b("issorted", 1, 3, 1, "issorted(A): true if the elements are in ascending order.", issorted),
    ]
}

/// Stable order of keys (ascending or descending; NaN last ascending, first descending).
fn order_of(keys: &[Key], descend: bool) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..keys.len()).collect();
    idx.sort_by(|&i, &j| {
        crate::interp::interrupt::poll();
        let o = key_cmp(&keys[i], &keys[j]);
        if descend { o.reverse() } else { o }
    });
    idx
}

fn sort(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let (pos, flags) = split_flags(a);
    let mut descend = false;
    let mut by_abs = false;
    let mut k = 0;
    while k < flags.len() {
        match flags[k].as_str() {
            "descend" => descend = true,
            "ascend" => descend = false,
            "comparisonmethod" => {
                by_abs = flags.get(k + 1).is_some_and(|m| m == "abs");
                k += 1;
            }
            other => return Err(bad_arg("sort", format!("Unrecognized option '{other}'."))),
        }
        k += 1;
    }
    let v = &pos[0];
    if nargout <= 1 && !by_abs {
        if let Some(r) = super::set_table::sort_values(v, descend, pos.len() > 1) {
            return Ok(vec![r]);
        }
    }
    let shape = v.shape();
    // real numbers sort by typed keys (radix); the rest through the general keys
    let fast = if by_abs {
        None
    } else {
        sort_keys::real_keys(v)
    };
    let mut keys = if fast.is_some() {
        Vec::new()
    } else {
        keys_of(v, false)?
    };
    if by_abs {
        keys = keys
            .into_iter()
            .map(|k| match k {
                Key::Num(x) => Key::Cplx(x, 0.0),
                Key::Int(x) => Key::Cplx(x as f64, 0.0),
                other => other,
            })
            .collect();
    }
    let d = match pos.get(1) {
        Some(dv) => dim_arg(dv)?,
        None => default_dim(&shape),
    };
    let (inner, len, outer) = lanes(&shape, d);
    let mut positions = vec![0usize; shape.numel()];
    let mut index = vec![0f64; shape.numel()];
    for o in 0..outer {
        for i in 0..inner {
            crate::interp::interrupt::poll();
            let lane_pos: Vec<usize> = (0..len)
                .map(|k| {
                    crate::interp::interrupt::poll();
                    i + k * inner + o * inner * len
                })
                .collect();
            let order = match &fast {
                Some(fk) => {
                    // complemented keys sort descending, NaN first, equal keys still stable
                    let lane: Vec<u64> = lane_pos
                        .iter()
                        .map(|&p| {
                            crate::interp::interrupt::poll();
                            if descend { !fk[p] } else { fk[p] }
                        })
                        .collect();
                    sort_keys::order(&lane)
                }
                None => {
                    let lane: Vec<Key> = lane_pos
                        .iter()
                        .map(|&p| {
                            crate::interp::interrupt::poll();
                            keys[p].clone()
                        })
                        .collect();
                    order_of(&lane, descend)
                }
            };
            for (k, &src) in order.iter().enumerate() {
                crate::interp::interrupt::poll();
                positions[lane_pos[k]] = lane_pos[src];
                index[lane_pos[k]] = (src + 1) as f64;
            }
        }
    }
    let sorted = crate::values::ops::shape_ops::gather_value(v, &positions, shape.clone())?;
    let mut out = vec![sorted];
    if nargout > 1 {
        out.push(Value::from(Tensor::f64(shape, index)));
    }
    Ok(out)
}

fn sortrows(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let (pos, flags) = split_flags(a);
    let v = &pos[0];
    let shape = v.shape();
    if shape.ndims() > 2 {
        return Err(bad_arg("sortrows", "The input must be a 2-D matrix."));
    }
    let (r, c) = (shape.rows(), shape.cols());
    let keys = keys_of(v, false)?;
    let descend_all = flags.iter().any(|f| f == "descend");
    let cols: Vec<(usize, bool)> = match pos.get(1) {
        Some(cv) if !cv.is_empty() => {
            let t = cv.tensor()?;
            t.to_f64()
                .iter()
                .map(|&x| {
                    let j = x.abs() as usize;
                    if j == 0 || j > c || x.fract() != 0.0 {
                        Err(bad_arg(
                            "sortrows",
                            "Column indices must be integers within the number of columns.",
                        ))
                    } else {
                        Ok((j - 1, (x < 0.0) != descend_all))
                    }
                })
                .collect::<MResult<_>>()?
        }
        _ => (0..c).map(|j| (j, descend_all)).collect(),
    };
    let mut idx: Vec<usize> = (0..r).collect();
    idx.sort_by(|&p, &q| {
        crate::interp::interrupt::poll();
        for &(j, desc) in &cols {
            let o = key_cmp(&keys[p + j * r], &keys[q + j * r]);
            let o = if desc { o.reverse() } else { o };
            if o != Ordering::Equal {
                return o;
            }
        }
        Ordering::Equal
    });
    let mut tick = crate::interp::interrupt::Ticker::new();
    let positions: Vec<usize> = (0..c)
        .flat_map(|j| idx.iter().map(move |&i| i + j * r))
        .inspect(|_| tick.tick())
        .collect();
    let sorted = crate::values::ops::shape_ops::gather_value(v, &positions, shape)?;
    let mut out = vec![sorted];
    if nargout > 1 {
        out.push(Value::col(idx.iter().map(|&i| (i + 1) as f64).collect()));
    }
    Ok(out)
}

fn issorted(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let keys = keys_of(&a[0], false)?;
    one(Value::Bool(
        keys.windows(2)
            .all(|w| key_cmp(&w[0], &w[1]) != Ordering::Greater),
    ))
}
