//! Calibration: times the device and the host on this machine, so that automatic offload
//! sends host arrays to the GPU only from the size where the GPU path (upload, kernel,
//! download) beats the host evaluator. The result is cached on disk per adapter and re-run
//! with `gpuCalibrate`; without it a conservative default applies (`lower::offloads`).
//! It also measures the device's own copy bandwidth: the ceiling for memory-bound kernels.

use super::buffers::{self, DeviceBuffer};
use super::device::{self, Gpu};
use crate::graph::{self, Data, Op, Precision};
use crate::interp::error::{MError, MResult};
use crate::values::class::Class;
use crate::values::ops::Bin;
use crate::values::shape::Shape;
use std::rc::Rc;
use std::sync::Mutex;
use std::time::Instant;

/// What calibration measured (rates in GB/s, bytes read plus written).
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    pub adapter: String,
    /// Device-to-device buffer copy.
    pub copy_gbps: f64,
    pub upload_gbps: f64,
    pub download_gbps: f64,
    /// A fused elementwise kernel over device-resident doubles.
    pub kernel_gbps: f64,
    /// The host evaluator over the same chain.
    pub host_gbps: f64,
    /// Elements from which a host array goes to the device (None: the GPU never won).
    pub threshold: Option<usize>,
}

static CACHED: Mutex<Option<Option<Calibration>>> = Mutex::new(None);

fn file_for(adapter: &str) -> Option<std::path::PathBuf> {
    let safe: String = adapter
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    crate::dirs::matfuse_dir("XDG_CACHE_HOME", ".cache")
        .map(|d| d.join(format!("calibration-{safe}.txt")))
}

impl Calibration {
    fn to_text(&self) -> String {
        format!(
            "adapter {}\ncopy_gbps {}\nupload_gbps {}\ndownload_gbps {}\nkernel_gbps {}\nhost_gbps {}\nthreshold {}\n",
            self.adapter,
            self.copy_gbps,
            self.upload_gbps,
            self.download_gbps,
            self.kernel_gbps,
            self.host_gbps,
            self.threshold
                .map_or("never".to_string(), |t| t.to_string())
        )
    }

    fn from_text(text: &str) -> Option<Calibration> {
        let get = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(key)?.strip_prefix(' '))
                .map(str::trim)
        };
        let num = |key: &str| get(key)?.parse::<f64>().ok();
        Some(Calibration {
            adapter: get("adapter")?.to_string(),
            copy_gbps: num("copy_gbps")?,
            upload_gbps: num("upload_gbps")?,
            download_gbps: num("download_gbps")?,
            kernel_gbps: num("kernel_gbps")?,
            host_gbps: num("host_gbps")?,
            threshold: match get("threshold")? {
                "never" => None,
                t => Some(t.parse().ok()?),
            },
        })
    }
}

/// The calibrated offload threshold of the session's adapter: None when not calibrated,
/// Some(None) when the GPU never won. Read on every offload decision, so nothing is cloned.
pub fn threshold() -> Option<Option<usize>> {
    let g = device::ready()?;
    let mut c = CACHED.lock().ok()?;
    c.get_or_insert_with(|| {
        let text = std::fs::read_to_string(file_for(&g.info.name)?).ok()?;
        Calibration::from_text(&text).filter(|c| c.adapter == g.info.name)
    })
    .as_ref()
    .map(|c| c.threshold)
}

/// Median seconds of `runs` calls of `f`.
fn median_time(runs: usize, mut f: impl FnMut() -> MResult<()>) -> MResult<f64> {
    let mut t = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        f()?;
        t.push(start.elapsed().as_secs_f64());
    }
    t.sort_by(f64::total_cmp);
    Ok(t[t.len() / 2].max(1e-9))
}

/// `x .* 2 + 1` over `x`: the cheapest chain, so the threshold is a conservative one.
fn chain(x: Rc<graph::Node>) -> Rc<graph::Node> {
    let c = |v: f64| graph::intern(Op::Const(v), vec![], Shape::scalar(), Class::Double);
    let shape = x.shape.clone();
    let m = graph::intern(
        Op::Binary(Bin::Mul),
        vec![x, c(2.0)],
        shape.clone(),
        Class::Double,
    );
    graph::intern(Op::Binary(Bin::Add), vec![m, c(1.0)], shape, Class::Double)
}

