//! datetime, duration and calendarDuration arrays: construction (datetime NaT duration
//! years days hours minutes seconds milliseconds calyears calquarters calmonths calweeks
//! caldays), components (year quarter month day hour minute second ymd hms timeofday),
//! conversions (posixtime juliandate) and tests (isdatetime isduration iscalendarduration
//! isnat), dateshift and between.

use super::dates::broadcast_all;
use super::{Builtin, b, bad_arg, one, text_arg};
use crate::dates::array::{check_format, datetimes_from_text};
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
        b("datetime", 0, -1, 1, "datetime, datetime('now'|'today'|'tomorrow'|'yesterday'), datetime(Y,M,D[,H,MI,S[,MS]]), datetime(DateVectors), datetime(text, 'InputFormat', f), datetime(X, 'ConvertFrom', 'datenum'|'posixtime'|'excel'|'juliandate'|'yyyymmdd'), with 'Format', f: points in time.", datetime),
        b("NaT", 0, -1, 1, "NaT, NaT(n), NaT(m, n): Not-a-Time datetimes.", nat),
        b("duration", 1, -1, 1, "duration(H, MI, S[, MS]), duration(X) with X = [H MI S], 'Format', f: lengths of time.", duration),
        b("years", 0, 1, 1, "years(X): a duration of X fixed-length years (365.2425 days); years(d): a duration in years.", years),
        b("days", 0, 1, 1, "days(X): a duration of X days; days(d): a duration in days.", days),
        b("hours", 0, 1, 1, "hours(X): a duration of X hours; hours(d): a duration in hours.", hours),
        b("minutes", 0, 1, 1, "minutes(X): a duration of X minutes; minutes(d): a duration in minutes.", minutes),
        b("seconds", 0, 1, 1, "seconds(X): a duration of X seconds; seconds(d): a duration in seconds.", seconds),
        b("milliseconds", 0, 1, 1, "milliseconds(X): a duration of X milliseconds; milliseconds(d): a duration in milliseconds.", milliseconds),
        b("calyears", 0, 1, 1, "calyears(X): calendar durations of X years.", calyears),
        b("calquarters", 0, 1, 1, "calquarters(X): calendar durations of X quarters.", calquarters),
        b("calmonths", 0, 1, 1, "calmonths(X): calendar durations of X months.", calmonths),
        b("calweeks", 0, 1, 1, "calweeks(X): calendar durations of X weeks.", calweeks),
        b("caldays", 0, 1, 1, "caldays(X): calendar durations of X days.", caldays),
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

fn datetime_arg<'a>(v: &'a Value, name: &str) -> MResult<&'a TimeArray> {
    match time_of(v) {
        Some(t) if t.kind == Kind::DateTime => Ok(t),
        _ => Err(MError::new(
            "MATLAB:datetime:InvalidInput",
            format!(
                "{name} expects a datetime array, not a value of class {}.",
                v.class_name()
            ),
        )),
    }
}

fn numeric(v: &Value, name: &str) -> MResult<Tensor> {
    if !v.is_numeric_like() || v.is_char() || v.is_complex() {
        return Err(bad_arg(
            name,
            format!("Expected real numeric input, not {}.", v.class_name()),
        ));
    }
    Ok(v.tensor()?.cast(crate::values::class::Class::Double))
}

/// Splits off trailing name-value options (names given).
fn options<'a>(a: &'a [Value], names: &[&str]) -> MResult<(&'a [Value], Vec<(String, Value)>)> {
    let mut end = a.len();
    // name-value pairs are taken from the end while they name known options
    let mut opts = Vec::new();
    while end >= 2 {
        let n = &a[end - 2];
        let known = n.is_text()
            && n.text()
                .is_ok_and(|t| names.iter().any(|k| k.eq_ignore_ascii_case(&t)));
        if !known {
            break;
        }
        let t = n.text()?;
        let canon = names
            .iter()
            .find(|k| k.eq_ignore_ascii_case(&t))
            .map(|k| k.to_string())
            .unwrap_or(t);
        opts.insert(0, (canon, a[end - 1].clone()));
        end -= 2;
    }
    Ok((&a[..end], opts))
}

fn opt<'a>(opts: &'a [(String, Value)], name: &str) -> Option<&'a Value> {
    opts.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v)
}

