//! The builtin function registry: one table of (name, arity, help, host implementation).
//! Later work adds device lowerings next to the host implementations.

mod calendar;
mod calls;
mod cells;
mod construct;
mod convolution;
mod data_files;
mod dates;
mod datetimes;
mod delimited;
mod delimited_write;
mod dispersion;
mod empties;
mod errors;
mod explain;
mod factor;
mod file_binary;
mod file_io;
mod file_ops;
mod files;
mod fourier;
mod gpu;
mod graphics;
pub mod input_parser;
mod integers;
mod io;
mod linalg;
pub(crate) mod locate;
mod math;
mod mathx;
mod matrices;
mod moving;
mod numerics;
mod numtext;
mod products;
mod quadrature;
mod query;
pub(crate) mod random;
pub mod rearrange;
mod reduce;
mod regex;
mod regex_replace;
mod reorder;
pub mod result_class;
mod scan;
mod session;
mod set_table;
mod sets;
mod signal;
mod sort_keys;
mod sorting;
mod stats;
mod strings;
mod structs;
mod text_compare;
mod text_convert;
mod text_edit;
mod text_files;
mod text_split;
pub mod time_methods;
mod time_parts;
mod time_spans;
mod types;
mod validate;
mod vectorfns;
mod whos;
mod workspace;

pub use structs::{invalid_field_name, is_valid_name as is_valid_field_name};
pub use workspace::var_names as workspace_names;

use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::collections::HashMap;
use std::sync::OnceLock;

pub type BuiltinFn = fn(&mut Interp, &mut Frame, Vec<Value>, usize) -> MResult<Vec<Value>>;

pub struct Builtin {
    pub name: &'static str,
    pub min_in: usize,
    /// None: any number of inputs.
    pub max_in: Option<usize>,
    pub max_out: usize,
    /// One paragraph for `help name`.
    pub help: &'static str,
    pub f: BuiltinFn,
}

/// Shorthand for table entries: `b("name", min, max, nout, "help", f)`.
pub const fn b(
    name: &'static str,
    min_in: usize,
    max_in: isize,
    max_out: usize,
    help: &'static str,
    f: BuiltinFn,
) -> Builtin {
    Builtin {
        name,
        min_in,
        max_in: if max_in < 0 {
            None
        } else {
            Some(max_in as usize)
        },
        max_out,
        help,
        f,
    }
}

fn registry() -> &'static HashMap<&'static str, Builtin> {
    static REG: OnceLock<HashMap<&'static str, Builtin>> = OnceLock::new();
    REG.get_or_init(|| {
        let mut m = HashMap::new();
        // A vector, so that adding a module's table touches one line.
        let tables: Vec<Vec<Builtin>> = vec![
            calls::table(),
            cells::table(),
            construct::table(),
            random::table(),
            dispersion::table(),
            errors::table(),
            factor::table(),
            integers::table(),
            io::table(),
            linalg::table(),
            locate::table(),
            math::table(),
            matrices::table(),
            mathx::table(),
            moving::table(),
            numerics::table(),
            numtext::table(),
            products::table(),
            quadrature::table(),
            query::table(),
            rearrange::table(),
            reduce::table(),
            regex::table(),
            reorder::table(),
            sets::table(),
            signal::table(),
            sorting::table(),
            stats::table(),
            strings::table(),
            structs::table(),
            text_compare::table(),
            text_convert::table(),
            text_edit::table(),
            text_split::table(),
            types::table(),
            validate::table(),
            vectorfns::table(),
            scan::table(),
            session::table(),
            workspace::table(),
            gpu::table(),
            whos::table(),
            files::table(),
            graphics::table(),
            empties::table(),
            input_parser::table(),
            regex_replace::table(),
            explain::table(),
            file_io::table(),
            file_binary::table(),
            file_ops::table(),
            text_files::table(),
            delimited::table(),
            delimited_write::table(),
            dates::table(),
            datetimes::table(),
            calendar::table(),
            time_parts::table(),
            time_spans::table(),
            data_files::table(),
            fourier::table(),
            convolution::table(),
        ];
        for t in tables {
            for b in t {
                m.insert(b.name, b);
            }
        }
        m
    })
}

pub fn lookup(name: &str) -> Option<&'static Builtin> {
    registry().get(name)
}

/// Every builtin name (for `help`, completion, `exist`).
pub fn names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = registry().keys().copied().collect();
    v.sort();
    v
}

// ---- argument helpers shared by the builtin modules ----

pub fn one(v: impl Into<Value>) -> MResult<Vec<Value>> {
    Ok(vec![v.into()])
}

pub fn bad_arg(name: &str, what: impl Into<String>) -> MError {
    MError::new(format!("MATLAB:{name}:invalidInput"), what.into())
}

