//! WGSL generation: a fused elementwise group becomes one kernel from the template in
//! `shaders/elementwise.wgsl`. The text depends only on the group's canonical form (its
//! operations, precision and each input's access pattern), never on buffers or constant
//! values, so it doubles as the pipeline-cache key. The function library stands in it as
//! one line until `expand` puts it in for compiling.

use crate::graph::ops::{wgsl_binary, wgsl_unary};
use crate::graph::{Precision, RandKind};
use crate::plan::{Access, Group, Step};
use crate::values::ops::Red;

pub mod functions;
mod key;
pub mod loops;
mod matmul;
mod regions;
mod vector;
pub use functions::{available_for as functions_available, has_binary, has_unary};
pub use key::{KernelKey, Kind, key};
pub use matmul::{MatmulForm, matmul};
pub use regions::scatter;
use regions::{gather_value, region_base, region_read};
use vector::lanes as vector_lanes;
pub use vector::{unroll as vector_unroll, width as vector_width};

const MATH_F32: &str = include_str!("../../shaders/math_f32.wgsl");
const MATH_F64_BASE: &str = include_str!("../../shaders/math_f64.wgsl");
const LOG_POW_F64: &str = include_str!("../../shaders/log_pow_f64.wgsl");
const REMAINDER_F64: &str = include_str!("../../shaders/remainder_f64.wgsl");
const SINGLE: &str = include_str!("../../shaders/single.wgsl");
const MATH_F32_VIA_F64: &str = include_str!("../../shaders/math_f32_via_f64.wgsl");
const MATH_F32_EXACT: &str = include_str!("../../shaders/math_f32_exact.wgsl");
const MATH_F32_FAST: &str = include_str!("../../shaders/math_f32_fast.wgsl");
const MATH_F64_FAST: &str = include_str!("../../shaders/math_f64_fast.wgsl");
const SQRT_F32_WIDE: &str = include_str!("../../shaders/sqrt_f32_wide.wgsl");
const SQRT_F32_FMA: &str = include_str!("../../shaders/sqrt_f32_fma.wgsl");
const SIN_REDUCE_SPLIT: &str = include_str!("../../shaders/sin_reduce_split.wgsl");
const SIN_REDUCE_FMA: &str = include_str!("../../shaders/sin_reduce_fma.wgsl");
const SQRT_CHECK: &str = include_str!("../../shaders/sqrt_check.wgsl");
const RANDOM: &str = include_str!("../../shaders/random.wgsl");
const MULHILO_U16: &str = include_str!("../../shaders/mulhilo_u16.wgsl");
const MULHILO_U64: &str = include_str!("../../shaders/mulhilo_u64.wgsl");
const COMMON: &str = include_str!("../../shaders/common.wgsl");
/// The address of an input read shifted (`shifted`): its first element plus the output
/// element's index.
const M_SHIFTED: &str = include_str!("../../shaders/shifted.wgsl");
const ELEMENTWISE: &str = include_str!("../../shaders/elementwise.wgsl");
const REDUCE: &str = include_str!("../../shaders/reduce.wgsl");
const REDUCE_LANES: &str = include_str!("../../shaders/reduce_lanes.wgsl");
const REDUCE_COMMON: &str = include_str!("../../shaders/reduce_common.wgsl");
const MOMENTS_COMMON: &str = include_str!("../../shaders/moments_common.wgsl");
const MOMENTS: &str = include_str!("../../shaders/moments.wgsl");
const MOMENTS_FOLD: &str = include_str!("../../shaders/moments_fold.wgsl");

/// The lines that stand for a kernel's function library in its text until `expand`:
/// kernels are generated, and the pipeline cache looks them up, in this short form (a few
/// KB hashed per launch, not the ~30 KB library assembled each time). In pairs, the second
/// with the random generator.
const LIBRARY_LINES: [&str; 10] = [
    "// library: f64",
    "// library: f64 random",
    "// library: f32 exact",
    "// library: f32 exact random",
    "// library: f32 fast",
    "// library: f32 fast random",
    "// library: f32 driver",
    "// library: f32 driver random",
    "// library: f32 fast, fma sqrt",
    "// library: f32 fast, fma sqrt random",
];

