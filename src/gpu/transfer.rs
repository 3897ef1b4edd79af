//! Uploads and read-backs in windows. Drivers cap one buffer (lavapipe 2 GiB, NVIDIA 4 GiB)
//! and a mapping below that, and `write_buffer` stages a copy of everything it is given: an
//! array moved in one piece failed past 2^30 bytes (`gather(zeros(134217729, 1, 'gpuArray') +
//! 1)`). Each window goes through one reused staging buffer, so arrays of any size up to
//! device memory move, with host memory for one window beside the result.

use super::buffers::{DeviceBuffer, Staging, allocate, encode};
use super::device::{self, Gpu};
use super::faults::{self, Fault};
use crate::graph::Precision;
use crate::interp::error::{MError, MResult};

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
    let buf = allocate(g, values.len(), precision)?;
    if values.is_empty() {
        return Ok(buf);
    }
    // The writes run before the next submit's work: recorded kernels that may read this
    // pooled buffer's old contents go first.
    super::batch::submit(g)?;
    let target = buf.raw()?;
    let per = window_elements(g, precision);
    let windows = values.len().div_ceil(per);
    let mut bytes_moved = 0u64;
    for (k, chunk) in values.chunks(per).enumerate() {
        crate::interp::interrupt::check()?;
        let bytes = encode(chunk, precision);
        let at = (k * per * precision.bytes()) as u64;
        g.queue.write_buffer(target, at, &bytes);
        bytes_moved += bytes.len() as u64;
        if windows > 1 {
            // Each window's staging copy is handed to the device before the next is made.
            device::submit(&g.queue, std::iter::empty());
            let _ = super::device::poll(g, wgpu::PollType::Poll);
        }
    }
    super::stats::add_upload(bytes_moved);
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

/// Reads elements `start..start + len` of a device buffer back as f64 values (waits for the
/// GPU), a window at a time through one staging buffer.
pub fn download_range(buf: &DeviceBuffer, start: usize, len: usize) -> MResult<Vec<f64>> {
    let g = device::ready()
        .ok_or_else(|| MError::new("matfuse:gpu:lost", "The GPU is no longer available."))?;
    let size = buf.precision.bytes();
    let len = len.min(buf.len.saturating_sub(start));
    if len == 0 {
        return Ok(Vec::new());
    }
    let from = buf.raw()?;
    if faults::fires(Fault::Readback) {
        return Err(readback_failed(Some("injected fault".into())));
    }
    let mut out: Vec<f64> = Vec::new();
    out.try_reserve_exact(len)
        .map_err(|_| crate::values::limits::out_of_memory(&[len, 1], len as u128 * 8))?;
    let per = window_elements(g, buf.precision).min(len);
    let mut staging = Staging::take(g, (per * size) as u64);
    let mut done = 0;
    while done < len {
        // Ctrl-C between windows (a read-back of 2 GiB is seconds on lavapipe)
        crate::interp::interrupt::check()?;
        let n = per.min(len - done);
        let bytes = (n * size) as u64;
        let source = buf.offset + ((start + done) * size) as u64;
        super::batch::record(g, &[], |enc, _, _| {
            enc.copy_buffer_to_buffer(from, source, &staging.0, 0, bytes);
        })?;
        super::trace("download: copy recorded");
        super::order::restart();
        super::batch::submit(g)?;
        super::trace("download: submitted");
        let slice = staging.0.slice(..bytes);
        if !device::map_read(g, &slice) {
            crate::interp::interrupt::check()?;
            return Err(readback_failed(None));
        }
        super::trace("download: waited for the device");
        {
            let data = slice
                .get_mapped_range()
                .map_err(|e| readback_failed(Some(e.to_string())))?;
            match buf.precision {
                Precision::F32 => out.extend(
                    bytemuck::cast_slice::<u8, f32>(&data)
                        .iter()
                        .map(|&x| x as f64),
                ),
                Precision::F64 => out.extend_from_slice(bytemuck::cast_slice::<u8, f64>(&data)),
            }
        }
        staging.0.unmap();
        done += n;
    }
    staging.1 = true;
    super::trace("download: read");
    super::stats::add_download((len * size) as u64);
    Ok(out)
}

/// Reads a device buffer back as f64 values (waits for the GPU).
pub fn download(buf: &DeviceBuffer) -> MResult<Vec<f64>> {
    download_range(buf, 0, buf.len)
}
