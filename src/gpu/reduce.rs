//! Running reductions fused with their producers. A reduction of `nout` lanes of `len`
//! elements `inner` apart folds each lane in one workgroup, or in `parts` workgroups and a
//! second, small pass. Inputs larger than one storage binding are reduced a window at a
//! time: whole outer blocks (`inner * len` elements) per window where one fits, else
//! segments of each lane, whose partial results a last pass folds.

use super::buffers::{self, DeviceBuffer};
use super::device::{self, Gpu};
use super::kernels::{Launch, launch_into, rand_words, shape_table, window_elements};
use crate::interp::error::{MError, MResult};
use crate::plan::{Access, Group};
use crate::values::ops::Red;
use std::rc::Rc;

/// What a reduction computes: the kind, NaN handling and the full lane length (mean's
/// divisor, whatever the windows).
#[derive(Clone, Copy)]
pub struct Reduction {
    pub op: Red,
    pub omitnan: bool,
    pub len: usize,
    /// A count (the sum or mean of logical values): partial counts are whole numbers a
    /// single holds exactly (a part is at most 2^24 elements), but their total may not be,
    /// so single kernels fold the partials in double where the device has it.
    pub count: bool,
}

impl Reduction {
    /// The precision partial results of `gr`'s values are folded in.
    fn fold_precision(&self, gr: &Group, g: &Gpu) -> crate::graph::Precision {
        use crate::graph::Precision;
        let f64_ok = g.info.supports_double && g.info.supports_int64;
        if self.count && gr.precision == Precision::F32 && f64_ok {
            Precision::F64
        } else {
            gr.precision
        }
    }
}

/// One dispatchable piece: `nout` lanes of `len` elements `inner` apart, starting at element
/// `start` of the producer's values.
#[derive(Clone, Copy)]
struct Lanes {
    inner: usize,
    len: usize,
    nout: usize,
    start: usize,
}

/// Values one window of a reduction holds: 64 fewer than an elementwise window, since its
/// binding may start up to 63 elements early (at a 256-byte boundary).
fn cap(g: &Gpu) -> usize {
    window_elements(g) - 64
}

/// Whether `numel` values fit one window of a reduction (one dispatch, no segments).
pub fn in_one_window(g: &Gpu, numel: usize) -> bool {
    numel <= cap(g)
}

/// Whether a reduction of `numel` values in lanes (`inner`, `len`) can run on this device:
/// within one window, by whole outer blocks, or by lane segments whose partial results fit
/// one window.
pub fn fits(g: &Gpu, numel: usize, inner: usize, len: usize) -> bool {
    let cap = cap(g);
    if numel <= cap || inner * len <= cap {
        return true;
    }
    inner <= cap && {
        let segments = len.div_ceil(cap / inner);
        inner * segments * (numel / (inner * len).max(1)) <= cap
    }
}

/// Runs the reduction of `gr`'s values (lanes as `fits` was told); the result stays on the
/// device.
pub fn run(gr: &Group, r: Reduction, inner: usize, nout: usize) -> MResult<Rc<DeviceBuffer>> {
    let g = device::ready().ok_or_else(|| MError::new("matfuse:gpu:none", "No GPU."))?;
    let cap = cap(g);
    let len = r.len;
    let numel = gr.shape.numel();
    let whole = Lanes {
        inner,
        len,
        nout,
        start: 0,
    };
    if numel <= cap {
        return lanes(g, gr, r, whole, true);
    }
    let block = inner * len;
    let outer = nout / inner.max(1);
    if block <= cap {
        // Whole outer blocks per window; each window's results are the next `inner * k`.
        // Their pieces must share one precision: counts fold in the kernel's here (lanes
        // of more than 2^24 elements in arrays past a window count inexactly in single).
        let r = Reduction { count: false, ..r };
        let per = cap / block;
        let out = buffers::allocate(g, nout, gr.precision)?;
        let mut pieces = Vec::new();
        for first in (0..outer).step_by(per) {
            let k = per.min(outer - first);
            let window = Lanes {
                nout: inner * k,
                start: block * first,
                ..whole
            };
            pieces.push((lanes(g, gr, r, window, true)?, inner * first));
        }
        copy_into(g, &out, &pieces)?;
        return Ok(Rc::new(out));
    }
    // Segments of `seg` elements of each lane; partials laid out [outer][segment][inner],
    // then folded along the segments.
    let seg = cap / inner;
    let segments = len.div_ceil(seg);
    // Each segment's results come from `lanes` in the fold's precision.
    let partials = buffers::allocate(g, inner * segments * outer, r.fold_precision(gr, g))?;
    let mut pieces = Vec::new();
    for o in 0..outer {
        for s in 0..segments {
            let window = Lanes {
                inner,
                len: seg.min(len - s * seg),
                nout: inner,
                start: inner * (len * o + s * seg),
            };
            let at = (o * segments + s) * inner;
            pieces.push((lanes(g, gr, r, window, false)?, at));
        }
        // Copy as we go, so at most one outer block's pieces are held at once.
        copy_into(g, &partials, &pieces)?;
        pieces.clear();
    }
    let folded = Lanes {
        inner,
        len: segments,
        nout,
        start: 0,
    };
    let group = values_group(
        Rc::new(partials),
        inner * segments * outer,
        r.fold_precision(gr, g),
    );
    pass(g, &group, r, folded, false, 1, true)
}

