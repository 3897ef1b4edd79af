//! Time arrays as arrays: indexing, indexed assignment (growing with NaT or zero), deletion,
//! concatenation, transposition, colon ranges, and properties (`Format`, `Year`, ...).

use super::{Kind, TimeArray, is_time, time_of};
use crate::interp::error::{MError, MResult};
use crate::values::access;
use crate::values::ops::index;
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

/// Text (char row or matrix, cellstr, string array) as datetimes: with a CLDR input format,
/// or the common formats.
pub fn datetimes_from_text(v: &Value, infmt: Option<&str>) -> MResult<TimeArray> {
    let (shape, texts) = texts_of(v)?;
    let mut ms = Vec::with_capacity(texts.len());
    let mut any_time = false;
    for s in &texts {
        if s.is_empty() || s.eq_ignore_ascii_case("NaT") {
            ms.push(f64::NAN);
            continue;
        }
        let p = match infmt {
            Some(f) => super::parse::parse_cldr(s, f),
            None => super::parse::parse_datetime_auto(s),
        };
        let Some(p) = p else {
            return Err(MError::new(
                "MATLAB:datetime:ParseErr",
                match infmt {
                    Some(f) => {
                        format!("Unable to convert '{s}' to datetime using the format '{f}'.")
                    }
                    None => format!(
                        "Could not recognize the date/time format of '{s}'. You can specify a format using the 'InputFormat' parameter."
                    ),
                },
            ));
        };
        any_time |= p.has_time;
        let [y, mo, d, h, mi, sec] = p.vec;
        ms.push(super::components_to_ms(y, mo, d, h, mi, sec));
    }
    let fmt = if any_time {
        super::DEFAULT_DATETIME
    } else {
        super::DEFAULT_DATE
    };
    Ok(TimeArray::datetimes(shape, ms, fmt))
}

/// The texts of a char array (one per row), cellstr or string array, with their shape.
pub fn texts_of(v: &Value) -> MResult<(Shape, Vec<String>)> {
    match v {
        Value::Str(s) => Ok((s.shape.clone(), s.data.clone())),
        Value::Cell(c) => {
            let t = c
                .data
                .iter()
                .map(|x| x.text())
                .collect::<MResult<Vec<String>>>()
                .map_err(|_| {
                    MError::new(
                        "MATLAB:datetime:InvalidText",
                        "Text must be a character vector, a cell array of character vectors, or a string array.",
                    )
                })?;
            Ok((c.shape.clone(), t))
        }
        v if v.is_char() => {
            let t = v.tensor()?;
            let (r, c) = (t.shape.rows(), t.shape.cols());
            let chars: Vec<char> = t.to_text().chars().collect();
            if r <= 1 {
                return Ok((Shape::scalar(), vec![chars.iter().collect()]));
            }
            let rows = (0..r)
                .map(|i| (0..c).filter_map(|j| chars.get(i + j * r)).collect())
                .collect();
            Ok((Shape::col(r), rows))
        }
        other => Err(MError::new(
            "MATLAB:datetime:InvalidText",
            format!(
                "Expected text, but got a value of class {}.",
                other.class_name()
            ),
        )),
    }
}

/// `t(args)`
pub fn index(t: &TimeArray, args: &[Value]) -> MResult<Value> {
    let subs = index::to_subs(args)?;
    let (pos, shape) = index::plan_read(&t.shape, &subs)?;
    Ok(t.gather(&pos, shape).into_value())
}

/// Whether an assignment goes to the time-array code: the target is a time array, or an
/// undefined or `[]` target gets time values by index.
pub fn takes_assignment(cur: Option<&Value>, rhs: &Value, paren: bool) -> bool {
    match cur {
        Some(v) if is_time(v) => true,
        None => paren && is_time(rhs),
        Some(v) => paren && is_time(rhs) && v.is_numeric_like() && v.is_empty(),
    }
}

