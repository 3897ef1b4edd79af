//! Generic functions applied to datetime, duration and calendarDuration arrays (MATLAB's
//! methods of those classes): sorting and extremes, differences and sums, shape functions,
//! text conversions, isequal, and the functional forms of the operators. The numeric
//! builtins do the work on the arrays' milliseconds (or on element positions), so their
//! options behave as they do for numbers.

use crate::dates::{self, Kind, TimeArray, time_of};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::syntax::ast::{BinOp, UnOp};
use crate::values::containers::{CellArray, StrArray};
use crate::values::tensor::Tensor;
use crate::values::value::Value;

/// Functions that rearrange elements: run on positions, then pick the elements.
const POSITIONAL: [&str; 12] = [
    "reshape",
    "repmat",
    "fliplr",
    "flipud",
    "flip",
    "circshift",
    "transpose",
    "ctranspose",
    "permute",
    "squeeze",
    "rot90",
    "horzcat",
];

/// `name(args)` where some argument is a time array: Some(result) when the function has a
/// time-array form here, None to let the builtin run as usual.
pub fn call(
    interp: &mut Interp,
    f: &mut Frame,
    name: &str,
    args: &[Value],
    nargout: usize,
) -> Option<MResult<Vec<Value>>> {
    let first = args.iter().position(dates::is_time)?;
    let t = time_of(&args[first])?.clone();
    let r = match name {
        "sort" | "min" | "max" | "cummin" | "cummax" | "mean" | "median" | "mode" | "sum"
        | "cumsum" | "abs" | "unique" | "diff" | "issorted" | "round" | "floor" | "ceil"
        | "fix" => {
            if first != 0 {
                // min(5, d): the time array is the second operand
                if !matches!(name, "min" | "max") {
                    return None;
                }
            }
            numeric_method(interp, f, name, args, &t, nargout)
        }
        _ if POSITIONAL.contains(&name) && first == 0 && name != "horzcat" => {
            positional(interp, f, name, args, &t, nargout)
        }
        "horzcat" | "vertcat" | "cat" => {
            let (dim, parts) = match name {
                "horzcat" => (1, args),
                "vertcat" => (0, args),
                _ => {
                    let d = match args.first().map(|v| v.scalar_f64()) {
                        Some(Ok(d)) if d >= 1.0 && d.fract() == 0.0 && d <= 4096.0 => {
                            d as usize - 1
                        }
                        _ => {
                            return Some(Err(MError::new(
                                "MATLAB:catenate:invalidDimension",
                                "Dimension must be a positive integer.",
                            )));
                        }
                    };
                    (d, &args[1..])
                }
            };
            dates::array::concat(dim, parts).map(|v| vec![v])
        }
        "isequal" | "isequaln" => Ok(vec![Value::Bool(equal_all(args, name == "isequaln"))]),
        "isnan" | "isnat" => Ok(vec![Value::from(Tensor::bools(
            t.shape.clone(),
            t.ms.iter().map(|m| m.is_nan()).collect(),
        ))]),
        "isfinite" | "isinf" => Ok(vec![Value::from(Tensor::bools(
            t.shape.clone(),
            t.ms.iter()
                .map(|m| {
                    if name == "isinf" {
                        m.is_infinite()
                    } else {
                        m.is_finite()
                    }
                })
                .collect(),
        ))]),
        "char" | "string" | "cellstr" if first == 0 && args.len() == 1 => Ok(vec![texts(&t, name)]),
        "plus" | "minus" | "times" | "mtimes" | "rdivide" | "mrdivide" | "eq" | "ne" | "lt"
        | "le" | "gt" | "ge"
            if args.len() == 2 =>
        {
            let op = match name {
                "plus" => BinOp::Add,
                "minus" => BinOp::Sub,
                "times" => BinOp::ElemMul,
                "mtimes" => BinOp::Mul,
                "rdivide" => BinOp::ElemDiv,
                "mrdivide" => BinOp::Div,
                "eq" => BinOp::Eq,
                "ne" => BinOp::Ne,
                "lt" => BinOp::Lt,
                "le" => BinOp::Le,
                "gt" => BinOp::Gt,
                _ => BinOp::Ge,
            };
            crate::interp::eval::binary_op(op, &args[0], &args[1]).map(|v| vec![v])
        }
        "uminus" if args.len() == 1 => {
            crate::interp::eval::unary_op(UnOp::Neg, &args[0]).map(|v| vec![v])
        }
        "uplus" if args.len() == 1 => Ok(vec![args[0].clone()]),
        "colon" if args.len() >= 2 => {
            let (a, s, b) = if args.len() == 3 {
                (&args[0], Some(&args[1]), &args[2])
            } else {
                (&args[0], None, &args[1])
            };
            dates::array::colon(a, s, b).map(|v| vec![v])
        }
        "num2str" | "disp" | "display" => return None,
        _ => return None,
    };
    Some(r)
}