/// Copies each `(piece, at)` into `out` starting at element `at`.
fn copy_into(g: &Gpu, out: &DeviceBuffer, pieces: &[(Rc<DeviceBuffer>, usize)]) -> MResult<()> {
    let size = out.precision.bytes() as u64;
    let to = out.raw()?;
    for (piece, at) in pieces {
        let from = piece.raw()?;
        super::batch::record(g, &[], |enc, _, _| {
            enc.copy_buffer_to_buffer(
                from,
                piece.offset,
                to,
                out.offset + *at as u64 * size,
                piece.len as u64 * size,
            );
        })?;
    }
    Ok(())
}

/// A group reading a buffer of partial results as they are.
pub(super) fn partials_group(buffer: Rc<DeviceBuffer>, n: usize, gr: &Group) -> Group {
    values_group(buffer, n, gr.precision)
}

/// A group reading the first `n` values of a buffer as they are, in `precision`.
pub(super) fn values_group(
    buffer: Rc<DeviceBuffer>,
    n: usize,
    precision: crate::graph::Precision,
) -> Group {
    let shape = crate::values::shape::Shape::col(n);
    // Read as stored; the kernel converts to `precision`.
    let buffer_precision = buffer.precision;
    let leaf = crate::graph::leaf(
        crate::graph::Data::Device(buffer),
        shape.clone(),
        crate::values::class::Class::Double,
    );
    Group {
        shape,
        precision,
        uniform_precision: true,
        bindings: vec![buffer_precision],
        leaves: vec![leaf],
        inputs: vec![Access::Same],
        consts: Vec::new(),
        rands: Vec::new(),
        regions: Vec::new(),
        steps: vec![crate::plan::Step::Input(0)],
        single: vec![false],
        error: None,
        space: None,
        gathers: Vec::new(),
    }
}

/// Folds `l`'s lanes of `gr`'s values: one pass, or parts and a second pass over them.
/// `last` says whether these are final results (mean divides them).
fn lanes(g: &Gpu, gr: &Group, r: Reduction, l: Lanes, last: bool) -> MResult<Rc<DeviceBuffer>> {
    let parts = if crate::plan::reduce::per_thread(l.inner, l.len) {
        crate::plan::reduce::thread_parts(l.len, l.nout)
    } else {
        crate::plan::reduce::parts(l.len, l.nout)
    };
    // Counts in single end in a pass in double, even of one part.
    let direct = parts == 1 && r.fold_precision(gr, g) == gr.precision;
    let first = pass(g, gr, r, l, true, parts, last && direct)?;
    if direct {
        return Ok(first);
    }
    // Each output's parts sit together.
    let group = values_group(first, l.nout * parts, r.fold_precision(gr, g));
    let folded = Lanes {
        inner: 1,
        len: parts,
        nout: l.nout,
        start: 0,
    };
    pass(g, &group, r, folded, false, 1, last)
}

/// One dispatch: workgroup `w` folds part `w % parts` of lane `w / parts` (or, for lanes
/// `per_thread` picks, thread `t` part `t / nout` of lane `t % nout`); the first pass maps
/// values (NaN omitted, any/all made logical), the last divides for mean.
fn pass(
    g: &Gpu,
    gr: &Group,
    r: Reduction,
    l: Lanes,
    first: bool,
    parts: usize,
    last: bool,
) -> MResult<Rc<DeviceBuffer>> {
    let per_thread = crate::plan::reduce::per_thread(l.inner, l.len);
    let identity = match r.op {
        Red::Sum | Red::Mean | Red::Any => 0.0,
        Red::Prod | Red::All => 1.0,
        Red::Max | Red::Min => f64::NAN,
    };
    let divisor = if last && r.op == Red::Mean {
        r.len as f64
    } else {
        1.0
    };
    let kind = crate::codegen::Kind::Reduce {
        op: r.op,
        omitnan: r.omitnan,
        first,
        per_thread,
    };
    let kernel = super::kernels::compiled(g, crate::codegen::key(gr, kind), || {
        let form = crate::codegen::reduce_form(r.op, r.omitnan, first, gr.consts.len());
        crate::codegen::reduce(gr, &form, per_thread)
    })?;
    // The inputs are bound from a multiple of 64 elements at or before the window's start;
    // `shift` is the start's place in that binding.
    let elements = l.nout / l.inner.max(1) * l.inner * l.len;
    let bound = l.start / 64 * 64;
    let shift = l.start - bound;
    let windowed = elements < gr.shape.numel();
    let mut table = shape_table(gr);
    table.extend([l.inner, l.len, l.nout, parts, shift].map(|v| v as u32));
    table.extend(rand_words(gr));
    let mut consts = gr.consts.clone();
    consts.extend([identity, divisor]);
    let out = buffers::allocate_for(
        g,
        l.nout * parts,
        gr.precision,
        std::sync::Arc::as_ptr(&kernel.0) as usize,
    )?;
    let launch = Launch {
        table: &table,
        consts: &consts,
        out: None,
        inputs: windowed.then_some((bound, shift + elements)),
        workgroups: if per_thread {
            (l.nout * parts).div_ceil(256) as u32
        } else {
            (l.nout * parts) as u32
        },
    };
    launch_into(g, gr, &kernel, &out, &launch)?;
    super::order::ran((elements * gr.precision.bytes()) as u64, false);
    Ok(Rc::new(out))
}
