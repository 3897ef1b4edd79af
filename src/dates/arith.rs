//! Operators on datetime, duration and calendarDuration arrays: datetime ± duration,
//! datetime - datetime, duration arithmetic with numbers (as days) and with each other,
//! calendar arithmetic, and comparisons (with datetime text too).

use super::{Kind, TimeArray, is_time, time_of};
use crate::interp::error::{MError, MResult};
use crate::syntax::ast::{BinOp, UnOp};
use crate::values::shape::{BroadcastIter, Shape};
use crate::values::tensor::Tensor;
use crate::values::value::Value;

const DAY: f64 = 86_400_000.0;

/// One operand of a time operator, as element values.
enum Operand {
    Time(TimeArray),
    /// numbers (as days where they meet a time)
    Num(Shape, Vec<f64>),
}

fn operand(v: &Value, other_kind: Option<Kind>, takes_text: bool) -> MResult<Operand> {
    if let Some(t) = time_of(v) {
        return Ok(Operand::Time(t.clone()));
    }
    if v.is_text() || matches!(v, Value::Cell(_) | Value::Str(_)) {
        // text meets datetimes as dates, and durations as durations
        if other_kind == Some(Kind::DateTime) && takes_text {
            return Ok(Operand::Time(super::array::datetimes_from_text(v, None)?));
        }
        return Err(undefined_for(v));
    }
    if v.is_numeric_like() {
        let t = v.tensor()?;
        if t.is_complex() {
            return Err(undefined_for(v));
        }
        return Ok(Operand::Num(t.shape.clone(), t.to_f64().into_owned()));
    }
    Err(undefined_for(v))
}

fn undefined_for(v: &Value) -> MError {
    MError::new(
        "MATLAB:UndefinedFunction",
        format!(
            "Operator is not defined for a time value and a value of class {}.",
            v.class_name()
        ),
    )
}

fn shape_vals(o: &Operand) -> (Shape, Vec<f64>) {
    match o {
        Operand::Time(t) => (t.shape.clone(), t.ms.clone()),
        Operand::Num(s, v) => (s.clone(), v.clone()),
    }
}

/// Elementwise f over two broadcast operands.
fn zip(
    sa: &Shape,
    a: &[f64],
    sb: &Shape,
    b: &[f64],
    f: impl Fn(f64, f64) -> f64,
) -> MResult<(Shape, Vec<f64>)> {
    let out = Shape::broadcast_checked(sa, sb)?;
    let v = BroadcastIter::new(&out, sa, sb)
        .map(|(i, j)| {
            f(
                a.get(i).copied().unwrap_or(f64::NAN),
                b.get(j).copied().unwrap_or(f64::NAN),
            )
        })
        .collect();
    Ok((out, v))
}

fn not_defined(op: &str, a: &str, b: &str) -> MError {
    MError::new(
        "MATLAB:datetime:UndefinedOperation",
        format!("Operator '{op}' is not defined for operands of class '{a}' and '{b}'."),
    )
}

fn class_of(o: &Operand) -> &'static str {
    match o {
        Operand::Time(t) => t.kind.class_name(),
        Operand::Num(..) => "double",
    }
}

/// `a op b` where either is a time array (None: neither is).
pub fn binary(op: BinOp, a: &Value, b: &Value) -> Option<MResult<Value>> {
    if !is_time(a) && !is_time(b) {
        return None;
    }
    // a string array plus a time array joins their text ("Due: " + t)
    if op == BinOp::Add && (a.is_string() || b.is_string()) {
        let text = |v: &Value| match time_of(v) {
            Some(t) => Value::from(crate::values::containers::StrArray::new(
                t.shape.clone(),
                super::display::element_texts(t),
            )),
            None => v.clone(),
        };
        return Some(crate::values::strings::string_binary(
            crate::values::ops::Bin::Add,
            &text(a),
            &text(b),
        ));
    }
    Some(binary_time(op, a, b))
}