/// A right-hand side as a time array like `like` (text for datetimes).
fn coerce(like: &TimeArray, rhs: &Value) -> MResult<TimeArray> {
    if let Some(r) = time_of(rhs) {
        if r.kind == like.kind {
            return Ok(r.clone());
        }
        if like.kind == Kind::CalDuration && r.kind == Kind::Duration {
            let n = r.numel();
            return Ok(TimeArray::caldurations(
                r.shape.clone(),
                vec![0.0; n],
                vec![0.0; n],
                r.ms.clone(),
            ));
        }
    } else if like.kind == Kind::DateTime
        && (rhs.is_text() || matches!(rhs, Value::Cell(_) | Value::Str(_)))
    {
        return datetimes_from_text(rhs, None);
    }
    Err(MError::new(
        "MATLAB:datetime:InvalidAssignment",
        format!(
            "Unable to assign a value of class {} into a {} array.",
            rhs.class_name(),
            like.kind.class_name()
        ),
    ))
}

/// `t(args) = rhs` (and `t(args) = []`).
pub fn assign_paren(
    cur: Option<&Value>,
    args: &[Value],
    rhs: &Value,
    delete: bool,
) -> MResult<Value> {
    let base = match cur.and_then(time_of) {
        Some(t) => t.clone(),
        None => {
            let r = time_of(rhs).ok_or_else(|| {
                MError::new(
                    "MATLAB:datetime:InvalidAssignment",
                    "Expected a time value.",
                )
            })?;
            TimeArray {
                shape: Shape::empty(),
                ms: vec![],
                months: if r.kind == Kind::CalDuration {
                    Some(vec![])
                } else {
                    None
                }
                .unwrap_or_default(),
                days: vec![],
                ..r.clone()
            }
        }
    };
    let n = base.numel();
    let codes = Tensor::f64(base.shape.clone(), (1..=n).map(|k| k as f64).collect());
    let mut target = Value::Tensor(std::rc::Rc::new(codes));
    let (placed, src) = if delete {
        (
            access::assign_paren(Some(&mut target), args, Value::empty(), true)?,
            None,
        )
    } else {
        let r = coerce(&base, rhs)?;
        let m = r.numel();
        let rc = Tensor::f64(r.shape.clone(), (n + 1..=n + m).map(|k| k as f64).collect());
        (
            access::assign_paren(Some(&mut target), args, Value::from_tensor(rc), false)?,
            Some(r),
        )
    };
    let placed = placed.tensor()?.into_owned();
    let fill = base.fill();
    let pick = |own: &Vec<f64>, other: Option<&Vec<f64>>, fill: f64| -> Vec<f64> {
        placed
            .to_f64()
            .iter()
            .map(|&c| {
                let c = c as usize;
                if c == 0 {
                    fill
                } else if c <= n {
                    own.get(c - 1).copied().unwrap_or(fill)
                } else {
                    other
                        .and_then(|o| o.get(c - n - 1).copied())
                        .unwrap_or(fill)
                }
            })
            .collect()
    };
    let cal = base.kind == Kind::CalDuration;
    let out = TimeArray {
        kind: base.kind,
        shape: placed.shape.clone(),
        ms: pick(&base.ms, src.as_ref().map(|r| &r.ms), fill),
        months: if cal {
            pick(&base.months, src.as_ref().map(|r| &r.months), 0.0)
        } else {
            vec![]
        },
        days: if cal {
            pick(&base.days, src.as_ref().map(|r| &r.days), 0.0)
        } else {
            vec![]
        },
        format: base.format.clone(),
        tz: base.tz.clone(),
    };
    Ok(out.into_value())
}

const COMPONENTS: [&str; 6] = ["Year", "Month", "Day", "Hour", "Minute", "Second"];

/// `t.Name`
pub fn property(t: &TimeArray, name: &str) -> MResult<Value> {
    if name == "Format" {
        return Ok(Value::str(&t.format));
    }
    if t.kind == Kind::DateTime {
        if let Some(k) = COMPONENTS.iter().position(|c| *c == name) {
            let v =
                t.ms.iter()
                    .map(|&m| super::ms_to_components(m)[k])
                    .collect();
            return Ok(Value::from_tensor(Tensor::f64(t.shape.clone(), v)));
        }
        if name == "TimeZone" {
            return Ok(Value::str(&t.tz));
        }
        if name == "SystemTimeZone" {
            return Ok(Value::str(
                &jiff::tz::TimeZone::system()
                    .iana_name()
                    .unwrap_or("")
                    .to_string(),
            ));
        }
    }
    Err(MError::new(
        "MATLAB:noSuchMethodOrField",
        format!(
            "Unrecognized method, property, or field '{name}' for class '{}'.",
            t.kind.class_name()
        ),
    ))
}

