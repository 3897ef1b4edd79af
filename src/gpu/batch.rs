//! Recording: kernels and device copies go into one command encoder and are submitted
//! together, since a submit costs tens of microseconds. Consecutive kernels share one compute
//! pass (wgpu puts the barriers their buffers need between them): on the H200 a pass of its
//! own cost each kernel about 5 us of host time and as much of GPU time. The batch is
//! submitted when a value is read back (the sink), before host data is written to the device
//! (a pooled buffer the write reuses may still be read by a recorded kernel), when a
//! top-level input ends or the batch has waited `MAX_AGE`, after `MAX_RECORDS` kernels
//! and copies, and as soon as its kernels move enough bytes while the device has finished
//! the work before (so that the device works while the host records the rest). The kernels of a batch keep their
//! parameters (shape table, constants) in one of a few buffers, written just before the
//! submit unless it holds them already (a loop running the same statements).

use super::device::Gpu;
use crate::interp::error::{MError, MResult};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Kernels and copies one batch holds at most (then it is submitted, so long loops keep the
/// GPU busy).
const MAX_RECORDS: usize = 64;
/// Bytes of kernel parameters one batch holds at most.
const PARAMS_BYTES: usize = 64 * 1024;
/// How long recorded work may wait for a sink before it is submitted anyway.
const MAX_AGE: Duration = Duration::from_millis(2);

struct Batch {
    /// The open compute pass, if the last thing recorded was a kernel. It keeps the encoder
    /// locked: it is ended (dropped) before anything else is recorded or the batch submitted.
    pass: Option<wgpu::ComputePass<'static>>,
    encoder: wgpu::CommandEncoder,
    /// Kernels and copies recorded.
    records: usize,
    /// Bytes the recorded kernels move, as their launches estimate them (`submit_if_idle`).
    work: u64,
    /// The parameter bytes of the recorded kernels, at the offsets they were bound at.
    params: Vec<u8>,
    /// Which of the parameter regions the batch binds (`PARAMS`), the buffer and where the
    /// region starts in it.
    params_slot: usize,
    params_buffer: wgpu::Buffer,
    params_base: u64,
    since: Instant,
    /// The batch's pair of GPU timestamps, where batches are timed.
    stamps: Option<u32>,
}

/// One batch for the process, not per thread: a buffer one thread returns to the pool may be
/// read by its recorded work, so another thread's write to it must submit that work first.
static BATCH: Mutex<Option<Batch>> = Mutex::new(None);
/// Compute passes opened so far (tests check that a sink's kernels share one).
static PASSES_OPENED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
/// Parameter writes made so far (tests check that repeated work writes none).
static PARAM_WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Compute passes opened so far.
pub fn passes_opened() -> u64 {
    PASSES_OPENED.load(Ordering::SeqCst)
}

/// Parameter writes made so far.
pub fn param_writes() -> u64 {
    PARAM_WRITES.load(Ordering::SeqCst)
}

/// Whether BATCH holds work: read between statements without taking the lock.
static PENDING: AtomicBool = AtomicBool::new(false);
/// A region of the parameter buffer (rewritten, in queue order, at the submit of a batch that
/// binds it). The regions are parts of one buffer, so a kernel's bind group names the same
/// buffer whichever region its batch took (the offset is dynamic: `pipeline`).
struct Params {
    buffer: wgpu::Buffer,
    /// Where the region starts in the buffer.
    base: u64,
    /// What the buffer holds once the submitted work's writes are done: a batch whose
    /// parameters it starts with (a loop running the same statements) writes nothing, which
    /// saves the upload and its command buffer.
    written: Vec<u8>,
    /// When a batch last chose it (a count of choices).
    chosen: u64,
}

/// Parameter buffers at most: a sink whose work goes in two submits (`submit_if_idle`) has two
/// batches, each binding a buffer that still holds its parameters from the last time round.
const PARAM_BUFFERS: usize = 4;

static PARAMS: Mutex<Vec<Params>> = Mutex::new(Vec::new());
static CHOICES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Runs `f` on parameter buffer `slot`.
fn with_params<R>(slot: usize, f: impl FnOnce(&mut Params) -> R) -> Option<R> {
    let mut p = PARAMS.lock().unwrap_or_else(|e| e.into_inner());
    p.get_mut(slot).map(f)
}

/// The parameter buffer for a batch whose first record's parameters are `first` (as placed
/// from offset 0): one that holds them already, else a new one while there are fewer than
/// `PARAM_BUFFERS`, else the one chosen longest ago.
fn choose_params(g: &Gpu, first: &[u8]) -> (usize, wgpu::Buffer, u64) {
    let mut p = PARAMS.lock().unwrap_or_else(|e| e.into_inner());
    let tick = CHOICES.fetch_add(1, Ordering::Relaxed) + 1;
    let holding = (!first.is_empty())
        .then(|| p.iter().position(|b| b.written.starts_with(first)))
        .flatten();
    let slot = match holding {
        Some(k) => k,
        None if p.len() < PARAM_BUFFERS => {
            let buffer = match p.first() {
                Some(q) => q.buffer.clone(),
                None => g.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("matfuse kernel parameters"),
                    size: (PARAMS_BYTES * PARAM_BUFFERS) as u64,
                    usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                }),
            };
            let base = (p.len() * PARAMS_BYTES) as u64;
            p.push(Params {
                buffer,
                base,
                written: Vec::new(),
                chosen: 0,
            });
            p.len() - 1
        }
        None => (0..p.len()).min_by_key(|&k| p[k].chosen).unwrap_or(0),
    };
    p[slot].chosen = tick;
    (slot, p[slot].buffer.clone(), p[slot].base)
}