fn library_line(g: &Group) -> &'static str {
    let kind = match g.precision {
        Precision::F64 => 0,
        Precision::F32 => match single_math() {
            SingleMath::Exact => 2,
            SingleMath::Fast if fma_sqrt() => 8,
            SingleMath::Fast => 4,
            SingleMath::Driver => 6,
        },
    };
    LIBRARY_LINES[kind + usize::from(!g.rands.is_empty())]
}

/// The library a line of LIBRARY_LINES stands for, assembled once per process.
fn library_text(line: &str) -> Option<&'static str> {
    use std::sync::OnceLock;
    static TEXTS: [OnceLock<String>; 10] = [const { OnceLock::new() }; 10];
    let k = LIBRARY_LINES.iter().position(|&l| l == line)?;
    Some(TEXTS[k].get_or_init(|| {
        let f64_text = format!("{MATH_F64_BASE}\n{LOG_POW_F64}\n{REMAINDER_F64}");
        let via_f64 = || {
            format!(
                "{SINGLE}\n{}\n{MATH_F32_VIA_F64}",
                f64_text.replace("m_", "d_")
            )
        };
        let base = match k / 2 {
            // Doubles' speculative forms (the singles' libraries carry their own FAST_OK).
            0 => format!("{f64_text}\n{MATH_F64_FAST}"),
            1 => format!("{}\n{SQRT_F32_WIDE}\n{MATH_F32_EXACT}", via_f64()),
            2 => format!(
                "{}\n{SQRT_F32_WIDE}\n{MATH_F32_FAST}\n{SIN_REDUCE_SPLIT}",
                via_f64()
            ),
            // Devices whose fma is fused (they passed the sqrt check) reduce speculative
            // sines with it.
            4 => format!(
                "{}\n{SQRT_F32_FMA}\n{MATH_F32_FAST}\n{SIN_REDUCE_FMA}",
                via_f64()
            ),
            _ => format!("{SINGLE}\n{MATH_F32}"),
        };
        // Only kernels that draw random numbers carry the generator; its products are 64-bit
        // ones where the library needs 64-bit integers anyway (all but the driver's).
        if k % 2 == 1 {
            let mulhilo = if k / 2 == 3 { MULHILO_U16 } else { MULHILO_U64 };
            format!("{base}\n{mulhilo}\n{RANDOM}")
        } else {
            base
        }
    }))
}

/// Whether single `sqrt` uses the driver's, corrected with fused multiply-adds
/// (sqrt_f32_fma.wgsl): where the device passed the start-up check (`gpu::sqrt_check`).
pub fn fma_sqrt() -> bool {
    crate::gpu::device::current().is_some_and(|d| d.info.fma_sqrt)
}

/// The start-up check of the corrected sqrt against the f64 route (shaders/sqrt_check.wgsl),
/// with its library.
pub fn sqrt_check_kernel() -> String {
    let library = library_text(LIBRARY_LINES[8]).unwrap_or_default();
    format!("alias T = f32;\n{library}\n{SQRT_CHECK}")
}

/// A kernel's compilable WGSL: its library line replaced by the library.
pub fn expand(kernel: &str) -> String {
    let Some(at) = kernel.find("// library: ") else {
        return kernel.to_string();
    };
    let end = kernel[at..].find('\n').map_or(kernel.len(), |e| at + e);
    let line = &kernel[at..end];
    // Singles' f32 special functions come with the f32 library that has exp_split.
    let f32_forms = line.starts_with("// library: f32 fast");
    let text = match library_text(line) {
        Some(text) => format!("{}{}{}", &kernel[..at], text, &kernel[end..]),
        None => kernel.to_string(),
    };
    functions::expand(text, f32_forms)
}

