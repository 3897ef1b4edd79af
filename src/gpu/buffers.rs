//! Device buffers: upload, download, and a pool by size class so repeated statements reuse
//! memory instead of allocating. A buffer goes back to the pool when the last value or node
//! holding it is dropped.

use super::device::{self, Gpu};
use crate::graph::Precision;
use crate::interp::error::{MError, MResult};
use std::collections::HashMap;
use std::sync::Mutex;

/// Pooled bytes kept at most (more is released to the driver).
const POOL_LIMIT: u64 = 1 << 30;

static POOL: Mutex<Option<HashMap<u64, Vec<wgpu::Buffer>>>> = Mutex::new(None);

/// Bytes of device buffers held by arrays now (not counting the pool's idle ones).
static HELD: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Bytes of device memory arrays hold now (gpuStats' DeviceBytes).
pub fn held_bytes() -> u64 {
    HELD.load(std::sync::atomic::Ordering::Relaxed)
}

/// A storage buffer holding `len` elements of `precision`.
#[derive(Debug)]
pub struct DeviceBuffer {
    pub buffer: Option<wgpu::Buffer>,
    pub len: usize,
    pub precision: Precision,
}

impl DeviceBuffer {
    pub fn bytes(&self) -> u64 {
        (self.len * self.precision.bytes()) as u64
    }
    pub fn raw(&self) -> MResult<&wgpu::Buffer> {
        self.buffer
            .as_ref()
            .ok_or_else(|| MError::new("matfuse:gpu:released", "A device buffer was released."))
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        if let Some(b) = self.buffer.take() {
            HELD.fetch_sub(b.size(), std::sync::atomic::Ordering::Relaxed);
            if let Ok(mut pool) = POOL.lock() {
                let pool = pool.get_or_insert_with(HashMap::new);
                let held: u64 = pool.iter().map(|(k, v)| k * v.len() as u64).sum();
                if held + b.size() <= POOL_LIMIT {
                    pool.entry(b.size()).or_default().push(b);
                }
            }
        }
    }
}

/// Size classes: powers of two from 256 bytes (so buffers are reused across sizes).
fn size_class(bytes: u64) -> u64 {
    bytes.max(256).next_power_of_two()
}

fn storage_usage() -> wgpu::BufferUsages {
    wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC
}

/// The identifier of MATLAB's out-of-device-memory error.
pub const OOM: &str = "parallel:gpu:array:OOM";

/// MATLAB's error when device memory runs out.
pub fn out_of_memory() -> MError {
    MError::new(
        OOM,
        "Out of memory on device. To view more detail about available memory on the GPU, use \
         'gpuDevice()'. If the problem persists, reset the GPU by calling 'reset(gpuDevice)'.",
    )
}

/// A new buffer of `size` bytes, or None when the device has no memory for it.
fn create(g: &Gpu, size: u64) -> Option<wgpu::Buffer> {
    if size > g.info.max_buffer_size {
        return None;
    }
    let scope = g.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    let buffer = g.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("matfuse array"),
        size,
        usage: storage_usage(),
        mapped_at_creation: false,
    });
    match pollster::block_on(scope.pop()) {
        None => Some(buffer),
        Some(_) => None,
    }
}

/// A buffer for `len` elements, from the pool when one of its size class is free. When the
/// device is out of memory, the pool's idle buffers are released and it is tried once more;
/// then it is MATLAB's out-of-memory error, and nothing else changes.
pub fn allocate(g: &Gpu, len: usize, precision: Precision) -> MResult<DeviceBuffer> {
    let size = size_class((len.max(1) * precision.bytes()) as u64);
    let reused = POOL.lock().ok().and_then(|mut p| {
        p.get_or_insert_with(HashMap::new)
            .get_mut(&size)
            .and_then(Vec::pop)
    });
    let buffer = match reused {
        Some(b) => b,
        None => match create(g, size) {
            Some(b) => b,
            None => {
                clear_pool();
                create(g, size).ok_or_else(out_of_memory)?
            }
        },
    };
    HELD.fetch_add(buffer.size(), std::sync::atomic::Ordering::Relaxed);
    Ok(DeviceBuffer {
        buffer: Some(buffer),
        len,
        precision,
    })
}

