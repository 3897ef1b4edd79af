//! Dates and times: serial date numbers (`datenum` and its family) and the `datetime`,
//! `duration` and `calendarDuration` arrays.
//!
//! A datetime array holds milliseconds since 1970-01-01 00:00 of an unzoned (local) clock,
//! NaN for NaT; a duration array holds milliseconds; a calendarDuration array holds months,
//! days and a time part in milliseconds per element. Each has a shape and a display format.

pub mod arith;
pub mod array;
pub mod civil;
pub mod display;
pub mod format;
pub mod parse;
pub mod span_text;
pub mod zone;

use crate::interp::error::MError;
use crate::values::containers::Object;
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    DateTime,
    Duration,
    CalDuration,
}

impl Kind {
    pub fn class_name(self) -> &'static str {
        match self {
            Kind::DateTime => "datetime",
            Kind::Duration => "duration",
            Kind::CalDuration => "calendarDuration",
        }
    }
}

pub const DEFAULT_DATETIME: &str = "dd-MMM-uuuu HH:mm:ss";
pub const DEFAULT_DATE: &str = "dd-MMM-uuuu";
pub const DEFAULT_DURATION: &str = "hh:mm:ss";

#[derive(Clone, Debug)]
pub struct TimeArray {
    pub kind: Kind,
    pub shape: Shape,
    /// datetime: ms since 1970-01-01 (NaN = NaT); duration and a calendarDuration's time
    /// part: ms.
    pub ms: Vec<f64>,
    /// calendarDuration only (empty otherwise): whole months and days per element.
    pub months: Vec<f64>,
    pub days: Vec<f64>,
    pub format: String,
    /// datetime only: the TimeZone name ('' = unzoned); values are wall-clock in it.
    pub tz: String,
}

impl TimeArray {
    pub fn datetimes(shape: Shape, ms: Vec<f64>, format: &str) -> TimeArray {
        TimeArray {
            kind: Kind::DateTime,
            shape,
            ms,
            months: vec![],
            days: vec![],
            format: format.to_string(),
            tz: String::new(),
        }
    }
    pub fn durations(shape: Shape, ms: Vec<f64>, format: &str) -> TimeArray {
        TimeArray {
            kind: Kind::Duration,
            shape,
            ms,
            months: vec![],
            days: vec![],
            format: format.to_string(),
            tz: String::new(),
        }
    }
    pub fn caldurations(shape: Shape, months: Vec<f64>, days: Vec<f64>, ms: Vec<f64>) -> TimeArray {
        TimeArray {
            kind: Kind::CalDuration,
            shape,
            ms,
            months,
            days,
            format: String::new(),
            tz: String::new(),
        }
    }
    pub fn numel(&self) -> usize {
        self.ms.len()
    }
    /// The elements at `idx` (positions into this array), as an array of `shape`.
    pub fn gather(&self, idx: &[usize], shape: Shape) -> TimeArray {
        let pick = |v: &Vec<f64>| -> Vec<f64> {
            if v.is_empty() {
                vec![]
            } else {
                idx.iter()
                    .map(|&i| v.get(i).copied().unwrap_or(f64::NAN))
                    .collect()
            }
        };
        TimeArray {
            kind: self.kind,
            shape,
            ms: pick(&self.ms),
            months: pick(&self.months),
            days: pick(&self.days),
            format: self.format.clone(),
            tz: self.tz.clone(),
        }
    }
    /// The value that fills new elements when an array grows: NaT for datetimes, zero for
    /// durations.
    pub fn fill(&self) -> f64 {
        if self.kind == Kind::DateTime {
            f64::NAN
        } else {
            0.0
        }
    }
    pub fn into_value(self) -> Value {
        Value::Object(Rc::new(Object::Time(self)))
    }
    /// A datenum of each element (datetimes only).
    pub fn datenums(&self) -> Vec<f64> {
        self.ms.iter().map(|&m| ms_to_datenum(m)).collect()
    }
}

pub fn ms_to_datenum(ms: f64) -> f64 {
    ms / civil::MS_PER_DAY + civil::UNIX_DATENUM
}

pub fn datenum_to_ms(n: f64) -> f64 {
    // rounded to a microsecond's thousandth: a datenum carries about 10 µs, and this keeps
    // whole seconds whole
    let ms = (n - civil::UNIX_DATENUM) * civil::MS_PER_DAY;
    (ms * 1000.0).round() / 1000.0
}

/// Milliseconds of the civil date and time given as components (carried both ways).
pub fn components_to_ms(y: f64, mo: f64, d: f64, h: f64, mi: f64, s: f64) -> f64 {
    if [y, mo, d, h, mi, s].iter().any(|v| !v.is_finite()) {
        return f64::NAN;
    }
    let day = civil::day_number(y, mo, d.floor()) + 0.0;
    let frac_day = d - d.floor();
    day * civil::MS_PER_DAY
        + frac_day * civil::MS_PER_DAY
        + h * 3_600_000.0
        + mi * 60_000.0
        + s * 1000.0
}

/// The civil components of a datetime's milliseconds: y, mo, d, h, mi, s (s with fraction).
pub fn ms_to_components(ms: f64) -> [f64; 6] {
    // past some 27 million years the day count leaves the calendar's integer range
    if !ms.is_finite() || ms.abs() > 8.64e20 {
        return [f64::NAN; 6];
    }
    let day = (ms / civil::MS_PER_DAY).floor();
    let rest = ms - day * civil::MS_PER_DAY;
    let (y, m, d) = civil::civil_from_days(day as i64);
    let h = (rest / 3_600_000.0).floor();
    let mi = ((rest - h * 3_600_000.0) / 60_000.0).floor();
    let s = (rest - h * 3_600_000.0 - mi * 60_000.0) / 1000.0;
    [y as f64, m as f64, d as f64, h, mi, s]
}

/// The time array behind a value, if it is one.
pub fn time_of(v: &Value) -> Option<&TimeArray> {
    match v {
        Value::Object(o) => match o.as_ref() {
            Object::Time(t) => Some(t),
            _ => None,
        },
        _ => None,
    }
}

pub fn is_time(v: &Value) -> bool {
    time_of(v).is_some()
}

pub fn is_kind(v: &Value, k: Kind) -> bool {
    time_of(v).is_some_and(|t| t.kind == k)
}

pub fn err(id: &str, msg: impl Into<String>) -> MError {
    MError::new(id, msg.into())
}
