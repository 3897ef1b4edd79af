//! Running generated kernels: the pipeline cache (keyed by the kernel's canonical text), the
//! shape table and constants, and dispatch over a 2-D grid once one dimension of 65535
//! workgroups is not enough. Validation errors are caught in an error scope and returned.

use super::bind_cache::Binding;
use super::buffers::{self, DeviceBuffer};
use super::device::{self, Gpu};
use super::pipeline::Pipeline;
use crate::interp::error::{MError, MResult};
use crate::plan::{Access, Group};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

pub(super) const WORKGROUP: u32 = 256;

/// Elements one dispatch of an elementwise kernel covers on a CPU device (tens of ms there).
const CPU_WINDOW: usize = 1 << 22;

/// Steps of a fused group, and element-steps in all, past which its kernel is submitted as
/// soon as it is recorded (memory-bound kernels have a few tens of steps at most).
const LONG_CHAIN: u64 = 64;
const LONG_WORK: u64 = 1 << 24;

/// A compiled kernel and whether the cache already held it.
pub(super) type Compiled = (Arc<Pipeline>, bool);

static PIPELINES: Mutex<Option<HashMap<crate::codegen::KernelKey, Arc<Pipeline>>>> =
    Mutex::new(None);

fn gpu_error(what: &str, e: impl std::fmt::Display) -> MError {
    MError::new("matfuse:gpu:kernel", format!("{what}: {e}"))
}

/// Writes a compiled kernel's WGSL to `$MATFUSE_WGSL_DIR/kernel-N.wgsl` when that is set
/// (for reading and for probing kernels outside matfuse), and returns the text to compile:
/// `$MATFUSE_WGSL_REPLACE/kernel-N.wgsl` instead where that exists (N counts the kernels
/// compiled in this process), so an edited kernel can be timed in place of the generated one.
fn dump_or_replace(text: String) -> String {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    let name = format!("kernel-{n}.wgsl");
    if let Some(dir) = std::env::var_os("MATFUSE_WGSL_DIR") {
        let path = std::path::Path::new(&dir).join(&name);
        let written = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, &text));
        if let Err(e) = written {
            eprintln!("matfuse: cannot write {}: {e}", path.display());
        }
    }
    if let Some(dir) = std::env::var_os("MATFUSE_WGSL_REPLACE") {
        let path = std::path::Path::new(&dir).join(&name);
        if let Ok(edited) = std::fs::read_to_string(&path) {
            eprintln!("matfuse: {name} replaced by {}", path.display());
            return edited;
        }
    }
    text
}

