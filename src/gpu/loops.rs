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
    let key = crate::codegen::key(gr, kind).with(t.roots.iter().map(|&r| r as u32));
    let kernel = compiled(g, key, || {
        crate::codegen::loops::loop_kernel(gr, m, &t.roots, &moving_flags)
    })?;
    let out = Rc::new(buffers::allocate(g, m * stride, gr.precision)?);
    let per = (n as u64).saturating_mul(t.cost() as u64).max(1);
    let chunk = (dispatch_work(g) / per).clamp(1, trips.max(1) as u64) as usize;
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
                return Ok(LoopRun { out, stride, done });
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
        table.extend([len as u32, u32::from(done == 0), stride as u32]);
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
        super::batch::submit(g)?;
        let flag = Arc::new(AtomicBool::new(false));
        let set = flag.clone();
        g.queue
            .on_submitted_work_done(move || set.store(true, Ordering::Release));
        in_flight.push_back(flag);
        done += len;
    }
    Ok(LoopRun { out, stride, done })
}

/// Carried variable `j`'s values out of a run: the buffer itself for one, else a view of
/// its part (parts start on 256 bytes).
pub fn part(run: &LoopRun, j: usize, len: usize) -> MResult<Rc<DeviceBuffer>> {
    if run.stride == len && j == 0 && run.out.len == len {
        return Ok(run.out.clone());
    }
    match buffers::view(&run.out, j * run.stride, len) {
        Some(v) => Ok(Rc::new(v)),
        None => buffers::copy_range(&run.out, j * run.stride, len).map(Rc::new),
    }
}
