//! Dates and times as text: `datestr`'s symbolic formats (yyyy mmm dd HH:MM:SS ...) and its
//! numeric codes 0-31, datetime's CLDR-style formats (uuuu MMM dd HH:mm:ss ...), duration and
//! calendarDuration display.

use super::civil::{self, day_name, month_name};
use crate::display::cformat::format_g;

/// `datestr`'s predefined formats, by code.
pub const DATESTR_FORMATS: [&str; 32] = [
    "dd-mmm-yyyy HH:MM:SS",
    "dd-mmm-yyyy",
    "mm/dd/yy",
    "mmm",
    "m",
    "mm",
    "mm/dd",
    "dd",
    "ddd",
    "d",
    "yyyy",
    "yy",
    "mmmyy",
    "HH:MM:SS",
    "HH:MM:SS PM",
    "HH:MM",
    "HH:MM PM",
    "QQ-YY",
    "QQ",
    "dd/mm",
    "dd/mm/yy",
    "mmm.dd,yyyy HH:MM:SS",
    "mmm.dd,yyyy",
    "mm/dd/yyyy",
    "dd/mm/yyyy",
    "yy/mm/dd",
    "yyyy/mm/dd",
    "QQ-YYYY",
    "mmmyyyy",
    "yyyy-mm-dd",
    "yyyymmddTHHMMSS",
    "yyyy-mm-dd HH:MM:SS",
];

/// A symbol of a datestr format.
#[derive(Clone, Debug, PartialEq)]
pub enum DsTok {
    Year4,
    Year2,
    MonthName,
    MonthAbbr,
    Month2,
    MonthLetter,
    DayName,
    DayAbbr,
    Day2,
    DayLetter,
    Hour,
    Minute,
    Second,
    Millis,
    AmPm,
    Quarter,
    Lit(char),
}

/// Splits a datestr format into symbols (longest match first; `m` is month, `M` minute).
pub fn datestr_tokens(f: &str) -> Vec<DsTok> {
    let c: Vec<char> = f.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let run = |i: usize, ch: &[char]| -> usize {
        let mut n = 0;
        while i + n < c.len() && ch.contains(&c[i + n]) {
            n += 1;
        }
        n
    };
    while i < c.len() {
        let rest: String = c[i..].iter().take(2).collect();
        if rest == "AM" || rest == "PM" {
            out.push(DsTok::AmPm);
            i += 2;
            continue;
        }
        match c[i] {
            'y' | 'Y' => {
                let n = run(i, &['y', 'Y']);
                if n >= 4 {
                    out.push(DsTok::Year4);
                    i += 4;
                } else if n >= 2 {
                    out.push(DsTok::Year2);
                    i += 2;
                } else {
                    out.push(DsTok::Lit(c[i]));
                    i += 1;
                }
            }
            'm' => {
                let n = run(i, &['m']).min(4);
                out.push(match n {
                    4 => DsTok::MonthName,
                    3 => DsTok::MonthAbbr,
                    2 => DsTok::Month2,
                    _ => DsTok::MonthLetter,
                });
                i += n;
            }
            'd' | 'D' => {
                let n = run(i, &['d', 'D']).min(4);
                out.push(match n {
                    4 => DsTok::DayName,
                    3 => DsTok::DayAbbr,
                    2 => DsTok::Day2,
                    _ => DsTok::DayLetter,
                });
                i += n;
            }
            'H' if run(i, &['H']) >= 2 => {
                out.push(DsTok::Hour);
                i += 2;
            }
            'M' if run(i, &['M']) >= 2 => {
                out.push(DsTok::Minute);
                i += 2;
            }
            'S' | 's' if run(i, &['S', 's']) >= 2 => {
                out.push(DsTok::Second);
                i += 2;
            }
            'F' if run(i, &['F']) >= 3 => {
                out.push(DsTok::Millis);
                i += 3;
            }
            'Q' if run(i, &['Q']) >= 2 => {
                out.push(DsTok::Quarter);
                i += 2;
            }
            ch => {
                out.push(DsTok::Lit(ch));
                i += 1;
            }
        }
    }
    out
}

/// A date vector whose seconds' fraction is .9995 or more, moved to the next second (what
/// datestr shows; Octave's rule).
pub fn round_seconds(v: [f64; 6]) -> [f64; 6] {
    if v[5] - v[5].trunc() >= 0.9995 {
        let s = v[5].trunc() + 1.0;
        return civil::datevec(civil::datenum(v[0], v[1], v[2], v[3], v[4], s));
    }
    v
}

