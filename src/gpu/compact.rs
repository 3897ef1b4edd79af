//! Compaction on the device: the positions of a mask's nonzero elements (`find`, and the
//! places `x(mask)` gathers from), in order, as three kernels over blocks of elements
//! (shaders/compact.wgsl). Only the count of nonzeros is read back, to size the result.

use super::bind_cache::Binding;
use super::buffers::{self, DeviceBuffer};
use super::device::{self, Gpu};
use super::kernels::{binding_limit, compiled, window};
use super::shader_files;
use crate::codegen::KernelKey;
use crate::graph::Precision;
use crate::interp::error::{MError, MResult};
use std::cell::RefCell;
use std::rc::{Rc, Weak};

const COMPACT: &str = include_str!("../../shaders/compact.wgsl");
const WRITE_SUBGROUP: &str = include_str!("../../shaders/compact_write_subgroup.wgsl");
const WRITE_SCAN: &str = include_str!("../../shaders/compact_write_scan.wgsl");
/// Elements a block of the count and offsets passes has, and a part (a workgroup of the
/// write pass). Blocks of 4096 keep the one-workgroup offsets pass short: at blocks of 1024
/// it took 19 us of 1e7 elements' 80 on the H200; a write pass over blocks of 4096, 16
/// elements a thread, took 59 us against 42 over parts of 1024.
const BLOCK: usize = 4096;
const PART: usize = 1024;

#[derive(Clone, Copy)]
enum Pass {
    Count,
    Offsets,
    Write,
    /// The write pass putting the source's elements, not positions.
    WriteValues,
}

fn text(pass: Pass, mask: Precision, out: Precision, sgs: Option<u32>) -> String {
    let call = match pass {
        Pass::Count => "count_pass(lid.x, b);",
        Pass::Offsets => "offsets_pass(lid.x);",
        Pass::Write | Pass::WriteValues => "write_pass(lid.x, b);",
    };
    let (source, written, touch) = match pass {
        Pass::WriteValues => (
            "@group(0) @binding(4) var<storage, read> source: array<{{OUT}}>;",
            "return source[i];",
            "_ = source[0];",
        ),
        _ => ("", "return {{OUT}}(i + 1u);", ""),
    };
    shader_files::with_subgroups(
        &shader_files::text("compact.wgsl", COMPACT),
        "{{WRITE}}",
        sgs,
        ("compact_write_subgroup.wgsl", WRITE_SUBGROUP),
        ("compact_write_scan.wgsl", WRITE_SCAN),
    )
    .replace("{{SOURCE}}", source)
    .replace("{{WRITTEN}}", written)
    .replace("{{TOUCH}}", touch)
    .replace("{{MASK}}", mask.wgsl())
    .replace("{{OUT}}", out.wgsl())
    .replace("{{PASS}}", call)
}

/// The 1-based positions of the nonzero elements among the first `n` of `mask`, as values of
/// `out`, and how many there are (None: nothing to hold, the result is empty).
pub fn find(
    mask: &DeviceBuffer,
    n: usize,
    out: Precision,
) -> MResult<(Option<Rc<DeviceBuffer>>, usize)> {
    let (g, params) = checked(mask, n, None)?;
    let placeholder = buffers::allocate(g, 1, out)?;
    let (counts, total) = counted_now(g, mask, &placeholder, &params)?;
    if total == 0 {
        return Ok((None, 0));
    }
    let result = buffers::allocate(g, total, out)?;
    let parts = params[2] as usize;
    dispatch(g, Pass::Write, mask, &counts, &result, None, &params, parts)?;
    Ok((Some(Rc::new(result)), total))
}

/// The device, and the passes' parameters (elements, blocks, parts), where the first `n` elements
/// of `mask` (and of `source`) can be compacted: each array within one storage binding.
fn checked(
    mask: &DeviceBuffer,
    n: usize,
    source: Option<&DeviceBuffer>,
) -> MResult<(&'static Gpu, [u32; 4])> {
    let g = device::ready().ok_or_else(|| MError::new("matfuse:gpu:none", "No GPU."))?;
    let limit = binding_limit(g);
    let fits = |b: &DeviceBuffer| n <= b.len && b.bytes() <= limit;
    if !fits(mask) || !source.is_none_or(fits) || n >= u32::MAX as usize - BLOCK {
        let what = if source.is_some() {
            "The mask or the array is larger than one storage binding."
        } else {
            "The mask is larger than one storage binding."
        };
        return Err(MError::new("matfuse:gpu:compact", what));
    }
    let blocks = n.div_ceil(BLOCK).max(1);
    let parts = n.div_ceil(PART).max(1);
    Ok((&**g, [n as u32, blocks as u32, parts as u32, 0]))
}