/// Releases every pooled buffer (`reset(gpuDevice)`).
pub fn clear_pool() {
    if let Ok(mut p) = POOL.lock() {
        *p = None;
    }
}

/// Bytes of `values` in `precision`.
pub(crate) fn encode(values: &[f64], precision: Precision) -> Vec<u8> {
    match precision {
        Precision::F32 => {
            let v: Vec<f32> = values.iter().map(|&x| x as f32).collect();
            bytemuck::cast_slice(&v).to_vec()
        }
        Precision::F64 => bytemuck::cast_slice(values).to_vec(),
    }
}

/// Copies host values to a new device buffer.
pub fn upload(g: &Gpu, values: &[f64], precision: Precision) -> MResult<DeviceBuffer> {
    let buf = allocate(g, values.len(), precision)?;
    let bytes = encode(values, precision);
    if let Some(b) = &buf.buffer {
        if !bytes.is_empty() {
            g.queue.write_buffer(b, 0, &bytes);
        }
    }
    super::stats::add_upload(bytes.len() as u64);
    Ok(buf)
}

/// Reads a device buffer back as f64 values (waits for the GPU).
pub fn download(buf: &DeviceBuffer) -> MResult<Vec<f64>> {
    download_range(buf, 0, buf.len)
}

/// Elements `start..start + len` of a device buffer copied into a new one on the device
/// (queued behind the work that computes them; nothing waits).
pub fn copy_range(buf: &DeviceBuffer, start: usize, len: usize) -> MResult<DeviceBuffer> {
    let g = device::ready()
        .ok_or_else(|| MError::new("matfuse:gpu:lost", "The GPU is no longer available."))?;
    let size = buf.precision.bytes() as u64;
    let len = len.min(buf.len.saturating_sub(start));
    let out = allocate(g, len, buf.precision)?;
    let mut enc = g
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
    enc.copy_buffer_to_buffer(
        buf.raw()?,
        start as u64 * size,
        out.raw()?,
        0,
        len as u64 * size,
    );
    g.queue.submit([enc.finish()]);
    Ok(out)
}

/// Reads elements `start..start + len` of a device buffer back as f64 values (so `x(k)` of
/// a large array moves one element, not the array).
pub fn download_range(buf: &DeviceBuffer, start: usize, len: usize) -> MResult<Vec<f64>> {
    let g = device::ready()
        .ok_or_else(|| MError::new("matfuse:gpu:lost", "The GPU is no longer available."))?;
    let size = buf.precision.bytes() as u64;
    let len = len.min(buf.len.saturating_sub(start));
    let bytes = len as u64 * size;
    if bytes == 0 {
        return Ok(Vec::new());
    }
    let staging = g.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("matfuse readback"),
        size: bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut enc = g
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
    enc.copy_buffer_to_buffer(buf.raw()?, start as u64 * size, &staging, 0, bytes);
    super::trace("download: staging buffer and copy encoded");
    g.queue.submit([enc.finish()]);
    super::trace("download: submitted");
    let slice = staging.slice(..);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    let _ = g.device.poll(wgpu::PollType::wait_indefinitely());
    super::trace("download: waited for the device");
    match rx.recv() {
        Ok(Ok(())) => {}
        _ => {
            return Err(MError::new(
                "matfuse:gpu:readback",
                "Reading a result back from the GPU failed.",
            ));
        }
    }
    let data = slice.get_mapped_range().map_err(|e| {
        MError::new(
            "matfuse:gpu:readback",
            format!("Reading a result back from the GPU failed: {e}"),
        )
    })?;
    let out = match buf.precision {
        Precision::F32 => bytemuck::cast_slice::<u8, f32>(&data)
            .iter()
            .map(|&x| x as f64)
            .collect(),
        Precision::F64 => bytemuck::cast_slice::<u8, f64>(&data).to_vec(),
    };
    drop(data);
    staging.unmap();
    super::trace("download: read");
    super::stats::add_download(bytes);
    Ok(out)
}
