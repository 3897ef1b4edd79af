//! The session's one wgpu device. Creating it takes ~50 ms on lavapipe and ~750 ms on an H200,
//! so it starts on a background thread when the session starts, and the first statement that
//! needs it waits (`get`). The prompt never waits for it.

use crate::interp::error::{MError, MResult};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once, OnceLock};
use std::time::{Duration, Instant};

/// What the session learnt about its device, for the banner, `gpuDevice` and the planner.
#[derive(Debug, Clone)]
pub struct DeviceInfo {
    pub name: String,
    /// 1-based, in the order `gpuDeviceCount` counts usable adapters.
    pub index: usize,
    pub backend: String,
    pub device_type: String,
    pub driver: String,
    pub vendor: u32,
    pub device_id: u32,
    pub supports_double: bool,
    pub supports_int64: bool,
    /// The subgroup size where the device runs subgroup operations (wgpu's `SUBGROUP`) with
    /// one fixed size, so that a kernel can lay its work out by subgroups (`workgroup_subgroup`).
    pub subgroup_size: Option<u32>,
    /// Single sqrt is the driver's corrected with fused multiply-adds: the device gave the
    /// correctly rounded result for every single that way at start-up (`sqrt_check`).
    pub fma_sqrt: bool,
    pub max_buffer_size: u64,
    pub max_storage_binding: u64,
    pub max_storage_buffers_per_stage: u32,
    pub max_workgroups_per_dim: u32,
    pub max_invocations_per_workgroup: u32,
    pub max_workgroup_storage: u32,
    /// Device-local memory in bytes, and how much of it is free now, where the driver says.
    pub total_memory: Option<u64>,
    pub available_memory: Option<u64>,
    /// How long instance, adapter and device creation took.
    pub init_time: Duration,
}

impl DeviceInfo {
    /// The subgroup size a kernel of 256 threads lays its work out by (`gpu::sort`'s tile
    /// ranking, `gpu::compact`'s write pass): the device's one size where it divides the
    /// workgroup; None where those kernels rank without subgroups.
    pub fn workgroup_subgroup(&self) -> Option<u32> {
        self.subgroup_size
            .filter(|s| (4..=128).contains(s) && 256 % s == 0)
    }
}

/// A smaller largest-buffer size from `MATFUSE_MAX_BUFFER_BYTES` (at least 64 KiB), so that
/// tests on lavapipe reach the arrays that are held on the host (`interp::host_held`) with
/// small arrays; no limit without it. A storage binding is never larger than a buffer.
fn buffer_override() -> u64 {
    std::env::var("MATFUSE_MAX_BUFFER_BYTES")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(u64::MAX, |b| b.max(64 << 10))
}

/// A ready device.
pub struct Gpu {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub info: DeviceInfo,
    /// Validation and out-of-memory errors not caught by an error scope, kept instead of
    /// wgpu's default panic so they become MATLAB errors at the next sink.
    pub uncaptured: Arc<Mutex<Vec<String>>>,
}

/// The outcome of starting the device: ready, or the reason the session runs on the CPU.
pub enum Status {
    Ready(Arc<Gpu>),
    Unavailable(String),
}

static STATE: OnceLock<Status> = OnceLock::new();
/// Set once the device is lost: from then on the session runs on the CPU.
static LOST: AtomicBool = AtomicBool::new(false);
/// Why the device was lost, until the interpreter has told the user (`take_loss`).
static LOSS: Mutex<Option<String>> = Mutex::new(None);
static START: Once = Once::new();
/// Every usable adapter seen at start-up (name, backend, type), for `gpuDeviceCount`.
static ADAPTERS: OnceLock<Vec<String>> = OnceLock::new();

