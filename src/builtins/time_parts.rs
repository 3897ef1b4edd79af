//! Parts and conversions of datetime and duration arrays: year quarter month day hour
//! minute second ymd hms timeofday posixtime juliandate, the tests isdatetime isduration
//! iscalendarduration isnat, and dateshift and between.

use super::datetimes::datetime_arg;
use super::{Builtin, b, bad_arg, one, text_arg};
use crate::dates::{self, Kind, TimeArray, civil, time_of};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::containers::CellArray;
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

const DAY: f64 = 86_400_000.0;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("year", 1, 1, 1, "year(t): the year of each datetime.", year),
        b("quarter", 1, 1, 1, "quarter(t): the quarter (1-4) of each datetime.", quarter),
        b("month", 1, 2, 1, "month(t), month(t, 'name'|'shortname'): the month of each datetime.", month),
        b("day", 1, 2, 1, "day(t), day(t, 'dayofweek'|'dayofyear'|'name'|'shortname'): the day of each datetime.", day),
        b("hour", 1, 1, 1, "hour(t): the hour of each datetime.", hour),
        b("minute", 1, 1, 1, "minute(t): the minute of each datetime.", minute),
        b("second", 1, 1, 1, "second(t): the seconds (with fraction) of each datetime.", second),
        b("ymd", 1, 1, 3, "[y, m, d] = ymd(t): year, month and day numbers.", ymd),
        b("hms", 1, 1, 3, "[h, m, s] = hms(t): hour, minute and second numbers of datetimes or durations.", hms),
        b("timeofday", 1, 1, 1, "timeofday(t): the time since midnight of each datetime, as durations.", timeofday),
        b("posixtime", 1, 1, 1, "posixtime(t): seconds since 1970-01-01 00:00:00.", posixtime),
        b("juliandate", 1, 1, 1, "juliandate(t): Julian dates.", juliandate),
        b("isdatetime", 1, 1, 1, "isdatetime(x): true for a datetime array.", isdatetime),
        b("isduration", 1, 1, 1, "isduration(x): true for a duration array.", isduration),
        b("iscalendarduration", 1, 1, 1, "iscalendarduration(x): true for a calendarDuration array.", iscalendarduration),
        b("isnat", 1, 1, 1, "isnat(t): true where a datetime is NaT.", isnat),
        b("dateshift", 3, 4, 1, "dateshift(t, 'start'|'end', unit): the start or end of each datetime's year, quarter, month, week, day, hour, minute or second.", dateshift),
        b("between", 2, 2, 1, "between(t1, t2): the calendar durations from t1 to t2.", between),
    ]
}

fn component(a: &[Value], k: usize, name: &str) -> R {
    let t = datetime_arg(&a[0], name)?;
    let v =
        t.ms.iter()
            .map(|&m| dates::ms_to_components(m)[k])
            .collect();
    one(Tensor::f64(t.shape.clone(), v))
}

fn year(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    component(&a, 0, "year")
}

fn quarter(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = datetime_arg(&a[0], "quarter")?;
    let v =
        t.ms.iter()
            .map(|&m| ((dates::ms_to_components(m)[1] + 2.0) / 3.0).floor())
            .collect();
    one(Tensor::f64(t.shape.clone(), v))
}

/// Names as a cell array of the datetime array's shape (NaT gives '').
fn names(t: &TimeArray, f: impl Fn(f64) -> String) -> Value {
    let data =
        t.ms.iter()
            .map(|&m| Value::str(&if m.is_finite() { f(m) } else { String::new() }))
            .collect();
    Value::from(CellArray::new(t.shape.clone(), data))
}

fn month(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let Some(kind) = a.get(1) else {
        return component(&a, 1, "month");
    };
    let t = datetime_arg(&a[0], "month")?;
    let mo = |m: f64| dates::ms_to_components(m)[1] as i64;
    match text_arg(kind, "month")?.to_ascii_lowercase().as_str() {
        "monthofyear" => component(&a, 1, "month"),
        "name" => one(names(t, |m| civil::month_name(mo(m)).to_string())),
        "shortname" => one(names(t, |m| civil::month_name(mo(m))[..3].to_string())),
        other => Err(bad_arg("month", format!("Unknown month type '{other}'."))),
    }
}

