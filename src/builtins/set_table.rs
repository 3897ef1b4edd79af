//! Fast forms of `ismember` and `sort` for plain real arrays.
//!
//! `ismember(A, S)` of whole numbers (integer classes, or doubles and singles holding only
//! whole numbers) whose range is not much larger than the arrays: a direct table over S's
//! range holding each value's lowest position in S, then one lookup per element of A (what
//! NumPy's `isin` does for integers). No sort of either side.
//!
//! `sort(x)` of a real vector asked for its values only: the typed keys alone are radix
//! sorted (no positions carried, no index output made) and turned back into values; the
//! zeros, which share one key, get their signs back in their input order (the order a stable
//! sort keeps).

use crate::interp::error::MResult;
use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Elem, Tensor};
use crate::values::value::Value;
use rayon::prelude::*;

/// Whole values of a real array as i64, or None (a fraction, NaN, Inf, or 64-bit data).
fn whole_values(v: &Value) -> Option<Vec<i64>> {
    fn ints<T: Elem + Sync>(v: &[T]) -> Option<Vec<i64>> {
        let mut out = Vec::with_capacity(v.len());
        for x in v {
            let f = x.to_f64();
            if f.fract() != 0.0 || f.abs() > 9.0e15 || f.is_nan() {
                return None;
            }
            out.push(f as i64);
        }
        Some(out)
    }
    match v {
        Value::Num(x) => ints(&[*x]),
        Value::Tensor(t) => match &t.data {
            Data::F64(v) => ints(v),
            Data::F32(v) => ints(v),
            Data::I8(v) => ints(v),
            Data::I16(v) => ints(v),
            Data::I32(v) => ints(v),
            Data::U8(v) => ints(v),
            Data::U16(v) => ints(v),
            Data::U32(v) => ints(v),
            _ => None,
        },
        _ => None,
    }
}

/// `[tf, loc] = ismember(a, s)` by a direct table, or None when it does not apply.
pub fn ismember(a: &Value, s: &Value, nargout: usize) -> Option<MResult<Vec<Value>>> {
    if a.numel() < 1024 {
        return None;
    }
    let va = whole_values(a)?;
    let vs = whole_values(s)?;
    let shape = a.shape();
    let (lo, hi) = match (vs.iter().min(), vs.iter().max()) {
        (Some(&lo), Some(&hi)) => (lo, hi),
        _ => (1, 0),
    };
    let range = (hi - lo + 1).max(0) as u64;
    if range > 8 * (va.len() + vs.len()) as u64 + 4096 || range > 1 << 28 {
        return None;
    }
    if nargout <= 1 {
        // membership alone: a table of one byte a value (a quarter of the positions' memory,
        // so it stays in the cache longer)
        let mut present = vec![false; range as usize];
        for &v in &vs {
            if let Some(t) = present.get_mut((v - lo) as usize) {
                *t = true;
            }
        }
        let tf: Vec<bool> = va
            .par_iter()
            .with_min_len(1 << 16)
            .map(|&v| {
                v >= lo && v <= hi && present.get((v - lo) as usize).copied().unwrap_or(false)
            })
            .collect();
        return Some(Ok(vec![Value::from(Tensor::bools(shape, tf))]));
    }
    // each value's lowest position in s, plus one (0: absent)
    let mut table = vec![0u32; range as usize];
    for (q, &v) in vs.iter().enumerate().rev() {
        if let Some(t) = table.get_mut((v - lo) as usize) {
            *t = q as u32 + 1;
        }
    }
    let at = |v: i64| -> u32 {
        if v < lo || v > hi {
            return 0;
        }
        table.get((v - lo) as usize).copied().unwrap_or(0)
    };
    let tf: Vec<bool> = va
        .par_iter()
        .with_min_len(1 << 14)
        .map(|&v| at(v) != 0)
        .collect();
    let mut out = vec![Value::from(Tensor::bools(shape.clone(), tf))];
    if nargout > 1 {
        let loc: Vec<f64> = va
            .par_iter()
            .with_min_len(1 << 14)
            .map(|&v| at(v) as f64)
            .collect();
        out.push(Value::from(Tensor::f64(shape, loc)));
    }
    Some(Ok(out))
}

/// Key of a double: unsigned order is numeric order, −0 and +0 one key, NaN above all
/// (`sort_keys`' keys).
#[inline(always)]
fn key_of(x: f64) -> u64 {
    if x.is_nan() {
        return u64::MAX;
    }
    let b = if x == 0.0 { 0 } else { x.to_bits() };
    if b >> 63 == 1 { !b } else { b | 1 << 63 }
}

#[inline(always)]
fn value_of(k: u64) -> f64 {
    if k == u64::MAX {
        return f64::NAN;
    }
    if k >> 63 == 1 {
        f64::from_bits(k & !(1 << 63))
    } else {
        f64::from_bits(!k)
    }
}

