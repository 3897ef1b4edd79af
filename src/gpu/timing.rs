//! GPU time for `gpuStats`, when `MATFUSE_GPU_TIMING=1` asks for it: each submitted batch
//! then writes a timestamp before its first command and after its last (where the adapter can
//! write them inside an encoder). The stamps are read back together when an input ends or
//! `gpuStats` asks, so timing adds no waits of its own, but it is off by default: even one
//! pair per batch cost a five-kernel sink on the H200 15 to 50 us (a pair around every
//! compute pass, before, 30 to 40).

use super::device::Gpu;
use std::sync::Mutex;

/// Batches timed between two readbacks at most (a full set is read back first).
const CAPACITY: u32 = 1024;

struct Timer {
    set: wgpu::QuerySet,
    resolved: wgpu::Buffer,
    readback: wgpu::Buffer,
    used: u32,
}

static TIMER: Mutex<Option<Timer>> = Mutex::new(None);

fn create(g: &Gpu) -> Timer {
    let bytes = CAPACITY as u64 * 16;
    Timer {
        set: g.device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("matfuse kernel times"),
            ty: wgpu::QueryType::Timestamp,
            count: CAPACITY * 2,
        }),
        resolved: g.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("matfuse kernel times"),
            size: bytes,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        }),
        readback: g.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("matfuse kernel times readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        }),
        used: 0,
    }
}

/// Whether batches are timed: with `MATFUSE_GPU_TIMING=1` (read once), where the adapter can.
fn enabled(g: &Gpu) -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let on = *ON.get_or_init(|| std::env::var("MATFUSE_GPU_TIMING").is_ok_and(|v| v == "1"));
    on && g
        .device
        .features()
        .contains(wgpu::Features::TIMESTAMP_QUERY | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS)
}

/// Whether the session's device times its work (`gpuStats` has a GPU time to show).
pub fn measuring() -> bool {
    super::device::current().is_some_and(|g| enabled(g))
}

/// Writes the opening stamp of a new batch into `enc`: the pair's index, for `end`, or None
/// where batches are not timed (or the set is full until the next readback).
pub fn begin(g: &Gpu, enc: &mut wgpu::CommandEncoder) -> Option<u32> {
    if !enabled(g) {
        return None;
    }
    let mut guard = TIMER.lock().ok()?;
    let timer = guard.get_or_insert_with(|| create(g));
    if timer.used >= CAPACITY {
        return None;
    }
    let k = timer.used;
    timer.used += 1;
    enc.write_timestamp(&timer.set, 2 * k);
    Some(k)
}

/// Writes the closing stamp of the batch whose opening stamp was pair `k`.
pub fn end(enc: &mut wgpu::CommandEncoder, k: u32) {
    if let Ok(guard) = TIMER.lock() {
        if let Some(timer) = guard.as_ref() {
            enc.write_timestamp(&timer.set, 2 * k + 1);
        }
    }
}

/// Reads back the stamps now if the next batch's would not fit (call before recording: reading
/// back submits the recorded work).
pub fn make_room() {
    let full = TIMER
        .lock()
        .ok()
        .is_some_and(|t| t.as_ref().is_some_and(|t| t.used >= CAPACITY));
    if full {
        collect();
    }
}

/// Reads back the stamps of the batches run since the last call and adds their time to
/// `gpuStats` (waits for those batches).
pub fn collect() {
    let Some(g) = super::device::ready() else {
        return;
    };
    super::batch::flush();
    let Ok(mut guard) = TIMER.lock() else {
        return;
    };
    let Some(timer) = guard.as_mut() else {
        return;
    };
    let used = timer.used;
    if used == 0 {
        return;
    }
    timer.used = 0;
    let bytes = used as u64 * 16;
    let mut enc = g
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
    enc.resolve_query_set(&timer.set, 0..used * 2, &timer.resolved, 0);
    enc.copy_buffer_to_buffer(&timer.resolved, 0, &timer.readback, 0, bytes);
    super::device::submit(&g.queue, [enc.finish()]);
    let slice = timer.readback.slice(..bytes);
    if !super::device::map_read(g, &slice) {
        return;
    }
    let ns = match slice.get_mapped_range() {
        Ok(data) => {
            let stamps: &[u64] = bytemuck::cast_slice(&data);
            let ticks: u64 = stamps
                .chunks_exact(2)
                .map(|p| p[1].saturating_sub(p[0]))
                .sum();
            ticks as f64 * g.queue.get_timestamp_period() as f64
        }
        Err(_) => 0.0,
    };
    timer.readback.unmap();
    super::stats::add_gpu_time(ns * 1e-9);
}
