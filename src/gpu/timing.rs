//! GPU time for `gpuStats`, when `MATFUSE_GPU_TIMING=1` asks for it: each submitted batch
//! then writes a timestamp before its first command and after its last (where the adapter can
//! write them inside an encoder). The stamps are read back together when an input ends or
//! `gpuStats` asks, so timing adds no waits of its own, but it is off by default: even one
//! pair per batch cost a five-kernel sink on the H200 15 to 50 us (a pair around every
//! compute pass, before, 30 to 40).

use super::device::Gpu;
use std::collections::HashMap;
use std::sync::Mutex;

/// Batches (or kernels) timed between two readbacks at most (a full set is read back first).
const CAPACITY: u32 = 2048;
// (wgpu allows 4096 queries a set: a pair each.)

struct Timer {
    set: wgpu::QuerySet,
    resolved: wgpu::Buffer,
    readback: wgpu::Buffer,
    used: u32,
    /// Per-kernel mode: the kernel each pair timed (empty for a batch's pair).
    names: Vec<String>,
}

/// Per-kernel mode: each kernel's launches and nanoseconds, by name.
static TOTALS: Mutex<Option<HashMap<String, (u64, f64)>>> = Mutex::new(None);

/// Whether each kernel is timed (`MATFUSE_GPU_TIMING=kernels`, read once).
pub fn per_kernel() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("MATFUSE_GPU_TIMING").is_ok_and(|v| v == "kernels"))
}

thread_local! {
    /// The kernel last bound on this thread (per-kernel mode).
    static BOUND: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Notes the kernel a pass binds (per-kernel mode only).
pub fn bound(name: &str) {
    if per_kernel() {
        BOUND.with(|b| {
            let mut b = b.borrow_mut();
            b.clear();
            b.push_str(name);
        });
    }
}

/// Per-kernel mode: a compute pass with stamps at its start and end, and the pair's index
/// (for `name_pass`); None where kernels are not timed or the set is full.
pub fn timed_pass(
    g: &Gpu,
    enc: &mut wgpu::CommandEncoder,
) -> Option<(wgpu::ComputePass<'static>, u32)> {
    if !per_kernel()
        || !g
            .device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
    {
        return None;
    }
    let mut guard = TIMER.lock().ok()?;
    let timer = guard.get_or_insert_with(|| create(g));
    if timer.used >= CAPACITY {
        return None;
    }
    let k = timer.used;
    timer.used += 1;
    let pass = enc
        .begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: None,
            timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                query_set: &timer.set,
                beginning_of_pass_write_index: Some(2 * k),
                end_of_pass_write_index: Some(2 * k + 1),
            }),
        })
        .forget_lifetime();
    Some((pass, k))
}

/// Names pair `k` after the kernel last bound (call after the timed pass's dispatch).
pub fn name_pass(k: u32) {
    let name = BOUND.with(|b| b.borrow().clone());
    if let Ok(mut guard) = TIMER.lock() {
        if let Some(timer) = guard.as_mut() {
            let at = k as usize;
            if timer.names.len() <= at {
                timer.names.resize(at + 1, String::new());
            }
            timer.names[at] = name;
        }
    }
}

/// Prints each kernel's launches and time (per-kernel mode), once the session ends.
pub fn kernel_report() {
    if !per_kernel() {
        return;
    }
    collect();
    let Ok(totals) = TOTALS.lock() else {
        return;
    };
    let Some(totals) = totals.as_ref() else {
        return;
    };
    let mut rows: Vec<_> = totals.iter().collect();
    rows.sort_by(|a, b| b.1.1.total_cmp(&a.1.1));
    eprintln!(
        "{:>10} {:>12} {:>10}  kernel",
        "launches", "total ms", "mean us"
    );
    for (name, (n, ns)) in rows {
        eprintln!(
            "{n:>10} {:>12.3} {:>10.2}  {name}",
            ns * 1e-6,
            ns * 1e-3 / (*n).max(1) as f64
        );
    }
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
        names: Vec::new(),
    }
}

/// Whether batches are timed: with `MATFUSE_GPU_TIMING=1` (read once), where the adapter can.
fn enabled(g: &Gpu) -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let on = *ON.get_or_init(|| std::env::var("MATFUSE_GPU_TIMING").is_ok_and(|v| v == "1"));
    (on || per_kernel())
        && g.device.features().contains(
            wgpu::Features::TIMESTAMP_QUERY | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS,
        )
}

/// Whether the session's device times its work (`gpuStats` has a GPU time to show).
pub fn measuring() -> bool {
    super::device::current().is_some_and(|g| enabled(g))
}

/// Writes the opening stamp of a new batch into `enc`: the pair's index, for `end`, or None
/// where batches are not timed (or the set is full until the next readback).
pub fn begin(g: &Gpu, enc: &mut wgpu::CommandEncoder) -> Option<u32> {
    if !enabled(g) || per_kernel() {
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
        .is_some_and(|t| t.as_ref().is_some_and(|t| t.used + 16 >= CAPACITY));
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
    let names = std::mem::take(&mut timer.names);
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
            if !names.is_empty() {
                let period = g.queue.get_timestamp_period() as f64;
                if let Ok(mut totals) = TOTALS.lock() {
                    let totals = totals.get_or_insert_with(HashMap::new);
                    for (pair, name) in stamps.chunks_exact(2).zip(&names) {
                        let t = totals.entry(name.clone()).or_insert((0, 0.0));
                        t.0 += 1;
                        t.1 += pair[1].saturating_sub(pair[0]) as f64 * period;
                    }
                }
            }
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
