//! Where a variable's data lives: on the host, on the device, on both, or not computed yet.
//! `whos` shows it; the lazy GPU graph (device values, pending nodes) reports through here.

use super::value::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Residency {
    Host,
    Device,
    Both,
    Pending,
}

impl Residency {
    pub fn label(self) -> &'static str {
        match self {
            Residency::Host => "host",
            Residency::Device => "device",
            Residency::Both => "both",
            Residency::Pending => "pending",
        }
    }
}

/// A value's residency and the bytes it holds on the host and on the device.
pub fn of(v: &Value, bytes: usize) -> (Residency, usize, usize) {
    // Every Value variant holds host memory; device-resident arrays arrive with the lazy graph.
    let _ = v;
    (Residency::Host, bytes, 0)
}