/// Starts device creation on a background thread (once per process).
pub fn start() {
    START.call_once(|| {
        let spawned = std::thread::Builder::new()
            .name("matfuse-gpu-init".into())
            // Drivers compile pipelines on this thread's stack; give them the main thread's.
            .stack_size(64 << 20)
            .spawn(|| {
                let status = std::panic::catch_unwind(init)
                    .unwrap_or_else(|_| Status::Unavailable("device initialisation failed".into()));
                let ready = matches!(status, Status::Ready(_));
                let _ = STATE.set(status);
                if ready {
                    super::remember_summary();
                }
            });
        if spawned.is_err() {
            let _ = STATE.set(Status::Unavailable("cannot start the GPU thread".into()));
        }
    });
}

/// The device, waiting for start-up to finish if it is still running.
pub fn get() -> &'static Status {
    start();
    STATE.wait()
}

/// The device if start-up has finished, without waiting.
pub fn peek() -> Option<&'static Status> {
    STATE.get()
}

/// The ready device, if there is one (waits for start-up); None once it is lost.
pub fn ready() -> Option<&'static Arc<Gpu>> {
    match get() {
        Status::Ready(_) if LOST.load(Ordering::Relaxed) => None,
        Status::Ready(g) => Some(g),
        Status::Unavailable(_) => None,
    }
}

/// The ready device if start-up has finished, without starting or waiting for it (code that
/// only describes kernels asks this: nothing runs on a device not yet started).
pub fn current() -> Option<&'static Arc<Gpu>> {
    match peek() {
        Some(Status::Ready(g)) if !LOST.load(Ordering::Relaxed) => Some(g),
        _ => None,
    }
}

/// Whether the device was lost during the session.
pub fn is_lost() -> bool {
    LOST.load(Ordering::Relaxed)
}

fn mark_lost(why: String) {
    if !LOST.swap(true, Ordering::Relaxed) {
        if let Ok(mut l) = LOSS.lock() {
            *l = Some(why);
        }
        super::buffers::clear_pool();
    }
}

/// The reason the device was lost, once (so the loss is reported once).
pub fn take_loss() -> Option<String> {
    LOSS.lock().ok().and_then(|mut l| l.take())
}

/// Loses the device on purpose, as a driver reset would (wgpu's `destroy`): for tests of
/// what the session does then.
pub fn lose_for_test() {
    if let Some(Status::Ready(g)) = peek() {
        g.device.destroy();
    }
    mark_lost("the device was destroyed".into());
}

/// Number of usable adapters (waits for start-up).
pub fn adapter_count() -> usize {
    get();
    ADAPTERS.get().map_or(0, |a| a.len())
}

/// Blocks until all submitted GPU work has finished (for `tic`/`toc`, `timeit`, sinks).
/// Does nothing when no device has been started or start-up is still running: in that case no
/// work can have been submitted.
pub fn synchronize() {
    if let Some(Status::Ready(g)) = peek() {
        super::batch::flush();
        wait_all(g);
    }
}

/// Submits made so far, and the count as of the start of the last completed wait: a wait
/// with nothing submitted since costs a driver round trip (tens of microseconds) for nothing.
static SUBMITS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static WAITED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Queue submits made so far (tests check that a sink submits its work once).
pub fn submits() -> u64 {
    SUBMITS.load(Ordering::SeqCst)
}

/// Records a queue submit (every submit of this crate calls it).
fn note_submit() {
    SUBMITS.fetch_add(1, Ordering::SeqCst);
}

/// Whether everything submitted has been waited for (the device may still be busy with work
/// submitted since).
pub fn idle() -> bool {
    WAITED.load(Ordering::SeqCst) >= SUBMITS.load(Ordering::SeqCst)
}

/// Whether the device has finished all submitted work, looked at without waiting (a poll
/// of the queue: well under a microsecond).
pub fn drained(g: &Gpu) -> bool {
    if idle() {
        return true;
    }
    let submitted = SUBMITS.load(Ordering::SeqCst);
    let empty = poll(g, wgpu::PollType::Poll).is_ok_and(|s| s.is_queue_empty());
    if empty {
        WAITED.fetch_max(submitted, Ordering::SeqCst);
    }
    empty
}