/// The shared part of a kernel: element type, bindings (one per input) and the line that
/// stands for its helpers.
/// Inputs read element for element are bound as vectors of `width`; the output as vectors of
/// `out_width`.
fn prelude(g: &Group, width: u32, out_width: u32) -> String {
    let ty = g.precision.wgsl();
    let inputs: String = (0..g.inputs.len())
        .map(|k| {
            let elem = g.bindings.get(k).copied().unwrap_or(g.precision).wgsl();
            let elem = match g.inputs[k] {
                Access::Same if width > 1 => format!("vec{width}<{elem}>"),
                _ => elem.to_string(),
            };
            format!(
                "@group(0) @binding({}) var<storage, read> in{k}: array<{elem}>;\n",
                k + 3
            )
        })
        .collect();
    // (only where a kernel reads one, so other kernels' text, and the drivers' caches of
    // them, stay as they were)
    let inputs = match g.inputs.iter().any(|a| shifted(g, a)) {
        true => inputs + M_SHIFTED,
        false => inputs,
    };
    let out = if out_width > 1 {
        format!("array<vec{out_width}<T>>")
    } else {
        "array<T>".to_string()
    };
    COMMON
        .replace("{{OUT}}", &out)
        .replace(
            "{{MATH}}",
            &format!("{}{}", library_line(g), functions::line(g)),
        )
        .replace("{{TYPE}}", ty)
        .replace("{{INPUTS}}", &inputs)
}

/// How single-precision kernels compute exp, log, sin and cos where the device has f64 and 64-bit
/// integers (`MATFUSE_SINGLE_MATH`): `fast` (the default) in f32 within 1 ulp of the host's
/// (math_f32_fast.wgsl), `exact` in f64 rounded once, identical to the host's
/// (math_f32_exact.wgsl); their other functions go through f64 either way. `driver`, and
/// any device without f64, uses the driver's f32 functions for all (math_f32.wgsl).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SingleMath {
    Fast,
    Exact,
    Driver,
}

pub fn single_math() -> SingleMath {
    static CHOSEN: std::sync::OnceLock<SingleMath> = std::sync::OnceLock::new();
    let chosen = *CHOSEN.get_or_init(|| match std::env::var("MATFUSE_SINGLE_MATH").as_deref() {
        Ok("exact") => SingleMath::Exact,
        Ok("driver") => SingleMath::Driver,
        _ => SingleMath::Fast,
    });
    let has_f64 = crate::gpu::device::current()
        .is_some_and(|d| d.info.supports_double && d.info.supports_int64);
    if has_f64 { chosen } else { SingleMath::Driver }
}

/// The start of `main`: kernels with the f64 functions set the opaque 1 their exact
/// arithmetic relies on.
fn init(g: &Group) -> &'static str {
    match (g.precision, single_math()) {
        (Precision::F64, _) => "    m_init(shape_table[1]);\n",
        (Precision::F32, SingleMath::Driver) => "",
        (Precision::F32, _) => "    d_init(shape_table[1]);\n",
    }
}

/// Whether `op` of a value with itself is right when a compiler simplifies it (x + x to
/// 2 x, max(x, x) to x), unlike x - x to 0 or x == x to true for NaN and infinities.
fn op_of_equals_is_foldable(op: crate::values::ops::Bin) -> bool {
    use crate::values::ops::Bin::*;
    matches!(op, Add | Mul | Max | Min | And | Or)
}

/// One `let` per input read and per fused operation, for element `gi` of the whole result
/// (`i` within the window this dispatch binds); the last is `v{n-1}`.
/// Random blocks read their seed and offset after the shape table's strides and the
/// kernel's own `params` words.
fn step_lines(g: &Group, params: usize) -> String {
    step_lines_reading(g, params, &|k, access| input_read(g, params, k, access))
}

/// How element `gi` (`i` in the window) reads input `k`.
fn input_read(g: &Group, params: usize, k: usize, access: &Access) -> String {
    input_read_from(g, params, k, access, &format!("in{k}"))
}

