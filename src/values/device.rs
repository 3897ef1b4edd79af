//! A value computed or kept by the lazy graph: a node that may be pending, on the device, or
//! on the host. `explicit` marks values made with `gpuArray` (their class is `gpuArray`, as in
//! MATLAB); values the planner placed on its own keep their MATLAB class.

use crate::graph::Node;
use crate::values::class::Class;
use crate::values::shape::Shape;
use std::rc::Rc;

#[derive(Debug, Clone)]
pub struct DeviceValue {
    pub node: Rc<Node>,
    pub explicit: bool,
}

impl DeviceValue {
    pub fn shape(&self) -> &Shape {
        &self.node.shape
    }
    pub fn class(&self) -> Class {
        self.node.class
    }
}
