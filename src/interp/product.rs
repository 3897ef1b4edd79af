//! `A * B` of gpuArrays on the device (`gpu::matmul`). The product is recorded into the batch
//! like any kernel and its result stays there, so the elementwise work that follows
//! (`max(A*B*0.5 + bias, 0)`) joins the lazy graph over it and the whole statement reads
//! nothing back. A transposed operand (`Xc' * Xc`) is read transposed where it is stored,
//! not copied; a host matrix times a gpuArray is uploaded; single times double is single.
//! Anything else (integers, N-D or empty arrays, no GPU) returns None and the host computes
//! it as before.

use crate::gpu::matvec::MatVec;
use crate::graph::{self, Data, Node, Op};
use crate::interp::error::MResult;
use crate::values::class::Class;
use crate::values::device::DeviceValue;
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::rc::Rc;

/// The node to read for an operand and whether to read it transposed. A host matrix times a
/// gpuArray is uploaded (the product is a gpuArray, as in MATLAB).
fn operand(v: &Value) -> Option<(Rc<Node>, bool)> {
    let node = match v {
        Value::Device(d) => graph::memory::settled(&d.node),
        Value::Tensor(t) if !t.is_complex() && t.numel() > 0 => graph::memory::host_leaf(t),
        _ => return None,
    };
    if !matches!(node.class, Class::Single | Class::Double) || node.shape.ndims() != 2 {
        return None;
    }
    // A pending transpose of a matrix is read through: the kernel indexes the stored one.
    if node.op == Op::Transpose && !node.is_realised() {
        let stored = node.inputs.first()?;
        if stored.shape.ndims() == 2 && stored.class == node.class {
            return Some((stored.clone(), true));
        }
    }
    Some((node, false))
}

/// `a * b` (a matrix product: neither is a scalar) on the device, or None when the host
/// computes it.
pub fn mtimes(a: &Value, b: &Value) -> Option<MResult<Value>> {
    let device = |v: &Value| matches!(v, Value::Device(_));
    if !crate::gpu::offload_allowed() || !(device(a) || device(b)) {
        return None;
    }
    let (na, trans_a) = operand(a)?;
    let (nb, trans_b) = operand(b)?;
    // Single times double is single, as in MATLAB: the double operand is converted first.
    let single = |n: Rc<Node>| match n.class {
        Class::Double => graph::intern(Op::Cast, vec![n.clone()], n.shape.clone(), Class::Single),
        _ => n,
    };
    let (na, nb) = match (na.class, nb.class) {
        (x, y) if x == y => (na, nb),
        _ => (single(na), single(nb)),
    };
    let (rows_a, cols_a) = (na.shape.dim(0), na.shape.dim(1));
    let (rows_b, cols_b) = (nb.shape.dim(0), nb.shape.dim(1));
    let (m, k) = if trans_a {
        (cols_a, rows_a)
    } else {
        (rows_a, cols_a)
    };
    let (kb, n) = if trans_b {
        (cols_b, rows_b)
    } else {
        (rows_b, cols_b)
    };
    if k != kb {
        // The host reports the dimension error, with MATLAB's message.
        return None;
    }
    if m == 0 || n == 0 || k == 0 {
        // The host makes empty and zero results.
        return None;
    }
    let explicit = super::lower::explicit(&[a, b]);
    let pending = |node: Rc<Node>| Value::Device(Rc::new(DeviceValue { node, explicit }));
    let shape = Shape::new(&[m, n]);
    let class = na.class;
    // A vector operand is its elements in order, whether read transposed or not.
    let vector = |node: &Rc<Node>, dims: &[usize]| {
        graph::intern(Op::Reshape, vec![node.clone()], Shape::new(dims), class)
    };
    if k == 1 {
        // An outer product (`u * v'`) is the elementwise product of a column and a row:
        // it joins the lazy graph and fuses with what follows.
        let col = vector(&na, &[m, 1]);
        let row = vector(&nb, &[1, n]);
        return Some(Ok(pending(graph::intern(
            Op::Binary(crate::values::ops::Bin::Mul),
            vec![col, row],
            shape,
            class,
        ))));
    }
    if m == 1 && n == 1 {
        // A dot product (`u' * v`) is the sum of the elementwise product, a reduction of the
        // lazy graph: the products are never stored.
        let times = graph::intern(
            Op::Binary(crate::values::ops::Bin::Mul),
            vec![vector(&na, &[k, 1]), vector(&nb, &[k, 1])],
            Shape::new(&[k, 1]),
            class,
        );
        let sum = Op::Reduce {
            op: crate::values::ops::Red::Sum,
            dim: 0,
            all: true,
            omitnan: false,
        };
        return Some(Ok(pending(graph::intern(sum, vec![times], shape, class))));
    }
    // An operand or a product past one device buffer: the host computes it (`host_held`).
    let held = super::host_held::node;
    if held(&na) || held(&nb) || super::host_held::exceeds(m.saturating_mul(n), class) {
        return None;
    }
    let g = crate::gpu::device::ready()?;
    let precision = na.precision();
    let done = |data| pending(graph::leaf(Data::Device(data), shape.clone(), class));
    if m == 1 || n == 1 {
        if let Some(form) = matvec_form(&na, trans_a, &nb, trans_b, (m, n)) {
            if crate::gpu::matvec::fits(g, &form.1, precision) {
                return Some(matvec(g, form).map(done));
            }
        }
    }
    if !crate::gpu::matmul::fits(g, m, n, k, precision) {
        return None;
    }
    Some(product(g, &na, trans_a, &nb, trans_b, (m, n, k)).map(done))
}

