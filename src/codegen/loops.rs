//! The WGSL of a loop kernel (`plan::loops`): each thread keeps its element of every carried
//! variable in registers and runs the loop's iterations over it, reading the arrays whose
//! views move (`X(:, t)`) and drawing random numbers at the iteration's place in the stream.
//! A long loop is several dispatches of part of the iterations each (`gpu::loops`): the
//! first reads the carried values from their inputs, the next ones from the output, where
//! the last left them.
//!
//! Words after the shape table (`P`): the iterations this dispatch runs, whether it is the
//! first, the distance between carried variables in the output, where in the output this
//! dispatch's partial reductions go and how many workgroups write them, one move per input
//! (two's complement), then per random block its seed and offset (as `m_rand_bits` reads
//! them) and its move.
//!
//! Carried reductions (`plan::loops::ScalarSide`): each iteration every workgroup reduces
//! its elements of each reduced step in workgroup memory and writes one partial; after the
//! dispatch, `partials_kernel` reduces each iteration's partials (a workgroup an iteration)
//! and `scalar_kernel` runs the single values' recurrence over the iterations in order.

use super::{init, op_of_equals_is_foldable, prelude, wgsl_binary, wgsl_unary};
use crate::graph::{Precision, RandKind};
use crate::plan::loops::{ScalarSide, ScalarStep};
use crate::plan::{Access, Group, Step};
use crate::values::ops::{Bin, Red, Un};

/// Words of the parameters before the inputs' moves.
pub const HEAD_WORDS: usize = 5;
/// Words per random block.
pub const RAND_WORDS: usize = 5;

pub fn loop_kernel(
    g: &Group,
    carried: usize,
    roots: &[usize],
    moving: &[bool],
    side: &ScalarSide,
) -> String {
    let reductions = &side.reductions;
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
    // Each workgroup's partial of each carried reduction, for this iteration.
    let count = reductions.len();
    for (r, &(op, step, omitnan)) in reductions.iter().enumerate() {
        let v = format!("v{step}");
        let loaded = if omitnan && matches!(op, Red::Sum | Red::Prod) {
            format!("select({v}, {}, lk_isnan({v}))", identity(op))
        } else {
            v
        };
        body.push_str(&format!(
            "        lk_red[lid.x] = select({}, {loaded}, live);\n        workgroupBarrier();\n        \
             for (var s = 128u; s > 0u; s = s >> 1u) {{\n            if (lid.x < s) {{\n                \
             lk_red[lid.x] = lk_comb{r}(lk_red[lid.x], lk_red[lid.x + s]);\n            }}\n            \
             workgroupBarrier();\n        }}\n        \
             if (lid.x == 0u && i / 256u < shape_table[p + 4u]) {{\n            \
             out[shape_table[p + 3u] + (it * shape_table[p + 4u] + i / 256u) * {count}u + {r}u] = lk_red[0];\n        }}\n        \
             workgroupBarrier();\n",
            identity(op)
        ));
    }
    for (j, root) in roots.iter().enumerate() {
        body.push_str(&format!("        c{j} = v{root};\n"));
    }
    body.push_str("    }\n");
    let guard = if count > 0 { "    if (live) {\n" } else { "" };
    body.push_str(guard);
    for j in 0..carried {
        body.push_str(&format!("    out[i + {j}u * stride] = c{j};\n"));
    }
    if count > 0 {
        body.push_str("    }\n");
    }
    // With reductions every thread of a workgroup runs the loop (they meet at barriers);
    // those past the end read clamped and add the identity.
    let start = if count > 0 {
        "    let live = i < shape_table[0];\n"
    } else {
        "    if (i >= shape_table[0]) {\n        return;\n    }\n"
    };
    let main = format!(
        "@compute @workgroup_size(256)\n\
         fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, \
         @builtin(local_invocation_id) lid: vec3<u32>) {{\n    \
         _ = consts[0];\n{}    let i = gid.x + gid.y * nwg.x * 256u;\n{start}    let gi = i;\n{body}}}\n",
        init(g)
    );
    let helpers = if count > 0 {
        format!(
            "var<workgroup> lk_red: array<T, 256>;\n{}{}",
            nan_helpers(g.precision),
            combiners(reductions)
        )
    } else {
        String::new()
    };
    prelude(g, 1, 1) + "\n" + &helpers + &main
}

