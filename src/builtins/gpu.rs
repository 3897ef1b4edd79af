//! The device as MATLAB users know it: gpuDevice gpuDeviceCount reset timeit.

use super::{Builtin, b, bad_arg, one};
use crate::gpu::{self, Status};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::containers::StructArray;
use crate::values::value::Value;
use std::time::Instant;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("gpuDevice", 0, 1, 1, "gpuDevice, d = gpuDevice, gpuDevice(k): the session's GPU (name, backend, driver, double support, limits) as a struct.", gpu_device),
        b("gpuDeviceCount", 0, 0, 1, "gpuDeviceCount: how many GPU adapters this machine offers matfuse.", gpu_device_count),
        b("reset", 1, 1, 0, "reset(gpuDevice): gather every device-resident variable to the host, then free device memory; never fails: a variable the host cannot take is left invalid, as MATLAB's reset leaves every gpuArray (existsOnGPU is false, using it is an error).", reset),
        b("gpuArray", 1, -1, 1, "gpuArray(X): X on the GPU (class gpuArray); operations on it run there and results stay there until gather.", gpu_array),
        b("gather", 1, -1, 64, "gather(X), [a, b] = gather(X, Y): the host copy of a gpuArray (other values are returned as they are).", gather),
        b("isgpuarray", 1, 1, 1, "isgpuarray(X): true for a gpuArray.", isgpuarray),
        b("existsOnGPU", 1, 1, 1, "existsOnGPU(X): true for a gpuArray whose data is available on the device (false after a reset that could not gather it).", exists_on_gpu),
        b("gpuStats", 0, 1, 1, "gpuStats, s = gpuStats, gpuStats reset: kernels launched, fused operations, pipeline cache hits and misses, bytes moved, for the last input and the session.", gpu_stats),
        b("gputimeit", 1, 2, 1, "gputimeit(f), gputimeit(f, nout): as timeit, the GPU synchronised before each clock reading.", timeit),
        b("gpuCalibrate", 0, 0, 1, "gpuCalibrate, c = gpuCalibrate: time the device and the host on this machine (copy, transfers, a fused kernel, the host evaluator) and set the size from which host arrays go to the GPU; cached per adapter.", gpu_calibrate),
        b("wait", 1, 1, 0, "wait(gpuDevice): block until the GPU has finished all submitted work.", wait),
        b("timeit", 1, 2, 1, "timeit(f), timeit(f, nout): median seconds one call of f takes, with GPU work finished before each clock reading.", timeit),
    ]
}

fn no_device(why: &str) -> MError {
    MError::new(
        "parallel:gpu:device:NoDevice",
        format!("No supported GPU device was found on this computer ({why})."),
    )
}

fn device_struct(g: &gpu::Gpu) -> Value {
    let i = &g.info;
    let mut s = StructArray::scalar();
    let num = |x: f64| Value::Num(x);
    s.set(0, "Name", Value::str(&i.name));
    s.set(0, "Index", num(i.index as f64));
    s.set(0, "Backend", Value::str(&i.backend));
    s.set(0, "DeviceType", Value::str(&i.device_type));
    s.set(0, "DriverVersion", Value::str(&i.driver));
    s.set(0, "VendorID", num(i.vendor as f64));
    s.set(0, "DeviceID", num(i.device_id as f64));
    s.set(0, "SupportsDouble", Value::Bool(i.supports_double));
    s.set(0, "SupportsInt64", Value::Bool(i.supports_int64));
    s.set(
        0,
        "SubgroupSize",
        num(i.subgroup_size.map_or(0.0, f64::from)),
    );
    if let Some(t) = i.total_memory {
        s.set(0, "TotalMemory", num(t as f64));
    }
    if let Some(a) = i.available_memory {
        s.set(0, "AvailableMemory", num(a as f64));
    }
    s.set(0, "MaxBufferSize", num(i.max_buffer_size as f64));
    s.set(0, "MaxStorageBinding", num(i.max_storage_binding as f64));
    s.set(
        0,
        "MaxBindingsPerKernel",
        num(i.max_storage_buffers_per_stage as f64),
    );
    s.set(
        0,
        "MaxThreadsPerBlock",
        num(i.max_invocations_per_workgroup as f64),
    );
    s.set(0, "MaxShmemPerBlock", num(i.max_workgroup_storage as f64));
    let grid = i.max_workgroups_per_dim as f64;
    s.set(0, "MaxGridSize", Value::row(vec![grid, grid, grid]));
    s.set(0, "InitTime", num(i.init_time.as_secs_f64()));
    s.set(0, "DeviceAvailable", Value::Bool(true));
    s.set(0, "DeviceSelected", Value::Bool(true));
    Value::from(s)
}

