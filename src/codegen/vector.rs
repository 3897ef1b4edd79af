//! Vector kernels: where every input of a group is read element for element, is one scalar,
//! or is broadcast along the columns of a result whose columns hold whole vectors, and
//! nothing depends on an element's position, a thread computes `width` consecutive elements
//! from vector loads (4 singles or 2 doubles: 16 bytes) and stores them as one vector.
//! Elementwise kernels use them for whole results in one binding; reductions fold contiguous
//! lanes a vector at a time and their remainders element by element.

use super::{Access, Group, Precision, SingleMath, Step, init, single_math, step_lines_reading};
use crate::values::ops::Un;

const ELEMENTWISE_VECTOR: &str = include_str!("../../shaders/elementwise_vector.wgsl");

/// How the `width` consecutive elements of one vector read a broadcast input. They lie in one
/// column when the result's first dimension is a multiple of `width`, so an input constant
/// down the columns (a row vector: stride 0 along the first dimension) gives them all one
/// element, and one that runs down them (a column vector: stride 1) consecutive elements.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lanes {
    Splat,
    Run,
}

fn natural_width(p: Precision) -> u32 {
    match p {
        Precision::F32 => 4,
        Precision::F64 => 2,
    }
}

/// How a vector of `g` reads input access `a` when it is broadcast; None when it cannot be
/// read a vector at a time (transposed, or the result's columns split vectors).
pub fn lanes(g: &Group, a: &Access) -> Option<Lanes> {
    let Access::Strided(strides, _) = a else {
        return None;
    };
    let rows = *g.shape.dims().first()?;
    if rows % natural_width(g.precision) as usize != 0 {
        return None;
    }
    match strides.first() {
        Some(0) => Some(Lanes::Splat),
        Some(1) => Some(Lanes::Run),
        _ => None,
    }
}

/// Elements per thread for `g`: 1 where some input is transposed or broadcast other than
/// `lanes` allows, or a step reads the element's position (random numbers, subscripts).
pub fn width(g: &Group) -> u32 {
    let positional = g.steps.iter().any(|s| {
        matches!(
            s,
            Step::Rand(_) | Step::Iota(_) | Step::Embed(..) | Step::Gather(_)
        )
    });
    let strided = g.inputs.iter().any(|a| match a {
        Access::Strided(..) => lanes(g, a).is_none(),
        Access::Region(_) => true,
        _ => false,
    });
    if positional || strided || vectors_off() {
        return 1;
    }
    natural_width(g.precision)
}

/// `MATFUSE_VECTOR=0` turns vector kernels off (to compare against them).
fn vectors_off() -> bool {
    static OFF: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *OFF.get_or_init(|| std::env::var("MATFUSE_VECTOR").is_ok_and(|v| v == "0"))
}

/// `fn value_vector(j)`: elements `j * width ..` of the group's values, from one vector load
/// per input read element for element and one index per broadcast input; each element's
/// steps sit in a block of their own.
fn value_vector(g: &Group, width: u32) -> String {
    let mut f = format!("fn value_vector(j: u32) -> vec{width}<T> {{\n");
    if g.inputs.iter().any(|a| matches!(a, Access::Strided(..))) {
        // The vector's first element in the whole result (the table's last word is where
        // the bindings start).
        f.push_str(&format!(
            "    let gi = j * {width}u + shape_table[arrayLength(&shape_table) - 1u];\n"
        ));
    }
    for (k, a) in g.inputs.iter().enumerate() {
        match (a, lanes(g, a)) {
            (Access::Same, _) => f.push_str(&format!("    let a{k} = in{k}[j];\n")),
            (_, Some(Lanes::Splat)) => {
                f.push_str(&format!("    let a{k} = in{k}[bcast(gi, {k}u)];\n"))
            }
            (_, Some(Lanes::Run)) => f.push_str(&format!("    let a{k} = bcast(gi, {k}u);\n")),
            _ => {}
        }
    }
    f.push_str(&format!("    var r: vec{width}<T>;\n"));
    let last = g.steps.len().saturating_sub(1);
    for c in 0..width {
        let lines = step_lines_reading(g, 0, &|k, a| match (a, lanes(g, a)) {
            (Access::Same, _) => format!("a{k}[{c}]"),
            (_, Some(Lanes::Splat)) => format!("a{k}"),
            (_, Some(Lanes::Run)) => format!("in{k}[a{k} + {c}u]"),
            _ => format!("in{k}[0u]"),
        });
        f.push_str("    {\n");
        for line in lines.lines() {
            f.push_str(&format!("    {line}\n"));
        }
        f.push_str(&format!("        r[{c}] = v{last};\n    }}\n"));
    }
    f.push_str("    return r;\n}\n");
    f
}

