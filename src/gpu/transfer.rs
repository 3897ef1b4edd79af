//! Uploads and read-backs in windows. Drivers cap one buffer (lavapipe 2 GiB, NVIDIA 4 GiB)
//! and a mapping below that, and `write_buffer` stages a copy of everything it is given: an
//! array moved in one piece failed past 2^30 bytes (`gather(zeros(134217729, 1, 'gpuArray') +
//! 1)`). Each window goes through one reused staging buffer, so arrays of any size up to
//! device memory move, with host memory for one window beside the result.

use super::buffers::{DeviceBuffer, Staging, allocate};
use super::device::{self, Gpu};
use super::faults::{self, Fault};
use crate::graph::Precision;
use crate::interp::error::{MError, MResult};
use crate::values::tensor::{Data as TData, Elem, Tensor};
use rayon::prelude::*;

/// Bytes per window: 64 MiB (a fraction of a second at PCIe speed, so windows cost nothing
/// measurable), or `MATFUSE_TRANSFER_WINDOW` (tests lower it to check the windowing on small
/// arrays), rounded to whole 256 bytes and at most one buffer.
pub fn window_bytes(g: &Gpu) -> u64 {
    let asked = crate::settings::parsed::<u64>("MATFUSE_TRANSFER_WINDOW").unwrap_or(64 << 20);
    asked
        .next_multiple_of(256)
        .clamp(256, g.info.max_buffer_size.max(256))
}

/// Elements of `precision` per window.
fn window_elements(g: &Gpu, precision: Precision) -> usize {
    (window_bytes(g) / precision.bytes() as u64).max(1) as usize
}

/// Copies host values to a new device buffer, a window at a time.
pub fn upload(g: &Gpu, values: &[f64], precision: Precision) -> MResult<DeviceBuffer> {
    upload_elems(g, HostElems::F64(values), precision)
}

/// Copies a host array's real parts to a new device buffer in `precision`: singles to a
/// single buffer and doubles to a double one go as they are stored, other classes are
/// converted a window at a time (never the whole array at once).
pub fn upload_tensor(g: &Gpu, t: &Tensor, precision: Precision) -> MResult<DeviceBuffer> {
    match &t.data {
        TData::F64(v) => upload_elems(g, HostElems::F64(v), precision),
        TData::F32(v) => upload_elems(g, HostElems::F32(v), precision),
        _ => upload_elems(g, HostElems::Other(t), precision),
    }
}

/// Host elements on their way to the device.
enum HostElems<'a> {
    F64(&'a [f64]),
    F32(&'a [f32]),
    Other(&'a Tensor),
}

impl HostElems<'_> {
    fn len(&self) -> usize {
        match self {
            HostElems::F64(v) => v.len(),
            HostElems::F32(v) => v.len(),
            HostElems::Other(t) => t.numel(),
        }
    }

    /// Elements `from..from + n` as they are stored, when that is `precision`'s form.
    fn stored_as(&self, precision: Precision, from: usize, n: usize) -> Option<&[u8]> {
        match (self, precision) {
            (HostElems::F32(v), Precision::F32) => Some(bytemuck::cast_slice(&v[from..from + n])),
            (HostElems::F64(v), Precision::F64) => Some(bytemuck::cast_slice(&v[from..from + n])),
            _ => None,
        }
    }

    /// Writes elements from `from` into the staging memory `out` as `precision`'s bytes, in
    /// parts across the cores (one thread's copy into write-combined memory is far below the
    /// bus's speed).
    fn fill(&self, from: usize, out: wgpu::WriteOnly<'_, [u8]>, precision: Precision) {
        let size = precision.bytes();
        let mut parts = Vec::new();
        let mut rest = out;
        let mut at = from;
        while rest.len() > COPY_TASK * size {
            let (part, tail) = rest.split_at(COPY_TASK * size);
            parts.push((at, Part(part)));
            rest = tail;
            at += COPY_TASK;
        }
        parts.push((at, Part(rest)));
        parts.into_par_iter().for_each(|(at, Part(mut part))| {
            let n = part.len() / size;
            match self.stored_as(precision, at, n) {
                Some(stored) => part.copy_from_slice(stored),
                None => {
                    let mut converted = Vec::with_capacity(n * size);
                    for i in at..at + n {
                        let x = self.get(i);
                        match precision {
                            Precision::F32 => {
                                converted.extend_from_slice(&(x as f32).to_le_bytes())
                            }
                            Precision::F64 => converted.extend_from_slice(&x.to_le_bytes()),
                        }
                    }
                    part.copy_from_slice(&converted);
                }
            }
        });
    }

    fn get(&self, i: usize) -> f64 {
        match self {
            HostElems::F64(v) => v[i],
            HostElems::F32(v) => v[i] as f64,
            HostElems::Other(t) => crate::with_data!(&t.data, v => v[i].to_f64()),
        }
    }
}

/// A part of a staging mapping, written by one thread.
struct Part<'a>(wgpu::WriteOnly<'a, [u8]>);

