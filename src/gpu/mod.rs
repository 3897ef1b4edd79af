//! The GPU side: the session's wgpu device (`device`), started in the background; buffers
//! and their pool (`buffers`); the pipeline cache and dispatch (`kernels`); counters (`stats`).

pub mod batch;
pub mod bind_cache;
pub mod bins;
pub mod buffers;
pub mod calibrate;
pub mod compact;
pub mod conv;
pub mod device;
pub mod faults;
pub mod fft;
pub mod kernels;
pub mod launch;
pub mod loops;
pub mod matmul;
pub mod matvec;
pub mod moments;
pub mod order;
pub mod pipeline;
pub mod put;
pub mod reduce;
pub mod scan;
pub mod scatter;
pub mod sets;
pub mod shader_files;
pub mod sort;
pub mod sqrt_check;
pub mod stats;
pub mod timing;
mod trace;
pub mod transfer;

/// How work is placed: `MATFUSE_OFFLOAD=never` keeps every array on the host, `always` sends
/// all graph work to the device, `auto` (the default) offloads large work.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Offload {
    Never,
    Always,
    Auto,
}

pub fn offload_mode() -> Offload {
    match crate::settings::get("MATFUSE_OFFLOAD")
        .as_deref()
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("never") => Offload::Never,
        Some("always") => Offload::Always,
        _ => Offload::Auto,
    }
}

/// Whether graph work may run on the device at all.
pub fn offload_allowed() -> bool {
    offload_mode() != Offload::Never
}

pub use device::{DeviceInfo, Gpu, Status};

/// One line naming the device in use, for the banner: its name, backend and precision, or
/// why the session runs on the CPU. `None` while start-up is still running.
pub fn summary() -> Option<String> {
    Some(match device::peek()? {
        Status::Ready(g) => {
            let i = &g.info;
            let precision = if i.supports_double {
                "double and single"
            } else {
                "single only; doubles stay on the CPU"
            };
            format!("{} ({}, {precision})", i.name, i.backend)
        }
        Status::Unavailable(why) => format!("no GPU: running on the CPU ({why})"),
    })
}

/// Where the last session's device summary is kept, so the banner can name the device at once
/// while this session's device is still starting.
fn summary_cache() -> Option<std::path::PathBuf> {
    crate::dirs::matfuse_dir("XDG_CACHE_HOME", ".cache").map(|d| d.join("device.txt"))
}

/// Records the summary of a device that came up (best effort).
pub(crate) fn remember_summary() {
    if let (Some(s), Some(path)) = (summary(), summary_cache()) {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = std::fs::write(path, s);
    }
}

/// The banner's device text: the device if it is up, else the one the last session used
/// (marked as starting), else a plain "starting".
pub fn banner_summary() -> String {
    if let Some(s) = summary() {
        return s;
    }
    match summary_cache().and_then(|p| std::fs::read_to_string(p).ok()) {
        Some(last) if !last.trim().is_empty() && !last.starts_with("no GPU") => {
            format!("{}, starting", last.trim())
        }
        _ => "GPU starting in the background".to_string(),
    }
}

pub use trace::{trace, trace_report};