/// The count and offsets passes (`out` bound as the result, for its element type), and the
/// total read back.
fn counted_now(
    g: &Gpu,
    mask: &DeviceBuffer,
    out: &DeviceBuffer,
    params: &[u32; 4],
) -> MResult<(DeviceBuffer, usize)> {
    let blocks = params[1] as usize;
    let counts = offset_passes(g, mask, out, params)?;
    let total = buffers::download_range(&counts, blocks, 1)?
        .first()
        .map_or(0, |&bits| (bits as f32).to_bits() as usize);
    Ok((counts, total))
}

/// Each block's first place in the result, after the blocks the total, then each block's
/// parts' counts (whole numbers in 32-bit words, allocated as singles: the kernels read the
/// bits).
fn offset_passes(
    g: &Gpu,
    mask: &DeviceBuffer,
    out: &DeviceBuffer,
    params: &[u32; 4],
) -> MResult<DeviceBuffer> {
    let blocks = params[1] as usize;
    let counts = buffers::allocate(g, blocks + 1 + 4 * blocks, Precision::F32)?;
    dispatch(g, Pass::Count, mask, &counts, out, None, params, blocks)?;
    dispatch(g, Pass::Offsets, mask, &counts, out, None, params, 1)?;
    Ok(counts)
}

thread_local! {
    /// Block offsets of masks that `count` counted (the count and offsets passes run, the
    /// total read back), by mask: the compaction that follows runs only its write pass.
    static COUNTED: RefCell<Vec<(Weak<DeviceBuffer>, usize, Rc<DeviceBuffer>)>> =
        const { RefCell::new(Vec::new()) };
}

/// Masks whose offsets are kept at most (each entry is a word a block).
const COUNTED_KEPT: usize = 4;

/// How many of the first `n` elements of `mask` are nonzero: the compaction's count and
/// offsets passes, and the total read back. The offsets are kept for the mask's compaction
/// (`values`, `find_counted`), so a deletion counts its kept elements once, not by a
/// reduction and then again in the compaction.
pub fn count(mask: &Rc<DeviceBuffer>, n: usize) -> MResult<usize> {
    let (g, params) = checked(mask, n, None)?;
    let placeholder = buffers::allocate(g, 1, Precision::F32)?;
    let (counts, total) = counted_now(g, mask, &placeholder, &params)?;
    COUNTED.with(|c| {
        let mut c = c.borrow_mut();
        c.retain(|(m, _, _)| m.strong_count() > 0);
        if c.len() >= COUNTED_KEPT {
            c.remove(0);
        }
        c.push((Rc::downgrade(mask), n, Rc::new(counts)));
    });
    Ok(total)
}

/// The offsets `count` left for the first `n` elements of `mask`, taken (a compaction uses
/// them once).
fn counted(mask: &DeviceBuffer, n: usize) -> Option<Rc<DeviceBuffer>> {
    COUNTED.with(|c| {
        let mut c = c.borrow_mut();
        // A kept Weak holds its allocation, so no live buffer can have a dead one's address.
        let k = c
            .iter()
            .position(|(m, len, _)| std::ptr::eq(m.as_ptr(), mask) && *len == n)?;
        Some(c.remove(k).2)
    })
}

/// The 1-based positions of the `total` nonzero elements among the first `n` of `mask`
/// (counted before, so nothing is read back and the passes queue behind the work before).
pub fn find_counted(
    mask: &DeviceBuffer,
    n: usize,
    total: usize,
    out: Precision,
) -> MResult<Rc<DeviceBuffer>> {
    let (g, params) = checked(mask, n, None)?;
    let result = buffers::allocate(g, total.max(1), out)?;
    let counts = offsets(g, mask, n, &result, &params)?;
    let parts = params[2] as usize;
    dispatch(g, Pass::Write, mask, &counts, &result, None, &params, parts)?;
    Ok(Rc::new(result))
}

