//! Calendar questions on serial date numbers: weekday eomday calendar addtodate etime
//! is_leap_year.

use super::dates::{broadcast_all, char_matrix, datevec_rows, nums, serials};
use super::{Builtin, b, bad_arg, one, text_arg};
use crate::dates::civil;
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("weekday", 1, 2, 2, "[n, s] = weekday(D), weekday(D, 'long'): day of the week (1 = Sunday) and its name.", weekday),
        b("eomday", 2, 2, 1, "eomday(Y, M): the last day of each month.", eomday),
        b("calendar", 0, 2, 1, "calendar, calendar(d), calendar(y, m): a month's calendar, shown or as a 6x7 matrix.", calendar),
        b("addtodate", 3, 3, 1, "addtodate(D, q, unit): D plus q years, months, weeks, days, hours, minutes, seconds or milliseconds.", addtodate),
        b("etime", 2, 2, 1, "etime(t1, t0): seconds from clock vector t0 to t1.", etime),
        b("is_leap_year", 0, 1, 1, "is_leap_year(Y): true for leap years.", is_leap_year),
    ]
}

fn weekday(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let (shape, d) = serials("weekday", &a[0])?;
    let long = match a.get(1) {
        None => false,
        Some(v) => match text_arg(v, "weekday")?.to_ascii_lowercase().as_str() {
            "long" => true,
            "short" => false,
            other => {
                return Err(bad_arg(
                    "weekday",
                    format!("Unknown format '{other}'; use 'short' or 'long'."),
                ));
            }
        },
    };
    let n: Vec<f64> = d
        .iter()
        .map(|&x| {
            if x.is_finite() {
                civil::weekday(x)
            } else {
                f64::NAN
            }
        })
        .collect();
    let mut out = vec![Value::from(Tensor::f64(shape, n.clone()))];
    if nargout >= 2 {
        let names: Vec<String> = n
            .iter()
            .map(|&w| {
                if w.is_nan() {
                    return String::new();
                }
                let name = civil::day_name(w as i64);
                if long {
                    name.to_string()
                } else {
                    name[..3].to_string()
                }
            })
            .collect();
        out.push(char_matrix(&names));
    }
    Ok(out)
}

fn eomday(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let y = nums(&a[0], "eomday")?;
    let m = nums(&a[1], "eomday")?;
    let (shape, vals) = broadcast_all(&[y, m])?;
    let mut v = Vec::with_capacity(vals.len());
    for c in vals {
        let (y, m) = (c[0], c[1]);
        if !(1.0..=12.0).contains(&m) || m.fract() != 0.0 {
            return Err(MError::new(
                "MATLAB:eomday:NotAMonth",
                "Month must be an integer from 1 to 12.",
            ));
        }
        if !y.is_finite() || y.fract() != 0.0 {
            return Err(MError::new(
                "MATLAB:eomday:NotAYear",
                "Year must be an integer.",
            ));
        }
        v.push(civil::days_in_month(y as i64, m as i64) as f64);
    }
    one(Tensor::f64(shape, v))
}

fn calendar(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let (y, m, day) = match a.len() {
        0 => {
            let v = civil::local_now();
            (v[0], v[1], Some(v[2]))
        }
        1 => {
            let (_, d) = serials("calendar", &a[0])?;
            let n = *d
                .first()
                .ok_or_else(|| bad_arg("calendar", "Expected a date."))?;
            if !n.is_finite() {
                return Err(bad_arg("calendar", "Expected a finite date."));
            }
            let v = civil::datevec(n);
            (v[0], v[1], Some(v[2]))
        }
        _ => {
            let y = a[0].scalar_f64()?;
            let m = a[1].scalar_f64()?;
            if !y.is_finite() || y.fract() != 0.0 || !(1.0..=12.0).contains(&m) || m.fract() != 0.0
            {
                return Err(bad_arg(
                    "calendar",
                    "Expected an integer year and a month from 1 to 12.",
                ));
            }
            (y, m, None)
        }
    };
    // past some 27 million years the day count leaves the calendar's integer range
    if !(y.abs() < 1e7) {
        return Err(bad_arg(
            "calendar",
            "The date is out of the calendar's range.",
        ));
    }
    let first = civil::datenum(y, m, 1.0, 0.0, 0.0, 0.0);
    let ndays = (civil::days_in_month(y as i64, m as i64) as usize).min(31);
    let offset = (civil::weekday(first) as usize).clamp(1, 7) - 1;
    // 6 weeks of 7 days, filled row by row
    let mut cells = [0.0f64; 42];
    for d in 0..ndays {
        if let Some(c) = cells.get_mut(offset + d) {
            *c = (d + 1) as f64;
        }
    }
    if nargout > 0 {
        let mut data = vec![0.0; 42];
        for (k, v) in cells.iter().enumerate() {
            let (r, c) = (k / 7, k % 7);
            data[r + c * 6] = *v;
        }
        return one(Tensor::f64(Shape::matrix(6, 7), data));
    }
    let mut out = format!(
        "                    {} {:.0}\n     S     M    Tu     W    Th     F     S\n",
        &civil::month_name(m as i64)[..3],
        y
    );
    for r in 0..6 {
        let mut line = String::new();
        for c in 0..7 {
            let v = cells[r * 7 + c] as i64;
            let marked = day.is_some_and(|d| d as i64 == v && v > 0);
            line.push_str(&if marked {
                format!("   *{v:2}")
            } else {
                format!("    {v:2}")
            });
        }
        out.push_str(&line);
        out.push('\n');
    }
    let _ = i;
    crate::interp::output::write_str(&out);
    Ok(vec![])
}

