//! Views and conversions of graph values: `x'`, `x(:)`, `reshape`, `single(x)`, `double(x)`.
//! None of them copies or computes anything when written: a reshape reads its input's
//! elements in order, a transpose is a strided read of the computed matrix, a cast converts
//! as a kernel reads. So `sum(single(x)'.^2)` is still one kernel over `x`.

use crate::graph::{self, Op};
use crate::values::class::Class;
use crate::values::device::DeviceValue;
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::rc::Rc;

/// Node `n` computed now where it is pending, as the settled node of its data (`n` as it is
/// when computing it fails: the kernels that read it report that).
pub(super) fn computed(n: Rc<graph::Node>) -> Rc<graph::Node> {
    if n.is_realised() || crate::plan::realise(&n).is_err() {
        return n;
    }
    graph::memory::settled(&n)
}

fn wrap(d: &DeviceValue, node: Rc<graph::Node>) -> Value {
    Value::Device(Rc::new(DeviceValue {
        node,
        explicit: d.explicit,
    }))
}

/// A graph value's elements under another shape (same count, same order).
pub fn reshaped(d: &DeviceValue, shape: Shape) -> Value {
    // A computed value is read as a leaf, not through what it was computed from.
    let n = &graph::memory::settled(&d.node);
    if n.shape == shape {
        return Value::Device(Rc::new(d.clone()));
    }
    let node = graph::intern(Op::Reshape, vec![n.clone()], shape, n.class);
    wrap(d, node)
}

/// `x'` and `x.'` of a graph value (real, so both are the same); None for N-D arrays, whose
/// error the host reports.
pub fn transposed(d: &DeviceValue) -> Option<Value> {
    // A computed value is read as a leaf, not through what it was computed from.
    let n = &graph::memory::settled(&d.node);
    if n.shape.ndims() > 2 {
        return None;
    }
    let (rows, cols) = (n.shape.dim(0), n.shape.dim(1));
    let shape = Shape::matrix(cols, rows);
    // A vector's transpose keeps its elements' order.
    if rows == 1 || cols == 1 {
        return Some(reshaped(d, shape));
    }
    Some(wrap(
        d,
        graph::intern(Op::Transpose, vec![n.clone()], shape, n.class),
    ))
}

/// `single(x)` or `double(x)` of a graph value.
pub fn cast(d: &DeviceValue, class: Class) -> Value {
    // A computed value is read as a leaf, not through what it was computed from.
    let n = &graph::memory::settled(&d.node);
    if n.class == class {
        return Value::Device(Rc::new(d.clone()));
    }
    wrap(
        d,
        graph::intern(Op::Cast, vec![n.clone()], n.shape.clone(), class),
    )
}

/// The builtins that are views or conversions, applied to a graph value; None when the call
/// is not one of them (or needs the host, which reports any error).
pub fn view_builtin(name: &str, args: &[Value]) -> Option<Value> {
    let Some(Value::Device(d)) = args.first() else {
        return None;
    };
    if !matches!(d.class(), Class::Double | Class::Single | Class::Logical) {
        return None;
    }
    match (name, args.len()) {
        ("single", 1) => Some(cast(d, Class::Single)),
        ("double", 1) => Some(cast(d, Class::Double)),
        ("transpose" | "ctranspose", 1) => transposed(d),
        ("reshape", k) if k >= 2 => {
            let shape = crate::builtins::rearrange::reshape_shape(d.node.numel(), &args[1..]);
            shape.ok().map(|s| reshaped(d, s))
        }
        _ => None,
    }
}
