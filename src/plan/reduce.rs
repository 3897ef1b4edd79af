//! Reductions fused with their producers: `sum(sin(x).*x + 0.5)` is one kernel that computes
//! the producer's values as it folds them (a second, small pass folds the partial results of
//! long lanes). On the host, the producer is computed and the host's own reduction runs.

use super::{Group, cpu, gpu_can_run};
use crate::graph::{Data, Node};
use crate::interp::error::MResult;
use crate::values::ops::Red;
use crate::values::shape::Shape;
use std::rc::Rc;

/// Elements one workgroup folds before a lane is split into parts (`MATFUSE_REDUCE_CHUNK`).
fn chunk() -> usize {
    crate::settings::parsed("MATFUSE_REDUCE_CHUNK")
        .filter(|&c: &usize| c >= 256)
        .unwrap_or(8192)
}

/// Parts one lane is split into at most (`MATFUSE_REDUCE_PARTS`).
fn max_parts() -> usize {
    crate::settings::parsed("MATFUSE_REDUCE_PARTS")
        .filter(|&p: &usize| (16..=65536).contains(&p))
        .unwrap_or(4096)
}

/// Workgroups a reduction aims for at least, splitting lanes into parts of down to
/// `MIN_PART` elements, so that every SM of a large device gets some.
const FILL: usize = 512;
const MIN_PART: usize = 2048;
/// Past this many, parts come in whole multiples of it.
const WAVE: usize = 1024;

/// How many parts each lane is split into: one for short lanes (`chunk` elements or fewer) and
/// for 1024 lanes or more; otherwise a part per `chunk` elements, with two corrections
/// measured on an H100 (132 SMs; workload 1, one lane of 1e6 to 1e8 elements):
/// - too few workgroups in all (under `FILL`) leave SMs idle, so parts shrink toward
///   `MIN_PART` elements (1e6: 122 parts took 0.0250 ms of GPU time, 488 parts 0.0223);
/// - every part of a lane does the same work, so a count just past what the device runs at
///   once leaves a last wave mostly empty (1e7: 1220 parts took 0.0456 ms, 1024 0.0419):
///   past `WAVE` the count is rounded down to a multiple of it, up to `max_parts` (1e8:
///   4096 parts 0.2008 ms against 0.2183 in 1024).
pub fn parts(len: usize, nout: usize) -> usize {
    if nout >= 1024 || len <= chunk() {
        return 1;
    }
    let p = len.div_ceil(chunk());
    if p * nout < FILL {
        return (FILL / nout).min(len / MIN_PART).max(p).min(max_parts());
    }
    let p = if p >= WAVE { p / WAVE * WAVE } else { p };
    p.min(max_parts())
}

#[cfg(test)]
mod parts_tests {
    use super::parts;

    #[test]
    fn reductions_fill_the_device_in_whole_waves() {
        // short lanes and many lanes: one part each
        assert_eq!(parts(8192, 1), 1);
        assert_eq!(parts(1 << 20, 1024), 1);
        // few workgroups: parts of 2048 elements, up to 512 in all
        assert_eq!(parts(1_000_000, 1), 488);
        assert_eq!(parts(3_000_000, 1), 512);
        assert_eq!(parts(100_000, 16), 32);
        // enough already: a part per 8192 elements
        assert_eq!(parts(1080 * 1920, 16), 254);
        assert_eq!(parts(6_000_000, 1), 733);
        // past a wave: whole waves, at most 4096
        assert_eq!(parts(10_000_000, 1), 1024);
        assert_eq!(parts(30_000_000, 1), 3072);
        assert_eq!(parts(100_000_000, 1), 4096);
    }
}

/// Whether lanes of `len` elements `inner` apart are folded a thread per lane (part) rather
/// than a workgroup per lane (part): when 32 or more lanes sit side by side (a workgroup per
/// lane would read one element per 32-byte sector), and for short lanes (whose workgroups
/// would be mostly idle).
pub fn per_thread(inner: usize, len: usize) -> bool {
    inner >= 32 || len <= 64
}

/// Threads a per-thread reduction aims for: enough loads in flight to fill the device's
/// memory system, each thread folding a segment of at least 32 elements.
const THREADS: usize = 1 << 20;

/// Segments each lane of a per-thread reduction is split into.
pub fn thread_parts(len: usize, nout: usize) -> usize {
    THREADS.div_ceil(nout.max(1)).min(len / 32).max(1)
}

/// (inner, len, nout) of reducing `shape` along `dim` (or all of it).
pub fn lanes(shape: &Shape, dim: usize, all: bool) -> (usize, usize, usize) {
    if all {
        return (1, shape.numel(), 1);
    }
    let (inner, len, outer) = crate::values::ops::reduce::lanes(shape, dim);
    (inner, len, inner * outer)
}

pub fn realise(n: &Rc<Node>, op: Red, dim: usize, all: bool, omitnan: bool) -> MResult<Data> {
    let producer = &n.inputs[0];
    let g = super::fitted_group(producer)?;
    let (inner, len, nout) = lanes(&g.shape, dim, all);
    if gpu_can_run(&g) && super::reduction_fits(&g, inner, len) && len > 0 && nout > 0 {
        let count = producer.class == crate::values::class::Class::Logical
            && matches!(op, Red::Sum | Red::Mean);
        let reduction = crate::gpu::reduce::Reduction {
            op,
            omitnan,
            len,
            count,
        };
        let r = crate::gpu::reduce::run(&g, reduction, inner, nout);
        if let Some(buf) = super::device_result(r, "reduction")? {
            return Ok(Data::Device(buf));
        }
    }
    host(&g, producer, op, dim, all, omitnan)
}

/// The host path: the producer's values (computed, not stored: intermediates are
/// recomputed), then the host evaluator's reduction.
fn host(
    g: &Group,
    producer: &Node,
    op: Red,
    dim: usize,
    all: bool,
    omitnan: bool,
) -> MResult<Data> {
    let values = match &*producer.data.borrow() {
        Some(Data::Host(t)) => Some(t.clone()),
        _ => None,
    };
    let t = match values {
        Some(t) => t,
        None => {
            // one lane of every element: folded as the blocks are computed
            let (inner, _, nout) = lanes(&g.shape, dim, all);
            if inner == 1 && nout == 1 {
                let out = if all {
                    Shape::scalar()
                } else {
                    g.shape.with_dim(dim, 1)
                };
                if let Some(r) = cpu::fold::all(g, producer.class, op, omitnan, out)? {
                    return Ok(Data::Host(Rc::new(r)));
                }
            }
            Rc::new(cpu::run(g, producer.class)?)
        }
    };
    let r = if all {
        let col = (*t).clone().reshaped(Shape::col(t.numel()));
        crate::values::ops::reduce::reduce(op, &col, Some(0), omitnan)?
    } else {
        crate::values::ops::reduce::reduce(op, &t, Some(dim), omitnan)?
    };
    Ok(Data::Host(Rc::new(r)))
}