/// `input_read` through the binding named `array` (a scatter reads the array it writes
/// through `out`).
fn input_read_from(g: &Group, params: usize, k: usize, access: &Access, array: &str) -> String {
    match access {
        Access::Same => format!("{array}[i]"),
        Access::Scalar => format!("{array}[0u]"),
        // Clamped: an embed's values planned in the output's space (`plan::region_space`)
        // are read at meaningless addresses outside the region (and dropped), and kernels
        // run without wgpu's bounds checks.
        // A view in the output's own layout: its first element plus the element's index.
        Access::Strided(..) if shifted(g, access) => {
            format!("{array}[min(m_shifted(gi, {k}u), arrayLength(&{array}) - 1u)]")
        }
        Access::Strided(..) => {
            format!("{array}[min(bcast(gi, {k}u), arrayLength(&{array}) - 1u)]")
        }
        Access::Region(r) => region_read(g, params, array, *r),
    }
}

/// Whether strided input `a` of `g` is a view in the output's own layout, shifted: every
/// dimension of more than one element has the output's column-major stride (`u(2:end-1)`,
/// `A(:, 2:end)`), so element `gi` reads the view's first element plus `gi` and no
/// subscripts are found (`m_shifted`; a stencil's views took most of its kernel's work).
pub(crate) fn shifted(g: &Group, a: &Access) -> bool {
    let Access::Strided(strides, _) = a else {
        return false;
    };
    let dims = g.shape.dims();
    if strides.len() != dims.len() {
        return false;
    }
    let mut natural = 1u64;
    for (&size, &stride) in dims.iter().zip(strides) {
        if size > 1 && u64::from(stride) != natural {
            return false;
        }
        natural = natural.saturating_mul(size as u64);
    }
    natural <= u64::from(u32::MAX)
}

/// `step_lines` with each input read as `read(k, access)` says.
fn step_lines_reading(g: &Group, params: usize, read: &dyn Fn(usize, &Access) -> String) -> String {
    let mut body = String::new();
    for (k, access) in g.inputs.iter().enumerate() {
        body.push_str(&format!("    let x{k} = T({});\n", read(k, access)));
    }
    for (k, step) in g.steps.iter().enumerate() {
        let expr = match step {
            Step::Input(j) => format!("x{j}"),
            Step::Const(j) => format!("consts[{j}]"),
            Step::Unary(op, a) => wgsl_unary(*op, &format!("v{a}")),
            // Both operands one value: the second hidden, or the driver may fold the step.
            Step::Binary(op, a, b) if a == b && !op_of_equals_is_foldable(*op) => {
                wgsl_binary(*op, &format!("v{a}"), &format!("m_opaque(v{b})"))
            }
            Step::Binary(op, a, b) => wgsl_binary(*op, &format!("v{a}"), &format!("v{b}")),
            Step::Iota(None) => "T(gi + 1u)".to_string(),
            Step::Iota(Some(d)) if *d < g.shape.ndims() => format!("m_iota(gi, {d}u)"),
            Step::Iota(Some(_)) => "T(1)".to_string(),
            Step::Gather(j) => gather_value(g, params, *j, read),
            Step::Select(m, a, b) => format!("select(v{b}, v{a}, !(v{m} == T(0)))"),
            Step::Embed(old, new, r) => format!(
                "select(v{old}, v{new}, m_region(gi, {}).x == 1u)",
                region_base(g, params, *r)
            ),
            Step::Rand(j) => {
                let bits = format!(
                    "m_rand_bits(2u + shape_table[1] * {}u + {}u, gi)",
                    g.inputs.len() + 1,
                    g.inputs.len() + params + 4 * j
                );
                let (spec, at) = &g.rands[*j];
                match spec.kind {
                    RandKind::Uniform => format!("m_uniform({bits})"),
                    RandKind::Normal => format!("m_normal({bits})"),
                    RandKind::Int { .. } => {
                        format!("m_randi({bits}, consts[{at}], consts[{}])", at + 1)
                    }
                }
            }
        };
        body.push_str(&format!("    let v{k} = {expr};\n"));
    }
    body
}