pub fn is_property(t: &TimeArray, name: &str) -> bool {
    name == "Format"
        || (t.kind == Kind::DateTime && (COMPONENTS.contains(&name) || name == "TimeZone"))
}

/// `t.Name = v`
pub fn assign_property(cur: &Value, name: &str, rhs: &Value) -> MResult<Value> {
    let Some(t) = time_of(cur) else {
        return Err(MError::new(
            "MATLAB:datetime:InvalidAssignment",
            "Expected a time value.",
        ));
    };
    let mut t = t.clone();
    if name == "Format" {
        let f = rhs.text()?;
        t.format = check_format(t.kind, &f)?;
        return Ok(t.into_value());
    }
    if t.kind == Kind::DateTime && name == "TimeZone" {
        // a zoned array keeps its instants (its clock moves); an unzoned one keeps its clock
        let new = super::zone::parse(&rhs.text()?)?;
        if let (Some(old), Some((_, to))) = (super::zone::of(&t.tz), &new) {
            super::zone::convert(&mut t.ms, &old, to);
        }
        t.tz = new.map(|(n, _)| n).unwrap_or_default();
        return Ok(t.into_value());
    }
    if t.kind == Kind::DateTime {
        if let Some(k) = COMPONENTS.iter().position(|c| *c == name) {
            let vals = rhs.tensor()?.to_f64().into_owned();
            if vals.len() != 1 && vals.len() != t.numel() {
                return Err(MError::new(
                    "MATLAB:datetime:InvalidComponentAssignment",
                    format!(
                        "The value assigned to {name} must be a scalar or have one element per datetime."
                    ),
                ));
            }
            for (i, m) in t.ms.iter_mut().enumerate() {
                let mut c = super::ms_to_components(*m);
                c[k] = if vals.len() == 1 { vals[0] } else { vals[i] };
                *m = super::components_to_ms(c[0], c[1], c[2], c[3], c[4], c[5]);
            }
            return Ok(t.into_value());
        }
    }
    Err(MError::new(
        "MATLAB:noPublicFieldForClass",
        format!(
            "Unrecognized property '{name}' for class '{}'.",
            t.kind.class_name()
        ),
    ))
}

/// A Format for a kind: 'default' and 'defaultdate' name the defaults; a duration's format
/// is one of MATLAB's few.
pub fn check_format(kind: Kind, f: &str) -> MResult<String> {
    match kind {
        Kind::DateTime => Ok(match f {
            "default" => super::DEFAULT_DATETIME.into(),
            "defaultdate" => super::DEFAULT_DATE.into(),
            _ => f.into(),
        }),
        Kind::Duration => {
            let ok = matches!(f, "y" | "d" | "h" | "m" | "s")
                || ["dd:hh:mm:ss", "hh:mm:ss", "mm:ss", "hh:mm"]
                    .iter()
                    .any(|base| {
                        f == *base
                            || f.strip_prefix(base)
                                .and_then(|r| r.strip_prefix('.'))
                                .is_some_and(|r| {
                                    !r.is_empty() && r.len() <= 9 && r.chars().all(|c| c == 'S')
                                })
                    });
            if ok {
                Ok(f.into())
            } else {
                Err(MError::new(
                    "MATLAB:duration:UnrecognizedFormat",
                    format!("'{f}' is not a valid duration format."),
                ))
            }
        }
        Kind::CalDuration => Ok(f.into()),
    }
}

pub fn transpose(t: &TimeArray) -> TimeArray {
    let (r, c) = (t.shape.rows(), t.shape.cols());
    let idx: Vec<usize> = (0..r * c).map(|k| (k / c) + (k % c) * r).collect();
    t.gather(&idx, Shape::matrix(c, r))
}