fn gpu_device(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let g = match gpu::device::get() {
        Status::Ready(g) => g,
        Status::Unavailable(why) => return Err(no_device(why)),
    };
    if let Some(v) = a.first() {
        let k = v.scalar_f64()?;
        let count = gpu::device::adapter_count();
        if k.fract() != 0.0 || k < 1.0 || k > count as f64 {
            return Err(MError::new(
                "parallel:gpu:device:InvalidDeviceIndex",
                format!("The device index must be an integer between 1 and {count}."),
            ));
        }
        if k as usize != g.info.index {
            return Err(MError::new(
                "parallel:gpu:device:CannotSwitch",
                format!(
                    "This session uses device {}; start matfuse with MATFUSE_ADAPTER set to choose another.",
                    g.info.index
                ),
            ));
        }
    }
    one(device_struct(g))
}

fn gpu_device_count(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    let n = match gpu::device::get() {
        Status::Ready(_) => gpu::device::adapter_count().max(1),
        Status::Unavailable(_) => 0,
    };
    one(Value::Num(n as f64))
}

/// Whether a value is what `gpuDevice` returns.
fn is_device_struct(v: &Value) -> bool {
    match v {
        Value::Struct(s) => ["Name", "Index", "Backend", "SupportsDouble"]
            .iter()
            .all(|f| s.fields.iter().any(|x| x.as_str() == *f)),
        _ => false,
    }
}

/// Moves a node's device data (and that of any pending node's inputs) to the host. Data that
/// cannot be read back (no host memory for it, a failed read-back) is dropped and the array
/// is invalid, as every gpuArray is after MATLAB's reset: its shape and class stay, any use is
/// the error for data that no longer exists on the device. Returns whether data was dropped.
fn node_to_host(n: &std::rc::Rc<crate::graph::Node>) -> bool {
    use crate::graph::Data;
    let device = match &*n.data.borrow() {
        Some(Data::Device(b)) => Some(b.clone()),
        _ => None,
    };
    match device {
        Some(b) if !b.exists() => false,
        Some(b) => {
            let data = match crate::plan::to_host(n) {
                Ok(t) => Data::Host(t),
                Err(_) => Data::Device(std::rc::Rc::new(gpu::buffers::DeviceBuffer::invalidated(
                    b.len,
                    b.precision,
                ))),
            };
            let dropped = matches!(data, Data::Device(_));
            *n.data.borrow_mut() = Some(data);
            dropped
        }
        None if !n.is_realised() => n.inputs.iter().fold(false, |d, i| node_to_host(i) | d),
        None => false,
    }
}

fn value_to_host(v: &Value) -> bool {
    match v {
        Value::Device(d) => node_to_host(&d.node),
        Value::DeviceComplex(z) => node_to_host(&z.re) | node_to_host(&z.im),
        Value::Cell(c) => c.data.iter().fold(false, |d, x| value_to_host(x) | d),
        Value::Struct(s) => s
            .elems
            .iter()
            .flatten()
            .fold(false, |d, x| value_to_host(x) | d),
        _ => false,
    }
}

/// Whether a gpuArray's data (and that of what a pending one is computed from) still exists.
fn node_exists(n: &crate::graph::Node) -> bool {
    match &*n.data.borrow() {
        Some(crate::graph::Data::Device(b)) => b.exists(),
        Some(crate::graph::Data::Host(_)) => true,
        None => n.inputs.iter().all(|i| node_exists(i)),
    }
}