fn binary_time(op: BinOp, a: &Value, b: &Value) -> MResult<Value> {
    let ka = time_of(a).map(|t| t.kind);
    let kb = time_of(b).map(|t| t.kind);
    // text is read as dates where a datetime is compared with it or subtracted
    let takes_text = comparison(op).is_some() || op == BinOp::Sub;
    let mut x = operand(a, kb, takes_text)?;
    let mut y = operand(b, ka, takes_text)?;
    let zone = instants(&mut x, &mut y, time_of(a).is_some(), time_of(b).is_some())?;
    if let Some(cmp) = comparison(op) {
        return compare(cmp, &x, &y);
    }
    let r = binary_values(op, &x, &y)?;
    // a datetime result goes back to the zone's clock
    match (zone, time_of(&r)) {
        (Some((name, tz, true)), Some(t)) if t.kind == Kind::DateTime => {
            let mut t = t.clone();
            for m in &mut t.ms {
                *m = super::zone::from_utc(*m, &tz);
            }
            t.tz = name;
            Ok(t.into_value())
        }
        (Some((name, _, false)), Some(t)) if t.kind == Kind::DateTime => {
            let mut t = t.clone();
            t.tz = name;
            Ok(t.into_value())
        }
        _ => Ok(r),
    }
}

/// Zoned datetimes among the operands: their values become instants (UTC ms), except in
/// calendar arithmetic, which works on the zone's clock. Returns the zone of the first
/// zoned datetime and whether values were made instants. Text read as dates takes the
/// other operand's zone; a zoned and an unzoned datetime do not mix (as in MATLAB).
fn instants(
    x: &mut Operand,
    y: &mut Operand,
    x_given: bool,
    y_given: bool,
) -> MResult<Option<(String, jiff::tz::TimeZone, bool)>> {
    let zoned = |o: &Operand| match o {
        Operand::Time(t) if t.kind == Kind::DateTime && !t.tz.is_empty() => Some(t.tz.clone()),
        _ => None,
    };
    let Some(name) = zoned(x).or_else(|| zoned(y)) else {
        return Ok(None);
    };
    let Some(tz) = super::zone::of(&name) else {
        return Ok(None);
    };
    let calendar = [&*x, &*y]
        .iter()
        .any(|o| matches!(o, Operand::Time(t) if t.kind == Kind::CalDuration));
    for (o, given) in [(&mut *x, x_given), (&mut *y, y_given)] {
        if let Operand::Time(t) = o {
            if t.kind != Kind::DateTime {
                continue;
            }
            if t.tz.is_empty() {
                if given {
                    return Err(MError::new(
                        "MATLAB:datetime:IncompatibleTZ",
                        "Datetimes with and without a time zone cannot be combined or compared.",
                    ));
                }
                t.tz = name.clone();
            }
            if !calendar {
                let own = super::zone::of(&t.tz).unwrap_or_else(|| tz.clone());
                for m in &mut t.ms {
                    *m = super::zone::to_utc(*m, &own);
                }
            }
        }
    }
    Ok(Some((name, tz, !calendar)))
}

