//! Typed sort keys for real arrays: each element becomes a u64 whose unsigned order is
//! MATLAB's (−0 equal to +0, NaN after everything and equal to NaN), sorted by a stable LSD
//! radix sort. sort, unique, ismember and the set operations use them for real numbers whose
//! values f64 holds exactly (every class but int64/uint64 and complex); the general `Key`
//! path keeps text, cells, rows, complex and 64-bit integers.

use crate::values::tensor::{Data, Elem};
use crate::values::value::Value;

/// The key of NaN: above every number.
pub const NAN_KEY: u64 = u64::MAX;

#[inline]
fn key_of(x: f64) -> u64 {
    if x.is_nan() {
        return NAN_KEY;
    }
    // −0 and +0 are one key
    let b = if x == 0.0 { 0 } else { x.to_bits() };
    if b >> 63 == 1 { !b } else { b | 1 << 63 }
}

fn keys_from<T: Elem>(v: &[T]) -> Vec<u64> {
    v.iter()
        .map(|x| {
            crate::interp::interrupt::poll();
            key_of(x.to_f64())
        })
        .collect()
}

/// The keys of a real array whose values are exact in f64, or None.
pub fn real_keys(v: &Value) -> Option<Vec<u64>> {
    match v {
        Value::Num(x) => Some(vec![key_of(*x)]),
        Value::Bool(b) => Some(vec![key_of(*b as u8 as f64)]),
        Value::Tensor(t) => Some(match &t.data {
            Data::F64(v) => keys_from(v),
            Data::F32(v) => keys_from(v),
            Data::Bool(v) => keys_from(v),
            Data::Char(v) => keys_from(v),
            Data::I8(v) => keys_from(v),
            Data::I16(v) => keys_from(v),
            Data::I32(v) => keys_from(v),
            Data::U8(v) => keys_from(v),
            Data::U16(v) => keys_from(v),
            Data::U32(v) => keys_from(v),
            Data::I64(_) | Data::U64(_) | Data::C64(_) | Data::C32(_) => return None,
        }),
        _ => None,
    }
}

/// The stable ascending order of `keys` (positions of equal keys stay in input order).
pub fn order(keys: &[u64]) -> Vec<usize> {
    let n = keys.len();
    if n < 256 {
        let mut idx: Vec<usize> = (0..n).collect();
        idx.sort_by_key(|&i| keys[i]);
        return idx;
    }
    // LSD radix sort, a byte a pass (256 write streams stay in L1), key and position moved
    // together, all counts from one read, digits every key shares skipped
    // Ctrl-C is looked at once per CHUNK keys of each pass (sort(rand(3e7, 1)) is seconds).
    const CHUNK: usize = 1 << 16;
    let mut counts = vec![[0usize; 256]; 8];
    for part in keys.chunks(CHUNK) {
        crate::interp::interrupt::poll_now();
        for &x in part {
            for (p, c) in counts.iter_mut().enumerate() {
                c[((x >> (p * 8)) & 0xFF) as usize] += 1;
            }
        }
    }
    let mut a: Vec<(u64, u32)> = keys
        .iter()
        .zip(0..n as u32)
        .map(|(&k, i)| {
            crate::interp::interrupt::poll();
            (k, i)
        })
        .collect();
    let mut b: Vec<(u64, u32)> = Vec::with_capacity(n);
    for part in a.chunks(CHUNK) {
        crate::interp::interrupt::poll_now();
        b.extend_from_slice(part);
    }
    for (pass, count) in counts.iter_mut().enumerate() {
        let shift = pass * 8;
        if count.iter().any(|&c| c == n) {
            continue;
        }
        let mut sum = 0;
        for c in count.iter_mut() {
            let t = *c;
            *c = sum;
            sum += t;
        }
        for part in a.chunks(CHUNK) {
            crate::interp::interrupt::poll_now();
            for &(k, i) in part {
                let d = ((k >> shift) & 0xFF) as usize;
                let at = count[d];
                count[d] += 1;
                if let Some(slot) = b.get_mut(at) {
                    *slot = (k, i);
                }
            }
        }
        std::mem::swap(&mut a, &mut b);
    }
    a.into_iter().map(|(_, i)| i as usize).collect()
}
