//! Host values: classes, shapes, typed arrays, containers, and the array primitives that
//! operate on them.

pub mod access;
pub mod class;
pub mod complex_device;
pub mod containers;
pub mod device;
pub mod limits;
pub mod ops;
pub mod residency;
pub mod rng;
pub mod shape;
pub mod strings;
pub mod tensor;
pub mod value;
