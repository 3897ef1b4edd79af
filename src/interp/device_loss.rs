//! What the session does when the GPU is lost (a driver reset, a removed device): it goes on
//! on the CPU. Variables whose data existed only on the device are cleared, and a warning
//! names them; variables with their data on the host survive, pending ones too (their graph
//! now runs on the host).

use super::Interp;
use super::function::Slot;
use crate::graph::{Data, Node};
use crate::values::value::Value;

/// Whether computing `n` needs data that lived only on the device.
fn needs_device(n: &Node) -> bool {
    match &*n.data.borrow() {
        Some(Data::Device(_)) => true,
        Some(Data::Host(_)) => false,
        None => n.inputs.iter().any(|i| needs_device(i)),
    }
}

fn lost(v: &Value) -> bool {
    match v {
        Value::Device(d) => needs_device(&d.node),
        Value::Cell(c) => c.data.iter().any(lost),
        Value::Struct(s) => s.elems.iter().flatten().any(lost),
        _ => false,
    }
}

impl Interp {
    /// After the device is lost: clears the variables that were only on it and warns once,
    /// naming them. Does nothing while the device is well.
    pub fn report_device_loss(&mut self) {
        let Some(why) = crate::gpu::device::take_loss() else {
            return;
        };
        let mut names = Vec::new();
        for (k, name) in self.base.layout.names.clone().iter().enumerate() {
            if let Some(Slot::Val(v)) = self.base.vars.get(k) {
                if lost(v) {
                    names.push(name.to_string());
                    self.base.vars[k] = Slot::Empty;
                }
            }
        }
        for (name, v) in self.globals.iter_mut() {
            if lost(v) {
                names.push(name.to_string());
                *v = Value::empty();
            }
        }
        let which = if names.is_empty() {
            "No variable was lost.".to_string()
        } else {
            format!(
                "These variables had their data only on the GPU and were cleared: {}.",
                names.join(", ")
            )
        };
        super::warning::emit(
            "parallel:gpu:device:DeviceLost",
            &format!("The GPU was lost ({why}); the session continues on the CPU. {which}"),
        );
    }
}