/// The stored matrix, the vector and the kernel form of a product with a vector result.
/// `op(A) * b` (n = 1) sums along A's stored rows unless A is read transposed; `a' * op(B)`
/// (m = 1) sums down B's stored columns unless B is read transposed.
fn matvec_form(
    na: &Rc<Node>,
    trans_a: bool,
    nb: &Rc<Node>,
    trans_b: bool,
    (m, n): (usize, usize),
) -> Option<(Rc<Node>, MatVec, Rc<Node>)> {
    use crate::gpu::matvec::Form;
    let (matrix, trans, vector) = if n == 1 {
        (na, trans_a, nb)
    } else if m == 1 {
        (nb, !trans_b, na)
    } else {
        return None;
    };
    let form = if trans { Form::Columns } else { Form::Rows };
    let p = MatVec {
        form,
        rows: matrix.shape.dim(0),
        cols: matrix.shape.dim(1),
    };
    Some((matrix.clone(), p, vector.clone()))
}

fn matvec(
    g: &crate::gpu::device::Gpu,
    (matrix, p, vector): (Rc<Node>, MatVec, Rc<Node>),
) -> MResult<Rc<crate::gpu::buffers::DeviceBuffer>> {
    let (m, v) = (on_device(g, &matrix)?, on_device(g, &vector)?);
    crate::gpu::matvec::run(g, &m, &v, &p)
}

fn product(
    g: &crate::gpu::device::Gpu,
    na: &Rc<Node>,
    trans_a: bool,
    nb: &Rc<Node>,
    trans_b: bool,
    (m, n, k): (usize, usize, usize),
) -> MResult<Rc<crate::gpu::buffers::DeviceBuffer>> {
    let (a, b) = (on_device(g, na)?, on_device(g, nb)?);
    use crate::gpu::matmul::{Operand, run};
    run(
        &Operand {
            buffer: a,
            trans: trans_a,
        },
        &Operand {
            buffer: b,
            trans: trans_b,
        },
        m,
        n,
        k,
        na.precision(),
    )
}

/// An operand's data on the device, computed first; host data is uploaded and kept as the
/// node's.
fn on_device(
    g: &crate::gpu::device::Gpu,
    n: &Rc<Node>,
) -> MResult<Rc<crate::gpu::buffers::DeviceBuffer>> {
    crate::plan::realise(n)?;
    crate::gpu::kernels::device_input(g, n, n.precision())
}
