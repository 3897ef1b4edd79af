//! Argument validation: validateattributes, the mustBe* validators, and names (genvarname,
//! matlab.lang.makeValidName, namelengthmax).

use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::syntax::token::Kw;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("validateattributes", 3, 6, 0, "validateattributes(A, classes, attributes, func, name, k): error unless A has one of the classes and every attribute.", validateattributes),
        b("mustBePositive", 1, 1, 0, "mustBePositive(A): error unless every element is > 0.", must_be_positive),
        b("mustBeNonnegative", 1, 1, 0, "mustBeNonnegative(A): error unless every element is >= 0.", must_be_nonnegative),
        b("mustBeInteger", 1, 1, 0, "mustBeInteger(A): error unless every element is an integer.", must_be_integer),
        b("mustBeNumeric", 1, 1, 0, "mustBeNumeric(A): error unless A is numeric.", must_be_numeric),
        b("mustBeNumericOrLogical", 1, 1, 0, "mustBeNumericOrLogical(A): error unless A is numeric or logical.", must_be_numeric_or_logical),
        b("mustBeFinite", 1, 1, 0, "mustBeFinite(A): error unless every element is finite.", must_be_finite),
        b("mustBeNonempty", 1, 1, 0, "mustBeNonempty(A): error if A is empty.", must_be_nonempty),
        b("mustBeReal", 1, 1, 0, "mustBeReal(A): error unless A is real.", must_be_real),
        b("mustBeNonzero", 1, 1, 0, "mustBeNonzero(A): error if any element is zero.", must_be_nonzero),
        b("mustBeMember", 2, 2, 0, "mustBeMember(A, S): error unless every element of A is in S.", must_be_member),
        b("namelengthmax", 0, 0, 1, "namelengthmax: the longest variable name (63).", namelengthmax),
        b("genvarname", 1, 2, 1, "genvarname(str, exclusions): a valid variable name from str, not among exclusions.", genvarname),
        b("matlab.lang.makeValidName", 1, -1, 2, "matlab.lang.makeValidName(str): a valid variable name from text.", make_valid_name),
    ]
}

fn numbers(v: &Value) -> Option<Vec<f64>> {
    if !v.is_numeric_like() {
        return None;
    }
    v.tensor().ok().map(|t| t.to_f64().into_owned())
}

fn class_matches(v: &Value, class: &str) -> bool {
    let name = v.class_name();
    match class {
        "numeric" => v.is_numeric_like() && !v.is_char() && name != "logical",
        "float" => matches!(name.as_str(), "double" | "single"),
        "integer" => name.starts_with("int") || name.starts_with("uint"),
        c => c == name,
    }
}