/// A date vector as text in a datestr format. Seconds are shown truncated, except that a
/// fraction of .9995 or more rounds up (what FFF would show as 1000).
pub fn datestr_text(v: [f64; 6], toks: &[DsTok]) -> String {
    let [y, mo, d, h, mi, s] = round_seconds(v);
    let ampm = toks.contains(&DsTok::AmPm);
    let wd = civil::weekday(civil::datenum(y, mo, d, 0.0, 0.0, 0.0)) as i64;
    let mut out = String::new();
    for t in toks {
        match t {
            DsTok::Year4 => out.push_str(&format!("{:04}", y as i64)),
            DsTok::Year2 => out.push_str(&format!("{:02}", (y as i64).rem_euclid(100))),
            DsTok::MonthName => out.push_str(month_name(mo as i64)),
            DsTok::MonthAbbr => out.push_str(&month_name(mo as i64)[..3]),
            DsTok::Month2 => out.push_str(&format!("{:02}", mo as i64)),
            DsTok::MonthLetter => out.push_str(&month_name(mo as i64)[..1]),
            DsTok::DayName => out.push_str(day_name(wd)),
            DsTok::DayAbbr => out.push_str(&day_name(wd)[..3]),
            DsTok::Day2 => out.push_str(&format!("{:02}", d as i64)),
            DsTok::DayLetter => out.push_str(&day_name(wd)[..1]),
            DsTok::Hour if ampm => {
                let h12 = match (h as i64) % 12 {
                    0 => 12,
                    x => x,
                };
                out.push_str(&format!("{h12:2}"));
            }
            DsTok::Hour => out.push_str(&format!("{:02}", h as i64)),
            DsTok::Minute => out.push_str(&format!("{:02}", mi as i64)),
            DsTok::Second => out.push_str(&format!("{:02}", s.trunc() as i64)),
            DsTok::Millis => {
                let ms = ((s - s.trunc()) * 1000.0).round().min(999.0);
                out.push_str(&format!("{:03}", ms as i64));
            }
            DsTok::AmPm => out.push_str(if h >= 12.0 { "PM" } else { "AM" }),
            DsTok::Quarter => out.push_str(&format!("Q{}", ((mo as i64) + 2) / 3)),
            DsTok::Lit(c) => out.push(*c),
        }
    }
    out
}

// ---- datetime's formats (Unicode CLDR letters) ----

/// The Format of a datetime as text, for one element given in milliseconds.
pub fn datetime_text(ms: f64, fmt: &str) -> String {
    if ms.is_nan() {
        return "NaT".into();
    }
    if ms.is_infinite() {
        return if ms > 0.0 { "Inf" } else { "-Inf" }.into();
    }
    let [y, mo, d, h, mi, s] = super::ms_to_components(ms);
    let (y, mo, d, h, mi) = (y as i64, mo as i64, d as i64, h as i64, mi as i64);
    let day_num = (ms / civil::MS_PER_DAY).floor();
    let wd = civil::weekday(day_num + civil::UNIX_DATENUM) as i64;
    let doy = day_num as i64 - civil::days_from_civil(y, 1, 1) + 1;
    let c: Vec<char> = fmt.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch == '\'' {
            // quoted literal text; '' is a quote
            if c.get(i + 1) == Some(&'\'') {
                out.push('\'');
                i += 2;
                continue;
            }
            i += 1;
            while i < c.len() {
                if c[i] == '\'' {
                    if c.get(i + 1) == Some(&'\'') {
                        out.push('\'');
                        i += 2;
                        continue;
                    }
                    break;
                }
                out.push(c[i]);
                i += 1;
            }
            i += 1;
            continue;
        }
        if !ch.is_ascii_alphabetic() {
            out.push(ch);
            i += 1;
            continue;
        }
        let mut n = 1;
        while i + n < c.len() && c[i + n] == ch {
            n += 1;
        }
        i += n;
        let num = |x: i64, width: usize| format!("{:0width$}", x, width = width);
        let piece = match ch {
            'y' | 'u' => match n {
                2 => num(y.rem_euclid(100), 2),
                _ if y < 0 => format!("-{}", num(-y, n)),
                _ => num(y, n),
            },
            'Q' => {
                let q = (mo + 2) / 3;
                match n {
                    1 | 2 => num(q, n),
                    3 => format!("Q{q}"),
                    _ => format!(
                        "{} quarter",
                        ["1st", "2nd", "3rd", "4th"][(q - 1).clamp(0, 3) as usize]
                    ),
                }
            }
            'M' | 'L' => match n {
                1 | 2 => num(mo, n),
                3 => month_name(mo)[..3].to_string(),
                4 => month_name(mo).to_string(),
                _ => month_name(mo)[..1].to_string(),
            },
            'd' => num(d, n),
            'D' => num(doy, n),
            'E' | 'e' if ch == 'e' && n <= 2 => num(wd, n),
            'E' | 'e' => match n {
                4 => day_name(wd).to_string(),
                5 => day_name(wd)[..1].to_string(),
                _ => day_name(wd)[..3].to_string(),
            },
            'a' => if h >= 12 { "PM" } else { "AM" }.to_string(),
            'h' => num(if h % 12 == 0 { 12 } else { h % 12 }, n),
            'K' => num(h % 12, n),
            'H' => num(h, n),
            'k' => num(if h == 0 { 24 } else { h }, n),
            'm' => num(mi, n),
            's' => num(s.trunc() as i64, n),
            'S' => fraction_digits(s, n),
            // time zones: an unzoned datetime shows none
            'z' | 'Z' | 'x' | 'X' | 'O' | 'v' | 'V' => String::new(),
            'G' => if y > 0 { "CE" } else { "BCE" }.to_string(),
            _ => std::iter::repeat_n(ch, n).collect(),
        };
        out.push_str(&piece);
    }
    out
}