// SAFETY: `WriteOnly<[u8]>` is a write-only reference to bytes (wgpu declares `Send` only for
// sized targets); the parts come from `split_at`, so no two threads write the same bytes,
// and the mapping outlives the parallel loop that borrows it.
unsafe impl Send for Part<'_> {}

/// Elements one task of a parallel copy takes (256 KiB of singles).
const COPY_TASK: usize = 1 << 16;

fn upload_elems(g: &Gpu, values: HostElems<'_>, precision: Precision) -> MResult<DeviceBuffer> {
    let len = values.len();
    let buf = allocate(g, len, precision)?;
    if len == 0 {
        return Ok(buf);
    }
    // The writes run before the next submit's work: recorded kernels that may read this
    // pooled buffer's old contents go first.
    super::batch::submit(g)?;
    let target = buf.raw()?;
    let size = precision.bytes();
    let per = window_elements(g, precision);
    let windows = len.div_ceil(per);
    let mut done = 0usize;
    while done < len {
        crate::interp::interrupt::check()?;
        let n = per.min(len - done);
        let bytes = (n * size) as u64;
        let at = (done * size) as u64;
        // Written straight into the queue's staging memory: one pass over the host data.
        let Some(mut view) =
            std::num::NonZeroU64::new(bytes).and_then(|b| g.queue.write_buffer_with(target, at, b))
        else {
            return Err(MError::new(
                "matfuse:gpu:upload",
                "An upload to the GPU failed.",
            ));
        };
        super::trace("upload: staging");
        values.fill(done, view.slice(..), precision);
        super::trace("upload: window written");
        if windows > 1 {
            // Each window's staging copy is handed to the device before the next is made.
            device::submit(&g.queue, std::iter::empty());
            let _ = super::device::poll(g, wgpu::PollType::Poll);
        }
        done += n;
    }
    super::stats::add_upload((len * size) as u64);
    Ok(buf)
}

/// The error of a read-back that did not complete.
fn readback_failed(detail: Option<String>) -> MError {
    MError::new(
        "matfuse:gpu:readback",
        match detail {
            Some(d) => format!("Reading a result back from the GPU failed: {d}"),
            None => "Reading a result back from the GPU failed.".to_string(),
        },
    )
}

/// Values read back from the device, in the precision they were stored in.
pub enum Elems {
    F32(Vec<f32>),
    F64(Vec<f64>),
}

impl Elems {
    pub fn into_f64(self) -> Vec<f64> {
        match self {
            Elems::F64(v) => v,
            Elems::F32(v) => v.into_iter().map(f64::from).collect(),
        }
    }
}

/// Reads elements `start..start + len` of a device buffer back as f64 values (waits for the
/// GPU).
pub fn download_range(buf: &DeviceBuffer, start: usize, len: usize) -> MResult<Vec<f64>> {
    download_elems(buf, start, len).map(Elems::into_f64)
}