/// The WGSL of an elementwise group; with `vector`, a kernel of `vector_width(g)` elements
/// per thread where the group allows one, whose workgroups (with `reversed`) take their
/// blocks from the end first.
pub fn elementwise(g: &Group, vector: bool, reversed: bool) -> String {
    let width = if vector { vector::width(g) } else { 1 };
    if width > 1 {
        return prelude(g, width, width) + "\n" + &vector::elementwise(g, width, reversed);
    }
    let body = format!(
        "{}    out[i] = v{};",
        step_lines(g, 0),
        g.steps.len().saturating_sub(1)
    );
    prelude(g, 1, 1)
        + "\n"
        + &ELEMENTWISE
            .replace("{{BODY}}", &body)
            .replace("{{INIT}}", init(g))
}

/// How a reduction maps each value, folds two values, and where its identity and divisor
/// sit among the constants (the caller appends them after the group's own constants).
pub struct ReduceForm {
    pub map: &'static str,
    pub combine: &'static str,
    pub identity: usize,
    pub divisor: usize,
}

/// The map and fold of a reduction kind (`omitnan` drops NaN from sums and products; max and
/// min always skip NaN, as MATLAB's do).
pub fn reduce_form(op: Red, omitnan: bool, first_pass: bool, nconsts: usize) -> ReduceForm {
    let map = match (op, omitnan && first_pass) {
        (Red::Sum | Red::Mean, true) => "select(v, T(0), m_isnan(v))",
        (Red::Prod, true) => "select(v, T(1), m_isnan(v))",
        // `!(v == 0)`, not `v != 0`: drivers compile `!=` as an ordered comparison, false
        // for NaN, and NaN is true for all (lavapipe gave all(NaN) = 0).
        (Red::Any, _) if first_pass => "m_bool(!(v == T(0)) && !m_isnan(v))",
        (Red::All, _) if first_pass => "m_bool(!(v == T(0)))",
        _ => "v",
    };
    let combine = match op {
        Red::Sum | Red::Mean => "a + b",
        Red::Prod => "a * b",
        Red::Max | Red::Any => "m_max(a, b)",
        Red::Min | Red::All => "m_min(a, b)",
    };
    ReduceForm {
        map,
        combine,
        identity: nconsts,
        divisor: nconsts + 1,
    }
}

/// The WGSL of a reduction over `g`'s values (the group computes the reduced input): a
/// workgroup per lane part, or with `per_thread` a thread per lane part.
pub fn reduce(g: &Group, form: &ReduceForm, per_thread: bool) -> String {
    let (template, vector_loop) = if per_thread {
        (REDUCE_LANES, String::new())
    } else {
        let fold = |v: &str| format!("acc = combine(acc, m_map({v}));");
        (
            REDUCE,
            vector::reduce_loop(
                vector::width(g),
                &fold,
                vector::speculates(g).then_some("acc"),
            ),
        )
    };
    let text = reduction_text(g, template, &vector_loop, form.combine)
        .replace("{{IDENTITY}}", &form.identity.to_string())
        .replace("{{DIVISOR}}", &form.divisor.to_string());
    let functions = if per_thread {
        String::new()
    } else {
        vector::reduce_functions(g, vector::width(g))
    };
    format!(
        "{}\nfn m_map(v: T) -> T {{\n    return {};\n}}\n\n{text}\n{functions}",
        prelude(g, vector::width(g), 1),
        form.map,
    )
}