/// The compiled pipeline for the kernel `key` names, generating its text (`source`, in
/// codegen's short form) and compiling it on first use.
pub(super) fn compiled(
    g: &Gpu,
    key: crate::codegen::KernelKey,
    source: impl FnOnce() -> String,
) -> MResult<Compiled> {
    if let Some(p) = PIPELINES
        .lock()
        .ok()
        .and_then(|m| m.as_ref().and_then(|m| m.get(&key).cloned()))
    {
        return Ok((p, true));
    }
    // Compiled on a thread of its own while this one waits watching for Ctrl-C: a first
    // compile of nested double functions takes seconds on lavapipe, and a driver's compile
    // cannot be stopped. Interrupted, the statement ends at once and the compile finishes in
    // the background into the cache. A statement that needs the same kernel meanwhile waits
    // for that compile (watching Ctrl-C as well) instead of starting a second one beside it:
    // re-running an interrupted statement was a new compile of many seconds from the start.
    let slot = {
        let mut inflight = INFLIGHT.lock().map_err(|_| {
            MError::new("matfuse:gpu:kernel", "the kernel compile table is poisoned")
        })?;
        let table = inflight.get_or_insert_with(HashMap::new);
        match table.get(&key) {
            Some(slot) => slot.clone(),
            None => {
                let slot: Slot = Arc::new(Mutex::new(None));
                let text = dump_or_replace(crate::codegen::expand(&source()));
                let device = g.device.clone();
                let slow = super::faults::fires(super::faults::Fault::SlowCompile);
                let theirs = slot.clone();
                let their_key = key.clone();
                let spawned = std::thread::Builder::new()
                    .name("matfuse-compile".into())
                    // Drivers compile pipelines on this thread's stack; give them the main
                    // thread's.
                    .stack_size(64 << 20)
                    .spawn(move || {
                        if slow {
                            std::thread::sleep(std::time::Duration::from_secs(30));
                        }
                        let r = compile(&device, their_key.clone(), text);
                        if let Ok(mut s) = theirs.lock() {
                            *s = Some(r);
                        }
                        if let Ok(mut inflight) = INFLIGHT.lock() {
                            if let Some(t) = inflight.as_mut() {
                                t.remove(&their_key);
                            }
                        }
                    });
                if let Err(e) = spawned {
                    return Err(gpu_error("cannot start a thread to compile a kernel", e));
                }
                table.insert(key, slot.clone());
                slot
            }
        }
    };
    loop {
        let done = slot.lock().ok().and_then(|s| s.clone());
        if let Some(r) = done {
            return r
                .map(|p| (p, false))
                .map_err(|e| gpu_error("the GPU rejected a generated kernel", e));
        }
        if crate::interp::interrupt::raised() {
            return Err(MError::interrupted());
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// A compile's result, filled in by its thread.
type Slot = Arc<Mutex<Option<Result<Arc<Pipeline>, String>>>>;

/// Compiles under way, by kernel: a statement that needs one of them waits for it.
static INFLIGHT: Mutex<Option<HashMap<crate::codegen::KernelKey, Slot>>> = Mutex::new(None);

/// Compiles `text` into a pipeline and keeps it in the cache under `key`; the driver's
/// complaint otherwise.
fn compile(
    device: &wgpu::Device,
    key: crate::codegen::KernelKey,
    text: String,
) -> Result<Arc<Pipeline>, String> {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = shader_module(device, "matfuse elementwise", text.clone());
    let words: Vec<String> = key.words().iter().take(6).map(|w| w.to_string()).collect();
    let name = super::pipeline::kernel_name(&format!("[{}]", words.join(",")), &text);
    let pipe = super::pipeline::build(device, &module, &text, "matfuse elementwise", name);
    if let Some(e) = pollster::block_on(scope.pop()) {
        return Err(e.to_string());
    }
    let pipe = Arc::new(pipe);
    if let Ok(mut m) = PIPELINES.lock() {
        m.get_or_insert_with(HashMap::new).insert(key, pipe.clone());
    }
    Ok(pipe)
}

/// Whether kernels keep the checks wgpu adds to shaders (`MATFUSE_SHADER_CHECKS=1`, for
/// hunting a suspected out-of-bounds access or endless loop in a kernel).
fn shader_checks() -> wgpu::ShaderRuntimeChecks {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *ON.get_or_init(|| std::env::var("MATFUSE_SHADER_CHECKS").is_ok_and(|v| v == "1")) {
        wgpu::ShaderRuntimeChecks::checked()
    } else {
        wgpu::ShaderRuntimeChecks::unchecked()
    }
}

/// A shader module of matfuse's own WGSL, without the checks wgpu adds for untrusted shaders:
/// a clamp on every array index, a guard on every integer division, and a second counter in
/// every loop. Each costs instructions in the innermost loops of every kernel (the counter
/// also stands between the driver and unrolling), and none can fire: indices stay within the
/// arrays they read (element indices below the element count, table indices bounded by the
/// exponent range), divisors are dimensions of nonempty arrays or constants, and every loop
/// counts toward a bound or strictly shrinks a remainder. On the H100 workload 1 took 3%
/// (single) and 6% (double) less GPU time without them; workloads 2 and 3 0.7% more.
pub(super) fn shader_module(
    device: &wgpu::Device,
    label: &str,
    text: String,
) -> wgpu::ShaderModule {
    let desc = wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(text.into()),
    };
    // SAFETY: matfuse's kernels index within bounds, divide by nonzero values and end every
    // loop (the reasons above); wgpu's validation of the WGSL itself still runs.
    unsafe { device.create_shader_module_trusted(desc, shader_checks()) }
}

/// Number of pipelines compiled so far.
pub fn cached_pipelines() -> usize {
    PIPELINES
        .lock()
        .ok()
        .and_then(|m| m.as_ref().map(|m| m.len()))
        .unwrap_or(0)
}

/// The words after the kernel's parameters: the random blocks' seeds and offsets (low and
/// high words), then the regions embeds write (`m_region` in common.wgsl reads them), then
/// the gathers' subscripts.
pub(super) fn rand_words(gr: &Group) -> impl Iterator<Item = u32> + '_ {
    let rands = gr.rands.iter().flat_map(|(r, _)| {
        [
            r.seed as u32,
            (r.seed >> 32) as u32,
            r.offset as u32,
            (r.offset >> 32) as u32,
        ]
    });
    let regions = gr.regions.iter().flat_map(|(region, sizes)| {
        let subscripts = region.dims.iter().zip(sizes).flat_map(|(p, &size)| {
            [
                size as u32,
                p.start as u32,
                p.step as i32 as u32,
                p.count as u32,
            ]
        });
        std::iter::once(region.dims.len() as u32).chain(subscripts)
    });
    let gathers = gr.gathers.iter().flat_map(|p| p.words());
    rands.chain(regions).chain(gathers)
}

/// The shape table: element count, rank, output dims, then each input's strides and first
/// element.
pub(super) fn shape_table(gr: &Group) -> Vec<u32> {
    let rank = gr.shape.ndims();
    let mut t = vec![gr.shape.numel() as u32, rank as u32];
    t.extend(gr.shape.dims().iter().map(|&d| d as u32));
    for a in &gr.inputs {
        match a {
            Access::Strided(s, offset) => {
                t.extend(s.iter().copied());
                t.push(*offset);
            }
            _ => t.extend(std::iter::repeat_n(0u32, rank + 1)),
        }
    }
    t
}

/// The device copy of a group input (uploading host data in the group's precision).
pub(crate) fn device_input(
    g: &Gpu,
    n: &crate::graph::Node,
    precision: crate::graph::Precision,
) -> MResult<Rc<DeviceBuffer>> {
    let data = n.data.borrow().clone();
    match data {
        // Bound as stored: the kernel converts what it reads.
        Some(crate::graph::Data::Device(b)) => Ok(b),
        Some(crate::graph::Data::Host(t)) => {
            let b = Rc::new(buffers::upload_tensor(g, &t, precision)?);
            // The uploaded copy replaces the host one as the node's data (inputs stay
            // resident), unless it is a narrowed temporary (doubles on a device without f64).
            if precision == n.precision() || n.class == crate::values::class::Class::Logical {
                *n.data.borrow_mut() = Some(crate::graph::Data::Device(b.clone()));
            }
            Ok(b)
        }
        None => Err(MError::new(
            "matfuse:internal",
            "A kernel input was not computed.",
        )),
    }
}

/// The most bytes one storage binding may hold: the adapter's limit, or a smaller one from
/// `MATFUSE_MAX_BINDING` (so tests can split arrays without allocating gigabytes).
pub fn binding_limit(g: &Gpu) -> u64 {
    let forced = crate::settings::parsed::<u64>("MATFUSE_MAX_BINDING").filter(|&b| b >= 4096);
    forced.map_or(g.info.max_storage_binding, |b| {
        b.min(g.info.max_storage_binding)
    })
}

/// Elements of one window: a multiple of 4096 (so window offsets are multiples of 256
/// bytes, the alignment storage bindings need, in either precision) that fits one binding
/// in f64.
pub fn window_elements(g: &Gpu) -> usize {
    ((binding_limit(g) / 8) as usize / 4096 * 4096).max(4096)
}

/// Bytes a binding spans.
fn bound_bytes(b: &Binding) -> u64 {
    b.size
        .map_or(b.buffer.size().saturating_sub(b.offset), |s| s.get())
}

/// The size of a binding of all of a buffer's values (`values` bytes in a buffer of `buffer`):
/// the whole buffer (None), unless its size class is past what one binding may span (a 2 GiB
/// buffer holding 1.6 GB, where bindings stop one byte short of 2 GiB); then the values'
/// whole 256 bytes.
fn whole_binding(buffer: u64, values: u64, limit: u64) -> Option<std::num::NonZeroU64> {
    if buffer <= limit {
        return None;
    }
    std::num::NonZeroU64::new(values.next_multiple_of(256).min(buffer))
}

/// The part of a buffer one dispatch binds: elements `start..start + len`, or all of it.
pub(super) fn window(
    b: &DeviceBuffer,
    part: Option<(usize, usize)>,
    limit: u64,
) -> MResult<Binding> {
    let raw = b.raw()?;
    Ok(match part {
        // A view binds its own values (whole 16-byte vectors, as windows below).
        None if b.offset > 0 => Binding {
            buffer: raw.clone(),
            offset: b.offset,
            size: std::num::NonZeroU64::new(
                b.bytes()
                    .max(1)
                    .next_multiple_of(16)
                    .min(raw.size() - b.offset),
            ),
        },
        None => Binding {
            buffer: raw.clone(),
            offset: 0,
            size: whole_binding(raw.size(), b.bytes(), limit),
        },
        Some((start, len)) => {
            let size = b.precision.bytes() as u64;
            let offset = b.offset + start as u64 * size;
            // Whole 16-byte vectors, so vector kernels see a window's last elements (buffers
            // are powers of two of at least 256 bytes and windows start on 256 bytes).
            let bytes = (len.max(1) as u64 * size).next_multiple_of(16);
            Binding {
                buffer: raw.clone(),
                offset,
                size: std::num::NonZeroU64::new(bytes.min(raw.size() - offset)),
            }
        }
    })
}

/// One dispatch of a kernel: which elements it writes (all of `out`, or a window of it when
/// the output is larger than one binding), which elements of the inputs read element for
/// element it binds (`inputs`: start and length, the start a multiple of 64 elements, so of
/// 256 bytes), and how many workgroups.
pub(super) struct Launch<'a> {
    pub table: &'a [u32],
    pub consts: &'a [f64],
    pub out: Option<(usize, usize)>,
    pub inputs: Option<(usize, usize)>,
    pub workgroups: u32,
}