fn day(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let Some(kind) = a.get(1) else {
        return component(&a, 2, "day");
    };
    let t = datetime_arg(&a[0], "day")?;
    let wd = |m: f64| civil::weekday((m / DAY).floor() + civil::UNIX_DATENUM);
    let per = |f: &dyn Fn(f64) -> f64| -> Value {
        Value::from(Tensor::f64(
            t.shape.clone(),
            t.ms.iter()
                .map(|&m| if m.is_finite() { f(m) } else { f64::NAN })
                .collect(),
        ))
    };
    match text_arg(kind, "day")?.to_ascii_lowercase().as_str() {
        "dayofmonth" => component(&a, 2, "day"),
        "dayofweek" => one(per(&wd)),
        "dayofyear" => one(per(&|m: f64| {
            let y = dates::ms_to_components(m)[0] as i64;
            (m / DAY).floor() - civil::days_from_civil(y, 1, 1) as f64 + 1.0
        })),
        "name" => one(names(t, |m| civil::day_name(wd(m) as i64).to_string())),
        "shortname" => one(names(t, |m| civil::day_name(wd(m) as i64)[..3].to_string())),
        other => Err(bad_arg("day", format!("Unknown day type '{other}'."))),
    }
}

fn hour(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    component(&a, 3, "hour")
}

fn minute(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    component(&a, 4, "minute")
}

fn second(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    component(&a, 5, "second")
}

fn ymd(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    (0..nargout.clamp(1, 3))
        .map(|k| Ok(component(&a, k, "ymd")?.remove(0)))
        .collect()
}

fn hms(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    if let Some(t) = time_of(&a[0]) {
        if t.kind == Kind::Duration {
            let split = |m: f64| -> [f64; 3] {
                let s = m / 1000.0;
                let h = (s / 3600.0).trunc();
                let mi = ((s - h * 3600.0) / 60.0).trunc();
                [h, mi, s - h * 3600.0 - mi * 60.0]
            };
            return Ok((0..nargout.clamp(1, 3))
                .map(|k| {
                    Value::from(Tensor::f64(
                        t.shape.clone(),
                        t.ms.iter().map(|&m| split(m)[k]).collect(),
                    ))
                })
                .collect());
        }
    }
    (3..3 + nargout.clamp(1, 3))
        .map(|k| Ok(component(&a, k, "hms")?.remove(0)))
        .collect()
}

fn timeofday(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = datetime_arg(&a[0], "timeofday")?;
    let ms = t.ms.iter().map(|&m| m - (m / DAY).floor() * DAY).collect();
    one(TimeArray::durations(t.shape.clone(), ms, dates::DEFAULT_DURATION).into_value())
}

fn posixtime(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = datetime_arg(&a[0], "posixtime")?;
    one(Tensor::f64(
        t.shape.clone(),
        t.ms.iter().map(|m| m / 1000.0).collect(),
    ))
}

fn juliandate(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = datetime_arg(&a[0], "juliandate")?;
    one(Tensor::f64(
        t.shape.clone(),
        t.datenums().iter().map(|n| n + 1_721_058.5).collect(),
    ))
}

fn isdatetime(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(dates::is_kind(&a[0], Kind::DateTime))
}

fn isduration(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(dates::is_kind(&a[0], Kind::Duration))
}

fn iscalendarduration(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(dates::is_kind(&a[0], Kind::CalDuration))
}

fn isnat(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = datetime_arg(&a[0], "isnat")?;
    one(Tensor::bools(
        t.shape.clone(),
        t.ms.iter().map(|m| m.is_nan()).collect(),
    ))
}

