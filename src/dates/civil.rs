//! Proleptic Gregorian calendar arithmetic on day numbers. Written out here rather than taken
//! from a crate because MATLAB's serial dates reach any year (year 0, negative years, carries
//! far out of range), where calendar crates stop at ±9999.

/// Days from 1970-01-01 to the civil date (y, m, d), m in 1..=12 (Hinnant's algorithm).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// The civil date (y, m, d) of a day count from 1970-01-01.
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// MATLAB's serial date number of 1970-01-01 (`datenum(1970,1,1)`).
pub const UNIX_DATENUM: f64 = 719529.0;
pub const MS_PER_DAY: f64 = 86_400_000.0;

pub fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

pub fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Saturating conversion for year/month values a user gives (they may be huge or NaN).
fn int(x: f64) -> i64 {
    if x.is_nan() {
        0
    } else {
        x.clamp(-1e15, 1e15) as i64
    }
}

/// Day number (days from 1970-01-01) of day `d` of month `m` of year `y`, with the month
/// carried into the year both ways (datetime's rule) and the day added linearly.
pub fn day_number(y: f64, m: f64, d: f64) -> f64 {
    let (y, m) = (int(y.floor()), int(m.floor()));
    let y = y + (m - 1).div_euclid(12);
    let m = (m - 1).rem_euclid(12) + 1;
    days_from_civil(y, m, 1) as f64 + d - 1.0
}

/// `datenum(y, mo, d, h, mi, s)`: months below 1 count as 1 and months past 12 carry into the
/// year (MATLAB's datenum rules); days, hours, minutes and seconds carry linearly.
pub fn datenum(y: f64, mo: f64, d: f64, h: f64, mi: f64, s: f64) -> f64 {
    if [y, mo, d, h, mi, s].iter().any(|v| !v.is_finite()) {
        return if [y, mo, d, h, mi, s].iter().any(|v| v.is_nan()) {
            f64::NAN
        } else {
            y + mo + d + h + mi + s
        };
    }
    let mo = mo.max(1.0);
    let (whole, frac) = (mo.floor(), mo - mo.floor());
    let mut day = day_number(y, whole, d) + UNIX_DATENUM;
    if frac > 0.0 {
        // a fractional month is that fraction of the month's length (Octave's rule)
        let yy = int(y.floor()) + (int(whole) - 1).div_euclid(12);
        let mm = (int(whole) - 1).rem_euclid(12) + 1;
        day += frac * days_in_month(yy, mm) as f64;
    }
    let secs = h * 3600.0 + mi * 60.0 + s;
    day + secs / 86400.0
}

/// A date vector `[y mo d h mi s]` of a serial date number, the seconds rounded to the
/// precision the number carries (as Octave's datevec does) so that 10:30 stays 10:30:00.
pub fn datevec(n: f64) -> [f64; 6] {
    if !n.is_finite() || n.abs() > 1e13 {
        return [if n.is_finite() { f64::NAN } else { n }; 6];
    }
    let day = n.floor();
    let (y, m, d) = civil_from_days(day as i64 - UNIX_DATENUM as i64);
    let frac = n - day;
    let tmps = (f64::EPSILON * 86400.0 * n).abs();
    let srnd = if tmps == 0.0 {
        1.0
    } else {
        2f64.powf((-tmps.log2()).floor())
    };
    let mut s = (86400.0 * frac * srnd).round() / srnd;
    if s >= 86400.0 {
        // rounding reached the next midnight
        let (y, m, d) = civil_from_days(day as i64 + 1 - UNIX_DATENUM as i64);
        return [y as f64, m as f64, d as f64, 0.0, 0.0, 0.0];
    }
    let h = (s / 3600.0).floor();
    s -= 3600.0 * h;
    let mi = (s / 60.0).floor();
    s -= 60.0 * mi;
    [y as f64, m as f64, d as f64, h, mi, s]
}

/// Day of the week of a serial date number, 1 = Sunday ... 7 = Saturday.
pub fn weekday(n: f64) -> f64 {
    // datenum 1 (1-Jan-0000) was a Saturday
    (n.floor() - 2.0).rem_euclid(7.0) + 1.0
}

pub const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

pub const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

pub fn month_name(m: i64) -> &'static str {
    MONTHS[((m - 1).rem_euclid(12)) as usize]
}

pub fn day_name(w: i64) -> &'static str {
    DAYS[((w - 1).rem_euclid(7)) as usize]
}

/// The local wall-clock time now: (y, mo, d, h, mi, s with fraction), through the system's
/// time zone database (jiff reads TZ and /etc/localtime).
pub fn local_now() -> [f64; 6] {
    let z = jiff::ZonedDateTime::now();
    let s = z.second() as f64 + z.subsec_nanosecond() as f64 * 1e-9;
    [
        z.year() as f64,
        z.month() as f64,
        z.day() as f64,
        z.hour() as f64,
        z.minute() as f64,
        s,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn round_trips() {
        for z in [-800_000i64, -719_528, -1, 0, 1, 19_797, 2_932_896] {
            let (y, m, d) = civil_from_days(z);
            assert_eq!(days_from_civil(y, m, d), z);
        }
        assert_eq!(datenum(0.0, 1.0, 1.0, 0.0, 0.0, 0.0), 1.0);
        assert_eq!(datenum(1970.0, 1.0, 1.0, 0.0, 0.0, 0.0), UNIX_DATENUM);
        assert_eq!(datenum(2000.0, 13.0, 1.0, 0.0, 0.0, 0.0), 730852.0);
        assert_eq!(weekday(738797.0), 2.0); // 3-Oct-2022, a Monday
    }
}
