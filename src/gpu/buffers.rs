//! Device buffers: upload, download, and a pool by size class so repeated statements reuse
//! memory instead of allocating. A buffer goes back to the pool when the last value or node
//! holding it is dropped.

use super::device::{self, Gpu};
use crate::graph::Precision;
use crate::interp::error::{MError, MResult};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Mutex;

/// Pooled bytes kept at most (more is released to the driver): a quarter of device memory,
/// at least 1 GiB, so a statement repeated on gigabyte arrays reuses its buffers instead of
/// allocating (and the driver clearing) new ones each time.
fn pool_limit() -> u64 {
    let total = device::current().and_then(|g| g.info.total_memory);
    total.map_or(1 << 30, |t| (t / 4).max(1 << 30))
}

/// Idle buffers by size, for reuse, each with the role it last had (see `Role`).
type Pool = Mutex<Option<HashMap<u64, Vec<(wgpu::Buffer, Role)>>>>;

static POOL: Pool = Mutex::new(None);

/// What a buffer was allocated for: the place in matfuse that asked for it and, where that
/// place serves many kernels, the kernel. A buffer goes back to the role it had where the
/// pool holds one: a loop's statements then get the same buffers round after round (an
/// array and the one it replaces take turns), so their kernels find their bind groups in
/// `bind_cache` instead of making new ones (about 6 us each on the H200, the largest
/// per-launch cost of a loop of small kernels). Without it the pool's last-in-first-out
/// order handed each step a different mix of buffers and every bind group was new.
pub type Role = u64;

/// The role of an allocation at the caller's place in the source, refined by `salt`.
#[track_caller]
fn role_here(salt: usize) -> Role {
    let at = std::panic::Location::caller();
    let place = (at.file().as_ptr() as u64) ^ ((at.line() as u64) << 32) ^ at.column() as u64;
    place.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ salt as u64
}

/// An idle buffer of exactly `size` bytes from `pool`: the last one that had `role`, or else
/// the last one returned.
fn pool_take(pool: &Pool, size: u64, role: Role) -> Option<wgpu::Buffer> {
    pool.lock().ok().and_then(|mut p| {
        let idle = p.get_or_insert_with(HashMap::new).get_mut(&size)?;
        match idle.iter().rposition(|(_, r)| *r == role) {
            Some(k) => Some(idle.remove(k).0),
            None => idle.pop().map(|(b, _)| b),
        }
    })
}

/// Keeps `b` in `pool` if the pool then holds at most `limit` bytes; gives it back otherwise.
fn pool_put(pool: &Pool, b: wgpu::Buffer, role: Role, limit: u64) -> Option<wgpu::Buffer> {
    let Ok(mut pool) = pool.lock() else {
        return Some(b);
    };
    let pool = pool.get_or_insert_with(HashMap::new);
    let held: u64 = pool.iter().map(|(k, v)| k * v.len() as u64).sum();
    if held + b.size() > limit {
        return Some(b);
    }
    pool.entry(b.size()).or_default().push((b, role));
    None
}