fn dateshift(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = datetime_arg(&a[0], "dateshift")?;
    let which = text_arg(&a[1], "dateshift")?.to_ascii_lowercase();
    let mut unit = text_arg(&a[2], "dateshift")?.to_ascii_lowercase();
    if unit.ends_with('s') {
        unit.pop();
    }
    if which != "start" && which != "end" {
        return Err(MError::new(
            "MATLAB:datetime:dateshift:InvalidRule",
            format!("'{which}' is not a supported rule: use 'start' or 'end'."),
        ));
    }
    let start = |m: f64| -> Option<(f64, f64)> {
        // the start of the unit containing m, and the start of the next one
        let c = dates::ms_to_components(m);
        let (y, mo) = (c[0], c[1]);
        let day0 = (m / DAY).floor() * DAY;
        Some(match unit.as_str() {
            "year" => (
                dates::components_to_ms(y, 1.0, 1.0, 0.0, 0.0, 0.0),
                dates::components_to_ms(y + 1.0, 1.0, 1.0, 0.0, 0.0, 0.0),
            ),
            "quarter" => {
                let q = ((mo - 1.0) / 3.0).floor() * 3.0 + 1.0;
                (
                    dates::components_to_ms(y, q, 1.0, 0.0, 0.0, 0.0),
                    dates::components_to_ms(y, q + 3.0, 1.0, 0.0, 0.0, 0.0),
                )
            }
            "month" => (
                dates::components_to_ms(y, mo, 1.0, 0.0, 0.0, 0.0),
                dates::components_to_ms(y, mo + 1.0, 1.0, 0.0, 0.0, 0.0),
            ),
            "week" => {
                let wd = civil::weekday((m / DAY).floor() + civil::UNIX_DATENUM) - 1.0;
                (day0 - wd * DAY, day0 + (7.0 - wd) * DAY)
            }
            "day" => (day0, day0 + DAY),
            "hour" => (
                (m / 3_600_000.0).floor() * 3_600_000.0,
                (m / 3_600_000.0).floor() * 3_600_000.0 + 3_600_000.0,
            ),
            "minute" => (
                (m / 60_000.0).floor() * 60_000.0,
                (m / 60_000.0).floor() * 60_000.0 + 60_000.0,
            ),
            "second" => (
                (m / 1000.0).floor() * 1000.0,
                (m / 1000.0).floor() * 1000.0 + 1000.0,
            ),
            _ => return None,
        })
    };
    let mut ms = Vec::with_capacity(t.numel());
    for &m in &t.ms {
        if !m.is_finite() {
            ms.push(m);
            continue;
        }
        let Some((s, e)) = start(m) else {
            return Err(MError::new(
                "MATLAB:datetime:dateshift:InvalidUnit",
                format!(
                    "'{unit}' is not a supported unit: use year, quarter, month, week, day, hour, minute or second."
                ),
            ));
        };
        // 'end' of a day or longer unit is its last day's start; of a time unit, its last
        // whole second... MATLAB gives the start of the unit's last day for date units
        ms.push(if which == "start" {
            s
        } else if matches!(unit.as_str(), "year" | "quarter" | "month" | "week" | "day") {
            e - DAY
        } else {
            e - 1000.0_f64.min(e - s)
        });
    }
    one(TimeArray { ms, ..t.clone() }.into_value())
}

fn between(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t1 = datetime_arg(&a[0], "between")?;
    let t2 = datetime_arg(&a[1], "between")?;
    let out = Shape::broadcast_checked(&t1.shape, &t2.shape)?;
    let (mut mo, mut dd, mut tt) = (Vec::new(), Vec::new(), Vec::new());
    for (i, j) in crate::values::shape::BroadcastIter::new(&out, &t1.shape, &t2.shape) {
        let [m, d, s] = calendar_gap(t1.ms[i], t2.ms[j]);
        mo.push(m);
        dd.push(d);
        tt.push(s);
    }
    one(TimeArray::caldurations(out, mo, dd, tt).into_value())
}

/// The calendar difference from x to y (ms of datetimes): whole months that fit, then whole
/// days, then the time (NaN parts when either is NaT).
pub(super) fn calendar_gap(x: f64, y: f64) -> [f64; 3] {
    if !x.is_finite() || !y.is_finite() {
        return [f64::NAN; 3];
    }
    let (cx, cy) = (dates::ms_to_components(x), dates::ms_to_components(y));
    let mut months = (cy[0] - cx[0]) * 12.0 + (cy[1] - cx[1]);
    let shift = |k: f64| crate::dates::arith::shift_calendar(x, k, 0.0, 0.0);
    if y >= x {
        while months > 0.0 && shift(months) > y {
            months -= 1.0;
        }
    } else {
        while months < 0.0 && shift(months) < y {
            months += 1.0;
        }
    }
    let rest = y - shift(months);
    let days = (rest / DAY).trunc();
    [months, days, rest - days * DAY]
}
