//! WGSL generation: a fused elementwise group becomes one kernel from the template in
//! `shaders/elementwise.wgsl`. The text depends only on the group's canonical form (its
//! operations, precision and each input's access pattern), never on buffers or constant
//! values, so it doubles as the pipeline-cache key.

use crate::graph::Precision;
use crate::graph::ops::{wgsl_binary, wgsl_unary};
use crate::plan::{Access, Group, Step};

const TEMPLATE: &str = include_str!("../../shaders/elementwise.wgsl");

/// The WGSL of an elementwise group.
pub fn elementwise(g: &Group) -> String {
    let (ty, max_finite) = match g.precision {
        Precision::F32 => ("f32", "3.40282346638528859812e+38"),
        Precision::F64 => ("f64", "1.7976931348623157e308"),
    };
    let inputs: String = (0..g.inputs.len())
        .map(|k| {
            format!(
                "@group(0) @binding({}) var<storage, read> in{k}: array<T>;\n",
                k + 3
            )
        })
        .collect();
    let mut body = String::new();
    for (k, access) in g.inputs.iter().enumerate() {
        let index = match access {
            Access::Same => "i".to_string(),
            Access::Scalar => "0u".to_string(),
            Access::Broadcast(_) => format!("bcast(i, {k}u)"),
        };
        body.push_str(&format!("    let x{k} = in{k}[{index}];\n"));
    }
    for (k, step) in g.steps.iter().enumerate() {
        let expr = match step {
            Step::Input(j) => format!("x{j}"),
            Step::Const(j) => format!("consts[{j}]"),
            Step::Unary(op, a) => wgsl_unary(*op, &format!("v{a}")),
            Step::Binary(op, a, b) => wgsl_binary(*op, &format!("v{a}"), &format!("v{b}")),
        };
        body.push_str(&format!("    let v{k} = {expr};\n"));
    }
    body.push_str(&format!(
        "    out[i] = v{};",
        g.steps.len().saturating_sub(1)
    ));
    TEMPLATE
        .replace("{{TYPE}}", ty)
        .replace("{{MAX_FINITE}}", max_finite)
        .replace("{{INPUTS}}", &inputs)
        .replace("{{BODY}}", &body)
}

#[cfg(test)]
mod tests {
    use crate::graph::{self, Data, Op};
    use crate::values::class::Class;
    use crate::values::ops::{Bin, Un};
    use crate::values::shape::Shape;
    use crate::values::tensor::Tensor;
    use std::rc::Rc;

    /// Every generated kernel must be valid WGSL (checked with naga, no GPU needed).
    #[test]
    fn generated_kernels_validate() {
        use wgpu::naga;
        for class in [Class::Single, Class::Double] {
            let t = Tensor::zeros(class, Shape::matrix(3, 4));
            let row = Tensor::zeros(class, Shape::matrix(1, 4));
            let x = graph::leaf(Data::Host(Rc::new(t)), Shape::matrix(3, 4), class);
            let r = graph::leaf(Data::Host(Rc::new(row)), Shape::matrix(1, 4), class);
            let two = graph::intern(Op::Const(2.0), vec![], Shape::scalar(), Class::Double);
            let mut n = graph::intern(
                Op::Binary(Bin::Mul),
                vec![x, two.clone()],
                Shape::matrix(3, 4),
                class,
            );
            for op in [Un::Sign, Un::Round, Un::Abs, Un::Floor, Un::IsNan] {
                n = graph::intern(Op::Unary(op), vec![n], Shape::matrix(3, 4), class);
            }
            for op in [Bin::Max, Bin::Hypot, Bin::Pow, Bin::Lt, Bin::Sub] {
                let rhs = if op == Bin::Pow {
                    two.clone()
                } else {
                    r.clone()
                };
                n = graph::intern(Op::Binary(op), vec![n, rhs], Shape::matrix(3, 4), class);
            }
            let g = crate::plan::group(&n);
            let src = super::elementwise(&g);
            assert!(
                src.contains("bcast(i, 1u)"),
                "the row input is broadcast:\n{src}"
            );
            let module = naga::front::wgsl::parse_str(&src)
                .unwrap_or_else(|e| panic!("{}\n{src}", e.emit_to_string(&src)));
            naga::valid::Validator::new(
                naga::valid::ValidationFlags::all(),
                naga::valid::Capabilities::FLOAT64,
            )
            .validate(&module)
            .unwrap_or_else(|e| panic!("{e:?}\n{src}"));
        }
    }
}