fn binary_values(op: BinOp, x: &Operand, y: &Operand) -> MResult<Value> {
    use Operand::{Num, Time};
    let sym = op.symbol();
    let bad = || not_defined(sym, class_of(&x), class_of(&y));
    match (op, &x, &y) {
        (BinOp::Add | BinOp::Sub, Time(p), Time(q)) if q.kind == Kind::CalDuration => {
            let sign = if op == BinOp::Sub { -1.0 } else { 1.0 };
            match p.kind {
                Kind::DateTime => add_calendar(p, q, sign),
                Kind::CalDuration => cal_combine(p, q, sign),
                Kind::Duration => cal_combine(&as_caldur(p), q, sign),
            }
        }
        (BinOp::Add, Time(p), Time(q)) if p.kind == Kind::CalDuration => match q.kind {
            Kind::DateTime => add_calendar(q, p, 1.0),
            _ => cal_combine(p, &as_caldur(q), 1.0),
        },
        (BinOp::Sub, Time(p), Time(q)) if p.kind == Kind::CalDuration => {
            if q.kind == Kind::DateTime {
                return Err(bad());
            }
            cal_combine(p, &as_caldur(q), -1.0)
        }
        (BinOp::Add | BinOp::Sub, Time(p), Time(q)) => {
            let sub = op == BinOp::Sub;
            let (kind, fmt) = match (p.kind, q.kind, sub) {
                (Kind::DateTime, Kind::Duration, _) => (Kind::DateTime, p.format.clone()),
                (Kind::Duration, Kind::DateTime, false) => (Kind::DateTime, q.format.clone()),
                (Kind::DateTime, Kind::DateTime, true) => {
                    (Kind::Duration, super::DEFAULT_DURATION.to_string())
                }
                (Kind::Duration, Kind::Duration, _) => (Kind::Duration, p.format.clone()),
                _ => return Err(bad()),
            };
            let (s, v) = zip(&p.shape, &p.ms, &q.shape, &q.ms, |u, w| {
                if sub { u - w } else { u + w }
            })?;
            Ok(TimeArray {
                kind,
                shape: s,
                ms: v,
                months: vec![],
                days: vec![],
                format: fmt,
                tz: String::new(),
            }
            .into_value())
        }
        (BinOp::Add | BinOp::Sub, Time(p), Num(sn, n)) | (BinOp::Add, Num(sn, n), Time(p)) => {
            let num_first = matches!(x, Num(..));
            let sub = op == BinOp::Sub;
            if p.kind == Kind::CalDuration {
                let q = TimeArray::caldurations(
                    sn.clone(),
                    vec![0.0; n.len()],
                    n.clone(),
                    vec![0.0; n.len()],
                );
                return cal_combine(p, &q, if sub { -1.0 } else { 1.0 });
            }
            let (s, v) = if num_first {
                zip(sn, n, &p.shape, &p.ms, |u, w| u * DAY + w)?
            } else {
                zip(&p.shape, &p.ms, sn, n, |u, w| {
                    if sub { u - w * DAY } else { u + w * DAY }
                })?
            };
            Ok(TimeArray {
                shape: s,
                ms: v,
                ..p.clone()
            }
            .into_value())
        }
        (BinOp::Sub, Num(sn, n), Time(p)) if p.kind == Kind::Duration => {
            let (s, v) = zip(sn, n, &p.shape, &p.ms, |u, w| u * DAY - w)?;
            Ok(TimeArray::durations(s, v, &p.format).into_value())
        }
        (BinOp::Mul | BinOp::ElemMul, Time(p), Num(sn, n))
        | (BinOp::Mul | BinOp::ElemMul, Num(sn, n), Time(p))
            if p.kind != Kind::DateTime =>
        {
            if op == BinOp::Mul && p.numel() != 1 && n.len() != 1 {
                return Err(MError::new(
                    "MATLAB:datetime:MatrixProduct",
                    "Matrix multiplication of durations is not supported; use '.*'.",
                ));
            }
            scale(p, sn, n, |u, w| u * w)
        }
        (BinOp::Div | BinOp::ElemDiv, Time(p), Num(sn, n)) if p.kind != Kind::DateTime => {
            scale(p, sn, n, |u, w| u / w)
        }
        (BinOp::Div | BinOp::ElemDiv, Time(p), Time(q))
            if p.kind == Kind::Duration && q.kind == Kind::Duration =>
        {
            let (s, v) = zip(&p.shape, &p.ms, &q.shape, &q.ms, |u, w| u / w)?;
            Ok(Value::from(Tensor::f64(s, v)))
        }
        _ => Err(bad()),
    }
}

fn scale(p: &TimeArray, sn: &Shape, n: &[f64], f: impl Fn(f64, f64) -> f64) -> MResult<Value> {
    let (s, v) = zip(&p.shape, &p.ms, sn, n, &f)?;
    if p.kind == Kind::CalDuration {
        let (_, mo) = zip(&p.shape, &p.months, sn, n, &f)?;
        let (_, d) = zip(&p.shape, &p.days, sn, n, &f)?;
        return Ok(TimeArray::caldurations(s, mo, d, v).into_value());
    }
    Ok(TimeArray::durations(s, v, &p.format).into_value())
}

fn as_caldur(p: &TimeArray) -> TimeArray {
    let n = p.numel();
    TimeArray::caldurations(p.shape.clone(), vec![0.0; n], vec![0.0; n], p.ms.clone())
}

fn cal_combine(p: &TimeArray, q: &TimeArray, sign: f64) -> MResult<Value> {
    let (s, mo) = zip(&p.shape, &p.months, &q.shape, &q.months, |u, w| {
        u + sign * w
    })?;
    let (_, d) = zip(&p.shape, &p.days, &q.shape, &q.days, |u, w| u + sign * w)?;
    let (_, ms) = zip(&p.shape, &p.ms, &q.shape, &q.ms, |u, w| u + sign * w)?;
    Ok(TimeArray::caldurations(s, mo, d, ms).into_value())
}

