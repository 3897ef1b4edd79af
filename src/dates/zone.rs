//! Time zones of datetime arrays (jiff's bundled IANA database, so no system files are
//! needed). A zoned array keeps the wall-clock milliseconds of its zone, as an unzoned one
//! does, and converts to instants (UTC) where instants matter: arithmetic with durations,
//! differences, comparisons and changing the zone.

use crate::interp::error::{MError, MResult};
use jiff::Timestamp;
use jiff::tz::{Offset, TimeZone};

/// A zone by MATLAB's names: '' (none), 'UTC', 'local' (the system's zone), a fixed offset
/// ('+02:00', '-0530', '+03') or an IANA name ('Europe/Paris'). Returns the name the
/// array shows (`t.TimeZone`) and the zone.
pub fn parse(name: &str) -> MResult<Option<(String, TimeZone)>> {
    let n = name.trim();
    if n.is_empty() {
        return Ok(None);
    }
    if n.eq_ignore_ascii_case("utc") || n.eq_ignore_ascii_case("z") {
        return Ok(Some(("UTC".into(), TimeZone::UTC)));
    }
    if n.eq_ignore_ascii_case("local") {
        let tz = TimeZone::system();
        let shown = tz.iana_name().unwrap_or("local").to_string();
        return Ok(Some((shown, tz)));
    }
    if let Some(secs) = fixed_offset(n) {
        let off = Offset::from_seconds(secs).map_err(|_| unknown(name))?;
        let sign = if secs < 0 { '-' } else { '+' };
        let a = secs.abs();
        let shown = format!("{sign}{:02}:{:02}", a / 3600, a % 3600 / 60);
        return Ok(Some((shown, TimeZone::fixed(off))));
    }
    match TimeZone::get(n) {
        Ok(tz) => Ok(Some((tz.iana_name().unwrap_or(n).to_string(), tz))),
        Err(_) => Err(unknown(name)),
    }
}

fn unknown(name: &str) -> MError {
    MError::new(
        "MATLAB:datetime:UnknownTimeZone",
        format!(
            "Unknown time zone '{name}': use '', 'UTC', 'local', an offset such as '+02:00', or an IANA name such as 'Europe/Paris'."
        ),
    )
}

/// Seconds of '+HH:MM', '+HHMM' or '+HH' (None if it is not one).
fn fixed_offset(s: &str) -> Option<i32> {
    let (sign, rest) = match s.as_bytes().first()? {
        b'+' => (1, &s[1..]),
        b'-' => (-1, &s[1..]),
        _ => return None,
    };
    let digits: String = rest.chars().filter(|c| *c != ':').collect();
    if !digits.chars().all(|c| c.is_ascii_digit()) || !matches!(digits.len(), 2 | 4) {
        return None;
    }
    let h: i32 = digits.get(0..2)?.parse().ok()?;
    let m: i32 = digits
        .get(2..)
        .filter(|d| !d.is_empty())
        .map_or(Some(0), |d| d.parse().ok())?;
    (h <= 18 && m < 60).then_some(sign * (h * 3600 + m * 60))
}

/// The zone named by an array's TimeZone text (None for unzoned or unknown).
pub fn of(name: &str) -> Option<TimeZone> {
    parse(name).ok().flatten().map(|(_, tz)| tz)
}

/// The zone's offset from UTC at an instant, in ms.
fn offset_ms(tz: &TimeZone, utc_ms: f64) -> f64 {
    match Timestamp::from_millisecond(utc_ms as i64) {
        Ok(ts) => tz.to_offset(ts).seconds() as f64 * 1000.0,
        Err(_) => 0.0,
    }
}

/// The instant (UTC ms) of a wall-clock time in the zone (a skipped or repeated hour
/// resolves to the offset before the change).
pub fn to_utc(wall_ms: f64, tz: &TimeZone) -> f64 {
    if !wall_ms.is_finite() {
        return wall_ms;
    }
    let guess = wall_ms - offset_ms(tz, wall_ms);
    wall_ms - offset_ms(tz, guess)
}

/// The wall-clock time in the zone of an instant (UTC ms).
pub fn from_utc(utc_ms: f64, tz: &TimeZone) -> f64 {
    if !utc_ms.is_finite() {
        return utc_ms;
    }
    utc_ms + offset_ms(tz, utc_ms)
}

/// Moves wall-clock values from one zone to another (same instants).
pub fn convert(ms: &mut [f64], from: &TimeZone, to: &TimeZone) {
    for m in ms {
        *m = from_utc(to_utc(*m, from), to);
    }
}
