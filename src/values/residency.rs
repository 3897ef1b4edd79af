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

/// A value's residency and the bytes it holds on the host and on the device. A pending value
/// holds nothing yet: its size and class come from the graph.
pub fn of(v: &Value, bytes: usize) -> (Residency, usize, usize) {
    let node = match v {
        Value::Device(d) => Some(&d.node),
        Value::DeviceComplex(z) => Some(&z.re),
        _ => None,
    };
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