fn validateattributes(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let v = &a[0];
    let (classes, _, _) = super::strings::texts(&a[1], "validateattributes")?;
    let Value::Cell(attrs) = &a[2] else {
        return Err(bad_arg(
            "validateattributes",
            "ATTRIBUTES must be a cell array.",
        ));
    };
    let func = match a.get(3) {
        Some(f) if !f.is_empty() => Some(text_arg(f, "validateattributes")?),
        _ => None,
    };
    let var = match a.get(4) {
        Some(n) if !n.is_empty() => text_arg(n, "validateattributes")?,
        _ => "input".to_string(),
    };
    let who = match a.get(5) {
        Some(k) => format!("input number {}, {var},", k.scalar_f64()?),
        None => var,
    };
    let fail = |id: &str, what: String| -> MError {
        let msg = format!("Expected {who} to be {what}.");
        // a function name prefixes the identifier and the message
        match &func {
            Some(f) => MError::new(format!("{f}:{id}"), format!("Error using {f}\n{msg}")),
            None => MError::new(format!("MATLAB:{id}"), msg),
        }
    };
    if !classes.is_empty() && !classes.iter().any(|c| class_matches(v, c)) {
        return Err(MError::new(
            "MATLAB:invalidType",
            format!(
                "Expected {who} to be one of these types:\n\n{}\n\nInstead its type was {}.",
                classes.join(", "),
                v.class_name()
            ),
        ));
    }
    let shape = v.shape();
    let nums = numbers(v);
    let all = |f: &dyn Fn(f64) -> bool| nums.as_ref().is_some_and(|x| x.iter().all(|&y| f(y)));
    let pairs = |f: &dyn Fn(f64, f64) -> bool| {
        nums.as_ref()
            .is_some_and(|x| x.windows(2).all(|w| f(w[0], w[1])))
    };
    let mut k = 0;
    while k < attrs.data.len() {
        let name = text_arg(&attrs.data[k], "validateattributes")?.to_ascii_lowercase();
        let arg = attrs.data.get(k + 1);
        let need_arg = || -> MResult<f64> {
            arg.ok_or_else(|| bad_arg("validateattributes", format!("'{name}' needs a value.")))?
                .scalar_f64()
        };
        let ok = match name.as_str() {
            "positive" => all(&|x| x > 0.0),
            "nonnegative" => all(&|x| x >= 0.0),
            "integer" => all(&|x| x.is_finite() && x.fract() == 0.0),
            "finite" => all(&|x| x.is_finite()),
            "nonnan" => all(&|x| !x.is_nan()),
            "nonzero" => all(&|x| x != 0.0),
            "even" => all(&|x| x.fract() == 0.0 && x % 2.0 == 0.0),
            "odd" => all(&|x| x.fract() == 0.0 && x.abs() % 2.0 == 1.0),
            "binary" => all(&|x| x == 0.0 || x == 1.0),
            "real" => !v.tensor().is_ok_and(|t| t.is_complex()),
            "increasing" => pairs(&|p, q| q > p),
            "decreasing" => pairs(&|p, q| q < p),
            "nondecreasing" => pairs(&|p, q| q >= p),
            "nonincreasing" => pairs(&|p, q| q <= p),
            "scalar" => shape.is_scalar(),
            "vector" => shape.ndims() == 2 && (shape.rows() == 1 || shape.cols() == 1),
            "row" => shape.ndims() == 2 && shape.rows() == 1,
            "column" => shape.ndims() == 2 && shape.cols() == 1,
            "2d" => shape.ndims() == 2,
            "square" => shape.ndims() == 2 && shape.rows() == shape.cols(),
            "nonempty" => !shape.is_empty(),
            "nonsparse" => true,
            ">" | ">=" | "<" | "<=" | "numel" | "ncols" | "nrows" | "ndims" => {
                let lim = need_arg()?;
                k += 1;
                match name.as_str() {
                    ">" => all(&|x| x > lim),
                    ">=" => all(&|x| x >= lim),
                    "<" => all(&|x| x < lim),
                    "<=" => all(&|x| x <= lim),
                    "numel" => shape.numel() as f64 == lim,
                    "ncols" => shape.cols() as f64 == lim,
                    "nrows" => shape.rows() as f64 == lim,
                    _ => shape.ndims() as f64 == lim,
                }
            }
            "size" => {
                let want = arg
                    .ok_or_else(|| bad_arg("validateattributes", "'size' needs a value."))?
                    .tensor()?
                    .to_f64()
                    .into_owned();
                k += 1;
                want.len() == shape.ndims()
                    && want
                        .iter()
                        .zip(shape.dims())
                        .all(|(w, d)| w.is_nan() || *w == *d as f64)
            }
            _ => {
                return Err(bad_arg(
                    "validateattributes",
                    format!("Unknown attribute '{name}'."),
                ));
            }
        };
        if !ok {
            let lim = || arg.and_then(|v| v.scalar_f64().ok()).unwrap_or(0.0);
            let (id, what) = match name.as_str() {
                "positive" => ("expectedPositive", "positive".to_string()),
                "nonnegative" => ("expectedNonnegative", "nonnegative".into()),
                "integer" => ("expectedInteger", "integer-valued".into()),
                "finite" => ("expectedFinite", "finite".into()),
                "nonnan" => ("expectedNonNaN", "non-NaN".into()),
                "nonzero" => ("expectedNonZero", "nonzero".into()),
                "even" => ("expectedEven", "even".into()),
                "odd" => ("expectedOdd", "odd".into()),
                "binary" => ("expectedBinary", "binary".into()),
                "real" => ("expectedReal", "real".into()),
                "increasing" => ("expectedIncreasing", "increasing".into()),
                "decreasing" => ("expectedDecreasing", "decreasing".into()),
                "nondecreasing" => ("expectedNondecreasing", "nondecreasing".into()),
                "nonincreasing" => ("expectedNonincreasing", "nonincreasing".into()),
                "scalar" => ("expectedScalar", "scalar".into()),
                "vector" => ("expectedVector", "a vector".into()),
                "row" => ("expectedRow", "a row vector".into()),
                "column" => ("expectedColumn", "a column vector".into()),
                "2d" => ("expected2D", "two-dimensional".into()),
                "square" => ("expectedSquare", "square".into()),
                "nonempty" => ("expectedNonempty", "nonempty".into()),
                ">" => (
                    "notGreater",
                    format!("an array with all of the values > {}", lim()),
                ),
                ">=" => (
                    "notGreaterEqual",
                    format!("an array with all of the values >= {}", lim()),
                ),
                "<" => (
                    "notLess",
                    format!("an array with all of the values < {}", lim()),
                ),
                "<=" => (
                    "notLessEqual",
                    format!("an array with all of the values <= {}", lim()),
                ),
                "numel" => (
                    "incorrectNumel",
                    format!("an array with {} elements", lim()),
                ),
                "ncols" => (
                    "incorrectNumcols",
                    format!("an array with {} columns", lim()),
                ),
                "nrows" => ("incorrectNumrows", format!("an array with {} rows", lim())),
                "ndims" => (
                    "incorrectNumdims",
                    format!("an array with {} dimensions", lim()),
                ),
                _ => ("incorrectSize", "of the expected size".into()),
            };
            return Err(fail(id, what));
        }
        k += 1;
    }
    Ok(vec![])
}