/// A datetime plus calendar months, days and time: months first (the day clamped to the
/// month's end, as MATLAB does), then days, then the time.
pub fn shift_calendar(ms: f64, months: f64, days: f64, time: f64) -> f64 {
    if !ms.is_finite() || ms.abs() > 8.64e20 || !months.is_finite() || months.abs() > 1e13 {
        return if months.is_finite() {
            ms + days * DAY + time
        } else {
            f64::NAN
        };
    }
    let day = (ms / DAY).floor();
    let in_day = ms - day * DAY;
    let (y, m, d) = super::civil::civil_from_days(day as i64);
    let total = y * 12 + (m - 1) + months as i64;
    let (ny, nm) = (total.div_euclid(12), total.rem_euclid(12) + 1);
    let nd = d.min(super::civil::days_in_month(ny, nm));
    let base = super::civil::days_from_civil(ny, nm, nd) as f64 + days;
    base * DAY + in_day + time
}

fn add_calendar(p: &TimeArray, q: &TimeArray, sign: f64) -> MResult<Value> {
    let out = Shape::broadcast_checked(&p.shape, &q.shape)?;
    let ms = BroadcastIter::new(&out, &p.shape, &q.shape)
        .map(|(i, j)| {
            shift_calendar(
                p.ms[i],
                sign * q.months.get(j).copied().unwrap_or(0.0),
                sign * q.days.get(j).copied().unwrap_or(0.0),
                sign * q.ms.get(j).copied().unwrap_or(0.0),
            )
        })
        .collect();
    Ok(TimeArray::datetimes(out, ms, &p.format).into_value())
}

#[derive(Clone, Copy)]
enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

fn comparison(op: BinOp) -> Option<Cmp> {
    Some(match op {
        BinOp::Eq => Cmp::Eq,
        BinOp::Ne => Cmp::Ne,
        BinOp::Lt => Cmp::Lt,
        BinOp::Le => Cmp::Le,
        BinOp::Gt => Cmp::Gt,
        BinOp::Ge => Cmp::Ge,
        _ => return None,
    })
}

fn compare(c: Cmp, x: &Operand, y: &Operand) -> MResult<Value> {
    let kinds = (
        match x {
            Operand::Time(t) => Some(t.kind),
            _ => None,
        },
        match y {
            Operand::Time(t) => Some(t.kind),
            _ => None,
        },
    );
    let ok = match kinds {
        (Some(a), Some(b)) => a == b && a != Kind::CalDuration,
        (Some(Kind::Duration), None) | (None, Some(Kind::Duration)) => true,
        _ => false,
    };
    if !ok {
        return Err(MError::new(
            "MATLAB:datetime:InvalidComparison",
            format!(
                "Comparison is not defined between {} and {} arrays.",
                class_of(x),
                class_of(y)
            ),
        ));
    }
    // numbers compare with durations as days
    let vals = |o: &Operand| -> (Shape, Vec<f64>) {
        match o {
            Operand::Num(s, v) => (s.clone(), v.iter().map(|d| d * DAY).collect()),
            t => shape_vals(t),
        }
    };
    let (sa, a) = vals(x);
    let (sb, b) = vals(y);
    let out = Shape::broadcast_checked(&sa, &sb)?;
    let v = BroadcastIter::new(&out, &sa, &sb)
        .map(|(i, j)| {
            let (u, w) = (a[i], b[j]);
            match c {
                Cmp::Eq => u == w,
                Cmp::Ne => u != w,
                Cmp::Lt => u < w,
                Cmp::Le => u <= w,
                Cmp::Gt => u > w,
                Cmp::Ge => u >= w,
            }
        })
        .collect();
    Ok(Value::from_tensor(Tensor::bools(out, v)))
}

/// Unary operators on a time array (None: not one).
pub fn unary(op: UnOp, a: &Value) -> Option<MResult<Value>> {
    let t = time_of(a)?;
    Some(match op {
        UnOp::Neg if t.kind != Kind::DateTime => {
            let mut r = t.clone();
            r.ms.iter_mut().for_each(|x| *x = -*x);
            r.months.iter_mut().for_each(|x| *x = -*x);
            r.days.iter_mut().for_each(|x| *x = -*x);
            Ok(r.into_value())
        }
        UnOp::Plus => Ok(a.clone()),
        UnOp::Transpose | UnOp::CTranspose => Ok(super::array::transpose(t).into_value()),
        _ => Err(MError::new(
            "MATLAB:UndefinedFunction",
            format!(
                "Operator '{}' is not supported for operands of type '{}'.",
                match op {
                    UnOp::Neg => "-",
                    UnOp::Not => "~",
                    _ => "'",
                },
                t.kind.class_name()
            ),
        )),
    })
}
