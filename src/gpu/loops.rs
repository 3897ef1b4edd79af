//! Running a loop kernel (`plan::loops`, `codegen::loops`): the iterations are split into
//! dispatches of bounded work, so a long loop neither holds the device for seconds in one
//! dispatch nor queues more than two dispatches ahead of what finished: Ctrl-C between
//! dispatches stops it with the carried values of the iterations done.

use super::buffers::{self, DeviceBuffer};
use super::device;
use super::kernels::{Launch, WORKGROUP, compiled, launch_into, shape_table};
use crate::codegen::loops::{HEAD_WORDS, RAND_WORDS};
use crate::interp::error::{MError, MResult};
use crate::plan::Access;
use crate::plan::loops::LoopTemplate;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Work of one dispatch (elements x iterations x weighted steps): a few milliseconds of an
/// H200's (workload 4, 2^28 element-steps of random draws, took 4.2 ms in all; dispatches of
/// 2^28 made it 67 dispatches, and their submits and waits doubled its time); a CPU device
/// (lavapipe) gets less, so Ctrl-C stays quick there.
fn dispatch_work(g: &device::Gpu) -> u64 {
    if g.info.device_type == "Cpu" {
        1 << 24
    } else {
        1 << 32
    }
}

/// The carried values after the loop's iterations: one buffer with carried variable `j`'s
/// elements from `j * stride`, and how many iterations ran (fewer than asked when
/// `stop` said so between dispatches).
pub struct LoopRun {
    pub out: Rc<DeviceBuffer>,
    pub stride: usize,
    pub done: usize,
    /// Where the carried single values are in `out`.
    pub state_at: usize,
}

/// Runs `trips` iterations after the observed one; `stop` is asked between dispatches.
pub fn run(t: &LoopTemplate, trips: usize, stop: &dyn Fn() -> bool) -> MResult<LoopRun> {
    let g = device::ready().ok_or_else(|| MError::new("matfuse:gpu:none", "No GPU."))?;
    let gr = &t.group;
    let n = gr.shape.numel();
    let m = t.carried;
    let stride = if m == 1 { n } else { n.next_multiple_of(64) };
    let moving: u32 = t
        .input_deltas
        .iter()
        .enumerate()
        .filter(|&(_, &d)| d != 0)
        .fold(0, |acc, (k, _)| acc | 1 << k.min(31));
    let moving_flags: Vec<bool> = t.input_deltas.iter().map(|&d| d != 0).collect();
    let kind = crate::codegen::Kind::Loop {
        carried: m as u32,
        moving,
    };
    let side = &t.scalar;
    let reductions = side.reductions.len();
    let key = crate::codegen::key(gr, kind)
        .with(t.roots.iter().map(|&r| r as u32))
        .with(
            side.reductions
                .iter()
                .flat_map(|&(op, k, skip)| [op as u32, k as u32, u32::from(skip)]),
        );
    let kernel = compiled(g, key, || {
        crate::codegen::loops::loop_kernel(gr, m, &t.roots, &moving_flags, side)
    })?;
    let per = (n as u64).saturating_mul(t.cost() as u64).max(1);
    let mut chunk = (dispatch_work(g) / per).clamp(1, trips.max(1) as u64) as usize;
    // Carried reductions: a partial per workgroup, reduction and iteration, then a result per
    // reduction and iteration, then the single values, after the carried arrays.
    let parts = n.div_ceil(WORKGROUP as usize);
    if reductions > 0 {
        // Partials of at most 2^24 elements a dispatch.
        chunk = chunk.min(((1usize << 24) / (parts * reductions).max(1)).max(1));
    }
    let part_at = m * stride;
    let res_at = part_at + chunk * parts * reductions;
    let state_at = res_at + chunk * reductions;
    let total = state_at + side.roots.len();
    let out = Rc::new(buffers::allocate(g, total, gr.precision)?);
    let size = gr.precision.bytes() as u64;
    for (j, start) in side.starts.iter().enumerate() {
        crate::plan::realise(start)?;
        let from = super::kernels::device_input(g, start, gr.precision)?;
        if from.precision != gr.precision {
            return Err(MError::new(
                "matfuse:gpu:kernel",
                "a carried value is stored in another precision",
            ));
        }
        let (src, dst) = (from.raw()?, out.raw()?);
        let at = out.offset + (state_at + j) as u64 * size;
        super::batch::record(g, &[], |enc, _, _| {
            enc.copy_buffer_to_buffer(src, from.offset, dst, at, size);
        })?;
    }
    let precision = gr.precision;
    let partials_key: Vec<u32> = [8, precision as u32]
        .into_iter()
        .chain(side.reductions.iter().flat_map(|&(op, _, _)| [op as u32]))
        .collect();
    let scalar_key = scalar_key(precision, side);
    let base = shape_table(gr);
    let rank = gr.shape.ndims();
    let mut in_flight: std::collections::VecDeque<Arc<AtomicBool>> = Default::default();
    let mut done = 0usize;
    while done < trips {
        // At most two dispatches queued beyond what finished.
        while in_flight.len() >= 2 {
            let Some(first) = in_flight.front().cloned() else {
                break;
            };
            if first.load(Ordering::Acquire) {
                in_flight.pop_front();
                continue;
            }
            if stop() {
                return Ok(LoopRun {
                    out,
                    stride,
                    done,
                    state_at,
                });
            }
            let _ = super::device::poll(g, wgpu::PollType::Poll);
            std::thread::sleep(std::time::Duration::from_micros(20));
        }
        if stop() {
            break;
        }
        let len = chunk.min(trips - done);
        // Iteration 1 after the observed one is the dispatch's first when none ran yet.
        let ahead = (done + 1) as i64;
        let mut table = base.clone();
        for (k, access) in gr.inputs.iter().enumerate() {
            let delta = t.input_deltas[k];
            if let (Access::Strided(_, offset), true) = (access, delta != 0) {
                let at = 2 + rank + k * (rank + 1) + rank;
                table[at] = (*offset as i64 + ahead * delta) as u32;
            }
        }
        table.extend([
            len as u32,
            u32::from(done == 0),
            stride as u32,
            part_at as u32,
            parts as u32,
        ]);
        table.extend(t.input_deltas.iter().map(|&d| d as i32 as u32));
        for ((spec, _), &delta) in gr.rands.iter().zip(&t.rand_deltas) {
            let offset = spec.offset.wrapping_add(delta.wrapping_mul(ahead as u64));
            table.extend([
                spec.seed as u32,
                (spec.seed >> 32) as u32,
                offset as u32,
                (offset >> 32) as u32,
                delta as u32,
            ]);
        }
        debug_assert_eq!(
            table.len(),
            base.len() + HEAD_WORDS + gr.inputs.len() + RAND_WORDS * gr.rands.len()
        );
        let launch = Launch {
            table: &table,
            consts: &gr.consts,
            out: None,
            inputs: None,
            workgroups: (n as u32).div_ceil(WORKGROUP),
        };
        launch_into(g, gr, &kernel, &out, &launch)?;
        if reductions > 0 {
            super::launch::run(
                g,
                &partials_key,
                || crate::codegen::loops::partials_kernel(precision, &side.reductions),
                &[&out],
                &[len as u32, part_at as u32, parts as u32, res_at as u32],
                len,
            )?;
            super::launch::run(
                g,
                &scalar_key,
                || crate::codegen::loops::scalar_kernel(precision, side),
                &[&out],
                &[len as u32, res_at as u32, state_at as u32],
                1,
            )?;
        }
        super::batch::submit(g)?;
        let flag = Arc::new(AtomicBool::new(false));
        let set = flag.clone();
        g.queue
            .on_submitted_work_done(move || set.store(true, Ordering::Release));
        in_flight.push_back(flag);
        done += len;
    }
    Ok(LoopRun {
        out,
        stride,
        done,
        state_at,
    })
}