/// reset(gpuDevice) always succeeds: every device-resident value is gathered first where the
/// host can take it (no data is lost, and variables keep their class: a gpuArray stays one,
/// its data on the host until it is used again); what cannot be gathered becomes invalid, as
/// MATLAB's reset leaves every gpuArray, and a warning names those variables. Then the
/// device's idle memory is released.
fn reset(i: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    if !is_device_struct(&a[0]) {
        return Err(bad_arg(
            "reset",
            "The argument must be a device from gpuDevice.",
        ));
    }
    if let Status::Unavailable(why) = gpu::device::get() {
        return Err(no_device(why));
    }
    gpu::device::synchronize();
    // every value is gathered, whatever Ctrl-C says (one left half-way would be lost)
    let _hold = crate::interp::interrupt::hold();
    let mut dropped = Vec::new();
    for fr in [&*f, &i.base] {
        for (k, slot) in fr.vars.iter().enumerate() {
            if let crate::interp::function::Slot::Val(v) = slot {
                if value_to_host(v) {
                    let name = fr.layout.names.get(k).map(|n| n.to_string());
                    dropped.push(name.unwrap_or_default());
                }
            }
        }
    }
    for (name, v) in &i.globals {
        if value_to_host(v) {
            dropped.push(name.to_string());
        }
    }
    for ((_, name), v) in &i.persistents {
        if value_to_host(v) {
            dropped.push(name.to_string());
        }
    }
    gpu::fft::clear_tables();
    gpu::buffers::clear_pool();
    if !dropped.is_empty() {
        dropped.dedup();
        crate::interp::warning::emit(
            "parallel:gpu:device:DataNoLongerExists",
            &format!(
                "The device was reset; these variables could not be gathered to the host and no longer exist on the device: {}.",
                dropped.join(", ")
            ),
        );
    }
    Ok(vec![])
}

fn exists_on_gpu(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(match &a[0] {
        Value::Device(d) => d.explicit && node_exists(&d.node),
        Value::DeviceComplex(z) => node_exists(&z.re) && node_exists(&z.im),
        _ => false,
    }))
}

fn gpu_array(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let v = a[0].clone();
    if let Value::DeviceComplex(_) = v {
        return one(v);
    }
    if let Value::Tensor(t) = &v {
        if t.is_complex()
            && matches!(
                t.class(),
                crate::values::class::Class::Single | crate::values::class::Class::Double
            )
        {
            return one(crate::interp::complex::to_device(t)?);
        }
    }
    if !matches!(v, Value::Device(_)) && !crate::interp::lower::device_storable(&v) {
        // complexity, not the class, is what the device cannot hold
        if v.is_complex() {
            return Err(MError::new(
                "parallel:gpu:array:UnsupportedClass",
                format!(
                    "Complex GPU arrays are not supported: the device holds real {} values only.",
                    v.class_name()
                ),
            ));
        }
        return Err(MError::new(
            "parallel:gpu:array:UnsupportedClass",
            format!("GPU arrays of class {} are not supported.", v.class_name()),
        ));
    }
    one(crate::interp::lower::to_device(v)?)
}

fn gather(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let n = nargout.max(1).min(a.len());
    a.into_iter().take(n).map(Value::host).collect()
}

fn isgpuarray(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(crate::interp::lower::explicit(&[&a[0]])))
}

fn wait(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    match &a[0] {
        Value::Struct(s) if s.get(0, "SupportsDouble").is_some() => {
            gpu::device::synchronize();
            Ok(vec![])
        }
        _ => Err(bad_arg(
            "wait",
            "The argument must be a GPU device (gpuDevice).",
        )),
    }
}

fn gpu_calibrate(_: &mut Interp, _: &mut Frame, _: A, nargout: usize) -> R {
    let c = gpu::calibrate::run()?;
    let threshold = c.threshold.map_or(f64::INFINITY, |t| t as f64);
    if nargout > 0 {
        let mut s = StructArray::scalar();
        s.set(0, "Adapter", Value::str(&c.adapter));
        s.set(0, "CopyGBps", Value::Num(c.copy_gbps));
        s.set(0, "UploadGBps", Value::Num(c.upload_gbps));
        s.set(0, "DownloadGBps", Value::Num(c.download_gbps));
        s.set(0, "KernelGBps", Value::Num(c.kernel_gbps));
        s.set(0, "HostGBps", Value::Num(c.host_gbps));
        s.set(0, "OffloadThreshold", Value::Num(threshold));
        return one(s);
    }
    let from = match c.threshold {
        Some(t) => format!("host arrays of {t} elements or more go to the GPU"),
        None => "the GPU never beat the host: host arrays stay on the host".to_string(),
    };
    crate::interp::output::write_str(&format!(
        "  {}
  device copy {:.1} GB/s, upload {:.1} GB/s, download {:.1} GB/s
  fused kernel {:.1} GB/s, host evaluator {:.1} GB/s
  {from}
",
        c.adapter, c.copy_gbps, c.upload_gbps, c.download_gbps, c.kernel_gbps, c.host_gbps
    ));
    Ok(vec![])
}