/// A reduction template after `reduce_common.wgsl`, with the group's values as `value_at`
/// (vector kernels read inputs bound as vectors one element at a time there: the lanes'
/// remainders and lanes that are not contiguous; whole vectors in `value_vector`).
fn reduction_text(g: &Group, template: &str, vector_loop: &str, combine: &str) -> String {
    let width = vector::width(g);
    let lines = if width > 1 {
        step_lines_reading(g, 5, &|k, access| match access {
            Access::Same => format!("in{k}[i / {width}u][i % {width}u]"),
            Access::Strided(..) => format!("in{k}[bcast(gi, {k}u)]"),
            Access::Scalar => format!("in{k}[0u]"),
            Access::Region(r) => region_read(g, 5, &format!("in{k}"), *r),
        })
    } else {
        step_lines(g, 5)
    };
    let body = format!(
        "    let gi = i + shape_table[arrayLength(&shape_table) - 1u];\n{}    return v{};",
        lines,
        g.steps.len().saturating_sub(1)
    );
    format!("{REDUCE_COMMON}\n{template}")
        .replace("{{VECTOR_LOOP}}", vector_loop)
        .replace("{{INIT}}", init(g))
        .replace("{{BODY}}", &body)
        .replace("{{COMBINE}}", combine)
        .replace("{{MAP}}", "m_map(value_at(l.shift + base + r * l.inner))")
        .replace("{{NINPUTS}}", &g.inputs.len().to_string())
}

