//! `var` and `std` of graph values as two reductions: the mean, then the sum of squared
//! deviations from it (the mean broadcast back over each lane), scaled; `std` is its square
//! root. Both passes run where the data is (on the device for device arrays) and nothing is
//! downloaded. Weight vectors, `'omitnan'` and several dimensions at once go to the host.

use super::lower::{constant, explicit, node_of, pending, wanted};
use crate::graph::{self, Op};
use crate::values::class::Class;
use crate::values::ops::{Bin, Red, Un};
use crate::values::shape::Shape;
use crate::values::value::Value;

/// `var(x)`, `var(x, w)`, `var(x, w, dim)`, `var(x, w, 'all')` (and `std`) with `w` 0, 1 or
/// `[]`, as graph nodes; None for every other form.
pub fn dispersion(name: &str, args: &[Value]) -> Option<Value> {
    let root = match name {
        "var" => false,
        "std" => true,
        _ => return None,
    };
    let x = args.first()?;
    if !wanted(&[x]) || args.len() > 3 || super::lower::host_array_without_device(x) {
        return None;
    }
    // w = 1 normalises by n; w = 0 (the default) by n - 1.
    let by_n = match args.get(1) {
        None => false,
        Some(v) if v.is_empty_double_literal() => false,
        Some(Value::Num(w)) if *w == 0.0 || *w == 1.0 => *w == 1.0,
        Some(_) => return None,
    };
    let node = node_of(x)?;
    if !matches!(node.class, Class::Double | Class::Single) || node.numel() == 0 {
        return None;
    }
    let shape = node.shape.clone();
    let (dim, all) = match args.get(2) {
        None => (crate::values::ops::reduce::default_dim(&shape), false),
        Some(d) if d.text().is_ok_and(|t| t.eq_ignore_ascii_case("all")) => (0, true),
        Some(d) => {
            let k = d.scalar_f64().ok()?;
            if k.fract() != 0.0 || k < 1.0 {
                return None;
            }
            (k as usize - 1, false)
        }
    };
    // (A dimension past the last, all zeros, is the host's.)
    let (n, out) = if all {
        (shape.numel(), Shape::scalar())
    } else if dim < shape.ndims() {
        let mut dims = shape.dims().to_vec();
        let n = dims[dim];
        dims[dim] = 1;
        (n, Shape::new(&dims))
    } else {
        return None;
    };
    let class = node.class;
    let reduce = |op, input| {
        let r = Op::Reduce {
            op,
            dim,
            all,
            omitnan: false,
        };
        graph::intern(r, vec![input], out.clone(), class)
    };
    let mean = reduce(Red::Mean, node.clone());
    let deviation = graph::intern(Op::Binary(Bin::Sub), vec![node, mean], shape.clone(), class);
    let square = graph::intern(
        Op::Binary(Bin::Mul),
        vec![deviation.clone(), deviation],
        shape,
        class,
    );
    let sum = reduce(Red::Sum, square);
    // MATLAB divides a lane of one by 1 whatever w says: its variance is 0.
    let divisor = if n == 1 || by_n { n.max(1) } else { n - 1 };
    let var = graph::intern(
        Op::Binary(Bin::Div),
        vec![sum, constant(divisor as f64, Class::Double)],
        out.clone(),
        class,
    );
    let result = if root {
        // A sum of squares is never negative: the square root is real.
        graph::intern(Op::Unary(Un::Sqrt), vec![var], out, class)
    } else {
        var
    };
    Some(pending(result, explicit(&[x])))
}
