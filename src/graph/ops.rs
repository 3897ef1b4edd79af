//! The elementwise operations the graph takes, their result classes, their host meaning
//! (the host evaluator's own scalar functions, so both sides agree) and their WGSL text.
//!
//! Only operations that map real inputs to real outputs are lazy: `sqrt(-1)` or `log(-1)`
//! are complex in MATLAB, so `sqrt` and the `log` family are lazy only of values without
//! negatives (`graph::sign`, or one check on the device); the others run on the host, where
//! complex results exist. `x.^y` is lazy for an integer constant `y`, or for a base without
//! negatives.

use crate::values::class::Class;
use crate::values::ops::{Bin, Un};

pub type GUn = Un;
pub type GBin = Bin;

/// Unary operations the graph accepts.
pub fn lazy_unary(op: Un) -> bool {
    use Un::*;
    matches!(
        op,
        Neg | Abs
            | Sign
            | Exp
            | Expm1
            | Sqrt
            | Log
            | Log1p
            | Log2
            | Log10
            | Sec
            | Csc
            | Cot
            | Sin
            | Cos
            | Tan
            | Atan
            | Sinh
            | Cosh
            | Tanh
            | Floor
            | Ceil
            | Round
            | Fix
            | IsNan
            | IsInf
            | IsFinite
            | Not
    ) || crate::codegen::has_unary(op)
}

/// Binary operations the graph accepts (`Pow` only with an integer constant exponent or a
/// base without negatives, which the caller checks).
pub fn lazy_binary(op: Bin) -> bool {
    use Bin::*;
    matches!(
        op,
        Add | Sub
            | Mul
            | Div
            | LDiv
            | Pow
            | Eq
            | Ne
            | Lt
            | Le
            | Gt
            | Ge
            | And
            | Or
            | Xor
            | Mod
            | Rem
            | Max
            | Min
            | Atan2
            | Hypot
    ) || crate::codegen::has_binary(op)
}

/// MATLAB's class of a unary result.
pub fn unary_class(op: Un, input: Class) -> Class {
    use Un::*;
    match op {
        IsNan | IsInf | IsFinite | Not => Class::Logical,
        _ if input == Class::Single => Class::Single,
        _ => Class::Double,
    }
}

/// MATLAB's class of a binary result.
pub fn binary_class(op: Bin, a: Class, b: Class) -> Class {
    use Bin::*;
    match op {
        Eq | Ne | Lt | Le | Gt | Ge | And | Or | Xor => Class::Logical,
        _ if a == Class::Single || b == Class::Single => Class::Single,
        _ => Class::Double,
    }
}

/// Host value of a unary op (the same function the host evaluator uses).
pub fn eval_unary(op: Un, x: f64) -> f64 {
    crate::values::ops::unary::real_un(op, x)
}

/// Host value of a binary op.
pub fn eval_binary(op: Bin, x: f64, y: f64) -> f64 {
    crate::values::ops::elementwise::f64_op(op, x, y)
}

/// WGSL for a unary op applied to the expression `x` (of type `T`).
pub fn wgsl_unary(op: Un, x: &str) -> String {
    use Un::*;
    match op {
        Neg => format!("(-{x})"),
        Abs => format!("abs({x})"),
        Sign => format!("m_sign({x})"),
        Exp => format!("m_exp({x})"),
        Expm1 => format!("m_expm1({x})"),
        Sqrt => format!("m_sqrt({x})"),
        Log => format!("m_log({x})"),
        Log1p => format!("m_log1p({x})"),
        Log2 => format!("m_log2({x})"),
        Log10 => format!("m_log10({x})"),
        Sec => format!("(T(1) / m_cos({x}))"),
        Csc => format!("(T(1) / m_sin({x}))"),
        Cot => format!("(T(1) / m_tan({x}))"),
        Sin => format!("m_sin({x})"),
        Cos => format!("m_cos({x})"),
        Tan => format!("m_tan({x})"),
        Atan => format!("m_atan({x})"),
        Sinh => format!("m_sinh({x})"),
        Cosh => format!("m_cosh({x})"),
        Tanh => format!("m_tanh({x})"),
        Floor => format!("floor({x})"),
        Ceil => format!("ceil({x})"),
        Round => format!("m_round({x})"),
        Fix => format!("m_fix({x})"),
        IsNan => format!("m_bool(m_isnan({x}))"),
        IsInf => format!("m_bool(m_isinf({x}))"),
        IsFinite => format!("m_bool(!m_isnan({x}) && !m_isinf({x}))"),
        Not => format!("m_bool({x} == T(0))"),
        other => crate::codegen::functions::unary(other, x)
            .unwrap_or_else(|| format!("/* unsupported {other:?} */ {x}")),
    }
}

/// WGSL for a binary op on expressions `x` and `y`.
pub fn wgsl_binary(op: Bin, x: &str, y: &str) -> String {
    use Bin::*;
    match op {
        Add => format!("({x} + {y})"),
        Sub => format!("({x} - {y})"),
        Mul => format!("({x} * {y})"),
        Div => format!("({x} / {y})"),
        LDiv => format!("({y} / {x})"),
        Pow => format!("m_power({x}, {y})"),
        Eq => format!("m_bool({x} == {y})"),
        // `!=` compiles to an ordered comparison (false for NaN); MATLAB says NaN ~= x.
        Ne => format!("m_bool(!({x} == {y}))"),
        Lt => format!("m_bool({x} < {y})"),
        Le => format!("m_bool({x} <= {y})"),
        Gt => format!("m_bool({x} > {y})"),
        Ge => format!("m_bool({x} >= {y})"),
        And => format!("m_bool({x} != T(0) && {y} != T(0))"),
        Or => format!("m_bool({x} != T(0) || {y} != T(0))"),
        Xor => format!("m_bool(({x} != T(0)) != ({y} != T(0)))"),
        Mod => format!("m_mod({x}, {y})"),
        Rem => format!("m_rem({x}, {y})"),
        Max => format!("m_max({x}, {y})"),
        Min => format!("m_min({x}, {y})"),
        Atan2 => format!("m_atan2({x}, {y})"),
        Hypot => format!("m_hypot({x}, {y})"),
        Nthroot | Atan2d | Pow2 | Beta => crate::codegen::functions::binary(op, x, y)
            .unwrap_or_else(|| format!("/* unsupported {op:?} */ {x}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_classes() {
        assert_eq!(
            binary_class(Bin::Add, Class::Double, Class::Single),
            Class::Single
        );
        assert_eq!(
            binary_class(Bin::Lt, Class::Single, Class::Double),
            Class::Logical
        );
        assert_eq!(unary_class(Un::IsNan, Class::Single), Class::Logical);
        assert_eq!(unary_class(Un::Abs, Class::Logical), Class::Double);
    }
}