/// The WGSL of the moments of `g`'s values (`fold`: of the partial moments `moments` wrote),
/// for `gpu::moments`.
pub fn moments(g: &Group, fold: bool) -> String {
    let (template, vector_loop) = if fold {
        (MOMENTS_FOLD, String::new())
    } else {
        let add = |v: &str| format!("st = add(st, {v});");
        (
            MOMENTS,
            vector::reduce_loop(
                vector::width(g),
                &add,
                vector::speculates(g).then_some("st"),
            ),
        )
    };
    let template = format!("{MOMENTS_COMMON}\n{template}");
    let text = reduction_text(g, &template, &vector_loop, "a + b");
    let functions = if fold {
        String::new()
    } else {
        vector::reduce_functions(g, vector::width(g))
    };
    format!("{}\n{text}\n{functions}", prelude(g, vector::width(g), 1))
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
            for op in [
                Un::Sign,
                Un::Round,
                Un::Abs,
                Un::Floor,
                Un::IsNan,
                Un::Exp,
                Un::Cosh,
                Un::Log2,
                Un::Log10,
                Un::Log1p,
            ] {
                n = graph::intern(Op::Unary(op), vec![n], Shape::matrix(3, 4), class);
            }
            for op in [
                Bin::Max,
                Bin::Hypot,
                Bin::Pow,
                Bin::Mod,
                Bin::Rem,
                Bin::Xor,
                Bin::Lt,
                Bin::Sub,
            ] {
                let rhs = if op == Bin::Pow {
                    two.clone()
                } else {
                    r.clone()
                };
                n = graph::intern(Op::Binary(op), vec![n, rhs], Shape::matrix(3, 4), class);
            }
            let g = crate::plan::group(&n);
            let src = super::elementwise(&g, true, false);
            assert!(
                src.contains("bcast(gi, 1u)"),
                "the row input is broadcast:\n{src}"
            );
            validate(&src);
        }
    }

    /// Groups whose inputs are read element for element get vector kernels (elementwise and
    /// reduction), and those validate too.
    #[test]
    fn vector_kernels_validate() {
        for (class, width) in [(Class::Single, 4), (Class::Double, 2)] {
            let shape = Shape::matrix(5, 7);
            let t = Tensor::zeros(class, shape.clone());
            let x = graph::leaf(Data::Host(Rc::new(t)), shape.clone(), class);
            let two = graph::intern(Op::Const(2.0), vec![], Shape::scalar(), Class::Double);
            let m = graph::intern(
                Op::Binary(Bin::Mul),
                vec![x.clone(), two],
                shape.clone(),
                class,
            );
            let s = graph::intern(Op::Unary(Un::Sin), vec![m], shape.clone(), class);
            let n = graph::intern(Op::Binary(Bin::Add), vec![s, x], shape.clone(), class);
            let g = crate::plan::group(&n);
            assert_eq!(super::vector_width(&g), width);
            let src = super::elementwise(&g, true, false);
            assert!(
                src.contains(&format!("out: array<vec{width}<T>>"))
                    && src.contains(&format!("in0: array<vec{width}<"))
                    && src.contains("out[k] = value_vector(k)"),
                "{src}"
            );
            validate(&src);
            // Reversed (`gpu::order`): the same kernel taking its blocks from the end.
            let reversed = super::elementwise(&g, true, true);
            assert!(
                reversed.contains("let j = (nwg.x * nwg.y - 1u - (wid.x + wid.y * nwg.x)) *")
                    && !src.contains("nwg.x * nwg.y - 1u"),
                "{reversed}"
            );
            validate(&reversed);
            assert!(!super::elementwise(&g, false, false).contains("value_vector"));
            for op in [crate::values::ops::Red::Sum, crate::values::ops::Red::Max] {
                let form = super::reduce_form(op, true, true, g.consts.len());
                let src = super::reduce(&g, &form, false);
                assert!(src.contains("let v = value_vector(first + r)"), "{src}");
                validate(&src);
                let src = super::reduce(&g, &form, true);
                assert!(src.contains("out[o * l.parts + part]"), "{src}");
                validate(&src);
            }
            // The moments pass folds whole vectors too; its fold reads the planes.
            let src = super::moments(&g, false);
            assert!(src.contains("st = add(st, v[1])"), "{src}");
            validate(&src);
            validate(&super::moments(&g, true));
        }
    }

    pub(super) fn validate(src: &str) {
        use wgpu::naga;
        let src = &super::expand(src);
        let module = naga::front::wgsl::parse_str(src)
            .unwrap_or_else(|e| panic!("{}\n{src}", e.emit_to_string(src)));
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::FLOAT64 | naga::valid::Capabilities::SHADER_INT64,
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{e:?}\n{src}"));
    }

    /// Views, conversions and subscripts: a single kernel reading a double matrix through a
    /// cast (an f64 binding converted as it is read, where the device has f64) and a single
    /// matrix through a transpose, with sqrt, log and the subscripts max/min positions use.
    /// Only computed leaves are read, so nothing runs (unit tests never start the device).
    #[test]
    fn views_casts_and_subscripts_validate() {
        use crate::graph::Precision;
        let leaf = |class, rows, cols| {
            let shape = Shape::matrix(rows, cols);
            let t = Tensor::zeros(class, shape.clone());
            graph::leaf(Data::Host(Rc::new(t)), shape, class)
        };
        let out = Shape::matrix(4, 3);
        let node = |op, inputs| graph::intern(op, inputs, out.clone(), Class::Single);
        let x = leaf(Class::Double, 4, 3);
        let y = leaf(Class::Single, 3, 4);
        let s = node(Op::Cast, vec![x]);
        let s = node(Op::Unary(Un::Sqrt), vec![s]);
        let s = node(Op::Unary(Un::Log), vec![s]);
        let yt = node(Op::Transpose, vec![y]);
        let iota = node(Op::Iota(Some(1)), vec![]);
        let sum = node(Op::Binary(Bin::Add), vec![s, yt]);
        let n = node(Op::Binary(Bin::Add), vec![sum, iota]);
        let mut g = crate::plan::group(&n);
        assert_eq!(g.precision, Precision::F32);
        assert!(g.uniform_precision);
        // The double leaf is bound as doubles where the device holds them (no device is
        // started here: as singles), and either way the kernel converts what it reads.
        let f64_ok = crate::gpu::device::current().is_some_and(|d| d.info.supports_double);
        let planned = if f64_ok {
            Precision::F64
        } else {
            Precision::F32
        };
        assert_eq!(g.bindings[0], planned);
        for (binding, ty) in [(Precision::F32, "f32"), (Precision::F64, "f64")] {
            g.bindings[0] = binding;
            let src = super::elementwise(&g, true, false);
            assert!(
                src.contains(&format!("in0: array<{ty}>"))
                    && src.contains("in1: array<f32>")
                    && src.contains("T(in0[i])")
                    && src.contains("bcast(gi, 1u)")
                    && src.contains("m_iota(gi, 1u)"),
                "{src}"
            );
            validate(&src);
        }
    }

    /// A single kernel with erf and erfc: under the fast f32 library it carries their f32
    /// forms (shaders/erf_f32.wgsl) and no widening wrappers for them, and it validates;
    /// under the driver's library the wrappers, as before.
    #[test]
    fn single_erf_kernels_take_the_f32_forms_with_the_fast_library() {
        let class = Class::Single;
        let x = graph::leaf(
            Data::Host(Rc::new(Tensor::zeros(class, Shape::col(9)))),
            Shape::col(9),
            class,
        );
        let e = graph::intern(Op::Unary(Un::Erfc), vec![x.clone()], Shape::col(9), class);
        let f = graph::intern(Op::Unary(Un::Erf), vec![x], Shape::col(9), class);
        let n = graph::intern(Op::Binary(Bin::Add), vec![e, f], Shape::col(9), class);
        let g = crate::plan::group(&n);
        let src = super::elementwise(&g, true, false);
        let at = src.find("// library: f32 ").expect("a single library line");
        let end = at + src[at..].find('\n').expect("its end");
        let fast = format!("{}// library: f32 fast{}", &src[..at], &src[end..]);
        let text = super::expand(&fast);
        assert!(
            text.contains("fn m_erfc(x: f32) -> f32")
                && text.contains("fn erfc_tail32(")
                && !text.contains("fn m_erfc(a0: f32)")
                && text.contains("fn d_erfc(x: f64) -> f64"),
            "{text}"
        );
        validate(&fast);
        let driver = format!("{}// library: f32 driver{}", &src[..at], &src[end..]);
        assert!(!super::expand(&driver).contains("erfc_tail32"));
    }

    /// A view in the output's own layout (`u(2:end-1)` beside `u(1:end-2)`) reads its first
    /// element plus the element's index; a broadcast input finds its subscripts.
    #[test]
    fn views_in_the_outputs_layout_read_shifted() {
        use crate::graph::Affine;
        let class = Class::Single;
        let u = graph::leaf(
            Data::Host(Rc::new(Tensor::zeros(class, Shape::col(9)))),
            Shape::col(9),
            class,
        );
        let view = |offset: i64| {
            let affine = Affine {
                offset,
                strides: vec![1, 9],
            };
            graph::intern(Op::View(affine), vec![u.clone()], Shape::col(7), class)
        };
        let n = graph::intern(
            Op::Binary(Bin::Sub),
            vec![view(0), view(2)],
            Shape::col(7),
            class,
        );
        let g = crate::plan::group(&n);
        assert!(
            g.inputs.iter().all(|a| super::shifted(&g, a)),
            "{:?}",
            g.inputs
        );
        let src = super::elementwise(&g, true, false);
        assert!(
            src.contains("m_shifted(gi, 0u)") && src.contains("m_shifted(gi, 1u)"),
            "{src}"
        );
        validate(&src);
        // A broadcast row is not in the output's layout.
        let a = graph::leaf(
            Data::Host(Rc::new(Tensor::zeros(class, Shape::matrix(3, 4)))),
            Shape::matrix(3, 4),
            class,
        );
        let row = graph::leaf(
            Data::Host(Rc::new(Tensor::zeros(class, Shape::matrix(1, 4)))),
            Shape::matrix(1, 4),
            class,
        );
        let b = graph::intern(
            Op::Binary(Bin::Add),
            vec![a, row],
            Shape::matrix(3, 4),
            class,
        );
        let g = crate::plan::group(&b);
        assert!(
            !g.inputs.iter().any(|x| super::shifted(&g, x)),
            "{:?}",
            g.inputs
        );
    }
}
