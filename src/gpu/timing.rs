//! GPU time for `gpuStats`: each kernel's compute pass writes a timestamp at its start and
//! end (where the adapter has timestamp queries). The stamps are read back in one batch when
//! an input ends or `gpuStats` asks, not per kernel, so timing adds no waits of its own.

use super::device::Gpu;
use std::sync::Mutex;

/// Kernels timed between two readbacks at most (a full batch is read back first).
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

/// Whether kernels are timed: where the adapter can, unless `MATFUSE_GPU_TIMING=0`.
fn enabled(g: &Gpu) -> bool {
    static OFF: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let off = *OFF.get_or_init(|| std::env::var("MATFUSE_GPU_TIMING").is_ok_and(|v| v == "0"));
    !off && g
        .device
        .features()
        .contains(wgpu::Features::TIMESTAMP_QUERY)
}

/// Runs `f` with the timestamp writes for the next kernel's pass (None where the adapter
/// cannot time kernels).
pub fn with_writes<R>(
    g: &Gpu,
    f: impl FnOnce(Option<wgpu::ComputePassTimestampWrites<'_>>) -> R,
) -> R {
    if !enabled(g) {
        return f(None);
    }
    let Ok(mut guard) = TIMER.lock() else {
        return f(None);
    };
    let timer = guard.get_or_insert_with(|| create(g));
    if timer.used >= CAPACITY {
        return f(None);
    }
    let k = timer.used;
    timer.used += 1;
    f(Some(wgpu::ComputePassTimestampWrites {
        query_set: &timer.set,
        beginning_of_pass_write_index: Some(2 * k),
        end_of_pass_write_index: Some(2 * k + 1),
    }))
}

/// Reads back the stamps now if the next kernel's would not fit (call before recording it:
/// reading back submits the recorded work).
pub fn make_room() {
    let full = TIMER
        .lock()
        .ok()
        .is_some_and(|t| t.as_ref().is_some_and(|t| t.used >= CAPACITY));
    if full {
        collect();
    }
}

/// Reads back the stamps of the kernels run since the last call and adds their time to
/// `gpuStats` (waits for those kernels).
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
    g.queue.submit([enc.finish()]);
    super::device::note_submit();
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