/// `[a, b; ...]` / `cat` with a time array among the parts: text and `[]` join datetimes,
/// every other part must be of the same kind.
pub fn concat(dim: usize, vals: &[Value]) -> MResult<Value> {
    let Some(first) = vals.iter().find_map(time_of) else {
        return Err(MError::new(
            "MATLAB:catenate:unsupported",
            "No time array to concatenate.",
        ));
    };
    let mut parts: Vec<TimeArray> = Vec::new();
    for v in vals {
        if v.is_numeric_like() && v.is_empty() {
            continue;
        }
        let part = coerce(first, v).map_err(|_| {
            MError::new(
                "MATLAB:datetime:InvalidConcatenation",
                format!(
                    "Unable to concatenate a {} array and a value of class {}.",
                    first.kind.class_name(),
                    v.class_name()
                ),
            )
        })?;
        parts.push(part);
    }
    // place codes with the numeric concatenation, then pick the elements
    let mut offset = 0usize;
    let mut code_vals = Vec::with_capacity(parts.len());
    for p in &parts {
        let n = p.numel();
        code_vals.push(Value::from(Tensor::f64(
            p.shape.clone(),
            (offset..offset + n).map(|k| k as f64).collect(),
        )));
        offset += n;
    }
    let all = TimeArray {
        kind: first.kind,
        shape: Shape::col(offset),
        ms: parts.iter().flat_map(|p| p.ms.iter().copied()).collect(),
        months: parts
            .iter()
            .flat_map(|p| p.months.iter().copied())
            .collect(),
        days: parts.iter().flat_map(|p| p.days.iter().copied()).collect(),
        format: first.format.clone(),
        tz: first.tz.clone(),
    };
    if code_vals.is_empty() {
        return Ok(all.gather(&[], Shape::empty()).into_value());
    }
    let placed = if code_vals.len() == 1 {
        code_vals.remove(0)
    } else {
        crate::values::ops::concat::cat(dim, &code_vals)?
    };
    let placed = placed.tensor()?.into_owned();
    let idx: Vec<usize> = placed.to_f64().iter().map(|&c| c as usize).collect();
    Ok(all.gather(&idx, placed.shape.clone()).into_value())
}

/// `a:step:b` with datetimes or durations: the step is a duration, a calendarDuration or a
/// number of days (a datetime range with no step goes a day at a time).
pub fn colon(a: &Value, step: Option<&Value>, b: &Value) -> MResult<Value> {
    let (Some(ta), Some(tb)) = (time_of(a), time_of(b)) else {
        return Err(MError::new(
            "MATLAB:datetime:InvalidColon",
            "Both ends of a time range must be of the same time class.",
        ));
    };
    if ta.kind != tb.kind || ta.numel() != 1 || tb.numel() != 1 || ta.kind == Kind::CalDuration {
        return Err(MError::new(
            "MATLAB:datetime:InvalidColon",
            "The ends of a time range must be scalars of the same time class.",
        ));
    }
    let (x, y) = (ta.ms[0], tb.ms[0]);
    let mut ms = Vec::new();
    let limit = 10_000_000usize;
    match step.map(|s| (s, time_of(s))) {
        Some((_, Some(s))) if s.kind == Kind::CalDuration && ta.kind == Kind::DateTime => {
            let (mo, d, t) = (s.months[0], s.days[0], s.ms[0]);
            if mo == 0.0 && d == 0.0 && t == 0.0 {
                return Ok(ta.gather(&[], Shape::matrix(1, 0)).into_value());
            }
            let forward = mo > 0.0 || d > 0.0 || t > 0.0;
            let mut k = 0.0;
            loop {
                let v = super::arith::shift_calendar(x, mo * k, d * k, t * k);
                if (forward && v > y) || (!forward && v < y) || ms.len() >= limit {
                    break;
                }
                ms.push(v);
                k += 1.0;
            }
        }
        other => {
            let st = match other {
                None if ta.kind == Kind::DateTime => 86_400_000.0,
                None => 1000.0,
                Some((_, Some(s))) if s.kind == Kind::Duration && s.numel() == 1 => s.ms[0],
                Some((s, None)) if s.is_numeric_like() => s.scalar_f64()? * 86_400_000.0,
                _ => {
                    return Err(MError::new(
                        "MATLAB:datetime:InvalidColon",
                        "The step of a time range must be a duration, a calendarDuration or a number of days.",
                    ));
                }
            };
            let n = crate::values::ops::colon::count(x, st, y);
            crate::values::limits::check_count(n, 8)?;
            ms = (0..n).map(|k| x + st * k as f64).collect();
        }
    }
    let n = ms.len();
    Ok(TimeArray {
        shape: Shape::matrix(1, n),
        ms,
        ..ta.clone()
    }
    .into_value())
}