fn gpu_stats(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    if let Some(v) = a.first() {
        if super::text_arg(v, "gpuStats")? == "reset" {
            gpu::stats::reset();
            return Ok(vec![]);
        }
        return Err(bad_arg("gpuStats", "The only option is 'reset'."));
    }
    gpu::timing::collect();
    let (last, _, session) = gpu::stats::snapshot();
    // NaN, not 0, when nothing was timed (MATFUSE_GPU_TIMING=1 times batches).
    let timed = gpu::timing::measuring();
    let gpu_time = |c: &gpu::stats::Counters| if timed { c.gpu_seconds } else { f64::NAN };
    let fields = |c: &gpu::stats::Counters| {
        let mut s = StructArray::scalar();
        s.set(0, "Kernels", Value::Num(c.kernels as f64));
        s.set(0, "FusedOps", Value::Num(c.fused_ops as f64));
        s.set(0, "CacheHits", Value::Num(c.cache_hits as f64));
        s.set(0, "CacheMisses", Value::Num(c.cache_misses as f64));
        s.set(0, "BytesUploaded", Value::Num(c.bytes_up as f64));
        s.set(0, "BytesDownloaded", Value::Num(c.bytes_down as f64));
        s.set(0, "Fallbacks", Value::Num(c.fallbacks as f64));
        s.set(0, "GPUTime", Value::Num(gpu_time(c)));
        Value::from(s)
    };
    if nargout > 0 {
        let mut s = StructArray::scalar();
        s.set(0, "LastInput", fields(&last));
        s.set(0, "Session", fields(&session));
        s.set(
            0,
            "Pipelines",
            Value::Num(gpu::kernels::cached_pipelines() as f64),
        );
        s.set(
            0,
            "DeviceBytes",
            Value::Num(gpu::buffers::held_bytes() as f64),
        );
        return one(s);
    }
    let row = |label: &str, c: &gpu::stats::Counters| {
        format!(
            "  {label:<12}{:>8} kernels {:>6} fused ops {:>6} cache hits {:>6} misses {:>12} B up {:>12} B down {}\n",
            c.kernels,
            c.fused_ops,
            c.cache_hits,
            c.cache_misses,
            c.bytes_up,
            c.bytes_down,
            if timed {
                format!("{:>10.3} ms GPU", c.gpu_seconds * 1e3)
            } else {
                "  GPU time not measured".to_string()
            }
        )
    };
    crate::interp::output::write_str(&format!(
        "{}{}  pipelines compiled: {}, device memory held by arrays: {} B\n",
        row("last input", &last),
        row("session", &session),
        gpu::kernels::cached_pipelines(),
        gpu::buffers::held_bytes()
    ));
    Ok(vec![])
}

fn timeit(i: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    let func = &a[0];
    if !matches!(func, Value::Func(_)) {
        return Err(bad_arg(
            "timeit",
            "The first argument must be a function handle.",
        ));
    }
    let nout = match a.get(1) {
        Some(v) => {
            let n = v.scalar_f64()?;
            if !(0.0..=16.0).contains(&n) || n.fract() != 0.0 {
                return Err(bad_arg(
                    "timeit",
                    "The number of outputs must be 0, 1, 2, ...",
                ));
            }
            n as usize
        }
        None => 1,
    };
    let time_once = |i: &mut Interp, f: &mut Frame| -> MResult<f64> {
        i.check_interrupt()?;
        gpu::device::synchronize();
        let t0 = Instant::now();
        i.call_value(f, func, vec![], nout)?;
        gpu::device::synchronize();
        Ok(t0.elapsed().as_secs_f64())
    };
    // A first call warms caches (and compiles kernels); then as many runs as fit in about a
    // second, between 3 and 101, and the median of them.
    let first = time_once(i, f)?;
    let runs = ((1.0 / first.max(1e-9)) as usize).clamp(3, 101);
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        times.push(time_once(i, f)?);
    }
    times.sort_by(|x, y| x.total_cmp(y));
    one(Value::Num(times[times.len() / 2]))
}