fn addtodate(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let d = nums(&a[0], "addtodate")?;
    let q = nums(&a[1], "addtodate")?;
    let mut unit = text_arg(&a[2], "addtodate")?.to_ascii_lowercase();
    if unit.ends_with('s') {
        unit.pop();
    }
    let (shape, vals) = broadcast_all(&[d, q])?;
    let step = match unit.as_str() {
        "week" => Some(7.0),
        "day" => Some(1.0),
        "hour" => Some(1.0 / 24.0),
        "minute" => Some(1.0 / 1440.0),
        "second" => Some(1.0 / 86400.0),
        "millisecond" => Some(1.0 / 86_400_000.0),
        "year" | "month" => None,
        other => {
            return Err(MError::new(
                "MATLAB:addtodate:InvalidDateField",
                format!(
                    "Invalid date field '{other}': use year, month, week, day, hour, minute, second or millisecond."
                ),
            ));
        }
    };
    let v = vals
        .iter()
        .map(|c| {
            let (d, q) = (c[0], c[1]);
            match step {
                Some(s) => d + q * s,
                None => {
                    if q.fract() != 0.0 {
                        return f64::NAN;
                    }
                    if unit == "year" {
                        // years carry through datenum (29 Feb plus a year is 1 Mar), as
                        // Octave does; months stop at the month's end
                        let v = civil::datevec(d);
                        return civil::datenum(v[0] + q, v[1], v[2], v[3], v[4], v[5]);
                    }
                    let months = q;
                    let ms = crate::dates::datenum_to_ms(d);
                    crate::dates::ms_to_datenum(crate::dates::arith::shift_calendar(
                        ms, months, 0.0, 0.0,
                    ))
                }
            }
        })
        .collect::<Vec<f64>>();
    if step.is_none() && vals.iter().any(|c| c[1].fract() != 0.0) {
        return Err(MError::new(
            "MATLAB:addtodate:NonIntegerValue",
            "The quantity of years or months to add must be an integer.",
        ));
    }
    one(Tensor::f64(shape, v))
}

fn etime(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t1 = nums(&a[0], "etime")?;
    let t0 = nums(&a[1], "etime")?;
    if t1.shape.cols() != 6 || t0.shape.cols() != 6 {
        return Err(bad_arg(
            "etime",
            "Inputs must be clock vectors [Y M D H MI S] (6 columns).",
        ));
    }
    let (r1, r0) = (datevec_rows(&t1), datevec_rows(&t0));
    if r1.len() != r0.len() && r1.len() != 1 && r0.len() != 1 {
        return Err(bad_arg(
            "etime",
            "Inputs must have the same number of rows.",
        ));
    }
    let n = r1.len().max(r0.len());
    let secs = |v: &[f64; 6]| v[3] * 3600.0 + v[4] * 60.0 + v[5];
    let out = (0..n)
        .map(|i| {
            let a = &r1[i.min(r1.len() - 1)];
            let b = &r0[i.min(r0.len() - 1)];
            let days = civil::datenum(a[0], a[1], a[2], 0.0, 0.0, 0.0)
                - civil::datenum(b[0], b[1], b[2], 0.0, 0.0, 0.0);
            86400.0 * days + secs(a) - secs(b)
        })
        .collect();
    one(Tensor::f64(Shape::col(n), out))
}

fn is_leap_year(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let y = match a.first() {
        Some(v) => nums(v, "is_leap_year")?,
        None => Tensor::scalar_f64(civil::local_now()[0]),
    };
    let v = y
        .to_f64()
        .iter()
        .map(|&x| x.fract() == 0.0 && civil::is_leap(x as i64))
        .collect();
    one(Tensor::bools(y.shape.clone(), v))
}