/// The first `n` digits of the fraction of `s`, truncated.
fn fraction_digits(s: f64, n: usize) -> String {
    let n = n.min(9);
    let frac = s - s.trunc();
    let scaled = (frac * 10f64.powi(n as i32) + 1e-6).floor() as i64;
    format!("{:0n$}", scaled.min(10i64.pow(n as u32) - 1), n = n)
}

// ---- durations ----

/// A number as a duration shows it with a unit: up to 5 significant digits.
pub fn short_number(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Inf" } else { "-Inf" }.into();
    }
    format_g(x, 5, false)
}

/// One duration in its format: `hh:mm:ss` (with `dd:`, `mm:ss`, `hh:mm`, `.SSS` variants)
/// or a number of one unit (`y d h m s`).
pub fn duration_text(ms: f64, fmt: &str) -> String {
    let unit = |div: f64, one: &str, many: &str| {
        let x = ms / div;
        let word = if x == 1.0 { one } else { many };
        format!("{} {word}", short_number(x))
    };
    match fmt {
        "y" => return unit(365.2425 * 86_400_000.0, "yr", "yrs"),
        "d" => return unit(86_400_000.0, "day", "days"),
        "h" => return unit(3_600_000.0, "hr", "hr"),
        "m" => return unit(60_000.0, "min", "min"),
        "s" => return unit(1000.0, "sec", "sec"),
        _ => {}
    }
    if ms.is_nan() {
        return "NaN".into();
    }
    if ms.is_infinite() {
        return if ms > 0.0 { "Inf" } else { "-Inf" }.into();
    }
    let neg = ms < 0.0;
    let a = ms.abs();
    let (main, frac_digits) = match fmt.split_once('.') {
        Some((m, f)) => (m, f.chars().filter(|&c| c == 'S').count()),
        None => (fmt, 0),
    };
    let total_s = a / 1000.0;
    let whole = total_s.trunc();
    let frac = total_s - whole;
    let fields: Vec<&str> = main.split(':').collect();
    let mut rest = whole;
    let mut parts = Vec::new();
    for (k, f) in fields.iter().enumerate() {
        let first = k == 0;
        let size = match f.chars().next() {
            Some('d') => 86400.0,
            Some('h') => 3600.0,
            Some('m') => 60.0,
            _ => 1.0,
        };
        let v = (rest / size).floor();
        rest -= v * size;
        let _ = first;
        parts.push(format!("{:02}", v as i64));
    }
    let mut out = parts.join(":");
    if frac_digits > 0 {
        out.push('.');
        out.push_str(&fraction_digits(frac, frac_digits));
    }
    if neg { format!("-{out}") } else { out }
}

/// One calendarDuration as MATLAB shows it: `1y 2mo 3d 01:00:00`, or `0d`.
pub fn calduration_text(months: f64, days: f64, ms: f64) -> String {
    if months.is_nan() || days.is_nan() || ms.is_nan() {
        return "NaN".into();
    }
    let mut parts = Vec::new();
    let y = (months / 12.0).trunc();
    let mo = months - y * 12.0;
    if y != 0.0 {
        parts.push(format!("{}y", y as i64));
    }
    if mo != 0.0 {
        parts.push(format!("{}mo", mo as i64));
    }
    if days != 0.0 {
        parts.push(format!("{}d", short_number(days)));
    }
    if ms != 0.0 {
        parts.push(duration_text(ms, "hh:mm:ss"));
    }
    if parts.is_empty() {
        "0d".into()
    } else {
        parts.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn formats() {
        let v = [2024.0, 3.0, 5.0, 15.0, 4.0, 7.25];
        let f = |s: &str| datestr_text(v, &datestr_tokens(s));
        assert_eq!(f(DATESTR_FORMATS[0]), "05-Mar-2024 15:04:07");
        assert_eq!(f("HH:MM PM"), " 3:04 PM");
        assert_eq!(f("dddd mmmm d yy FFF"), "Tuesday March T 24 250");
        assert_eq!(f(DATESTR_FORMATS[30]), "20240305T150407");
        let ms = super::super::components_to_ms(2024.0, 3.0, 5.0, 15.0, 4.0, 7.25);
        assert_eq!(
            datetime_text(ms, "yyyy-MM-dd'T'HH:mm:ss.SSS EEE a"),
            "2024-03-05T15:04:07.250 Tue PM"
        );
        assert_eq!(duration_text(5_400_000.0, "hh:mm:ss"), "01:30:00");
        assert_eq!(duration_text(-5_400_000.0, "hh:mm:ss"), "-01:30:00");
        assert_eq!(duration_text(5_400_000.0, "h"), "1.5 hr");
        assert_eq!(duration_text(86_400_000.0, "d"), "1 day");
    }
}
