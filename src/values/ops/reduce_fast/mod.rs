//! Typed reductions of real arrays: read in their own storage type (no widened copy), lanes
//! along the first dimension as straight loops with several accumulators, lanes along other
//! dimensions a row of accumulators at a time, long lanes split across the cores.
//!
//! Sums of lanes shorter than `SEQUENTIAL` add in order from +0, as the general path does;
//! longer lanes add fixed blocks of `BLOCK` elements with eight accumulators each, then the
//! blocks in order, so a result never depends on the number of threads. max/min and their
//! positions are exactly the general path's: the first extreme element, NaN by MATLAB's flags.

use super::Red;
use crate::interp::interrupt::Watch;
use crate::values::tensor::{Data, Elem};
use rayon::prelude::*;

/// Elements below which a reduction runs on the calling thread: a pass of one operation an
/// element over 2^18 elements takes about as long as waking the other threads and waiting
/// for them on a busy machine (`sum`, `max` of 1e5 elements were 2-4x NumPy's time, most
/// of it the hand-off). The blocks are the same either way, so are the results.
const PAR_MIN: usize = 1 << 18;

/// Lanes shorter than this are summed strictly in order.
const SEQUENTIAL: usize = 1024;

/// Runs `$body` with `$v` bound to the storage of any real `Data`, or returns None.
macro_rules! real_data {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            Data::F64($v) => $body,
            Data::F32($v) => $body,
            Data::Bool($v) => $body,
            Data::I8($v) => $body,
            Data::I16($v) => $body,
            Data::I32($v) => $body,
            Data::I64($v) => $body,
            Data::U8($v) => $body,
            Data::U16($v) => $body,
            Data::U32($v) => $body,
            Data::U64($v) => $body,
            Data::Char($v) => $body,
            Data::C64(_) | Data::C32(_) => return None,
        }
    };
}

mod extremes;
mod sums;
mod variances;

pub use extremes::extreme_positions;
pub(crate) use sums::block_sum;
pub use sums::sums;
pub use variances::variances;

/// (inner, len, outer) of the lanes, as `reduce::lanes` gives them.
pub type Lanes = (usize, usize, usize);

/// Runs `f(first lane, accumulators)` over stretches of the lanes of `acc` (one value a
/// lane), across the cores when the reduction reads at least `PAR_MIN_CHEAP` elements, each
/// stretch a multiple of eight lanes; `f` looks at Ctrl-C every `ROWS_PER_LOOK` rows.
fn in_stretches<R: Send>(acc: &mut [R], work: usize, f: impl Fn(usize, &mut [R], &Watch) + Sync) {
    let inner = acc.len();
    let watch = Watch::current();
    if work < super::kernels::PAR_MIN_CHEAP || inner < 128 {
        return f(0, acc, &watch);
    }
    let parts = rayon::current_num_threads().max(1) * 2;
    let w = inner.div_ceil(parts).max(64).next_multiple_of(8);
    acc.par_chunks_mut(w)
        .enumerate()
        .for_each(|(t, c)| f(t * w, c, &watch));
}

/// Rows between looks at Ctrl-C in the strided reductions.
const ROWS_PER_LOOK: usize = 256;

/// any/all of every lane (NaN counts as nonzero for all, not for any, as in MATLAB).
pub fn any_all(data: &Data, lanes: Lanes, op: Red) -> Option<Vec<bool>> {
    let all = op == Red::All;
    Some(real_data!(data, v => lane_any_all(v, lanes, all)))
}

fn lane_any_all<T: Elem + Sync>(x: &[T], lanes: Lanes, all: bool) -> Vec<bool> {
    let (inner, len, outer) = lanes;
    // the element's test: all asks "nonzero", any asks "nonzero and not NaN"
    let hit = move |v: T| {
        let f = v.to_f64();
        if all { f == 0.0 } else { f != 0.0 && f == f }
    };
    if inner == 1 {
        let lane = |o: usize| {
            let l = &x[o * len..(o + 1) * len];
            let found = l
                .chunks(4096)
                .any(|c| c.iter().fold(false, |a, &v| a | hit(v)));
            found != all
        };
        return (0..outer).map(lane).collect();
    }
    let mut out = vec![false; inner * outer];
    for o in 0..outer {
        let acc = &mut out[o * inner..(o + 1) * inner];
        for k in 0..len {
            let row = &x[o * inner * len + k * inner..][..inner];
            for (a, &v) in acc.iter_mut().zip(row) {
                *a |= hit(v);
            }
        }
        for a in acc.iter_mut() {
            *a = *a != all;
        }
    }
    out
}
