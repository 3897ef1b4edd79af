//! Where a variable's data lives: on the host, on the device, on both, or not computed yet;
//! a gpuArray past one device buffer says it is held on the host.
//! `whos` shows it; the lazy GPU graph (device values, pending nodes) reports through here.

use super::value::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Residency {
    Host,
    Device,
    Both,
    Pending,
    /// A gpuArray larger than one device buffer, held in host memory (`interp::host_held`).
    HostHeld,
}

impl Residency {
    pub fn label(self) -> &'static str {
        match self {
            Residency::Host => "host",
            Residency::Device => "device",
            Residency::Both => "both",
            Residency::Pending => "pending",
            Residency::HostHeld => "host (> MaxBufferSize)",
        }
    }
}

/// A value's residency and the bytes it holds on the host and on the device. A pending value
/// holds nothing yet: its size and class come from the graph.
pub fn of(v: &Value, bytes: usize) -> (Residency, usize, usize) {
    let node = match v {
        Value::Device(d) => Some(&d.node),
        Value::DeviceComplex(z) => Some(&z.re),
        _ => None,
    };
    if crate::interp::host_held::is(v) {
        let computed = match v {
            Value::Device(d) => d.node.is_realised(),
            Value::DeviceComplex(z) => z.re.is_realised(),
            _ => false,
        };
        return (Residency::HostHeld, if computed { bytes } else { 0 }, 0);
    }
    match node {
        Some(n) => match &*n.data.borrow() {
            None => (Residency::Pending, 0, 0),
            Some(crate::graph::Data::Host(_)) => (Residency::Host, bytes, 0),
            Some(crate::graph::Data::Device(b)) => {
                let parts = if matches!(v, Value::DeviceComplex(_)) {
                    2
                } else {
                    1
                };
                (Residency::Device, 0, parts * b.bytes() as usize)
            }
        },
        _ => (Residency::Host, bytes, 0),
    }
}
