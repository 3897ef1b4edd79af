//! The WGSL of a loop kernel (`plan::loops`): each thread keeps its element of every carried
//! variable in registers and runs the loop's iterations over it, reading the arrays whose
//! views move (`X(:, t)`) and drawing random numbers at the iteration's place in the stream.
//! A long loop is several dispatches of part of the iterations each (`gpu::loops`): the
//! first reads the carried values from their inputs, the next ones from the output, where
//! the last left them.
//!
//! Words after the shape table (`P`): the iterations this dispatch runs, whether it is the
//! first, the distance between carried variables in the output, one move per input (two's
//! complement), then per random block its seed and offset (as `m_rand_bits` reads them) and
//! its move.

use super::{init, op_of_equals_is_foldable, prelude, wgsl_binary, wgsl_unary};
use crate::graph::RandKind;
use crate::plan::{Access, Group, Step};

/// Words of the parameters before the inputs' moves.
pub const HEAD_WORDS: usize = 3;
/// Words per random block.
pub const RAND_WORDS: usize = 5;

pub fn loop_kernel(g: &Group, carried: usize, roots: &[usize], moving: &[bool]) -> String {
    let nin = g.inputs.len();
    let moves = |k: usize| {
        moving.get(k).copied().unwrap_or(false) && matches!(g.inputs[k], Access::Strided(..))
    };
    let mut body = String::new();
    body.push_str(&format!(
        "    let p = 2u + shape_table[1] * {}u + {nin}u;\n",
        nin + 1
    ));
    body.push_str(
        "    let trips = shape_table[p];\n    let fresh = shape_table[p + 1u] == 1u;\n    \
         let stride = shape_table[p + 2u];\n",
    );
    for j in 0..carried {
        body.push_str(&format!(
            "    var c{j} = select(out[i + {j}u * stride], T(in{j}[i]), fresh);\n"
        ));
    }
    // Reads that stay put are made once, before the loop; moving ones from their address at
    // the dispatch's first iteration.
    for (k, access) in g.inputs.iter().enumerate().skip(carried) {
        if moves(k) {
            body.push_str(&format!("    let a{k} = bcast(gi, {k}u);\n"));
        } else {
            body.push_str(&format!(
                "    let x{k} = T({});\n",
                super::input_read(g, 0, k, access)
            ));
        }
    }
    body.push_str("    for (var it = 0u; it < trips; it = it + 1u) {\n");
    for j in 0..carried {
        body.push_str(&format!("        let x{j} = c{j};\n"));
    }
    for k in (carried..nin).filter(|&k| moves(k)) {
        {
            body.push_str(&format!(
                "        let x{k} = T(in{k}[min(a{k} + it * shape_table[p + {}u], arrayLength(&in{k}) - 1u)]);\n",
                HEAD_WORDS + k
            ));
        }
    }
    let rand_at = |j: usize| HEAD_WORDS + nin + RAND_WORDS * j;
    for (s, step) in g.steps.iter().enumerate() {
        let expr = match step {
            Step::Input(j) => format!("x{j}"),
            Step::Const(j) => format!("consts[{j}]"),
            Step::Unary(op, a) => wgsl_unary(*op, &format!("v{a}")),
            Step::Binary(op, a, b) if a == b && !op_of_equals_is_foldable(*op) => {
                wgsl_binary(*op, &format!("v{a}"), &format!("m_opaque(v{b})"))
            }
            Step::Binary(op, a, b) => wgsl_binary(*op, &format!("v{a}"), &format!("v{b}")),
            Step::Iota(None) => "T(gi + 1u)".to_string(),
            Step::Iota(Some(d)) if *d < g.shape.ndims() => format!("m_iota(gi, {d}u)"),
            Step::Iota(Some(_)) => "T(1)".to_string(),
            Step::Select(m, a, b) => format!("select(v{b}, v{a}, !(v{m} == T(0)))"),
            Step::Rand(j) => {
                let at = rand_at(*j);
                let bits = format!(
                    "m_rand_bits(p + {at}u, gi + it * shape_table[p + {}u])",
                    at + 4
                );
                let (spec, c) = &g.rands[*j];
                match spec.kind {
                    RandKind::Uniform => format!("m_uniform({bits})"),
                    RandKind::Normal => format!("m_normal({bits})"),
                    RandKind::Int { .. } => {
                        format!("m_randi({bits}, consts[{c}], consts[{}])", c + 1)
                    }
                }
            }
            // The template takes none of these (`plan::loops`).
            Step::Embed(..) | Step::Gather(_) => "T(0)".to_string(),
        };
        body.push_str(&format!("        let v{s} = {expr};\n"));
    }
    for (j, root) in roots.iter().enumerate() {
        body.push_str(&format!("        c{j} = v{root};\n"));
    }
    body.push_str("    }\n");
    for j in 0..carried {
        body.push_str(&format!("    out[i + {j}u * stride] = c{j};\n"));
    }
    let main = format!(
        "@compute @workgroup_size(256)\n\
         fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {{\n    \
         _ = consts[0];\n{}    let i = gid.x + gid.y * nwg.x * 256u;\n    \
         if (i >= shape_table[0]) {{\n        return;\n    }}\n    let gi = i;\n{body}}}\n",
        init(g)
    );
    prelude(g, 1, 1) + "\n" + &main
}

#[cfg(test)]
mod tests {
    use crate::graph::{self, Data, Op};
    use crate::values::class::Class;
    use crate::values::ops::{Bin, Un};
    use crate::values::shape::Shape;
    use crate::values::tensor::Tensor;
    use std::rc::Rc;

    /// A loop kernel over a carried column, a moving column of a matrix and a random draw
    /// validates (naga, no GPU).
    #[test]
    fn loop_kernels_validate() {
        for class in [Class::Single, Class::Double] {
            let col = Shape::col(6);
            let leaf = |shape: Shape| {
                let t = Tensor::zeros(class, shape.clone());
                graph::leaf(Data::Host(Rc::new(t)), shape, class)
            };
            let y = leaf(col.clone());
            let x = leaf(Shape::matrix(6, 5));
            let half = graph::intern(Op::Const(0.5), vec![], Shape::scalar(), Class::Double);
            let view = graph::intern(
                Op::View(graph::Affine {
                    offset: 6,
                    strides: vec![1, 0],
                }),
                vec![x],
                col.clone(),
                class,
            );
            let r = graph::intern(
                Op::Rand(graph::RandSpec {
                    kind: graph::RandKind::Normal,
                    seed: 1,
                    offset: 12,
                }),
                vec![],
                col.clone(),
                class,
            );
            let e = graph::intern(Op::Unary(Un::Exp), vec![r], col.clone(), class);
            let m = graph::intern(
                Op::Binary(Bin::Mul),
                vec![half, y.clone()],
                col.clone(),
                class,
            );
            let s = graph::intern(Op::Binary(Bin::Add), vec![m, view], col.clone(), class);
            let next = graph::intern(Op::Binary(Bin::Mul), vec![s, e], col.clone(), class);
            let g = crate::plan::group(&next);
            let moving: Vec<bool> = g
                .inputs
                .iter()
                .map(|a| matches!(a, crate::plan::Access::Strided(..)))
                .collect();
            let last = g.steps.len() - 1;
            let src = super::loop_kernel(&g, 1, &[last], &moving);
            assert!(src.contains("for (var it = 0u; it < trips"), "{src}");
            super::super::tests::validate(&src);
        }
    }
}