/// The identity of a reduction (NaN for maxima and minima: skipped by `lk_comb`).
fn identity(op: Red) -> &'static str {
    match op {
        Red::Prod => "T(1)",
        Red::Max | Red::Min => "lk_nan()",
        _ => "T(0)",
    }
}

fn nan_helpers(p: Precision) -> &'static str {
    match p {
        Precision::F32 => {
            "fn lk_isnan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }\n\
             fn lk_nan() -> f32 { return bitcast<f32>(0x7fc00000u); }\n"
        }
        Precision::F64 => {
            "fn lk_isnan(x: f64) -> bool { return (bitcast<u64>(x) & 0x7ffffffffffffffflu) > 0x7ff0000000000000lu; }\n\
             fn lk_nan() -> f64 { return bitcast<f64>(0x7ff8000000000000lu); }\n"
        }
    }
}

/// `a` and `b` under `op`, NaN skipped by maxima and minima (MATLAB's max and min).
fn combine(op: Red, a: &str, b: &str) -> String {
    match op {
        Red::Prod => format!("{a} * {b}"),
        Red::Max => format!("select({a}, {b}, lk_isnan({a}) || {b} > {a})"),
        Red::Min => format!("select({a}, {b}, lk_isnan({a}) || {b} < {a})"),
        _ => format!("{a} + {b}"),
    }
}

fn combiners(reductions: &[(Red, usize, bool)]) -> String {
    reductions
        .iter()
        .enumerate()
        .map(|(r, &(op, _, _))| {
            format!(
                "fn lk_comb{r}(a: T, b: T) -> T {{ return {}; }}\n",
                combine(op, "a", "b")
            )
        })
        .collect()
}

/// A constant of the element type, exactly.
fn literal(p: Precision, x: f64) -> String {
    match p {
        Precision::F32 => format!("bitcast<f32>(0x{:08x}u)", (x as f32).to_bits()),
        Precision::F64 => format!("bitcast<f64>(0x{:016x}lu)", x.to_bits()),
    }
}

/// The second pass of carried reductions: workgroup k reduces iteration k's partials.
/// Parameters: iterations, where the partials start, partials per iteration and reduction
/// (the first pass's workgroups), where the results go.
pub fn partials_kernel(p: Precision, reductions: &[(Red, usize, bool)]) -> String {
    let count = reductions.len();
    let mut body = String::new();
    for (r, &(op, _, _)) in reductions.iter().enumerate() {
        body.push_str(&format!(
            "    {{\n        var acc = {id};\n        \
             for (var k = lid.x; k < parts; k = k + 256u) {{\n            \
             acc = lk_comb{r}(acc, out[part_at + (it * parts + k) * {count}u + {r}u]);\n        }}\n        \
             lk_red[lid.x] = acc;\n        workgroupBarrier();\n        \
             for (var s = 128u; s > 0u; s = s >> 1u) {{\n            if (lid.x < s) {{\n                \
             lk_red[lid.x] = lk_comb{r}(lk_red[lid.x], lk_red[lid.x + s]);\n            }}\n            \
             workgroupBarrier();\n        }}\n        \
             if (lid.x == 0u) {{\n            out[res_at + it * {count}u + {r}u] = lk_red[0];\n        }}\n        \
             workgroupBarrier();\n    }}\n",
            id = identity(op)
        ));
    }
    format!(
        "alias T = {ty};\n\
         @group(0) @binding(0) var<storage, read_write> out: array<T>;\n\
         @group(0) @binding(1) var<storage, read> params: array<u32>;\n\
         var<workgroup> lk_red: array<T, 256>;\n{nan}{comb}\
         @compute @workgroup_size(256)\n\
         fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, \
         @builtin(local_invocation_id) lid: vec3<u32>) {{\n    \
         let it = wid.x + wid.y * nwg.x;\n    let part_at = params[1];\n    let parts = params[2];\n    \
         let res_at = params[3];\n    if (it >= params[0]) {{\n        return;\n    }}\n{body}}}\n",
        ty = p.wgsl(),
        nan = nan_helpers(p),
        comb = combiners(reductions),
    )
}

