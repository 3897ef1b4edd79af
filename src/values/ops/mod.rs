//! Array primitives: the small set of operations every builtin lowers to. The op enums here
//! are also the node kinds of the lazy graph, so host and device share one vocabulary.

pub mod colon;
pub mod concat;
pub mod elementwise;
mod extreme_fast;
mod extreme_values;
pub mod index;
mod int_arith;
pub mod int_kernels;
pub mod kernels;
pub mod linalg;
pub mod linear_reads;
pub mod more_real;
pub mod reduce;
pub mod reduce_fast;
pub mod scan_fast;
pub mod shape_ops;
pub mod slices;
pub mod unary;
pub mod whole_power;

/// Elementwise binary operations (all with implicit expansion).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bin {
    Add,
    Sub,
    Mul,
    Div,
    LDiv,
    Pow,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Xor,
    Max,
    Min,
    Atan2,
    Hypot,
    Mod,
    Rem,
    // Builtins the lazy graph takes by name (src/values/ops/more_real.rs has their host forms).
    Nthroot,
    Atan2d,
    Pow2,
    Beta,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinKind {
    Arith,
    Compare,
    Logic,
}

impl Bin {
    pub fn kind(self) -> BinKind {
        use Bin::*;
        match self {
            Eq | Ne | Lt | Le | Gt | Ge => BinKind::Compare,
            And | Or | Xor => BinKind::Logic,
            _ => BinKind::Arith,
        }
    }
    pub fn symbol(self) -> &'static str {
        use Bin::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => ".*",
            Div => "./",
            LDiv => ".\\",
            Pow => ".^",
            Eq => "==",
            Ne => "~=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            And => "&",
            Or => "|",
            Xor => "xor",
            Max => "max",
            Min => "min",
            Atan2 => "atan2",
            Hypot => "hypot",
            Mod => "mod",
            Rem => "rem",
            Nthroot => "nthroot",
            Atan2d => "atan2d",
            Pow2 => "pow2",
            Beta => "beta",
        }
    }
}

/// Elementwise unary operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Un {
    Neg,
    Not,
    Abs,
    Sign,
    Sqrt,
    Exp,
    Expm1,
    Log,
    Log1p,
    Log2,
    Log10,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Sec,
    Csc,
    Cot,
    Floor,
    Ceil,
    Round,
    Fix,
    Real,
    Imag,
    Conj,
    Angle,
    IsNan,
    IsInf,
    IsFinite,
    Gamma,
    GammaLn,
    Erf,
    Erfc,
    Cbrt,
    // Builtins the lazy graph takes by name (src/values/ops/more_real.rs has their host forms).
    Erfinv,
    Erfcinv,
    Sind,
    Cosd,
    Tand,
    Secd,
    Cscd,
    Cotd,
    Asind,
    Acosd,
    Atand,
    Asec,
    Acsc,
    Acot,
    Sech,
    Csch,
    Coth,
    Asech,
    Acsch,
    Acoth,
    Deg2rad,
    Rad2deg,
    Sinpi,
    Cospi,
    Nextpow2,
    Pow2,
    Signbit,
}

impl Un {
    pub fn name(self) -> &'static str {
        use Un::*;
        match self {
            Neg => "uminus",
            Not => "not",
            Abs => "abs",
            Sign => "sign",
            Sqrt => "sqrt",
            Exp => "exp",
            Expm1 => "expm1",
            Log => "log",
            Log1p => "log1p",
            Log2 => "log2",
            Log10 => "log10",
            Sin => "sin",
            Cos => "cos",
            Tan => "tan",
            Asin => "asin",
            Acos => "acos",
            Atan => "atan",
            Sinh => "sinh",
            Cosh => "cosh",
            Tanh => "tanh",
            Asinh => "asinh",
            Acosh => "acosh",
            Atanh => "atanh",
            Sec => "sec",
            Csc => "csc",
            Cot => "cot",
            Floor => "floor",
            Ceil => "ceil",
            Round => "round",
            Fix => "fix",
            Real => "real",
            Imag => "imag",
            Conj => "conj",
            Angle => "angle",
            IsNan => "isnan",
            IsInf => "isinf",
            IsFinite => "isfinite",
            Gamma => "gamma",
            GammaLn => "gammaln",
            Erf => "erf",
            Erfc => "erfc",
            Cbrt => "nthroot",
            Erfinv => "erfinv",
            Erfcinv => "erfcinv",
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
            Signbit => "signbit",
        }
    }
    /// Operations that keep an integer operand's class (the rest refuse integers).
    pub fn integer_ok(self) -> bool {
        use Un::*;
        matches!(
            self,
            Neg | Not
                | Abs
                | Sign
                | Floor
                | Ceil
                | Round
                | Fix
                | Real
                | Imag
                | Conj
                | IsNan
                | IsInf
                | IsFinite
        )
    }
    /// Operations whose result is logical.
    pub fn is_predicate(self) -> bool {
        matches!(self, Un::Not | Un::IsNan | Un::IsInf | Un::IsFinite)
    }
}

/// Reductions along a dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Red {
    Sum,
    Prod,
    Mean,
    Max,
    Min,
    Any,
    All,
}