fn now_ms() -> f64 {
    let v = civil::local_now();
    dates::components_to_ms(v[0], v[1], v[2], v[3], v[4], v[5])
}

fn datetime(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (pos, opts) = options(
        &a,
        &[
            "Format",
            "InputFormat",
            "ConvertFrom",
            "TimeZone",
            "Locale",
            "PivotYear",
            "Epoch",
            "TicksPerSecond",
        ],
    )?;
    let format = match opt(&opts, "Format") {
        Some(v) => Some(check_format(Kind::DateTime, &text_arg(v, "datetime")?)?),
        None => None,
    };
    let with_format = |mut t: TimeArray| -> R {
        if let Some(f) = &format {
            t.format = f.clone();
        }
        one(t.into_value())
    };
    if pos.is_empty() {
        return with_format(TimeArray::datetimes(
            Shape::scalar(),
            vec![now_ms()],
            dates::DEFAULT_DATETIME,
        ));
    }
    let first = &pos[0];
    if pos.len() == 1 && first.is_text() {
        let word = first.text()?.to_ascii_lowercase();
        let today = (now_ms() / DAY).floor() * DAY;
        let rel = match word.as_str() {
            "now" => Some((now_ms(), dates::DEFAULT_DATETIME)),
            "today" => Some((today, dates::DEFAULT_DATE)),
            "tomorrow" => Some((today + DAY, dates::DEFAULT_DATE)),
            "yesterday" => Some((today - DAY, dates::DEFAULT_DATE)),
            _ => None,
        };
        if let Some((ms, f)) = rel {
            return with_format(TimeArray::datetimes(Shape::scalar(), vec![ms], f));
        }
    }
    if pos.len() == 1 && (first.is_char() || matches!(first, Value::Cell(_) | Value::Str(_))) {
        let infmt = match opt(&opts, "InputFormat") {
            Some(v) => Some(text_arg(v, "datetime")?),
            None => None,
        };
        // without an InputFormat, a Format is tried as the input format first
        let mut t = match (&infmt, &format) {
            (Some(f), _) => datetimes_from_text(first, Some(f))?,
            (None, Some(f)) => {
                datetimes_from_text(first, Some(f)).or_else(|_| datetimes_from_text(first, None))?
            }
            (None, None) => datetimes_from_text(first, None)?,
        };
        // (the display format stays the default: the input format only reads the text)
        if let Some(f) = &format {
            t.format = f.clone();
        }
        return one(t.into_value());
    }
    if let Some(t) = time_of(first) {
        if t.kind == Kind::DateTime && pos.len() == 1 {
            return with_format(t.clone());
        }
    }
    if let Some(conv) = opt(&opts, "ConvertFrom") {
        let kind = text_arg(conv, "datetime")?.to_ascii_lowercase();
        let x = numeric(first, "datetime")?;
        let vals = x.to_f64();
        let ms: Vec<f64> = match kind.as_str() {
            "datenum" => vals.iter().map(|&n| dates::datenum_to_ms(n)).collect(),
            "posixtime" => vals.iter().map(|&s| s * 1000.0).collect(),
            "excel" => vals
                .iter()
                .map(|&n| {
                    // Excel counts 1900 as a leap year: serials from 61 on are a day ahead
                    let base = civil::datenum(1899.0, 12.0, 31.0, 0.0, 0.0, 0.0);
                    dates::datenum_to_ms(base + if n >= 61.0 { n - 1.0 } else { n })
                })
                .collect(),
            "juliandate" => vals
                .iter()
                .map(|&j| dates::datenum_to_ms(j - 1_721_058.5))
                .collect(),
            "yyyymmdd" => vals
                .iter()
                .map(|&n| {
                    let (y, md) = ((n / 10000.0).floor(), n % 10000.0);
                    dates::components_to_ms(y, (md / 100.0).floor(), md % 100.0, 0.0, 0.0, 0.0)
                })
                .collect(),
            "epochtime" => {
                let epoch = match opt(&opts, "Epoch") {
                    Some(e) => match time_of(e) {
                        Some(t) if t.kind == Kind::DateTime && t.numel() == 1 => t.ms[0],
                        _ => datetimes_from_text(e, None)?
                            .ms
                            .first()
                            .copied()
                            .unwrap_or(0.0),
                    },
                    None => 0.0,
                };
                let tps = match opt(&opts, "TicksPerSecond") {
                    Some(v) => v.scalar_f64()?,
                    None => 1.0,
                };
                vals.iter().map(|&n| epoch + n / tps * 1000.0).collect()
            }
            other => {
                return Err(MError::new(
                    "MATLAB:datetime:UnrecognizedConvertFrom",
                    format!("'{other}' is not a recognized 'ConvertFrom' value."),
                ));
            }
        };
        let f = if kind == "yyyymmdd" {
            dates::DEFAULT_DATE
        } else {
            dates::DEFAULT_DATETIME
        };
        return with_format(TimeArray::datetimes(x.shape.clone(), ms, f));
    }
    let parts: Vec<Tensor> = pos
        .iter()
        .map(|v| numeric(v, "datetime"))
        .collect::<MResult<_>>()?;
    let (shape, rows, date_only) = match parts.len() {
        1 => {
            let t = &parts[0];
            let c = t.shape.cols();
            if t.shape.ndims() != 2 || !(c == 3 || c == 6) {
                return Err(MError::new(
                    "MATLAB:datetime:InvalidNumericData",
                    "Numeric input data must be a matrix with three or six columns, or else three, six, or seven separate numeric arrays. You can also create datetimes from a single numeric array using the 'ConvertFrom' parameter.",
                ));
            }
            let r = t.shape.rows();
            let rows: Vec<Vec<f64>> = (0..r)
                .map(|i| (0..c).map(|k| t.get_f64(i + k * r)).collect())
                .collect();
            (Shape::col(r), rows, c == 3)
        }
        3 | 6 | 7 => {
            let (shape, rows) = broadcast_all(&parts)?;
            (shape, rows, parts.len() == 3)
        }
        _ => {
            return Err(MError::new(
                "MATLAB:datetime:InvalidNumericData",
                "Numeric input data must be a matrix with three or six columns, or else three, six, or seven separate numeric arrays.",
            ));
        }
    };
    let ms = rows
        .iter()
        .map(|c| {
            let g = |k: usize| c.get(k).copied().unwrap_or(0.0);
            dates::components_to_ms(g(0), g(1), g(2), g(3), g(4), g(5)) + g(6)
        })
        .collect();
    let f = if date_only {
        dates::DEFAULT_DATE
    } else {
        dates::DEFAULT_DATETIME
    };
    with_format(TimeArray::datetimes(shape, ms, f))
}