/// Waits for all submitted work, unless none was submitted since the last wait.
pub fn wait_all(g: &Gpu) {
    if !idle() {
        wait_mapped(g);
    }
}

/// Waits for all submitted work, always: a pending `map_async` only completes in a poll (the
/// last wait, on another thread, may have ended before it was asked for).
pub fn wait_mapped(g: &Gpu) {
    spin_wait(g, None, false);
}

/// Waits for all submitted work, looking at Ctrl-C every 10 ms: MATLAB's interrupted error
/// when it was pressed (the work already submitted still finishes on the device).
pub fn wait_watched(g: &Gpu) -> MResult<()> {
    if spin_wait(g, None, true) {
        Ok(())
    } else {
        Err(MError::interrupted())
    }
}

/// Maps `slice` for reading and waits for it; whether the mapping succeeded.
pub fn map_read(g: &Gpu, slice: &wgpu::BufferSlice<'_>) -> bool {
    map_read_start(slice).wait(g)
}

/// A mapping for reading asked for and not yet waited for.
pub struct PendingMap {
    done: Arc<AtomicBool>,
    result: std::sync::mpsc::Receiver<bool>,
}

/// Asks for `slice` to be mapped for reading once the work submitted before it is done.
pub fn map_read_start(slice: &wgpu::BufferSlice<'_>) -> PendingMap {
    let (tx, rx) = std::sync::mpsc::channel();
    let done = Arc::new(AtomicBool::new(false));
    let set = done.clone();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r.is_ok());
        set.store(true, Ordering::Release);
    });
    PendingMap { done, result: rx }
}

impl PendingMap {
    /// Waits for the mapping; whether it succeeded (false also at Ctrl-C).
    pub fn wait(self, g: &Gpu) -> bool {
        if !spin_wait(g, Some(&self.done), true) {
            // Ctrl-C: the read is abandoned (its staging buffer is dropped, not pooled, and
            // the kernels it waited for finish on their own)
            return false;
        }
        // Another thread's poll may have taken the callback and not yet run it: the channel
        // waits for it (or for its being dropped, when the device is lost).
        self.result.recv().unwrap_or(false)
    }
}

/// Waits until `done` is set, or with none until the queue is empty. It polls without
/// blocking first, for up to `MATFUSE_SPIN_US` (default 1000) microseconds: a blocking wait
/// returns tens of microseconds after the work ends, most of a small sink's time. Then it
/// blocks. A CPU adapter (lavapipe) blocks at once: its work runs on the cores a spin takes.
/// An `interruptible` wait blocks in slices of 10 ms and gives up (false) at Ctrl-C.
/// Held by every poll and submit. wgpu-core's waiting poll reads the finished fence value and
/// then the queue's in-flight list in two steps; a poll or submit (which polls too) on another
/// thread that retires submissions in between makes it see an empty queue below its wait
/// index, which wgpu asserts against (seen with test threads sharing the device on lavapipe).
static QUEUE_TURN: Mutex<()> = Mutex::new(());

/// Polls the device, one thread at a time (`QUEUE_TURN`).
pub fn poll(g: &Gpu, kind: wgpu::PollType) -> Result<wgpu::PollStatus, wgpu::PollError> {
    let _turn = QUEUE_TURN.lock().unwrap_or_else(|e| e.into_inner());
    g.device.poll(kind)
}

/// Submits command buffers, one thread at a time with polls (`QUEUE_TURN`), and counts it.
pub fn submit<I: IntoIterator<Item = wgpu::CommandBuffer>>(queue: &wgpu::Queue, buffers: I) {
    {
        let _turn = QUEUE_TURN.lock().unwrap_or_else(|e| e.into_inner());
        queue.submit(buffers);
    }
    note_submit();
}