/// Upload buffers for the parameters, mapped and ready for the next submit. A buffer is
/// written while mapped, copied into the parameter buffer at the head of the submit, and
/// mapped again once the GPU is done with it: `queue.write_buffer` allocates a staging
/// buffer on every call (about 25 us of each sink on the H200).
static UPLOADS: Mutex<Vec<wgpu::Buffer>> = Mutex::new(Vec::new());
/// Upload buffers made so far; past `MAX_UPLOADS` (all in flight) `write_buffer` is used.
static UPLOADS_MADE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
const MAX_UPLOADS: usize = 8;

/// A mapped upload buffer, if one is ready or may still be made.
fn take_upload(g: &Gpu) -> Option<wgpu::Buffer> {
    if let Some(b) = UPLOADS.lock().ok().and_then(|mut u| u.pop()) {
        return Some(b);
    }
    if UPLOADS_MADE.fetch_add(1, Ordering::Relaxed) >= MAX_UPLOADS {
        UPLOADS_MADE.fetch_sub(1, Ordering::Relaxed);
        return None;
    }
    Some(g.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("matfuse parameter upload"),
        size: PARAMS_BYTES as u64,
        usage: wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: true,
    }))
}

/// Puts `bytes` at the start of a region (`base`) of the parameter buffer, ahead of the batch's work: a command
/// buffer to submit first, or None when they went by `write_buffer`.
fn upload_params(
    g: &Gpu,
    params: &wgpu::Buffer,
    base: u64,
    bytes: &[u8],
) -> Option<(wgpu::CommandBuffer, wgpu::Buffer)> {
    let Some(up) = take_upload(g) else {
        g.queue.write_buffer(params, base, bytes);
        return None;
    };
    let len = bytes.len() as u64;
    let written = match up.slice(..len).get_mapped_range_mut() {
        Ok(mut view) => {
            view.copy_from_slice(bytes);
            true
        }
        Err(_) => false,
    };
    if !written {
        UPLOADS_MADE.fetch_sub(1, Ordering::Relaxed);
        g.queue.write_buffer(params, base, bytes);
        return None;
    }
    up.unmap();
    let mut enc = g
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
    enc.copy_buffer_to_buffer(&up, 0, params, base, len);
    Some((enc.finish(), up))
}

/// Maps a submitted upload buffer again; it is ready once the GPU is done with it (seen in a
/// later poll).
fn recycle_upload(up: wgpu::Buffer) {
    let again = up.clone();
    up.slice(..).map_async(wgpu::MapMode::Write, move |r| {
        if r.is_ok() {
            if let Ok(mut u) = UPLOADS.lock() {
                u.push(again);
            }
        } else {
            UPLOADS_MADE.fetch_sub(1, Ordering::Relaxed);
        }
    });
}

fn batch() -> std::sync::MutexGuard<'static, Option<Batch>> {
    BATCH.lock().unwrap_or_else(|e| e.into_inner())
}