/// Reads elements `start..start + len` of a device buffer back in its precision (waits for
/// the GPU), a window at a time through two staging buffers: the device copies window k + 1
/// while the host copies window k out (across the cores), so a read-back runs at the speed
/// of the slower of the bus and the host's memory.
pub fn download_elems(buf: &DeviceBuffer, start: usize, len: usize) -> MResult<Elems> {
    let g = device::ready()
        .ok_or_else(|| MError::new("matfuse:gpu:lost", "The GPU is no longer available."))?;
    let size = buf.precision.bytes();
    let len = len.min(buf.len.saturating_sub(start));
    let mut out = match buf.precision {
        Precision::F32 => Elems::F32(fresh(len)?),
        Precision::F64 => Elems::F64(fresh(len)?),
    };
    if len == 0 {
        return Ok(out);
    }
    let from = buf.raw()?;
    if faults::fires(Fault::Readback) {
        return Err(readback_failed(Some("injected fault".into())));
    }
    let per = window_elements(g, buf.precision).min(len);
    let windows = len.div_ceil(per);
    let mut staging = [
        Staging::take(g, (per * size) as u64),
        Staging::take(g, (per * size) as u64),
    ];
    // Window k's copy into staging buffer k % 2, submitted and its mapping asked for.
    let request = |k: usize, staging: &Staging| -> MResult<device::PendingMap> {
        let at = k * per;
        let n = per.min(len - at);
        let bytes = (n * size) as u64;
        let source = buf.offset + ((start + at) * size) as u64;
        super::batch::record(g, &[], |enc, _, _| {
            enc.copy_buffer_to_buffer(from, source, &staging.0, 0, bytes);
        })?;
        super::trace("download: copy recorded");
        super::order::restart();
        super::batch::submit(g)?;
        super::trace("download: submitted");
        Ok(device::map_read_start(&staging.0.slice(..bytes)))
    };
    let mut pending = Some(request(0, &staging[0])?);
    for k in 0..windows {
        // Ctrl-C between windows (a read-back of 2 GiB is seconds on lavapipe)
        crate::interp::interrupt::check()?;
        let next = if k + 1 < windows {
            Some(request(k + 1, &staging[(k + 1) % 2])?)
        } else {
            None
        };
        let Some(this) = pending.take() else {
            return Err(readback_failed(None));
        };
        if !this.wait(g) {
            crate::interp::interrupt::check()?;
            return Err(readback_failed(None));
        }
        super::trace("download: waited for the device");
        let at = k * per;
        let n = per.min(len - at);
        let s = &staging[k % 2];
        {
            let data =
                s.0.slice(..(n * size) as u64)
                    .get_mapped_range()
                    .map_err(|e| readback_failed(Some(e.to_string())))?;
            match &mut out {
                Elems::F32(v) => copy_out(bytemuck::cast_slice::<u8, f32>(&data), v),
                Elems::F64(v) => copy_out(bytemuck::cast_slice::<u8, f64>(&data), v),
            }
        }
        s.0.unmap();
        pending = next;
    }
    for s in &mut staging {
        s.1 = true;
    }
    super::trace("download: read");
    super::stats::add_download((len * size) as u64);
    Ok(out)
}

/// An empty vector with room for `len` elements, or MATLAB's out-of-memory error.
fn fresh<T>(len: usize) -> MResult<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| {
        crate::values::limits::out_of_memory(&[len, 1], (len * std::mem::size_of::<T>()) as u128)
    })?;
    Ok(v)
}

/// Appends `from` to `out` (within its reserved room), across the cores for large windows.
fn copy_out<T: Copy + Send + Sync>(from: &[T], out: &mut Vec<T>) {
    let at = out.len();
    let room = &mut out.spare_capacity_mut()[..from.len()];
    room.par_chunks_mut(COPY_TASK)
        .zip(from.par_chunks(COPY_TASK))
        .for_each(|(dst, src)| {
            for (d, &s) in dst.iter_mut().zip(src) {
                d.write(s);
            }
        });
    // SAFETY: the `from.len()` elements after `at` were written just above, and they lie
    // within the capacity reserved for `len` elements.
    unsafe { out.set_len(at + from.len()) };
}

/// Reads a device buffer back as f64 values (waits for the GPU).
pub fn download(buf: &DeviceBuffer) -> MResult<Vec<f64>> {
    download_range(buf, 0, buf.len)
}

/// Reads a device buffer back in its precision (waits for the GPU).
pub fn download_typed(buf: &DeviceBuffer) -> MResult<Elems> {
    download_elems(buf, 0, buf.len)
}