/// The functions with a speculative form in math_f32_fast.wgsl and math_f64_fast.wgsl: no
/// branch, right for the usual arguments, and FAST_OK cleared for the others.
const FAST_FORMS: [(&str, &str); 3] = [
    ("m_sin(", "m_sin_fast("),
    ("m_cos(", "m_cos_fast("),
    ("m_exp(", "m_exp_fast("),
];

/// Singles' further speculative forms (math_f32_fast.wgsl, erf_f32.wgsl): the general
/// functions keep a call of the f64 one beside the f32 code for zero, subnormals, NaN and
/// erfc's underflow, and that call alone made Black-Scholes' reduction kernel (log and two
/// erfc) 1.5x slower on the H200 (124.7 against 84.7 us with the calls taken out).
const FAST_FORMS_F32: [(&str, &str); 3] = [
    ("m_log(", "m_log_fast("),
    ("m_erf(", "m_erf_fast("),
    ("m_erfc(", "m_erfc_fast("),
];

/// Whether a reduction thread of `g` folds its vectors speculatively: sines, cosines and
/// exponentials of doubles, and those and logarithms, erf and erfc of singles in f32
/// arithmetic. It folds them with the fast forms first, and again with the general
/// functions when any argument was out of their range (singles' sines and cosines |x| >=
/// 1024, exp |x| >= 87, log of anything but a positive normal, erf of zero or a subnormal,
/// erfc from 9.1 on; doubles' |x| >= 1e5 and near multiples of pi/2, exp |x| >= 708; Inf,
/// NaN), so no element pays for a branch or for the rare path's code beside it.
pub fn speculates(g: &Group) -> bool {
    let fast_single = g.precision == Precision::F32 && single_math() == SingleMath::Fast;
    speculates_elementwise(g)
        || (g.precision == Precision::F64 || fast_single)
            && g.steps
                .iter()
                .any(|s| matches!(s, Step::Unary(Un::Sin | Un::Cos | Un::Exp, _)))
}

/// `fn value_vector_fast(j)`: `value_vector` with the fast forms.
fn value_vector_fast(g: &Group, width: u32) -> String {
    let mut f = value_vector(g, width).replacen("fn value_vector(", "fn value_vector_fast(", 1);
    let singles: &[(&str, &str)] = if g.precision == Precision::F32 {
        &FAST_FORMS_F32
    } else {
        &[]
    };
    for (general, fast) in FAST_FORMS.iter().chain(singles) {
        f = f.replace(general, fast);
    }
    f
}

/// `text` with every line moved right by four spaces.
fn indented(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

/// Vectors one thread of a vector elementwise kernel computes (`MATFUSE_UNROLL`).
pub fn unroll() -> u32 {
    static U: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *U.get_or_init(|| unroll_setting("MATFUSE_UNROLL"))
}

/// Vectors one thread of a vector reduction loads per step (`MATFUSE_REDUCE_UNROLL`).
pub fn reduce_unroll() -> u32 {
    static U: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *U.get_or_init(|| unroll_setting("MATFUSE_REDUCE_UNROLL"))
}

/// An unroll factor from the environment variable `name`: 1 to 8, else 2 (measured best on
/// the H200; 4 and 8 were slower).
fn unroll_setting(name: &str) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|u| (1..=8).contains(u))
        .unwrap_or(2)
}

/// The workgroup's block, counted from the start or (`reversed`) from the end.
fn block(reversed: bool) -> &'static str {
    if reversed {
        "nwg.x * nwg.y - 1u - (wid.x + wid.y * nwg.x)"
    } else {
        "wid.x + wid.y * nwg.x"
    }
}

/// Whether a vector elementwise kernel of `g` computes its vectors speculatively: single
/// kernels with log, erf or erfc in f32 arithmetic, whose general forms keep a call of the
/// f64 function beside the f32 code. On the H200, Black-Scholes' elementwise kernel (log,
/// exp, two erfc) went from 109.5 to 87.8 us so, and one of `log(S) .* S + 1` from 48.0 to
/// 43.3. Kernels of sines, cosines and exponentials alone do not: on the H100 that made a
/// kernel of sines 1.5% faster and workload 2's kernel, with a cosine among exp, sqrt and
/// powers, 5% slower.
fn speculates_elementwise(g: &Group) -> bool {
    g.precision == Precision::F32
        && single_math() == SingleMath::Fast
        && g.steps
            .iter()
            .any(|s| matches!(s, Step::Unary(Un::Log | Un::Erf | Un::Erfc, _)))
}