thread_local! {
    /// Bytes of device buffers held by arrays now (not counting the pool's idle ones). Per
    /// thread, as arrays are (`Rc`): a session's count is not moved by another thread's
    /// session (the test harness runs sessions side by side).
    static HELD: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Bytes of device memory arrays hold now (gpuStats' DeviceBytes).
pub fn held_bytes() -> u64 {
    HELD.with(|h| h.get())
}

fn held_add(bytes: u64) {
    HELD.with(|h| h.set(h.get().saturating_add(bytes)));
}

fn held_sub(bytes: u64) {
    HELD.with(|h| h.set(h.get().saturating_sub(bytes)));
}

/// A storage buffer holding `len` elements of `precision`, from byte `offset` on: an array of
/// its own (offset 0), or a view of part of another (`view`).
#[derive(Debug)]
pub struct DeviceBuffer {
    pub buffer: Option<wgpu::Buffer>,
    pub len: usize,
    pub precision: Precision,
    pub offset: u64,
    /// The array a view reads, kept alive (and out of the pool) while the view lives.
    pub parent: Option<Rc<DeviceBuffer>>,
    /// What it was allocated for (it goes back to the pool with it).
    pub role: Role,
}

impl DeviceBuffer {
    pub fn bytes(&self) -> u64 {
        (self.len * self.precision.bytes()) as u64
    }
    pub fn raw(&self) -> MResult<&wgpu::Buffer> {
        self.buffer.as_ref().ok_or_else(invalid_data)
    }
    /// An array whose data is gone (`reset(gpuDevice)` could not gather it): its shape and
    /// class stay, any use is MATLAB's error for data that no longer exists on the device.
    pub fn invalidated(len: usize, precision: Precision) -> DeviceBuffer {
        DeviceBuffer {
            buffer: None,
            len,
            precision,
            offset: 0,
            parent: None,
            role: 0,
        }
    }
    /// Whether its data still exists (see `invalidated`).
    pub fn exists(&self) -> bool {
        self.buffer.is_some()
    }
}

/// MATLAB's error for a gpuArray whose data a device reset removed.
pub fn invalid_data() -> MError {
    MError::new(
        "parallel:gpu:array:InvalidData",
        "The data no longer exists on the device.",
    )
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        // A view's storage is its parent's: nothing to return.
        if self.parent.is_some() {
            return;
        }
        if let Some(b) = self.buffer.take() {
            held_sub(b.size());
            if let Some(released) = pool_put(&POOL, b, self.role, pool_limit()) {
                super::bind_cache::forget(&released);
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

/// The error for an array larger than the largest buffer the driver allows (gpuDevice's
/// MaxBufferSize: 2 GiB on lavapipe, 4 GiB on many NVIDIA drivers): an array is one buffer,
/// so this is the limit on one gpuArray, whatever memory is free. MATLAB's out-of-memory
/// identifier, so code that catches it still does.
pub fn too_large(len: usize, precision: Precision, limit: u64) -> MError {
    let bytes = len as u128 * precision.bytes() as u128;
    let gib = |b: u128| b as f64 / (1u64 << 30) as f64;
    MError::new(
        OOM,
        format!(
            "Out of memory on device: an array of {len} elements needs {bytes} bytes \
             ({:.2} GiB), more than the largest array this device holds ({limit} bytes, \
             MaxBufferSize in gpuDevice). Keep it on the host, or work on it in parts.",
            gib(bytes),
        ),
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
#[track_caller]
pub fn allocate(g: &Gpu, len: usize, precision: Precision) -> MResult<DeviceBuffer> {
    allocate_as(g, len, precision, role_here(0))
}

/// `allocate` for the output of one of the kernels a place runs (`kernel`: any number that
/// tells them apart, such as the pipeline's address), so each kernel gets its own buffers
/// back (`Role`).
#[track_caller]
pub fn allocate_for(
    g: &Gpu,
    len: usize,
    precision: Precision,
    kernel: usize,
) -> MResult<DeviceBuffer> {
    allocate_as(g, len, precision, role_here(kernel))
}

fn allocate_as(g: &Gpu, len: usize, precision: Precision, role: Role) -> MResult<DeviceBuffer> {
    let bytes = (len.max(1) * precision.bytes()) as u64;
    if bytes > g.info.max_buffer_size {
        return Err(too_large(len, precision, g.info.max_buffer_size));
    }
    let mut size = size_class(bytes);
    if size > g.info.max_buffer_size {
        // Past the largest power of two the device allows, the exact size (whole 256 bytes).
        size = bytes.next_multiple_of(256);
    }
    if size > g.info.max_buffer_size || super::faults::fires(super::faults::Fault::Alloc) {
        return Err(out_of_memory());
    }
    let buffer = match pool_take(&POOL, size, role) {
        Some(b) => b,
        None => match create(g, size) {
            Some(b) => b,
            None => {
                clear_pool();
                create(g, size).ok_or_else(out_of_memory)?
            }
        },
    };
    held_add(buffer.size());
    Ok(DeviceBuffer {
        buffer: Some(buffer),
        len,
        precision,
        offset: 0,
        parent: None,
        role,
    })
}

/// Releases every pooled buffer (`reset(gpuDevice)`).
pub fn clear_pool() {
    super::bind_cache::clear();
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

pub use super::transfer::{Elems, download, download_range, download_typed, upload, upload_tensor};

/// Elements `start..start + len` of a device array as an array of their own that shares its
/// storage (nothing is copied, nothing waits), where they start on a 256-byte boundary (the
/// strictest offset alignment bindings need); None otherwise. Arrays on the device are never
/// written once computed, so the view keeps its values. A column `X(:, k)` of a matrix whose
/// columns are whole 256 bytes is one: a loop over the columns reads the matrix in place.
pub fn view(buf: &Rc<DeviceBuffer>, start: usize, len: usize) -> Option<DeviceBuffer> {
    let offset = buf.offset + (start * buf.precision.bytes()) as u64;
    if offset % 256 != 0 || start + len > buf.len || len == 0 {
        return None;
    }
    Some(DeviceBuffer {
        buffer: Some(buf.raw().ok()?.clone()),
        len,
        precision: buf.precision,
        offset,
        parent: Some(buf.parent.clone().unwrap_or_else(|| buf.clone())),
        role: 0,
    })
}

/// Elements `start..start + len` of a device buffer copied into a new one on the device
/// (queued behind the work that computes them; nothing waits).
pub fn copy_range(buf: &DeviceBuffer, start: usize, len: usize) -> MResult<DeviceBuffer> {
    let g = device::ready()
        .ok_or_else(|| MError::new("matfuse:gpu:lost", "The GPU is no longer available."))?;
    let size = buf.precision.bytes() as u64;
    let len = len.min(buf.len.saturating_sub(start));
    let out = allocate(g, len, buf.precision)?;
    let (from, to) = (buf.raw()?, out.raw()?);
    super::batch::record(g, &[], |enc, _, _| {
        enc.copy_buffer_to_buffer(
            from,
            buf.offset + start as u64 * size,
            to,
            0,
            len as u64 * size,
        );
    })?;
    Ok(out)
}

/// Read-back buffers kept for reuse (by size class), so a sink does not create one each time.
static STAGING: Pool = Mutex::new(None);

/// Staging bytes kept at most.
const STAGING_LIMIT: u64 = 256 << 20;

/// A mappable buffer for reading back at least `bytes`; back to the pool when dropped after
/// a read that unmapped it (the flag).
pub(super) struct Staging(pub(super) wgpu::Buffer, pub(super) bool);

impl Staging {
    pub(super) fn take(g: &Gpu, bytes: u64) -> Staging {
        let size = size_class(bytes);
        let b = pool_take(&STAGING, size, 0).unwrap_or_else(|| {
            g.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("matfuse readback"),
                size,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        });
        Staging(b, false)
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if self.1 {
            pool_put(&STAGING, self.0.clone(), 0, STAGING_LIMIT);
        }
    }
}