fn size_of(a: &[Value]) -> MResult<Shape> {
    if a.is_empty() {
        return Ok(Shape::scalar());
    }
    Ok(super::size_args(a)?.shape)
}

fn nat(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (pos, opts) = options(&a, &["Format", "TimeZone"])?;
    let shape = size_of(pos)?;
    let mut t = TimeArray::datetimes(
        shape.clone(),
        vec![f64::NAN; shape.numel()],
        dates::DEFAULT_DATETIME,
    );
    if let Some(f) = opt(&opts, "Format") {
        t.format = check_format(Kind::DateTime, &text_arg(f, "NaT")?)?;
    }
    one(t.into_value())
}

fn duration(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (pos, opts) = options(&a, &["Format", "InputFormat"])?;
    let format = match opt(&opts, "Format") {
        Some(v) => check_format(Kind::Duration, &text_arg(v, "duration")?)?,
        None => dates::DEFAULT_DURATION.to_string(),
    };
    if let [v] = pos {
        if let Some(t) = time_of(v) {
            if t.kind == Kind::Duration {
                let mut t = t.clone();
                if opt(&opts, "Format").is_some() {
                    t.format = format;
                }
                return one(t.into_value());
            }
        }
    }
    let parts: Vec<Tensor> = pos
        .iter()
        .map(|v| numeric(v, "duration"))
        .collect::<MResult<_>>()?;
    let (shape, rows) = match parts.len() {
        1 => {
            let t = &parts[0];
            if t.shape.ndims() != 2 || t.shape.cols() != 3 {
                return Err(MError::new(
                    "MATLAB:duration:InvalidNumericData",
                    "Numeric input data must be a matrix with three columns, or else three or four separate numeric arrays.",
                ));
            }
            let r = t.shape.rows();
            (
                Shape::col(r),
                (0..r)
                    .map(|i| (0..3).map(|k| t.get_f64(i + k * r)).collect())
                    .collect(),
            )
        }
        3 | 4 => broadcast_all(&parts)?,
        _ => {
            return Err(MError::new(
                "MATLAB:duration:InvalidNumericData",
                "Numeric input data must be a matrix with three columns, or else three or four separate numeric arrays.",
            ));
        }
    };
    let ms = rows
        .iter()
        .map(|c: &Vec<f64>| {
            let g = |k: usize| c.get(k).copied().unwrap_or(0.0);
            g(0) * 3_600_000.0 + g(1) * 60_000.0 + g(2) * 1000.0 + g(3)
        })
        .collect();
    one(TimeArray::durations(shape, ms, &format).into_value())
}

