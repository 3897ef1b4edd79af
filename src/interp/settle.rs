//! After each input, workspace values that were computed keep leaves of their data
//! (`graph::memory::settled`), so what they were computed from can be freed.

use super::Interp;
use super::function::Slot;
use crate::graph::Node;
use crate::values::device::DeviceValue;
use crate::values::value::Value;
use std::collections::HashMap;
use std::rc::Rc;

/// `v` with computed graph values made leaves of their data (`graph::memory::settled`);
/// `seen` keeps values that shared a node sharing its leaf.
fn settle(v: &mut Value, seen: &mut HashMap<*const Node, Rc<Node>>) {
    if let Value::Device(d) = v {
        if d.node.is_realised() && !d.node.inputs.is_empty() {
            let leaf = seen
                .entry(Rc::as_ptr(&d.node))
                .or_insert_with(|| crate::graph::memory::settled(&d.node))
                .clone();
            *v = Value::Device(Rc::new(DeviceValue {
                node: leaf,
                explicit: d.explicit,
            }));
        }
    }
}

impl Interp {
    /// After each input: workspace values that were computed keep leaves of their data, so
    /// what they were computed from can be freed.
    pub fn settle_workspace(&mut self) {
        let mut seen = HashMap::new();
        for slot in self.base.vars.iter_mut() {
            if let Slot::Val(v) = slot {
                settle(v, &mut seen);
            }
        }
        for v in self.globals.values_mut() {
            settle(v, &mut seen);
        }
    }
}