/// The elementwise kernel of `g` at `width` elements per vector (after the prelude), its
/// blocks taken from the end first with `reversed` (`gpu::order`). Where it
/// `speculates_elementwise`, a thread computes its vectors with `value_vector_fast`, and
/// again with `value_vector` when any argument was out of the fast forms' range.
pub fn elementwise(g: &Group, width: u32, reversed: bool) -> String {
    let u = unroll();
    let speculate = speculates_elementwise(g);
    let load = |name: &str, binding: &str, indent: &str| -> String {
        (0..u)
            .map(|c| format!("{indent}{binding}r{c} = {name}(j + {}u);\n", 256 * c))
            .collect()
    };
    let loads = if speculate {
        format!(
            "        FAST_OK = true;\n{}        if (!FAST_OK) {{\n{}        }}\n",
            load("value_vector_fast", "var ", "        "),
            load("value_vector", "", "            ")
        )
    } else {
        load("value_vector", "let ", "        ")
    };
    let stores: String = (0..u)
        .map(|c| format!("        out[j + {}u] = r{c};\n", 256 * c))
        .collect();
    vector_functions(g, width, speculate)
        + "\n"
        + &ELEMENTWISE_VECTOR
            .replace("{{LOADS}}", &loads)
            .replace("{{STORES}}", &stores)
            .replace("{{UNROLL}}", &u.to_string())
            .replace("{{WIDTH}}", &width.to_string())
            .replace("{{GROUP}}", block(reversed))
            .replace("{{INIT}}", init(g))
}

/// The part of a reduction's thread loop that folds whole vectors of a contiguous lane that
/// starts on a vector boundary; the scalar loop after it takes the lane's remainder (and
/// every other lane). `fold_one` is the statement that folds one element. With `speculate`
/// (the variable the fold keeps its state in, for a group that `speculates`), the loops run
/// with `value_vector_fast` first, and again from the same start with `value_vector` when
/// any argument was out of the fast forms' range. Empty at width 1.
pub fn reduce_loop(
    width: u32,
    fold_one: &dyn Fn(&str) -> String,
    speculate: Option<&str>,
) -> String {
    if width == 1 {
        return String::new();
    }
    let u = reduce_unroll();
    let fold = |v: &str| -> String {
        (0..width)
            .map(|c| format!("                {}\n", fold_one(&format!("{v}[{c}]"))))
            .collect()
    };
    let folds: String = (0..u).map(|c| fold(&format!("v{c}"))).collect();
    let one = fold("v");
    let loops = |name: &str| -> String {
        let loads: String = (0..u)
            .map(|c| format!("                let v{c} = {name}(first + r + {c}u * stride);\n"))
            .collect();
        format!(
            "            loop {{
                if (r + {last}u * stride >= whole) {{
                    break;
                }}
{loads}{folds}                r = r + {u}u * stride;
            }}
            loop {{
                if (r >= whole) {{
                    break;
                }}
                let v = {name}(first + r);
{one}                r = r + stride;
            }}
",
            last = u - 1
        )
    };
    let body = match speculate {
        None => loops("value_vector"),
        Some(state) => format!(
            "            FAST_OK = true;
            let r_start = r;
            let {state}_start = {state};
{}            if (!FAST_OK) {{
                r = r_start;
                {state} = {state}_start;
{}            }}
",
            loops("value_vector_fast"),
            indented(&loops("value_vector"))
        ),
    };
    format!(
        "        if (l.inner == 1u && (l.shift + base) % {width}u == 0u) {{
            let first = (l.shift + base) / {width}u;
            let whole = l.len / {width}u;
            let stride = l.parts * 256u;
{body}            r = whole * {width}u + part * 256u + lid.x;
        }}
"
    )
}

/// The functions a vector reduction needs beside `value_at`: `value_vector`, and
/// `value_vector_fast` where it speculates.
pub fn reduce_functions(g: &Group, width: u32) -> String {
    if width == 1 {
        String::new()
    } else {
        vector_functions(g, width, speculates(g))
    }
}

/// `value_vector`, and `value_vector_fast` beside it where the kernel speculates.
fn vector_functions(g: &Group, width: u32, speculate: bool) -> String {
    if speculate {
        value_vector(g, width) + "\n" + &value_vector_fast(g, width)
    } else {
        value_vector(g, width)
    }
}