fn spin_wait(g: &Gpu, done: Option<&AtomicBool>, interruptible: bool) -> bool {
    static SPIN: OnceLock<Duration> = OnceLock::new();
    let spin = *SPIN.get_or_init(|| {
        let default = if g.info.device_type == "Cpu" { 0 } else { 1000 };
        let us = std::env::var("MATFUSE_SPIN_US")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default);
        Duration::from_micros(us)
    });
    let submitted = SUBMITS.load(Ordering::SeqCst);
    let start = Instant::now();
    loop {
        if done.is_some_and(|d| d.load(Ordering::Acquire)) {
            break;
        }
        if start.elapsed() >= spin {
            if !interruptible {
                let _ = poll(g, wgpu::PollType::wait_indefinitely());
                super::trace("wait: blocked");
                break;
            }
            let slice = wgpu::PollType::Wait {
                submission_index: None,
                timeout: Some(Duration::from_millis(10)),
            };
            match poll(g, slice) {
                Err(wgpu::PollError::Timeout) => {
                    if crate::interp::interrupt::check().is_err() {
                        return false;
                    }
                    continue;
                }
                _ => {
                    super::trace("wait: blocked");
                    break;
                }
            }
        }
        let status = poll(g, wgpu::PollType::Poll);
        super::trace("wait: poll");
        if done.is_none() && status.is_ok_and(|s| s.is_queue_empty()) {
            break;
        }
    }
    // Everything submitted before the wait has finished (a buffer's work finishes after the
    // work queued before it).
    WAITED.fetch_max(submitted, Ordering::SeqCst);
    true
}

fn rank(t: wgpu::DeviceType) -> u8 {
    match t {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Cpu => 3,
        wgpu::DeviceType::Other => 4,
    }
}

/// Device-local memory (total, and free now when the driver has `VK_EXT_memory_budget`), read
/// from Vulkan directly because wgpu does not report it. None on other backends.
fn device_memory(adapter: &wgpu::Adapter) -> Option<(u64, Option<u64>)> {
    use ash::vk;
    // SAFETY: the handle is only used to read properties while `adapter` keeps it alive.
    let hal = unsafe { adapter.as_hal::<wgpu::hal::api::Vulkan>() }?;
    let instance = hal.shared_instance().raw_instance();
    let pd = hal.raw_physical_device();
    // SAFETY: a valid physical device of this instance.
    let props = unsafe { instance.get_physical_device_memory_properties(pd) };
    let heaps = &props.memory_heaps[..props.memory_heap_count as usize];
    let local: Vec<usize> = (0..heaps.len())
        .filter(|&k| heaps[k].flags.contains(vk::MemoryHeapFlags::DEVICE_LOCAL))
        .collect();
    let total = local.iter().map(|&k| heaps[k].size).sum::<u64>();
    let caps = hal.physical_device_capabilities();
    let available = if caps.supports_extension(ash::ext::memory_budget::NAME) {
        let mut budget = vk::PhysicalDeviceMemoryBudgetPropertiesEXT::default();
        let mut props2 = vk::PhysicalDeviceMemoryProperties2::default().push_next(&mut budget);
        // SAFETY: as above; the budget structure is chained as the extension requires.
        unsafe { instance.get_physical_device_memory_properties2(pd, &mut props2) };
        Some(
            local
                .iter()
                .map(|&k| budget.heap_budget[k].saturating_sub(budget.heap_usage[k]))
                .sum(),
        )
    } else {
        None
    };
    Some((total, available))
}