/// The third pass: the single values' recurrence over the dispatch's iterations, in order,
/// from the reductions' results (read into workgroup memory 256 iterations at a time).
/// Parameters: iterations, where the results start, where the carried single values are.
pub fn scalar_kernel(p: Precision, side: &ScalarSide) -> String {
    let count = side.reductions.len().max(1);
    let vars = side.roots.len();
    let mut load = String::new();
    for r in 0..side.reductions.len() {
        load.push_str(&format!(
            "        if (c + lid.x < trips) {{\n            \
             lk_res[lid.x * {count}u + {r}u] = out[res_at + (c + lid.x) * {count}u + {r}u];\n        }}\n"
        ));
    }
    let mut steps = String::new();
    for (k, step) in side.steps.iter().enumerate() {
        let expr = match *step {
            ScalarStep::Carried(j) => format!("s{j}"),
            ScalarStep::Reduced(r) => format!("lk_res[t * {count}u + {r}u]"),
            ScalarStep::Const(x) => literal(p, x),
            ScalarStep::Unary(Un::Neg, a) => format!("-q{a}"),
            ScalarStep::Unary(_, a) => format!("abs(q{a})"),
            ScalarStep::Binary(op, a, b) => {
                let (a, b) = (format!("q{a}"), format!("q{b}"));
                match op {
                    Bin::Add => format!("{a} + {b}"),
                    Bin::Sub => format!("{a} - {b}"),
                    Bin::Mul => format!("{a} * {b}"),
                    Bin::Div => format!("{a} / {b}"),
                    Bin::Max => combine(Red::Max, &a, &b),
                    _ => combine(Red::Min, &a, &b),
                }
            }
        };
        steps.push_str(&format!("                let q{k} = {expr};\n"));
    }
    let mut next = String::new();
    let mut start = String::new();
    let mut end = String::new();
    for (j, root) in side.roots.iter().enumerate() {
        next.push_str(&format!("                s{j} = q{root};\n"));
        start.push_str(&format!("    var s{j} = out[state_at + {j}u];\n"));
        end.push_str(&format!("        out[state_at + {j}u] = s{j};\n"));
    }
    let _ = vars;
    format!(
        "alias T = {ty};\n\
         @group(0) @binding(0) var<storage, read_write> out: array<T>;\n\
         @group(0) @binding(1) var<storage, read> params: array<u32>;\n\
         var<workgroup> lk_res: array<T, {size}>;\n{nan}\
         @compute @workgroup_size(256)\n\
         fn main(@builtin(local_invocation_id) lid: vec3<u32>) {{\n    \
         let trips = params[0];\n    let res_at = params[1];\n    let state_at = params[2];\n{start}    \
         for (var c = 0u; c < trips; c = c + 256u) {{\n{load}        workgroupBarrier();\n        \
         if (lid.x == 0u) {{\n            let m = min(256u, trips - c);\n            \
         for (var t = 0u; t < m; t = t + 1u) {{\n{steps}{next}            }}\n        }}\n        \
         workgroupBarrier();\n    }}\n    if (lid.x == 0u) {{\n{end}    }}\n}}\n",
        ty = p.wgsl(),
        size = 256 * count,
        nan = nan_helpers(p),
    )
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
            let src = super::loop_kernel(&g, 1, &[last], &moving, &Default::default());
            assert!(src.contains("for (var it = 0u; it < trips"), "{src}");
            super::super::tests::validate(&src);
        }
    }
}
