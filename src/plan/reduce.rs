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
        .unwrap_or(1024)
}

/// How many parts each lane is split into: enough workgroups to fill the device when there
/// are few outputs, at most `max_parts`.
pub fn parts(len: usize, nout: usize) -> usize {
    if nout >= 1024 || len <= chunk() {
        1
    } else {
        len.div_ceil(chunk()).clamp(1, max_parts())
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
        let reduction = crate::gpu::reduce::Reduction { op, omitnan, len };
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
        None => Rc::new(cpu::run(g, producer.class)?),
    };
    let r = if all {
        let col = (*t).clone().reshaped(Shape::col(t.numel()));
        crate::values::ops::reduce::reduce(op, &col, Some(0), omitnan)?
    } else {
        crate::values::ops::reduce::reduce(op, &t, Some(dim), omitnan)?
    };
    Ok(Data::Host(Rc::new(r)))
}