/// Where `blocks` go in the parameter buffer after `used` bytes (each on the device's
/// storage-offset alignment), or None when they do not fit.
fn place(used: usize, blocks: &[&[u8]], align: usize) -> Option<Vec<usize>> {
    let mut at = used;
    let mut offsets = Vec::with_capacity(blocks.len());
    for b in blocks {
        at = at.next_multiple_of(align);
        offsets.push(at);
        at += b.len();
    }
    (at <= PARAMS_BYTES).then_some(offsets)
}

/// Records a copy (or other encoder command): `f` gets the encoder, the parameter buffer and
/// where each of `blocks` (parameter bytes, each a multiple of 4 long) sits in it. `f` runs
/// with the batch locked: it must not record or submit itself.
pub fn record<R>(
    g: &Gpu,
    blocks: &[&[u8]],
    f: impl FnOnce(&mut wgpu::CommandEncoder, &wgpu::Buffer, &[u64]) -> R,
) -> MResult<R> {
    record_with(g, blocks, |batch, params, at| {
        batch.pass = None;
        f(&mut batch.encoder, params, at)
    })
}

/// Records a kernel into the batch's open compute pass (opening one if needed); otherwise as
/// `record`.
pub fn record_dispatch<R>(
    g: &Gpu,
    blocks: &[&[u8]],
    f: impl FnOnce(&mut wgpu::ComputePass<'static>, &wgpu::Buffer, &[u64]) -> R,
) -> MResult<R> {
    if super::timing::per_kernel() {
        super::timing::make_room();
    }
    record_with(g, blocks, |batch, params, at| {
        let Batch { pass, encoder, .. } = batch;
        // Per-kernel timing: each kernel in a pass of its own, stamped at its start and end.
        if super::timing::per_kernel() {
            *pass = None;
            if let Some((timed, k)) = super::timing::timed_pass(g, encoder) {
                let r = f(pass.insert(timed), params, at);
                *pass = None;
                super::timing::name_pass(k);
                return r;
            }
        }
        let pass = pass.get_or_insert_with(|| {
            PASSES_OPENED.fetch_add(1, Ordering::SeqCst);
            encoder
                .begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: None,
                    timestamp_writes: None,
                })
                .forget_lifetime()
        });
        f(pass, params, at)
    })
}

fn record_with<R>(
    g: &Gpu,
    blocks: &[&[u8]],
    f: impl FnOnce(&mut Batch, &wgpu::Buffer, &[u64]) -> R,
) -> MResult<R> {
    let align = (g.device.limits().min_storage_buffer_offset_alignment as usize).max(16);
    let full = batch()
        .as_ref()
        .is_some_and(|b| place(b.params.len(), blocks, align).is_none());
    if full {
        submit(g)?;
    }
    let (r, records) = {
        let mut b = batch();
        let batch = b.get_or_insert_with(|| {
            let mut encoder = g
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
            let stamps = super::timing::begin(g, &mut encoder);
            let (params_slot, params_buffer, params_base) =
                choose_params(g, &placed(blocks, align));
            Batch {
                pass: None,
                encoder,
                records: 0,
                work: 0,
                params: Vec::new(),
                params_slot,
                params_buffer,
                params_base,
                since: Instant::now(),
                stamps,
            }
        });
        let offsets = place(batch.params.len(), blocks, align).unwrap_or_default();
        put(&mut batch.params, blocks, &offsets);
        let offsets: Vec<u64> = offsets
            .iter()
            .map(|&o| o as u64 + batch.params_base)
            .collect();
        let params = batch.params_buffer.clone();
        let r = f(batch, &params, &offsets);
        batch.records += 1;
        PENDING.store(true, Ordering::Relaxed);
        (r, batch.records)
    };
    if records >= MAX_RECORDS {
        submit(g)?;
    }
    Ok(r)
}

/// Writes `blocks` into `params` at `offsets` (from `place`), zeros between them.
fn put(params: &mut Vec<u8>, blocks: &[&[u8]], offsets: &[usize]) {
    for (block, &at) in blocks.iter().zip(offsets) {
        params.resize(at, 0);
        params.extend_from_slice(block);
    }
}

/// `blocks` as a batch's first record places them: from offset 0, each on `align`.
fn placed(blocks: &[&[u8]], align: usize) -> Vec<u8> {
    let mut bytes = Vec::new();
    put(
        &mut bytes,
        blocks,
        &place(0, blocks, align).unwrap_or_default(),
    );
    bytes
}

/// Bytes the recorded work must move before it is submitted while the host goes on
/// recording (`MATFUSE_EARLY_BYTES`): about 20 us of an H100's time, more than a submit costs
/// the host.
fn early_bytes() -> u64 {
    crate::settings::parsed("MATFUSE_EARLY_BYTES").unwrap_or(64 << 20)
}