fn init() -> Status {
    let t0 = Instant::now();
    if std::env::var("MATFUSE_DEVICE").is_ok_and(|v| v.eq_ignore_ascii_case("cpu")) {
        let _ = ADAPTERS.set(Vec::new());
        return Status::Unavailable("MATFUSE_DEVICE=cpu".into());
    }
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    desc.backends = wgpu::Backends::VULKAN | wgpu::Backends::METAL | wgpu::Backends::DX12;
    let instance = wgpu::Instance::new(desc.with_env());
    let mut adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
    // The GL backend has no compute shaders worth using.
    adapters.retain(|a| a.get_info().backend != wgpu::Backend::Gl);
    let _ = ADAPTERS.set(adapters.iter().map(|a| a.get_info().name).collect());
    let wanted = std::env::var("MATFUSE_ADAPTER").ok();
    let mut order: Vec<usize> = (0..adapters.len())
        .filter(|&k| {
            wanted.as_ref().is_none_or(|w| {
                adapters[k]
                    .get_info()
                    .name
                    .to_lowercase()
                    .contains(&w.to_lowercase())
            })
        })
        .collect();
    if order.is_empty() {
        return Status::Unavailable(match wanted {
            Some(w) if !adapters.is_empty() => format!("no adapter matches MATFUSE_ADAPTER={w}"),
            _ => "no GPU adapter found".into(),
        });
    }
    order.sort_by_key(|&k| {
        let a = &adapters[k];
        (
            rank(a.get_info().device_type),
            !a.features().contains(wgpu::Features::SHADER_F64),
        )
    });
    let index = order[0];
    let adapter = &adapters[index];
    let features = adapter.features()
        & (wgpu::Features::SHADER_F64
            | wgpu::Features::SHADER_INT64
            | wgpu::Features::TIMESTAMP_QUERY
            | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS
            | wgpu::Features::SUBGROUP);
    // The adapter's own limits: WebGPU's defaults cap a storage binding at 128 MiB.
    let limits = adapter.limits();
    let request = adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("matfuse"),
        required_features: features,
        required_limits: limits.clone(),
        ..Default::default()
    });
    let (device, queue) = match pollster::block_on(request) {
        Ok(dq) => dq,
        Err(e) => return Status::Unavailable(format!("cannot open the GPU: {e}")),
    };
    let uncaptured = Arc::new(Mutex::new(Vec::new()));
    let sink = uncaptured.clone();
    device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
        if let Ok(mut v) = sink.lock() {
            v.push(e.to_string());
        }
    }));
    // The device lives as long as the process, so any call here is a real loss.
    device.set_device_lost_callback(move |reason, msg| {
        mark_lost(format!("{reason:?}: {msg}"));
    });
    let ai = adapter.get_info();
    let memory = device_memory(adapter);
    let info = DeviceInfo {
        name: ai.name.clone(),
        index: index + 1,
        backend: format!("{:?}", ai.backend),
        device_type: format!("{:?}", ai.device_type),
        driver: [ai.driver.as_str(), ai.driver_info.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" "),
        vendor: ai.vendor,
        device_id: ai.device,
        supports_double: device.features().contains(wgpu::Features::SHADER_F64),
        supports_int64: device.features().contains(wgpu::Features::SHADER_INT64),
        subgroup_size: (device.features().contains(wgpu::Features::SUBGROUP)
            && ai.subgroup_min_size == ai.subgroup_max_size
            && std::env::var_os("MATFUSE_NO_SUBGROUPS").is_none())
        .then_some(ai.subgroup_min_size),
        fma_sqrt: false,
        max_buffer_size: limits.max_buffer_size.min(buffer_override()),
        max_storage_binding: (limits.max_storage_buffer_binding_size as u64).min(buffer_override()),
        max_storage_buffers_per_stage: limits.max_storage_buffers_per_shader_stage,
        max_workgroups_per_dim: limits.max_compute_workgroups_per_dimension,
        max_invocations_per_workgroup: limits.max_compute_invocations_per_workgroup,
        max_workgroup_storage: limits.max_compute_workgroup_storage_size,
        total_memory: memory.map(|m| m.0),
        available_memory: memory.and_then(|m| m.1),
        init_time: t0.elapsed(),
    };
    let mut gpu = Gpu {
        device,
        queue,
        info,
        uncaptured,
    };
    gpu.info.fma_sqrt = super::sqrt_check::passes(&gpu);
    gpu.info.init_time = t0.elapsed();
    Status::Ready(Arc::new(gpu))
}