/// A count argument (a length, a number of bins, a degree): a nonnegative integer scalar,
/// refused with MATLAB's size error when it could never be allocated.
pub fn count_arg(v: &Value, name: &str, what: &str) -> MResult<usize> {
    let n = v.scalar_f64()?;
    if !(n >= 0.0) || n.fract() != 0.0 || !n.is_finite() {
        return Err(bad_arg(
            name,
            format!("{what} must be a nonnegative integer scalar."),
        ));
    }
    let n = n.min(usize::MAX as f64) as usize;
    crate::values::limits::check_count(n, 8)?;
    Ok(n)
}

/// The largest dimension argument accepted.
const MAX_DIM_ARG: f64 = 4096.0;

/// A dimension argument (1-based in MATLAB), returned 0-based.
pub fn dim_arg(v: &Value) -> MResult<usize> {
    let d = v.scalar_f64()?;
    // dimensions past a few thousand would only build enormous size vectors
    if !(1.0..=MAX_DIM_ARG).contains(&d) || d.fract() != 0.0 {
        return Err(MError::new(
            "MATLAB:getdimarg:dimensionMustBePositiveInteger",
            "Dimension argument must be a positive integer scalar within indexing range.",
        ));
    }
    Ok(d as usize - 1)
}

pub fn text_arg(v: &Value, name: &str) -> MResult<String> {
    v.text().map_err(|_| {
        bad_arg(
            name,
            "Expected a character vector or string scalar argument.",
        )
    })
}

/// Parsed size arguments of constructors like `zeros(2,3,'int8')`, `ones([2 3])`,
/// `rand(n,'single')`, `zeros(2,'like',p)`.
pub struct SizeArgs {
    pub shape: Shape,
    pub class: Option<Class>,
    pub like: Option<Value>,
}

pub fn size_args(args: &[Value]) -> MResult<SizeArgs> {
    let mut dims: Vec<usize> = Vec::new();
    let mut class = None;
    let mut like = None;
    let mut i = 0;
    let mut explicit = false;
    let to_dim = |x: f64| -> MResult<usize> {
        if x.is_nan() {
            return Err(MError::new(
                "MATLAB:NonIntegerInput",
                "Size inputs must be integers (NaN given).",
            ));
        }
        if x.fract() != 0.0 {
            return Err(MError::new(
                "MATLAB:NonIntegerInput",
                "Size inputs must be integers.",
            ));
        }
        Ok(if x < 0.0 { 0 } else { x as usize })
    };
    while i < args.len() {
        let a = &args[i];
        if a.is_text() {
            let s = a.text()?;
            match s.as_str() {
                "like" => {
                    let p = args.get(i + 1).ok_or_else(|| {
                        MError::new(
                            "MATLAB:zeros:likeMissing",
                            "'like' must be followed by a prototype value.",
                        )
                    })?;
                    like = Some(p.clone());
                    class = p.num_class();
                    i += 2;
                    continue;
                }
                "gpuArray" | "distributed" | "codistributed" => {}
                other => {
                    class = Some(Class::from_name(other).ok_or_else(|| {
                        MError::new(
                            "MATLAB:zeros:invalidClass",
                            format!("Invalid data type '{other}'."),
                        )
                    })?);
                }
            }
            i += 1;
            continue;
        }
        let t = a.tensor()?;
        if explicit || t.numel() != 1 {
            if t.numel() == 1 {
                dims.push(to_dim(t.get_f64(0))?);
            } else {
                if !dims.is_empty() {
                    return Err(MError::new(
                        "MATLAB:sizeArgs",
                        "Size vector must be the only size argument.",
                    ));
                }
                for x in t.to_f64().iter() {
                    dims.push(to_dim(*x)?);
                }
            }
        } else {
            dims.push(to_dim(t.get_f64(0))?);
        }
        explicit = true;
        i += 1;
    }
    let full: Vec<usize> = match dims.len() {
        0 => vec![1, 1],
        1 => vec![dims[0], dims[0]],
        _ => dims,
    };
    crate::values::limits::check_dims(&full, class.map(|c| c.elem_bytes()).unwrap_or(8))?;
    let shape = Shape::new(&full);
    Ok(SizeArgs { shape, class, like })
}

/// Trailing option flags like 'omitnan', 'descend', 'stable' (returned lowercase), separated
/// from the leading positional arguments.
pub fn split_flags(args: Vec<Value>) -> (Vec<Value>, Vec<String>) {
    let mut pos = Vec::new();
    let mut flags = Vec::new();
    for a in args {
        if a.is_text() && !pos.is_empty() {
            flags.push(a.text().unwrap_or_default().to_lowercase());
        } else {
            pos.push(a);
        }
    }
    (pos, flags)
}