/// Sorts keys in place, LSD radix a byte a pass, digits every key shares skipped.
fn radix(keys: &mut Vec<u64>) {
    let n = keys.len();
    let mut counts = vec![[0usize; 256]; 8];
    for &x in keys.iter() {
        for (p, c) in counts.iter_mut().enumerate() {
            c[((x >> (p * 8)) & 0xFF) as usize] += 1;
        }
    }
    let mut other = vec![0u64; n];
    if crate::gpu::faults::fires(crate::gpu::faults::Fault::SlowSort) {
        std::thread::sleep(std::time::Duration::from_secs(3));
    }
    for (pass, count) in counts.iter_mut().enumerate() {
        if count.iter().any(|&c| c == n) {
            continue;
        }
        crate::interp::interrupt::poll_now();
        let shift = pass * 8;
        let mut sum = 0;
        for c in count.iter_mut() {
            let t = *c;
            *c = sum;
            sum += t;
        }
        for &k in keys.iter() {
            let d = ((k >> shift) & 0xFF) as usize;
            if let Some(slot) = other.get_mut(count[d]) {
                *slot = k;
            }
            count[d] += 1;
        }
        std::mem::swap(keys, &mut other);
    }
}

/// Values of one vector sorted (`descend`: largest first, NaN first).
fn sorted<T: Elem>(v: &[T], descend: bool, back: impl Fn(f64) -> T) -> Vec<T> {
    let flip = |k: u64| if descend { !k } else { k };
    let mut keys: Vec<u64> = v.iter().map(|x| flip(key_of(x.to_f64()))).collect();
    radix(&mut keys);
    let mut out: Vec<T> = keys.iter().map(|&k| back(value_of(flip(k)))).collect();
    // the zeros' signs, in input order, into the run of zeros
    let zeros: Vec<T> = v.iter().copied().filter(|x| x.to_f64() == 0.0).collect();
    if zeros.iter().any(|z| z.to_f64().is_sign_negative()) {
        if let Some(first) = out.iter().position(|x| x.to_f64() == 0.0) {
            for (o, z) in out[first..].iter_mut().zip(zeros) {
                *o = z;
            }
        }
    }
    out
}

/// `sort(x)` or `sort(x, 'descend')` of a real double or single vector with one output, or
/// None for other forms (the general sort).
pub fn sort_values(v: &Value, descend: bool, dim_given: bool) -> Option<Value> {
    let Value::Tensor(t) = v else {
        return None;
    };
    if dim_given || !t.shape.is_vector() || t.numel() < 256 {
        return None;
    }
    let data = match &t.data {
        Data::F64(x) => Data::F64(sorted(x, descend, |f| f)),
        Data::F32(x) => Data::F32(sorted(x, descend, |f| f as f32)),
        _ => return None,
    };
    debug_assert!(matches!(t.class(), Class::Double | Class::Single));
    Some(Value::from(Tensor::new(Shape::clone(&t.shape), data)))
}

/// `intersect(A, B)` of two real arrays of one class (not 'rows'): both sides radix sorted
/// by their typed keys (stable, so each key's first position leads its run), then merged;
/// each common key once, at its first position in A, as the general path (a binary search
/// of every element of A in B's sorted keys, then a sort of the candidates) gives it; NaNs
/// never match. `ia` and `ib` are the first positions. None for other inputs.
pub fn intersect_sorted(pos: &[Value], stable: bool, nargout: usize) -> Option<Vec<Value>> {
    let [a, b] = pos else {
        return None;
    };
    let same_real = match (a, b) {
        (Value::Tensor(x), Value::Tensor(y)) => {
            x.class() == y.class()
                && !x.is_complex()
                && !matches!(
                    x.class(),
                    Class::Char | Class::Logical | Class::Int64 | Class::UInt64
                )
        }
        _ => false,
    };
    if !same_real {
        return None;
    }
    let ka = super::sort_keys::real_keys(a)?;
    let kb = super::sort_keys::real_keys(b)?;
    let (sa, sb) = (super::sort_keys::order(&ka), super::sort_keys::order(&kb));
    // (position in A, position in B) of each common key, in key order
    let mut picked: Vec<(usize, usize)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < sa.len() && j < sb.len() {
        let (x, y) = (ka[sa[i]], kb[sb[j]]);
        if x == super::sort_keys::NAN_KEY || y == super::sort_keys::NAN_KEY {
            break;
        }
        if x < y {
            i += 1;
        } else if y < x {
            j += 1;
        } else {
            picked.push((sa[i], sb[j]));
            while i < sa.len() && ka[sa[i]] == x {
                i += 1;
            }
            while j < sb.len() && kb[sb[j]] == x {
                j += 1;
            }
        }
    }
    if stable {
        picked.sort_by_key(|p| p.0);
    }
    let is_row = |v: &Value| v.shape().is_row() || v.numel() <= 1 && !v.shape().is_col();
    let row = is_row(a) && is_row(b) || a.shape().is_row() && a.numel() > 1;
    let n = picked.len();
    let shape = if row { Shape::row(n) } else { Shape::col(n) };
    let firsts: Vec<usize> = picked.iter().map(|p| p.0).collect();
    let mut out = vec![crate::values::ops::shape_ops::gather_value(a, &firsts, shape).ok()?];
    if nargout > 1 {
        out.push(Value::col(
            picked.iter().map(|p| (p.0 + 1) as f64).collect(),
        ));
    }
    if nargout > 2 {
        out.push(Value::col(
            picked.iter().map(|p| (p.1 + 1) as f64).collect(),
        ));
    }
    Some(out)
}