/// The milliseconds of a time array as a double array of its shape.
fn ms_value(t: &TimeArray) -> MResult<Value> {
    if t.kind == Kind::CalDuration {
        return Err(MError::new(
            "MATLAB:calendarDuration:NotOrdered",
            "Calendar durations have no order: months and days are not of fixed length.",
        ));
    }
    Ok(Value::from_tensor(Tensor::f64(
        t.shape.clone(),
        t.ms.clone(),
    )))
}

/// A double result of a numeric builtin on milliseconds as a time array like `t`.
fn rebuild(t: &TimeArray, v: &Value, kind: Kind, format: &str) -> MResult<Value> {
    let r = v.tensor()?;
    Ok(TimeArray {
        kind,
        shape: r.shape.clone(),
        ms: r.to_f64().into_owned(),
        months: vec![],
        days: vec![],
        format: format.to_string(),
        tz: if kind == Kind::DateTime {
            t.tz.clone()
        } else {
            String::new()
        },
    }
    .into_value())
    .map(|x| {
        let _ = t;
        x
    })
}

fn numeric_method(
    interp: &mut Interp,
    f: &mut Frame,
    name: &str,
    args: &[Value],
    t: &TimeArray,
    nargout: usize,
) -> MResult<Vec<Value>> {
    // every time operand becomes milliseconds; another operand must be of the same kind
    // (text for datetimes, numbers as days for durations)
    let mut margs = Vec::with_capacity(args.len());
    for (k, a) in args.iter().enumerate() {
        let as_time = match time_of(a) {
            Some(x) => Some(x.clone()),
            None if k <= 1 && matches!(name, "min" | "max") && !a.is_empty() && !a.is_text() => {
                match t.kind {
                    Kind::Duration if a.is_numeric_like() => {
                        let n = a.tensor()?;
                        Some(TimeArray::durations(
                            n.shape.clone(),
                            n.to_f64().iter().map(|d| d * 86_400_000.0).collect(),
                            &t.format,
                        ))
                    }
                    Kind::DateTime if matches!(a, Value::Cell(_) | Value::Str(_)) => {
                        Some(dates::array::datetimes_from_text(a, None)?)
                    }
                    _ => None,
                }
            }
            None if k == 1
                && matches!(name, "min" | "max")
                && a.is_text()
                && t.kind == Kind::DateTime =>
            {
                Some(dates::array::datetimes_from_text(a, None)?)
            }
            None => None,
        };
        match as_time {
            Some(x) => {
                if x.kind != t.kind {
                    return Err(MError::new(
                        "MATLAB:datetime:InvalidComparison",
                        format!(
                            "Unable to combine a {} array with a {} array.",
                            t.kind.class_name(),
                            x.kind.class_name()
                        ),
                    ));
                }
                margs.push(ms_value(&x)?);
            }
            None => margs.push(a.clone()),
        }
    }
    let dt = t.kind == Kind::DateTime;
    match name {
        "sum" | "cumsum" | "abs" | "round" | "floor" | "ceil" | "fix" if dt => {
            return Err(MError::new(
                "MATLAB:datetime:UndefinedFunction",
                format!("{name} is not defined for datetime arrays."),
            ));
        }
        _ => {}
    }
    if matches!(name, "round" | "floor" | "ceil" | "fix") {
        // durations round to whole units of their display: seconds here
        let mut out = t.clone();
        for m in out.ms.iter_mut() {
            let s = *m / 1000.0;
            *m = 1000.0
                * match name {
                    "round" => s.round(),
                    "floor" => s.floor(),
                    "ceil" => s.ceil(),
                    _ => s.trunc(),
                };
        }
        return Ok(vec![out.into_value()]);
    }
    let mut res = interp.call_named(f, name, margs, nargout.max(1))?;
    if res.is_empty() {
        return Ok(res);
    }
    let first = res.remove(0);
    let value = match name {
        "issorted" => first,
        "diff" => rebuild(
            t,
            &first,
            Kind::Duration,
            if dt {
                dates::DEFAULT_DURATION
            } else {
                &t.format
            },
        )?,
        _ => rebuild(t, &first, t.kind, &t.format)?,
    };
    let mut out = vec![value];
    out.extend(res);
    Ok(out)
}