/// Dispatches one kernel writing into `out` (a window of it and of the inputs read element
/// for element, as `launch` says). The table's last word is where the inputs' window starts
/// (so `gi`, an element's place in the whole array, is the index in the window plus it).
pub(super) fn launch_into(
    g: &Gpu,
    gr: &Group,
    kernel: &Compiled,
    out: &DeviceBuffer,
    launch: &Launch<'_>,
) -> MResult<()> {
    super::trace("launch: start");
    let (pipe, hit) = (&kernel.0, kernel.1);
    let inputs: Vec<Rc<DeviceBuffer>> = gr
        .leaves
        .iter()
        .zip(&gr.bindings)
        .map(|(l, &p)| device_input(g, l, p))
        .collect::<MResult<_>>()?;
    let mut table = launch.table.to_vec();
    table.resize(table.len().max(3), 0);
    table.push(launch.inputs.map_or(0, |(start, _)| start as u32));
    let table: &[u8] = bytemuck::cast_slice(&table);
    let mut consts = buffers::encode(launch.consts, gr.precision);
    consts.resize(consts.len().max(16), 0);
    let mut windows = Vec::with_capacity(inputs.len());
    for (k, b) in inputs.iter().enumerate() {
        let part = match gr.inputs[k] {
            Access::Same => launch.inputs,
            _ => None,
        };
        windows.push(window(b, part, g.info.max_storage_binding)?);
    }
    let out_buffer = out;
    let out = window(out, launch.out, g.info.max_storage_binding)?;
    // What the kernel moves: each binding, but no more of it than one element per element
    // of the group (a gather or a row update binds the whole array it reads a row of, and
    // counted whole, a loop of row updates went to the device a few rows at a time).
    let per_element = gr.shape.numel() as u64 * gr.precision.bytes() as u64;
    let bytes: u64 = windows
        .iter()
        .chain([&out])
        .map(|w| bound_bytes(w).min(per_element))
        .sum();
    let max = g.info.max_workgroups_per_dim.max(1);
    let groups = launch.workgroups.max(1);
    let (x, y) = if groups <= max {
        (groups, 1)
    } else {
        (max, groups.div_ceil(max))
    };
    super::trace("launch: inputs, table and constants");
    super::timing::make_room();
    let scope = g.device.push_error_scope(wgpu::ErrorFilter::Validation);
    super::batch::record_dispatch(g, &[table, &consts], |pass, params, at| {
        let part = |k: usize, len: usize| Binding {
            buffer: params.clone(),
            offset: at[k],
            size: std::num::NonZeroU64::new(len as u64),
        };
        let mut bindings = vec![out, part(0, table.len()), part(1, consts.len())];
        // An input that is the output itself (a scatter whose values read the array where
        // they write it) is read through `out`: its own slot binds the constants, since
        // wgpu forbids one buffer both read-only and read-write in a dispatch.
        for (w, b) in windows.into_iter().zip(&inputs) {
            if std::ptr::eq(&**b, out_buffer) {
                bindings.push(part(1, consts.len()));
            } else {
                bindings.push(w);
            }
        }
        let cached = super::bind_cache::bind(pass, &g.device, pipe, bindings);
        super::trace(if cached {
            "launch: bind group (cached)"
        } else {
            "launch: bind group (made)"
        });
        pass.dispatch_workgroups(x, y, 1);
    })?;
    super::trace("launch: recorded");
    if let Some(e) = pollster::block_on(scope.pop()) {
        return Err(gpu_error("a kernel could not run", e));
    }
    // A long chain of arithmetic (random draws and exponentials step after step over a
    // million paths: workload 4's kernels compute for a millisecond each on the H100) goes to
    // the device at once, busy or not: the host records the next while it runs.
    let steps = gr.steps.len() as u64;
    if steps >= LONG_CHAIN && (gr.shape.numel() as u64).saturating_mul(steps) >= LONG_WORK {
        super::batch::submit(g)?;
    } else {
        super::batch::submit_if_idle(g, bytes)?;
    }
    super::stats::add_kernel(gr.steps.len(), hit);
    Ok(())
}