/// A mustBe* check: `ok` over the values, failing with MATLAB's validator message.
fn must(v: &Value, id: &str, msg: &str, ok: bool) -> R {
    let _ = v;
    if ok {
        Ok(vec![])
    } else {
        Err(MError::new(format!("MATLAB:validators:{id}"), msg))
    }
}

fn all_of(v: &Value, f: impl Fn(f64) -> bool) -> bool {
    numbers(v).is_some_and(|x| x.iter().all(|&y| f(y)))
}

fn must_be_positive(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    must(
        &a[0],
        "mustBePositive",
        "Value must be positive.",
        all_of(&a[0], |x| x > 0.0),
    )
}
fn must_be_nonnegative(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    must(
        &a[0],
        "mustBeNonnegative",
        "Value must be nonnegative.",
        all_of(&a[0], |x| x >= 0.0),
    )
}
fn must_be_integer(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let ok = all_of(&a[0], |x| x.is_finite() && x.fract() == 0.0);
    must(&a[0], "mustBeInteger", "Value must be integer.", ok)
}
fn must_be_numeric(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let ok = class_matches(&a[0], "numeric");
    must(&a[0], "mustBeNumeric", "Value must be numeric.", ok)
}
fn must_be_numeric_or_logical(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let ok = class_matches(&a[0], "numeric") || a[0].class_name() == "logical";
    must(
        &a[0],
        "mustBeNumericOrLogical",
        "Value must be numeric or logical.",
        ok,
    )
}
fn must_be_finite(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    must(
        &a[0],
        "mustBeFinite",
        "Value must be finite.",
        all_of(&a[0], f64::is_finite),
    )
}
fn must_be_nonempty(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    must(
        &a[0],
        "mustBeNonempty",
        "Value must not be empty.",
        !a[0].is_empty(),
    )
}
fn must_be_real(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let ok = !a[0].tensor().is_ok_and(|t| t.is_complex());
    must(&a[0], "mustBeReal", "Value must be real.", ok)
}
fn must_be_nonzero(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    must(
        &a[0],
        "mustBeNonzero",
        "Value must not be zero.",
        all_of(&a[0], |x| x != 0.0),
    )
}
fn must_be_member(i: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    let r = i.call_named(f, "ismember", vec![a[0].clone(), a[1].clone()], 1)?;
    let ok = r.first().is_some_and(|v| {
        v.tensor()
            .is_ok_and(|t: std::borrow::Cow<'_, Tensor>| (0..t.numel()).all(|k| t.nonzero(k)))
    });
    must(
        &a[0],
        "mustBeMember",
        "Value must be a member of the specified set.",
        ok,
    )
}

fn namelengthmax(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    one(Value::Num(63.0))
}

fn is_keyword(s: &str) -> bool {
    Kw::from_word(s).is_some()
}

/// A valid name from text: invalid characters become `_`, a name that does not start with a
/// letter gets an `x` in front, and keywords get `x` plus a capital.
fn valid_name(s: &str, camel_spaces: bool) -> String {
    let mut out = String::new();
    let mut upper_next = false;
    for c in s.trim().chars() {
        if c.is_whitespace() && camel_spaces {
            upper_next = !out.is_empty();
            continue;
        }
        let c = if c.is_ascii_alphanumeric() || c == '_' {
            c
        } else {
            '_'
        };
        if upper_next {
            out.extend(c.to_uppercase());
            upper_next = false;
        } else {
            out.push(c);
        }
    }
    if is_keyword(&out) {
        let mut cs = out.chars();
        let first: String = cs
            .next()
            .map(|c| c.to_uppercase().collect())
            .unwrap_or_default();
        out = format!("x{first}{}", cs.as_str());
    } else if !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out = format!("x{out}");
    }
    out.chars().take(63).collect()
}

