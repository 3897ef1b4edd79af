//! Making datetime, duration and calendarDuration arrays: datetime NaT duration years days
//! hours minutes seconds milliseconds calyears calquarters calmonths calweeks caldays (their
//! parts and conversions are in `time_parts`).

use super::dates::broadcast_all;
use super::{Builtin, b, bad_arg, one, text_arg};
use crate::dates::array::{check_format, datetimes_from_text};
use crate::dates::{self, Kind, TimeArray, civil, time_of};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

const DAY: f64 = 86_400_000.0;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("datetime", 0, -1, 1, "datetime, datetime('now'|'today'|'tomorrow'|'yesterday'), datetime(Y,M,D[,H,MI,S[,MS]]), datetime(DateVectors), datetime(text, 'InputFormat', f), datetime(X, 'ConvertFrom', 'datenum'|'posixtime'|'excel'|'juliandate'|'yyyymmdd'), with 'Format', f and 'TimeZone', z ('UTC', 'local', '+02:00', IANA names such as 'Europe/Paris'; t.TimeZone = z moves a zoned array's clock, keeping its instants): points in time.", datetime),
        b("NaT", 0, -1, 1, "NaT, NaT(n), NaT(m, n): Not-a-Time datetimes.", nat),
        b("duration", 1, -1, 1, "duration(H, MI, S[, MS]), duration(X) with X = [H MI S], duration(txt[, 'InputFormat', 'hh:mm:ss']), 'Format', f: lengths of time.", duration),
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
    ]
}

pub(super) fn datetime_arg<'a>(v: &'a Value, name: &str) -> MResult<&'a TimeArray> {
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

/// datetime(...), then its 'TimeZone': 'now' and its relatives are read on the zone's
/// clock, POSIX and epoch times are instants shown on it, and other values are its clock
/// times as given (a zoned datetime argument moves to the new zone).
fn datetime(i: &mut Interp, f: &mut Frame, a: A, n: usize) -> R {
    let zone_at = (0..a.len().saturating_sub(1)).rev().find(|&k| {
        a[k].is_text()
            && a[k]
                .text()
                .is_ok_and(|t| t.eq_ignore_ascii_case("TimeZone"))
    });
    let Some(k) = zone_at else {
        return datetime_clock(i, f, a, n);
    };
    let zone = dates::zone::parse(&text_arg(&a[k + 1], "datetime")?)?;
    let word = a
        .first()
        .filter(|v| v.is_text())
        .and_then(|v| v.text().ok())
        .map(|t| t.to_ascii_lowercase());
    let relative = k == 0
        || matches!(
            word.as_deref(),
            Some("now" | "today" | "tomorrow" | "yesterday")
        );
    let instants = a.windows(2).any(|w| {
        w[0].text()
            .is_ok_and(|t| t.eq_ignore_ascii_case("ConvertFrom"))
            && w[1].text().is_ok_and(|t| {
                t.eq_ignore_ascii_case("posixtime") || t.eq_ignore_ascii_case("epochtime")
            })
    });
    let given_zone = a.first().and_then(time_of).map(|t| t.tz.clone());
    let mut r = datetime_clock(i, f, a, n)?;
    let Some(t) = r.first().and_then(time_of) else {
        return Ok(r);
    };
    let mut t = t.clone();
    if let Some((name, tz)) = &zone {
        let system = jiff::tz::TimeZone::system();
        match given_zone.as_deref().and_then(dates::zone::of) {
            Some(from) => dates::zone::convert(&mut t.ms, &from, tz),
            None if relative => {
                // the local clock's now, moved to the zone's clock; 'today' and its
                // neighbours keep their whole days from that day
                let local = now_ms();
                let there = dates::zone::from_utc(dates::zone::to_utc(local, &system), tz);
                let date_only = !matches!(word.as_deref(), None | Some("now"));
                for m in &mut t.ms {
                    *m = if date_only {
                        (there / DAY).floor() * DAY + (*m - (local / DAY).floor() * DAY)
                    } else {
                        there
                    };
                }
            }
            None if instants => {
                for m in &mut t.ms {
                    *m = dates::zone::from_utc(*m, tz);
                }
            }
            None => {}
        }
        t.tz = name.clone();
    } else {
        t.tz = String::new();
    }
    r[0] = t.into_value();
    Ok(r)
}

fn datetime_clock(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
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
        if v.is_char() || matches!(v, Value::Str(_) | Value::Cell(_)) {
            let infmt = match opt(&opts, "InputFormat") {
                Some(f) => Some(text_arg(f, "duration")?),
                None => None,
            };
            return one(
                dates::span_text::durations_from_text(v, infmt.as_deref(), &format)?.into_value(),
            );
        }
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