/// Runs an elementwise group on the device; the result stays there. An output larger than
/// one storage binding is computed a window at a time (inputs read element for element are
/// bound at the same window; broadcast ones whole, so they must fit one binding).
pub fn run_elementwise(gr: &Group) -> MResult<Rc<DeviceBuffer>> {
    let g = device::ready().ok_or_else(|| MError::new("matfuse:gpu:none", "No GPU."))?;
    let n = gr.shape.numel();
    // On a CPU device (lavapipe) a dispatch is the host's own time and cannot be stopped
    // once submitted: 3e7 elements were a third of a second past a Ctrl-C. There a big
    // result runs a window of CPU_WINDOW elements at a time, each waited for with a look at
    // Ctrl-C; a GPU runs it in as few windows as the binding allows, as before.
    let cpu = g.info.device_type == "Cpu";
    let per = if cpu {
        window_elements(g).min(CPU_WINDOW)
    } else {
        window_elements(g)
    };
    // A result in one binding may run as a vector kernel (elements per thread: `width`).
    let width = if n <= per {
        crate::codegen::vector_width(gr) as usize
    } else {
        1
    };
    let bytes = (n * gr.precision.bytes()) as u64;
    let reversed = width > 1 && super::order::reverse(bytes);
    let kind = crate::codegen::Kind::Elementwise {
        vector: width > 1,
        reversed,
    };
    let kernel = compiled(g, crate::codegen::key(gr, kind), || {
        crate::codegen::elementwise(gr, width > 1, reversed)
    })?;
    super::trace("launch: kernel");
    // Vector kernels compute `unroll` vectors per thread.
    let unroll = if width > 1 {
        crate::codegen::vector_unroll()
    } else {
        1
    };
    let mut table = shape_table(gr);
    table.extend(rand_words(gr));
    let out = buffers::allocate_for(g, n, gr.precision, Arc::as_ptr(&kernel.0) as usize)?;
    let mut start = 0;
    loop {
        let len = per.min(n - start);
        table[0] = len as u32;
        let part = (len < n).then_some((start, len));
        let launch = Launch {
            table: &table,
            consts: &gr.consts,
            out: part,
            inputs: part,
            workgroups: (len.div_ceil(width) as u32).div_ceil(WORKGROUP * unroll),
        };
        launch_into(g, gr, &kernel, &out, &launch)?;
        super::order::ran(bytes, reversed);
        start += len;
        if start >= n {
            break;
        }
        if cpu {
            super::batch::submit(g)?;
            device::wait_watched(g)?;
        }
    }
    Ok(Rc::new(out))
}

#[cfg(test)]
mod whole_binding_tests {
    use super::whole_binding;

    #[test]
    fn a_binding_of_all_values_stays_within_the_device_limit() {
        let limit = (1u64 << 31) - 1;
        // within the limit: the whole buffer
        assert_eq!(whole_binding(1 << 30, 800_000_000, limit), None);
        // a 2 GiB size class for 1.6e9 bytes: the values, on 256 bytes
        let b = whole_binding(1 << 31, 1_600_000_004, limit).map(|s| s.get());
        assert_eq!(b, Some(1_600_000_256));
        assert!(b.is_some_and(|b| b <= limit && b % 256 == 0));
    }
}
