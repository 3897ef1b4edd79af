//! The class of a builtin's results: functions computed in double hand back results of their
//! inputs' class, as MATLAB's class rules say (single in, single out; integer grids, primes
//! and counts keep their integer class).

use crate::values::class::Class;
use crate::values::value::Value;

/// Builtins computed in double whose floating results are single when any input is single.
fn follows_single(name: &str) -> bool {
    matches!(
        name,
        "norm"
            | "kron"
            | "svd"
            | "eig"
            | "pinv"
            | "cross"
            | "expm"
            | "cond"
            | "null"
            | "orth"
            | "vecnorm"
            | "trapz"
            | "cumtrapz"
            | "interp1"
            | "polyval"
            | "polyfit"
            | "roots"
            | "conv"
            | "filter"
            | "hypot"
            | "std"
            | "var"
            | "median"
            | "linsolve"
            | "qr"
    )
}

/// Builtins whose double results take the class of the first integer or single argument.
fn follows_first(name: &str) -> bool {
    matches!(
        name,
        "primes"
            | "factor"
            | "nchoosek"
            | "factorial"
            | "gcd"
            | "lcm"
            | "nthroot"
            | "trace"
            | "accumarray"
            | "cross"
            | "kron"
    )
}

/// The classes a call's double results are converted to, decided from its arguments before
/// the call (which consumes them).
pub enum ResultClass {
    /// results stay as computed
    Keep,
    /// every result takes this class
    All(Class),
    /// result k takes the class of argument k (the first argument's when there are fewer):
    /// the grids, meshgrid and ndgrid
    PerArgument(Vec<Option<Class>>),
}

impl ResultClass {
    pub fn for_call(name: &str, args: &[Value]) -> ResultClass {
        let classes = || args.iter().filter_map(|v| v.num_class());
        if matches!(name, "meshgrid" | "ndgrid") {
            return ResultClass::PerArgument(args.iter().map(|v| v.num_class()).collect());
        }
        if follows_single(name) && classes().any(|c| c == Class::Single) {
            return ResultClass::All(Class::Single);
        }
        if follows_first(name) {
            if let Some(c) = classes().find(|c| c.is_int() || *c == Class::Single) {
                return ResultClass::All(c);
            }
        }
        ResultClass::Keep
    }

    pub fn apply(&self, results: Vec<Value>) -> Vec<Value> {
        match self {
            ResultClass::Keep => results,
            ResultClass::All(c) => results.into_iter().map(|v| to_class(v, Some(*c))).collect(),
            ResultClass::PerArgument(cls) => results
                .into_iter()
                .enumerate()
                .map(|(k, v)| {
                    let c = cls.get(k).or(cls.first()).copied().flatten();
                    to_class(v, c)
                })
                .collect(),
        }
    }
}

/// A double result converted to an integer or single `class`; other results pass through
/// (complex values only become single).
fn to_class(v: Value, class: Option<Class>) -> Value {
    match (v.num_class(), class) {
        (Some(Class::Double), Some(c)) if c.is_int() || c == Class::Single => match v.tensor() {
            Ok(t) if !t.is_complex() || c == Class::Single => Value::from(t.into_owned().cast(c)),
            _ => v,
        },
        _ => v,
    }
}
