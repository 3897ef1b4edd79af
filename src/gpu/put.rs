//! Indexed assignment by index arrays on the device (shaders/put.wgsl): values written into
//! an array at the places its subscripts pick (progressions, or positions held on the device
//! or given by the host), repeated positions resolved as MATLAB resolves them (the last write
//! wins) by a marking pass, never by which thread comes last. Also the pieces assignments that
//! grow or delete need: zeroed arrays, copies of a prefix, and the old array written into a
//! larger one. Nothing is read back.

use super::bind_cache::Binding;
use super::buffers::{self, DeviceBuffer};
use super::device::{self, Gpu};
use super::kernels::{binding_limit, compiled, window};
use super::shader_files;
use crate::codegen::KernelKey;
use crate::graph::Precision;
use crate::interp::error::{MError, MResult};
use std::rc::Rc;

const PUT: &str = include_str!("../../shaders/put.wgsl");
const WORKGROUP: usize = 256;
/// Host words (index positions or values) passed with the parameters rather than uploaded.
const INLINE_WORDS: usize = 4096;

/// The positions of an index subscript (1-based).
pub enum Positions<'a> {
    Device(&'a DeviceBuffer),
    Host(Vec<u32>),
}

/// What is known of the repeated positions of an index subscript.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Repeats {
    /// Every position is named once (a mask's positions, an array checked before): the
    /// values are written without marks.
    None,
    /// There may be repeats: marked, so the last write wins.
    Possible,
    /// Not known: marked, and the repeats counted, so the caller learns (`put`'s verdict).
    Unchecked,
}

/// One subscript of a put.
pub enum Sub<'a> {
    /// `count` positions from `start` (0-based) in steps of `step`.
    Range {
        start: i64,
        step: i64,
        count: usize,
    },
    Index(Positions<'a>, Repeats),
}

impl Sub<'_> {
    pub fn count(&self) -> usize {
        match self {
            Sub::Range { count, .. } => *count,
            Sub::Index(Positions::Device(b), _) => b.len,
            Sub::Index(Positions::Host(p), _) => p.len(),
        }
    }
    /// Whether the put marks this subscript's positions.
    fn marked(&self, one: bool) -> bool {
        // One value for every place: whichever write lands, the element gets that value.
        matches!(self, Sub::Index(_, r) if *r != Repeats::None && !one)
    }
}

/// The marks word of a subscript written without marks (and of a put counting no repeats).
const NO_MARKS: u32 = u32::MAX;

/// The values a put writes: one per place (column-major over the subscripts), or one for all.
pub enum Values<'a> {
    Device(&'a DeviceBuffer),
    /// Host values (converted to the array's precision here).
    Host(Vec<f64>),
}

#[derive(Clone, Copy, PartialEq)]
enum Elem {
    F32,
    F64,
    U32,
}

impl Elem {
    fn of(p: Precision) -> Elem {
        match p {
            Precision::F32 => Elem::F32,
            Precision::F64 => Elem::F64,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Elem::F32 => "f32",
            Elem::F64 => "f64",
            Elem::U32 => "u32",
        }
    }
}

fn gpu() -> MResult<&'static std::sync::Arc<Gpu>> {
    device::ready().ok_or_else(|| MError::new("matfuse:gpu:none", "No GPU."))
}

fn too_large() -> MError {
    MError::new(
        "matfuse:gpu:put",
        "The array is larger than one storage binding.",
    )
}

/// A binding's source: a device buffer, or a block of the parameters.
enum Bound<'a> {
    Buffer(&'a DeviceBuffer),
    /// Uploaded for this put.
    Owned(DeviceBuffer),
    Block(usize),
}

impl Bound<'_> {
    fn buffer(&self) -> Option<&DeviceBuffer> {
        match self {
            Bound::Buffer(b) => Some(b),
            Bound::Owned(b) => Some(b),
            Bound::Block(_) => None,
        }
    }
}

