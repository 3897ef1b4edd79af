//! The GPU side: the session's wgpu device (`device`), started in the background.

pub mod device;

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