/// The cache key of a scalar side's recurrence kernel: its steps and roots.
fn scalar_key(p: crate::graph::Precision, side: &crate::plan::loops::ScalarSide) -> Vec<u32> {
    use crate::plan::loops::ScalarStep;
    let mut key = vec![
        9,
        p as u32,
        side.reductions.len() as u32,
        side.roots.len() as u32,
    ];
    for step in &side.steps {
        match *step {
            ScalarStep::Carried(j) => key.extend([0, j as u32]),
            ScalarStep::Reduced(r) => key.extend([1, r as u32]),
            ScalarStep::Const(x) => key.extend([2, x.to_bits() as u32, (x.to_bits() >> 32) as u32]),
            ScalarStep::Unary(op, a) => key.extend([3, op as u32, a as u32]),
            ScalarStep::Binary(op, a, b) => key.extend([4, op as u32, a as u32, b as u32]),
        }
    }
    key.extend(side.roots.iter().map(|&r| r as u32));
    key
}

/// Carried single value `j` out of a run.
pub fn scalar_part(run: &LoopRun, j: usize) -> MResult<Rc<DeviceBuffer>> {
    let at = run.state_at + j;
    match buffers::view(&run.out, at, 1) {
        Some(v) => Ok(Rc::new(v)),
        None => buffers::copy_range(&run.out, at, 1).map(Rc::new),
    }
}

/// Carried variable `j`'s values out of a run: the buffer itself for one, else a view of
/// its part (parts start on 256 bytes).
pub fn part(run: &LoopRun, j: usize, len: usize) -> MResult<Rc<DeviceBuffer>> {
    if run.stride == len && j == 0 && run.out.len == len && run.state_at == len {
        return Ok(run.out.clone());
    }
    match buffers::view(&run.out, j * run.stride, len) {
        Some(v) => Ok(Rc::new(v)),
        None => buffers::copy_range(&run.out, j * run.stride, len).map(Rc::new),
    }
}