/// Counts `bytes` of work for the kernel just recorded, and submits the batch now if its
/// kernels move at least `early_bytes` and the device has finished what it was given: the
/// device starts on them while the host records the rest, instead of after the sink. A loop
/// of mid-sized kernels (an indexed update of 1e6 of 1e7 elements, 20 times) used to be
/// recorded whole before the device began: the host's time and the device's were added, not
/// overlapped. Workload 6's four kernels and copy took 26 us of the sink's host time to
/// finish and submit on the H100.
pub fn submit_if_idle(g: &Gpu, bytes: u64) -> MResult<()> {
    let work = match batch().as_mut() {
        Some(b) => {
            b.work = b.work.saturating_add(bytes);
            b.work
        }
        None => return Ok(()),
    };
    if work >= early_bytes() && super::device::drained(g) {
        submit(g)?;
    }
    Ok(())
}

/// Submits the recorded work (nothing when there is none).
pub fn submit(g: &Gpu) -> MResult<()> {
    // The lock is held until the submit: the parameter write lands before the next submit's
    // work, so another thread's batch must not write its parameters in between.
    let mut guard = batch();
    PENDING.store(false, Ordering::Relaxed);
    let Some(mut batch) = guard.take() else {
        return Ok(());
    };
    super::trace("batch: submit");
    // Inside the scope: a pass's kernels are checked when it ends.
    let scope = g.device.push_error_scope(wgpu::ErrorFilter::Validation);
    batch.pass = None;
    if let Some(k) = batch.stamps {
        super::timing::end(&mut batch.encoder, k);
    }
    let mut upload = None;
    if !batch.params.is_empty() {
        let mut bytes = batch.params;
        bytes.resize(bytes.len().next_multiple_of(4), 0);
        upload = with_params(batch.params_slot, |p| {
            if p.written.starts_with(&bytes) {
                return None;
            }
            PARAM_WRITES.fetch_add(1, Ordering::SeqCst);
            let upload = upload_params(g, &p.buffer, p.base, &bytes);
            p.written = bytes;
            upload
        })
        .flatten();
    }
    super::trace("batch: parameters written");
    let work = batch.encoder.finish();
    super::trace("batch: finished");
    if super::faults::fires(super::faults::Fault::Lose) {
        // The injected loss: the device goes away with this work submitted to it.
        super::device::lose_for_test();
    }
    match upload {
        Some((copy, up)) => {
            super::device::submit(&g.queue, [copy, work]);
            recycle_upload(up);
        }
        None => {
            super::device::submit(&g.queue, [work]);
        }
    }
    drop(guard);
    super::trace("batch: submitted");
    let popped = pollster::block_on(scope.pop());
    super::trace("batch: error scope");
    match popped {
        None => Ok(()),
        Some(e) => Err(MError::new(
            "matfuse:gpu:kernel",
            format!("recorded GPU work could not run: {e}"),
        )),
    }
}

/// Submits any recorded work of the session's device (dropped if the device was lost).
pub fn flush() {
    if !pending() {
        return;
    }
    match super::device::current() {
        Some(g) => {
            if let Err(e) = submit(g) {
                if std::env::var_os("MATFUSE_DEBUG").is_some() {
                    eprintln!("matfuse: {}", e.message());
                }
            }
        }
        None => {
            let mut b = batch();
            PENDING.store(false, Ordering::Relaxed);
            *b = None;
        }
    }
}

/// Submits recorded work that has waited longer than `MAX_AGE` (checked between statements).
pub fn flush_if_old() {
    if !pending() {
        return;
    }
    let old = batch()
        .as_ref()
        .is_some_and(|b| b.since.elapsed() > MAX_AGE);
    if old {
        flush();
    }
}

/// Whether work is recorded and not yet submitted.
pub fn pending() -> bool {
    PENDING.load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    #[test]
    fn parameters_are_placed_on_the_alignment_and_within_the_buffer() {
        let a = [0u8; 20];
        let b = [0u8; 8];
        assert_eq!(super::place(0, &[&a, &b], 16), Some(vec![0, 32]));
        assert_eq!(super::place(4, &[&b], 256), Some(vec![256]));
        assert_eq!(super::place(super::PARAMS_BYTES - 8, &[&a], 16), None);
    }
}