fn copy_rate(g: &Gpu, bytes: u64) -> MResult<f64> {
    let len = (bytes / 8) as usize;
    let a = buffers::allocate(g, len, Precision::F64)?;
    let b = buffers::allocate(g, len, Precision::F64)?;
    let copy = |a: &DeviceBuffer, b: &DeviceBuffer| -> MResult<()> {
        let mut enc = g
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        enc.copy_buffer_to_buffer(a.raw()?, 0, b.raw()?, 0, bytes);
        device::submit(&g.queue, [enc.finish()]);
        device::synchronize();
        Ok(())
    };
    // Copies for half a second first: an idle GPU needs load to reach its clocks.
    let warm = Instant::now();
    while warm.elapsed().as_secs_f64() < 0.5 {
        copy(&a, &b)?;
    }
    let t = median_time(7, || copy(&a, &b))?;
    Ok(2.0 * bytes as f64 / t / 1e9)
}

/// Runs the measurements on the session's device and stores the result.
pub fn run() -> MResult<Calibration> {
    let g = device::ready()
        .ok_or_else(|| MError::new("matfuse:gpu:none", "There is no GPU to calibrate."))?;
    if !g.info.supports_double {
        return Err(MError::new(
            "matfuse:gpu:calibrate",
            "Calibration times doubles, and this device has no f64.",
        ));
    }
    let cap = (g.info.max_storage_binding / 4).min(256 << 20);
    let copy_gbps = copy_rate(g, cap)?;
    let big = (cap / 8) as usize;
    let values = vec![1.5f64; big];
    let upload_t = median_time(3, || {
        let _b = buffers::upload(g, &values, Precision::F64)?;
        device::synchronize();
        Ok(())
    })?;
    let resident = Rc::new(buffers::upload(g, &values, Precision::F64)?);
    let download_t = median_time(3, || buffers::download(&resident).map(|_| ()))?;
    let leaf = graph::leaf(Data::Device(resident), Shape::col(big), Class::Double);
    let group = crate::plan::group(&chain(leaf));
    let kernel_t = median_time(5, || {
        crate::gpu::kernels::run_elementwise(&group)?;
        device::synchronize();
        Ok(())
    })?;
    // The crossover: host arrays of n elements, each way, doubling n.
    let mut threshold = None;
    let mut host_gbps = 0.0;
    let mut n = 1usize << 10;
    while n <= big {
        let x = Rc::new(crate::values::tensor::Tensor::f64(
            Shape::col(n),
            vec![0.25; n],
        ));
        let host_group = crate::plan::group(&chain(graph::leaf(
            Data::Host(x.clone()),
            Shape::col(n),
            Class::Double,
        )));
        let host_t = median_time(3, || {
            crate::plan::cpu::run(&host_group, Class::Double).map(|_| ())
        })?;
        host_gbps = 16.0 * n as f64 / host_t / 1e9;
        let gpu_t = median_time(3, || {
            let leaf = graph::leaf(Data::Host(x.clone()), Shape::col(n), Class::Double);
            let grp = crate::plan::group(&chain(leaf));
            let out = crate::gpu::kernels::run_elementwise(&grp)?;
            buffers::download(&out).map(|_| ())
        })?;
        if gpu_t < host_t {
            threshold = Some(n);
            break;
        }
        n *= 4;
    }
    let c = Calibration {
        adapter: g.info.name.clone(),
        copy_gbps,
        upload_gbps: 8.0 * big as f64 / upload_t / 1e9,
        download_gbps: 8.0 * big as f64 / download_t / 1e9,
        kernel_gbps: 16.0 * big as f64 / kernel_t / 1e9,
        host_gbps,
        threshold,
    };
    if let Some(path) = file_for(&c.adapter) {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = std::fs::write(path, c.to_text());
    }
    if let Ok(mut cached) = CACHED.lock() {
        *cached = Some(Some(c.clone()));
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn calibration_text_round_trips() {
        let c = Calibration {
            adapter: "llvmpipe (LLVM 15.0.6, 256 bits)".into(),
            copy_gbps: 12.5,
            upload_gbps: 3.0,
            download_gbps: 1.25,
            kernel_gbps: 20.0,
            host_gbps: 4.0,
            threshold: Some(65536),
        };
        assert_eq!(Calibration::from_text(&c.to_text()), Some(c.clone()));
        let never = Calibration {
            threshold: None,
            ..c
        };
        assert_eq!(Calibration::from_text(&never.to_text()), Some(never));
        assert_eq!(Calibration::from_text("adapter x\n"), None);
    }
}