/// Writes `values` into `out` (whose dimensions the subscripts see as `sizes`) at the places
/// `subs` pick. Positions must be within `sizes` (the caller checked them). Where the only
/// marked subscript is `Repeats::Unchecked`, its repeats are counted and the count given
/// back in a one-word buffer (0: every position named once), not read: the caller reads it
/// when the positions are used again, so a one-off assignment waits for nothing.
pub fn put(
    out: &DeviceBuffer,
    sizes: &[usize],
    subs: &[Sub<'_>],
    values: Values<'_>,
) -> MResult<Option<DeviceBuffer>> {
    let g = gpu()?;
    let n: usize = subs.iter().map(Sub::count).product();
    if n == 0 {
        return Ok(None);
    }
    let limit = binding_limit(g);
    if out.bytes() > limit || n >= u32::MAX as usize || out.len > u32::MAX as usize {
        return Err(too_large());
    }
    let one = match &values {
        Values::Device(b) => b.len == 1,
        Values::Host(v) => v.len() == 1,
    };
    let marked: Vec<bool> = subs.iter().map(|s| s.marked(one)).collect();
    let counted = marked.iter().filter(|&&m| m).count() == 1
        && subs
            .iter()
            .zip(&marked)
            .any(|(s, &m)| m && matches!(s, Sub::Index(_, Repeats::Unchecked)));
    // Parameter blocks: the table, then host positions and host values.
    let mut blocks: Vec<Vec<u8>> = vec![Vec::new()];
    let mut index_bound: Vec<(Bound<'_>, Elem)> = Vec::new();
    // (the fourth word, where the repeats are counted, is filled in below)
    let mut table = vec![n as u32, subs.len() as u32, u32::from(one), NO_MARKS];
    let mut stride = 1u64;
    let mut marks_len = 0usize;
    for ((s, &size), &mark) in subs.iter().zip(sizes).zip(&marked) {
        let (kind, start, step) = match s {
            Sub::Range { start, step, .. } => (0u32, *start, *step),
            Sub::Index(p, _) => {
                if index_bound.len() == 2 {
                    return Err(MError::new(
                        "matfuse:gpu:put",
                        "At most two index subscripts.",
                    ));
                }
                let bound = match p {
                    Positions::Device(b) => {
                        if b.bytes() > limit {
                            return Err(too_large());
                        }
                        (Bound::Buffer(b), Elem::of(b.precision))
                    }
                    Positions::Host(words) if words.len() <= INLINE_WORDS => {
                        blocks.push(bytes_of(words));
                        (Bound::Block(blocks.len() - 1), Elem::U32)
                    }
                    Positions::Host(words) => (Bound::Owned(upload_words(g, words)?), Elem::U32),
                };
                index_bound.push(bound);
                (index_bound.len() as u32, 0, 0)
            }
        };
        let marks_at = match mark {
            true => marks_len as u32,
            false => NO_MARKS,
        };
        if mark {
            marks_len += size;
        }
        table.extend([
            kind,
            s.count() as u32,
            start as i32 as u32,
            step as i32 as u32,
            stride as u32,
            marks_at,
        ]);
        stride = stride.saturating_mul(size as u64);
    }
    if counted {
        table[3] = marks_len as u32;
        marks_len += 1;
    }
    blocks[0] = bytes_of(&table);
    let (vals, val_elem) = match &values {
        Values::Device(b) => {
            if b.bytes() > limit {
                return Err(too_large());
            }
            (Bound::Buffer(*b), Elem::of(b.precision))
        }
        Values::Host(v) => {
            if v.len() > INLINE_WORDS {
                let up = buffers::upload(g, v, out.precision)?;
                (Bound::Owned(up), Elem::of(out.precision))
            } else {
                blocks.push(buffers::encode(v, out.precision));
                (Bound::Block(blocks.len() - 1), Elem::of(out.precision))
            }
        }
    };
    let elems = [
        Elem::of(out.precision),
        val_elem,
        index_bound.first().map_or(Elem::U32, |b| b.1),
        index_bound.get(1).map_or(Elem::U32, |b| b.1),
    ];
    // Marks of the index subscripts, zeroed.
    let marks = if marks_len > 0 {
        let m = buffers::allocate(g, marks_len, Precision::F32)?;
        if m.bytes() > limit {
            return Err(too_large());
        }
        clear(g, &m, 0, marks_len)?;
        Some(m)
    } else {
        None
    };
    let placeholder;
    let marks_buf = match &marks {
        Some(m) => m,
        None => {
            placeholder = buffers::allocate(g, 1, Precision::F32)?;
            &placeholder
        }
    };
    let idx_sources: [Option<&Bound<'_>>; 2] = [
        index_bound.first().map(|b| &b.0),
        index_bound.get(1).map(|b| &b.0),
    ];
    let run = |pass: u32, threads: usize| {
        dispatch(
            g,
            pass,
            elems,
            out,
            &vals,
            idx_sources,
            marks_buf,
            &blocks,
            threads,
        )
    };
    let Some(marks) = &marks else {
        run(1, n)?;
        return Ok(None);
    };
    let most = subs
        .iter()
        .zip(&marked)
        .filter(|(_, m)| **m)
        .map(|(s, _)| s.count())
        .max()
        .unwrap_or(0);
    run(0, most)?;
    run(1, n)?;
    if !counted {
        return Ok(None);
    }
    let repeats = buffers::allocate(g, 1, Precision::F32)?;
    copy_part(marks, marks_len - 1, &repeats, 0, 1)?;
    Ok(Some(repeats))
}

/// Whether a count of repeats `put` gave back is zero (waits for the GPU; one word).
pub fn no_repeats(count: &DeviceBuffer) -> MResult<bool> {
    Ok(match super::transfer::download_elems(count, 0, 1)? {
        super::transfer::Elems::F32(w) => w.first().is_some_and(|x| x.to_bits() == 0),
        super::transfer::Elems::F64(_) => false,
    })
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    let mut b: Vec<u8> = bytemuck::cast_slice(words).to_vec();
    b.resize(b.len().max(16).next_multiple_of(16), 0);
    b
}

/// Host words in a new device buffer (counted as uploaded).
fn upload_words(g: &Gpu, words: &[u32]) -> MResult<DeviceBuffer> {
    let buf = buffers::allocate(g, words.len(), Precision::F32)?;
    super::batch::submit(g)?;
    g.queue
        .write_buffer(buf.raw()?, 0, bytemuck::cast_slice(words));
    super::stats::add_upload((words.len() * 4) as u64);
    Ok(buf)
}

/// Zeroes elements `start..start + len` of `b` (queued with the recorded work).
pub fn clear(g: &Gpu, b: &DeviceBuffer, start: usize, len: usize) -> MResult<()> {
    if len == 0 {
        return Ok(());
    }
    let size = b.precision.bytes() as u64;
    let raw = b.raw()?;
    let at = b.offset + start as u64 * size;
    let bytes = (len as u64 * size).min(raw.size().saturating_sub(at));
    super::batch::record(g, &[], |enc, _, _| {
        enc.clear_buffer(raw, at, Some(bytes));
    })
}

/// A new array of `len` zeros of `precision`.
pub fn zeros(len: usize, precision: Precision) -> MResult<DeviceBuffer> {
    let g = gpu()?;
    let b = buffers::allocate(g, len, precision)?;
    clear(g, &b, 0, len)?;
    Ok(b)
}

/// Copies elements `from_start..from_start + len` of `from` to `to` from `to_start` (same
/// precision; queued with the recorded work).
pub fn copy_part(
    from: &DeviceBuffer,
    from_start: usize,
    to: &DeviceBuffer,
    to_start: usize,
    len: usize,
) -> MResult<()> {
    let g = gpu()?;
    let size = from.precision.bytes() as u64;
    let (a, b) = (from.raw()?, to.raw()?);
    if from.precision != to.precision || from_start + len > from.len || to_start + len > to.len {
        return Err(MError::new(
            "matfuse:internal",
            "A copy past an array's end.",
        ));
    }
    if len == 0 {
        return Ok(());
    }
    super::batch::record(g, &[], |enc, _, _| {
        enc.copy_buffer_to_buffer(
            a,
            from.offset + from_start as u64 * size,
            b,
            to.offset + to_start as u64 * size,
            len as u64 * size,
        );
    })
}

#[allow(clippy::too_many_arguments)]
fn dispatch(
    g: &Gpu,
    pass: u32,
    elems: [Elem; 4],
    out: &DeviceBuffer,
    vals: &Bound<'_>,
    idx: [Option<&Bound<'_>>; 2],
    marks: &DeviceBuffer,
    blocks: &[Vec<u8>],
    threads: usize,
) -> MResult<()> {
    let words = [
        pass,
        elems[0] as u32,
        elems[1] as u32,
        elems[2] as u32,
        elems[3] as u32,
    ];
    let key = KernelKey::put(words);
    let kernel = compiled(g, key, || {
        let call = if pass == 0 {
            "mark_pass(t);"
        } else {
            "write_pass(t);"
        };
        shader_files::text("put.wgsl", PUT)
            .replace("{{OUT}}", elems[0].name())
            .replace("{{VAL}}", elems[1].name())
            .replace("{{I0}}", elems[2].name())
            .replace("{{I1}}", elems[3].name())
            .replace("{{PASS}}", call)
    })?;
    let (pipe, hit) = (kernel.0, kernel.1);
    let limit = g.info.max_storage_binding;
    let out_w = window(out, None, limit)?;
    let marks_w = window(marks, None, limit)?;
    let vals_w = vals.buffer().map(|b| window(b, None, limit)).transpose()?;
    let idx_w: Vec<Option<Binding>> = idx
        .iter()
        .map(|b| {
            b.and_then(Bound::buffer)
                .map(|b| window(b, None, limit))
                .transpose()
        })
        .collect::<MResult<_>>()?;
    let max = g.info.max_workgroups_per_dim.max(1);
    let groups = threads.div_ceil(WORKGROUP).max(1) as u32;
    let (x, y) = if groups <= max {
        (groups, 1)
    } else {
        (max, groups.div_ceil(max))
    };
    let refs: Vec<&[u8]> = blocks.iter().map(|b| b.as_slice()).collect();
    let scope = g.device.push_error_scope(wgpu::ErrorFilter::Validation);
    super::batch::record_dispatch(g, &refs, |cpass, params, at| {
        let part = |k: usize| Binding {
            buffer: params.clone(),
            offset: at.get(k).copied().unwrap_or(0),
            size: std::num::NonZeroU64::new(refs.get(k).map_or(16, |b| b.len()) as u64),
        };
        let from = |b: Option<&Bound<'_>>, w: Option<Binding>| match (b, w) {
            (_, Some(w)) => w,
            (Some(Bound::Block(k)), None) => part(*k),
            _ => part(0),
        };
        let bindings = vec![
            out_w,
            from(Some(vals), vals_w),
            from(idx[0], idx_w.first().cloned().flatten()),
            from(idx[1], idx_w.get(1).cloned().flatten()),
            marks_w,
            part(0),
        ];
        super::bind_cache::bind(cpass, &g.device, &pipe, bindings);
        cpass.dispatch_workgroups(x, y, 1);
    })?;
    if let Some(e) = pollster::block_on(scope.pop()) {
        return Err(MError::new(
            "matfuse:gpu:kernel",
            format!("An indexed assignment kernel could not run: {e}"),
        ));
    }
    super::stats::add_kernel(1, hit);
    // each thread reads its value and index and writes one element (a mark, in the marks pass)
    super::batch::submit_if_idle(g, threads as u64 * 16)
}

/// Whether `a` and `b` share storage (one is a view of the other, or they are one array).
pub fn shares(a: &DeviceBuffer, b: &DeviceBuffer) -> bool {
    let root = |x: &DeviceBuffer| -> *const DeviceBuffer {
        match &x.parent {
            Some(p) => Rc::as_ptr(p),
            None => x as *const DeviceBuffer,
        }
    };
    std::ptr::eq(root(a), root(b))
}