fn positional(
    interp: &mut Interp,
    f: &mut Frame,
    name: &str,
    args: &[Value],
    t: &TimeArray,
    nargout: usize,
) -> MResult<Vec<Value>> {
    let n = t.numel();
    let mut pargs = args.to_vec();
    pargs[0] = Value::from_tensor(Tensor::f64(
        t.shape.clone(),
        (0..n).map(|k| k as f64).collect(),
    ));
    let res = interp.call_named(f, name, pargs, nargout.max(1))?;
    let Some(p) = res.first() else {
        return Ok(vec![]);
    };
    let p = p.tensor()?;
    let idx: Vec<usize> = p.to_f64().iter().map(|&x| x as usize).collect();
    Ok(vec![t.gather(&idx, p.shape.clone()).into_value()])
}

fn equal_all(args: &[Value], nan_equal: bool) -> bool {
    let Some(t0) = args.first().and_then(time_of) else {
        return false;
    };
    args[1..].iter().all(|v| {
        let other = match time_of(v) {
            Some(x) => x.clone(),
            None if t0.kind == Kind::DateTime
                && (v.is_text() || matches!(v, Value::Cell(_) | Value::Str(_))) =>
            {
                match dates::array::datetimes_from_text(v, None) {
                    Ok(x) => x,
                    Err(_) => return false,
                }
            }
            None => return false,
        };
        let same = |a: &[f64], b: &[f64]| {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| x == y || (nan_equal && x.is_nan() && y.is_nan()))
        };
        other.kind == t0.kind
            && other.shape == t0.shape
            && same(&other.ms, &t0.ms)
            && same(&other.months, &t0.months)
            && same(&other.days, &t0.days)
    })
}

fn texts(t: &TimeArray, name: &str) -> Value {
    let s = crate::dates::display::element_texts(t);
    match name {
        "string" => Value::from(StrArray::new(t.shape.clone(), s)),
        "cellstr" => Value::from(CellArray::new(
            t.shape.clone(),
            s.iter().map(|x| Value::str(x)).collect(),
        )),
        _ => {
            // char: one row per element, padded
            let w = s.iter().map(|x| x.chars().count()).max().unwrap_or(0);
            let rows = s.len();
            let mut data = vec![b' ' as u16; rows * w];
            for (i, x) in s.iter().enumerate() {
                for (j, c) in x.encode_utf16().enumerate().take(w) {
                    data[i + j * rows] = c;
                }
            }
            Value::from(Tensor::new(
                crate::values::shape::Shape::matrix(rows, w),
                crate::values::tensor::Data::Char(data),
            ))
        }
    }
}
