//! The device forms of elementwise builtins beyond the core library (erf, gamma, asin, the
//! degree forms, nthroot...): each is an f64 function in a block of
//! shaders/functions_f64.wgsl, and a kernel carries only the blocks its steps call (with the
//! blocks those call), so a kernel's shader stays small where lavapipe compiles f64 slowly.
//! Single kernels (on devices with f64) get the same blocks with their names made `d_`, as
//! the core library's singles do, and a wrapper per function that widens, calls and rounds
//! once: the host's single result.
//!
//! In a kernel's text the blocks stand as one line, `// functions f64: erf asin`, until
//! `expand` puts them in; the line is part of the pipeline-cache key.

use crate::graph::Precision;
use crate::plan::{Group, Step};
use crate::values::ops::{Bin, Un};
use std::collections::BTreeSet;

const SOURCE: &str = include_str!("../../shaders/functions_f64.wgsl");
const ERF_F32: &str = include_str!("../../shaders/erf_f32.wgsl");

/// The f32 forms of a block's functions that single kernels use instead of its widening
/// wrappers under fast single math (they call that library's keep32 and exp_split, and the
/// block's f64 functions for the arguments they leave).
fn f32_forms(block: &str) -> Option<&'static str> {
    match block {
        "erf" => Some(ERF_F32),
        _ => None,
    }
}

/// One block of the source: its name, the blocks it calls, its text.
struct Block {
    name: &'static str,
    needs: Vec<&'static str>,
    text: &'static str,
}

fn blocks() -> &'static [Block] {
    static BLOCKS: std::sync::OnceLock<Vec<Block>> = std::sync::OnceLock::new();
    BLOCKS.get_or_init(|| {
        let mut out = Vec::new();
        let mut rest = SOURCE;
        while let Some(at) = rest.find("// block: ") {
            let after = &rest[at + "// block: ".len()..];
            let line_end = after.find('\n').unwrap_or(after.len());
            let header = &after[..line_end];
            let body = &after[line_end..];
            let end = body.find("// block: ").unwrap_or(body.len());
            let (name, needs) = match header.split_once(" needs: ") {
                Some((n, d)) => (n.trim(), d.split_whitespace().collect()),
                None => (header.trim(), Vec::new()),
            };
            out.push(Block {
                name,
                needs,
                text: &body[..end],
            });
            rest = &body[end..];
        }
        out
    })
}

/// The unary ops this module serves (besides real, conj, imag and angle, inline).
pub const UNARY: [Un; 37] = {
    use Un::*;
    [
        Erf, Erfc, Erfinv, Erfcinv, Gamma, GammaLn, Asin, Acos, Asinh, Acosh, Atanh, Cbrt, Sind,
        Cosd, Tand, Secd, Cscd, Cotd, Asind, Acosd, Atand, Asec, Acsc, Acot, Sech, Csch, Coth,
        Asech, Acsch, Acoth, Deg2rad, Rad2deg, Sinpi, Cospi, Nextpow2, Pow2, Signbit,
    ]
};

/// The WGSL function (without its `m_`) a unary op calls, for the ops this module serves.
fn unary_name(op: Un) -> Option<&'static str> {
    use Un::*;
    Some(match op {
        Erf => "erf",
        Erfc => "erfc",
        Erfinv => "erfinv",
        Erfcinv => "erfcinv",
        Gamma => "gamma",
        GammaLn => "gammaln",
        Asin => "asin",
        Acos => "acos",
        Asinh => "asinh",
        Acosh => "acosh",
        Atanh => "atanh",
        Cbrt => "cbrt",
        Sind => "sind",
        Cosd => "cosd",
        Tand => "tand",
        Secd => "secd",
        Cscd => "cscd",
        Cotd => "cotd",
        Asind => "asind",
        Acosd => "acosd",
        Atand => "atand",
        Asec => "asec",
        Acsc => "acsc",
        Acot => "acot",
        Sech => "sech",
        Csch => "csch",
        Coth => "coth",
        Asech => "asech",
        Acsch => "acsch",
        Acoth => "acoth",
        Deg2rad => "deg2rad",
        Rad2deg => "rad2deg",
        Sinpi => "sinpi",
        Cospi => "cospi",
        Nextpow2 => "nextpow2",
        Pow2 => "pow2",
        Signbit => "signbit1",
        _ => return None,
    })
}

fn binary_name(op: Bin) -> Option<&'static str> {
    Some(match op {
        Bin::Nthroot => "nthroot",
        Bin::Atan2d => "atan2d",
        Bin::Pow2 => "pow2f",
        Bin::Beta => "beta",
        _ => return None,
    })
}

/// Whether `op` has a device form here (the graph's other unary ops are in graph::ops).
pub fn has_unary(op: Un) -> bool {
    unary_name(op).is_some() || matches!(op, Un::Real | Un::Conj | Un::Imag | Un::Angle)
}

pub fn has_binary(op: Bin) -> bool {
    binary_name(op).is_some()
}

/// Whether the device forms can run where kernels run now: everywhere but single kernels on
/// a device without f64 (they are written in f64), where the host computes them.
pub fn available_for(class_is_single: bool) -> bool {
    !class_is_single
        || crate::gpu::device::current().is_none()
        || super::single_math() != super::SingleMath::Driver
}

/// WGSL for a unary op of this module applied to `x`.
pub fn unary(op: Un, x: &str) -> Option<String> {
    match op {
        Un::Real | Un::Conj => return Some(format!("({x})")),
        Un::Imag => return Some("T(0)".to_string()),
        Un::Angle => {
            return Some(format!("select(T(0), T(3.141592653589793), {x} < T(0))"));
        }
        _ => {}
    }
    unary_name(op).map(|f| format!("m_{f}({x})"))
}