/// The elements of `source` where the first `n` of `mask` are nonzero, in order (`x(mask)`
/// without positions: one pass writes the values), `total` of them (counted before).
pub fn values(
    mask: &DeviceBuffer,
    source: &DeviceBuffer,
    n: usize,
    total: usize,
) -> MResult<Rc<DeviceBuffer>> {
    let (g, params) = checked(mask, n, Some(source))?;
    let result = buffers::allocate(g, total.max(1), source.precision)?;
    let counts = offsets(g, mask, n, &result, &params)?;
    let parts = params[2] as usize;
    let from = Some(source);
    dispatch(
        g,
        Pass::WriteValues,
        mask,
        &counts,
        &result,
        from,
        &params,
        parts,
    )?;
    Ok(Rc::new(result))
}

/// Each block's first place in the result: what `count` left for this mask, or the count
/// and offsets passes.
fn offsets(
    g: &Gpu,
    mask: &DeviceBuffer,
    n: usize,
    result: &DeviceBuffer,
    params: &[u32; 4],
) -> MResult<Rc<DeviceBuffer>> {
    if let Some(counts) = counted(mask, n) {
        return Ok(counts);
    }
    Ok(Rc::new(offset_passes(g, mask, result, params)?))
}

fn dispatch(
    g: &Gpu,
    pass: Pass,
    mask: &DeviceBuffer,
    counts: &DeviceBuffer,
    out: &DeviceBuffer,
    source: Option<&DeviceBuffer>,
    params: &[u32; 4],
    workgroups: usize,
) -> MResult<()> {
    let key = KernelKey::compact(pass as u32, mask.precision as u32, out.precision as u32);
    let sgs = g.info.workgroup_subgroup();
    let (pipe, _) = compiled(g, key, || text(pass, mask.precision, out.precision, sgs))?;
    let limit = g.info.max_storage_binding;
    let bindings = [
        window(mask, None, limit)?,
        window(counts, None, limit)?,
        window(out, None, limit)?,
    ];
    let source = source.map(|s| window(s, None, limit)).transpose()?;
    let max = g.info.max_workgroups_per_dim.max(1);
    let groups = workgroups.max(1) as u32;
    let (x, y) = if groups <= max {
        (groups, 1)
    } else {
        (max, groups.div_ceil(max))
    };
    let bytes: &[u8] = bytemuck::cast_slice(params);
    let scope = g.device.push_error_scope(wgpu::ErrorFilter::Validation);
    super::batch::record_dispatch(g, &[bytes], |pass, params, at| {
        let mut all: Vec<Binding> = bindings.to_vec();
        all.push(Binding {
            buffer: params.clone(),
            offset: at[0],
            size: std::num::NonZeroU64::new(bytes.len() as u64),
        });
        all.extend(source.clone());
        super::bind_cache::bind(pass, &g.device, &pipe, all);
        pass.dispatch_workgroups(x, y, 1);
    })?;
    if let Some(e) = pollster::block_on(scope.pop()) {
        return Err(MError::new(
            "matfuse:gpu:kernel",
            format!("A compaction kernel could not run: {e}"),
        ));
    }
    let moved = mask.bytes() + out.bytes() + source.map_or(0, |_| out.bytes());
    super::batch::submit_if_idle(g, moved)
}

#[cfg(test)]
mod tests {
    use super::{Pass, text};
    use crate::gpu::shader_files::validate;
    use crate::graph::Precision;

    /// Every pass and both write passes (at the subgroup sizes devices have: lavapipe 8,
    /// NVIDIA 32, AMD 64) pass naga's checks.
    #[test]
    fn compaction_texts_validate() {
        for sgs in [None, Some(8), Some(32), Some(64)] {
            for pass in [Pass::Count, Pass::Offsets, Pass::Write, Pass::WriteValues] {
                for mask in [Precision::F32, Precision::F64] {
                    validate(&text(pass, mask, Precision::F64, sgs));
                    validate(&text(pass, mask, Precision::F32, sgs));
                }
            }
        }
    }
}