fn map_names(v: &Value, f: &dyn Fn(&str) -> String) -> MResult<Value> {
    match v {
        Value::Cell(c) => {
            let mut data = Vec::with_capacity(c.data.len());
            for e in &c.data {
                data.push(Value::str(&f(&text_arg(e, "makeValidName")?)));
            }
            Ok(Value::from(crate::values::containers::CellArray::new(
                c.shape.clone(),
                data,
            )))
        }
        v => Ok(Value::str(&f(&text_arg(v, "makeValidName")?))),
    }
}

fn make_valid_name(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let out = map_names(&a[0], &|s| valid_name(s, true))?;
    let mut r = vec![out.clone()];
    if nargout > 1 {
        let changed = match (&a[0], &out) {
            (Value::Cell(x), Value::Cell(y)) => {
                let flags: Vec<bool> = x
                    .data
                    .iter()
                    .zip(&y.data)
                    .map(|(p, q)| p.text().ok() != q.text().ok())
                    .collect();
                Value::from(Tensor::bools(x.shape.clone(), flags))
            }
            (p, q) => Value::Bool(p.text().ok() != q.text().ok()),
        };
        r.push(changed);
    }
    Ok(r)
}

fn genvarname(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let exclude: Vec<String> = match a.get(1) {
        Some(v) => super::strings::texts(v, "genvarname")?.0,
        None => vec![],
    };
    let base = valid_name(&text_arg(&a[0], "genvarname")?, false);
    let base = if is_keyword(&base.to_lowercase()) {
        format!("x{base}")
    } else {
        base
    };
    // a name already taken gets the smallest free number appended
    let mut name = base.clone();
    let mut k = 1;
    while exclude.contains(&name) {
        name = format!("{base}{k}");
        k += 1;
    }
    one(Value::str(&name))
}