pub fn binary(op: Bin, x: &str, y: &str) -> Option<String> {
    binary_name(op).map(|f| format!("m_{f}({x}, {y})"))
}

/// The block that defines `m_{name}`.
fn block_of(name: &str) -> Option<&'static Block> {
    let def = format!("fn m_{name}(");
    blocks().iter().find(|b| b.text.contains(&def))
}

/// The blocks a group's steps call, with what those call, in source order.
fn needed(g: &Group) -> Vec<&'static Block> {
    let mut names: BTreeSet<&'static str> = BTreeSet::new();
    let mut todo: Vec<&'static str> = Vec::new();
    for step in &g.steps {
        let f = match step {
            Step::Unary(op, _) => unary_name(*op),
            Step::Binary(op, _, _) => binary_name(*op),
            _ => None,
        };
        if let Some(b) = f.and_then(block_of) {
            todo.push(b.name);
        }
    }
    while let Some(n) = todo.pop() {
        if names.insert(n) {
            if let Some(b) = blocks().iter().find(|b| b.name == n) {
                todo.extend(b.needs.iter().copied());
            }
        }
    }
    blocks().iter().filter(|b| names.contains(b.name)).collect()
}

/// The line that stands for a group's blocks in its kernel text (empty without any).
pub fn line(g: &Group) -> String {
    let needed = needed(g);
    if needed.is_empty() {
        return String::new();
    }
    let names: Vec<&str> = needed.iter().map(|b| b.name).collect();
    let p = match g.precision {
        Precision::F32 => "f32",
        Precision::F64 => "f64",
    };
    format!("\n// functions {p}: {}", names.join(" "))
}

/// A kernel's text with its functions line replaced by the blocks it names; with the blocks'
/// f32 forms where `f32_forms` (a single kernel with the fast f32 library).
pub fn expand(kernel: String, f32_forms: bool) -> String {
    let Some(at) = kernel.find("// functions f") else {
        return kernel;
    };
    let end = kernel[at..].find('\n').map_or(kernel.len(), |e| at + e);
    let line = &kernel[at..end];
    let single = line.starts_with("// functions f32");
    let names = line.split_once(": ").map_or("", |(_, n)| n);
    let mut text = String::new();
    for name in names.split_whitespace() {
        let Some(b) = blocks().iter().find(|b| b.name == name) else {
            continue;
        };
        if single {
            text.push_str(&b.text.replace("m_", "d_"));
            let forms = if f32_forms {
                self::f32_forms(b.name).unwrap_or("")
            } else {
                ""
            };
            text.push_str(&single_wrappers(b.text, forms));
            text.push_str(forms);
        } else {
            text.push_str(b.text);
        }
    }
    format!("{}{}{}", &kernel[..at], text, &kernel[end..])
}

/// For each `fn m_NAME(a: f64, ...) -> f64` of a block that `forms` does not define in f32,
/// the single form: arguments widened, the f64 function called, the result rounded once.
/// atan2d rounds twice, as the host does (its single atan2 is rounded before the degrees
/// are taken).
fn single_wrappers(block: &str, forms: &str) -> String {
    let mut out = String::new();
    for line in block.lines() {
        let Some(rest) = line.strip_prefix("fn m_") else {
            continue;
        };
        let Some((name, args)) = rest.split_once('(') else {
            continue;
        };
        if forms.contains(&format!("fn m_{name}(")) {
            continue;
        }
        let arity = args
            .split(')')
            .next()
            .map_or(0, |a| a.matches(": f64").count());
        let body = if name == "atan2d" {
            "f32(wide(f32(d_atan2(wide(a0), wide(a1)))) * 57.29577951308232)".to_string()
        } else {
            let wide: Vec<String> = (0..arity).map(|k| format!("wide(a{k})")).collect();
            format!("f32(d_{name}({}))", wide.join(", "))
        };
        let params: Vec<String> = (0..arity).map(|k| format!("a{k}: f32")).collect();
        out.push_str(&format!(
            "\nfn m_{name}({}) -> f32 {{\n    return {body};\n}}\n",
            params.join(", ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_has_a_block_and_its_needs_exist() {
        let names = blocks().iter().map(|b| b.name).collect::<Vec<_>>();
        for b in blocks() {
            for n in &b.needs {
                assert!(names.contains(n), "{} needs unknown block {n}", b.name);
            }
        }
        for op in &UNARY {
            if let Some(f) = unary_name(*op) {
                assert!(block_of(f).is_some(), "no WGSL for {op:?}");
            }
        }
        for f in ["nthroot", "atan2d", "pow2f", "beta"] {
            assert!(block_of(f).is_some(), "no WGSL for {f}");
        }
        // Names the single forms rename must not clash: no identifier may contain `m_`
        // except the functions' own prefix.
        let block = "fn m_atan2d(y: f64, x: f64) -> f64 {\nfn m_erf(x: f64) -> f64 {";
        let w = single_wrappers(block, "");
        assert!(w.contains("fn m_erf(a0: f32) -> f32"), "{w}");
        assert!(w.contains("fn m_atan2d(a0: f32, a1: f32) -> f32"), "{w}");
        // A function with an f32 form gets no wrapper (two would not compile).
        let w = single_wrappers(block, ERF_F32);
        assert!(!w.contains("fn m_erf("), "{w}");
        assert!(w.contains("fn m_atan2d(a0: f32, a1: f32) -> f32"), "{w}");
    }
}