/// years/days/hours/...: numbers to durations, or durations to numbers in the unit.
fn unit_duration(a: &[Value], ms_per: f64, fmt: &str, name: &str) -> R {
    let Some(x) = a.first() else {
        return one(TimeArray::durations(Shape::scalar(), vec![ms_per], fmt).into_value());
    };
    if let Some(t) = time_of(x) {
        if t.kind != Kind::Duration {
            return Err(bad_arg(
                name,
                format!(
                    "Expected a duration or numbers, not a {}.",
                    t.kind.class_name()
                ),
            ));
        }
        return one(Tensor::f64(
            t.shape.clone(),
            t.ms.iter().map(|m| m / ms_per).collect(),
        ));
    }
    let v = numeric(x, name)?;
    let ms = v.to_f64().iter().map(|x| x * ms_per).collect();
    one(TimeArray::durations(v.shape.clone(), ms, fmt).into_value())
}

fn years(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    unit_duration(&a, 365.2425 * DAY, "y", "years")
}
fn days(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    unit_duration(&a, DAY, "d", "days")
}
fn hours(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    unit_duration(&a, 3_600_000.0, "h", "hours")
}
fn minutes(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    unit_duration(&a, 60_000.0, "m", "minutes")
}
fn seconds(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    unit_duration(&a, 1000.0, "s", "seconds")
}
fn milliseconds(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    unit_duration(&a, 1.0, "s", "milliseconds")
}

fn cal_unit(a: &[Value], months: f64, days: f64, name: &str) -> R {
    let v = match a.first() {
        Some(x) => numeric(x, name)?,
        None => Tensor::scalar_f64(1.0),
    };
    let vals = v.to_f64();
    if vals.iter().any(|x| x.fract() != 0.0) {
        return Err(MError::new(
            "MATLAB:calendarDuration:NonIntegerInput",
            "Calendar durations must be whole numbers of their units.",
        ));
    }
    let n = vals.len();
    one(TimeArray::caldurations(
        v.shape.clone(),
        vals.iter().map(|x| x * months).collect(),
        vals.iter().map(|x| x * days).collect(),
        vec![0.0; n],
    )
    .into_value())
}

fn calyears(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    cal_unit(&a, 12.0, 0.0, "calyears")
}
fn calquarters(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    cal_unit(&a, 3.0, 0.0, "calquarters")
}
fn calmonths(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    cal_unit(&a, 1.0, 0.0, "calmonths")
}
fn calweeks(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    cal_unit(&a, 0.0, 7.0, "calweeks")
}
fn caldays(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    cal_unit(&a, 0.0, 1.0, "caldays")
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
        let (x, y) = (t1.ms[i], t2.ms[j]);
        if !x.is_finite() || !y.is_finite() {
            mo.push(f64::NAN);
            dd.push(f64::NAN);
            tt.push(f64::NAN);
            continue;
        }
        let (cx, cy) = (dates::ms_to_components(x), dates::ms_to_components(y));
        // whole months that fit, then whole days, then the time
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
        let base = shift(months);
        let rest = y - base;
        let days = (rest / DAY).trunc();
        mo.push(months);
        dd.push(days);
        tt.push(rest - days * DAY);
    }
    one(TimeArray::caldurations(out, mo, dd, tt).into_value())
}
