//! Durations from text (`duration('01:30:00')`): the colon forms MATLAB reads, `dd:hh:mm:ss`,
//! `hh:mm:ss`, `mm:ss` and `hh:mm`, seconds with a fraction, an optional leading sign.

use super::TimeArray;
use crate::interp::error::{MError, MResult};
use crate::values::value::Value;

const UNIT_MS: [(&str, f64); 4] = [
    ("dd", 86_400_000.0),
    ("hh", 3_600_000.0),
    ("mm", 60_000.0),
    ("ss", 1000.0),
];

/// Milliseconds per field of an input format such as `hh:mm:ss.SSS` (None: not one of the
/// duration input formats).
fn fields(fmt: &str) -> Option<Vec<f64>> {
    let whole = match fmt.split_once('.') {
        Some((w, frac)) if !frac.is_empty() && frac.chars().all(|c| c == 'S') => w,
        Some(_) => return None,
        None => fmt,
    };
    let units: Vec<f64> = whole
        .split(':')
        .map(|f| UNIT_MS.iter().find(|(n, _)| *n == f).map(|(_, ms)| *ms))
        .collect::<Option<_>>()?;
    // the fields are consecutive units from largest to smallest
    let ok = units.len() >= 2
        && units.windows(2).all(|w| {
            let at = |x: f64| UNIT_MS.iter().position(|(_, ms)| *ms == x);
            matches!((at(w[0]), at(w[1])), (Some(a), Some(b)) if b == a + 1)
        });
    ok.then_some(units)
}

/// One text as milliseconds by the fields' units (None: not that form).
fn parse_one(text: &str, units: &[f64]) -> Option<f64> {
    let t = text.trim();
    let (sign, body) = match t.strip_prefix('-') {
        Some(rest) => (-1.0, rest),
        None => (1.0, t.strip_prefix('+').unwrap_or(t)),
    };
    let parts: Vec<&str> = body.split(':').collect();
    if parts.len() != units.len() {
        return None;
    }
    let mut ms = 0.0;
    for (k, (p, unit)) in parts.iter().zip(units).enumerate() {
        let last = k + 1 == parts.len();
        let digits_ok = !p.is_empty()
            && p.chars().all(|c| c.is_ascii_digit() || (last && c == '.'))
            && p.chars().filter(|&c| c == '.').count() <= 1;
        if !digits_ok {
            return None;
        }
        ms += p.parse::<f64>().ok()? * unit;
    }
    Some(sign * ms)
}

/// Text (char row, cellstr, string array) as durations, by `infmt` or else by
/// `dd:hh:mm:ss` / `hh:mm:ss`.
pub fn durations_from_text(v: &Value, infmt: Option<&str>, format: &str) -> MResult<TimeArray> {
    let (shape, texts) = super::array::texts_of(v)?;
    let given = match infmt {
        Some(f) => Some(fields(f).ok_or_else(|| {
            MError::new(
                "MATLAB:duration:InvalidInputFormat",
                format!(
                    "'{f}' is not a valid duration input format. Use 'dd:hh:mm:ss', 'hh:mm:ss', 'mm:ss' or 'hh:mm', optionally with fractional seconds such as 'hh:mm:ss.SSS'."
                ),
            )
        })?),
        None => None,
    };
    let defaults = [
        fields("dd:hh:mm:ss").unwrap_or_default(),
        fields("hh:mm:ss").unwrap_or_default(),
    ];
    let mut ms = Vec::with_capacity(texts.len());
    for s in &texts {
        if s.trim().is_empty() || s.trim().eq_ignore_ascii_case("NaN") {
            ms.push(f64::NAN);
            continue;
        }
        let got = match &given {
            Some(u) => parse_one(s, u),
            None => defaults.iter().find_map(|u| parse_one(s, u)),
        };
        let Some(x) = got else {
            return Err(MError::new(
                "MATLAB:duration:ParseErr",
                format!(
                    "Unable to convert '{s}' to duration using the format '{}'.",
                    infmt.unwrap_or("hh:mm:ss")
                ),
            ));
        };
        ms.push(x);
    }
    Ok(TimeArray::durations(shape, ms, format))
}

#[cfg(test)]
mod tests {
    use super::{fields, parse_one};

    #[test]
    fn forms() {
        let hms = fields("hh:mm:ss").unwrap();
        assert_eq!(parse_one("01:30:00", &hms), Some(5_400_000.0));
        assert_eq!(parse_one("-00:00:01.5", &hms), Some(-1500.0));
        assert_eq!(parse_one("1:2", &hms), None);
        assert_eq!(parse_one("a:b:c", &hms), None);
        let dhms = fields("dd:hh:mm:ss.SSS").unwrap();
        assert_eq!(parse_one("1:00:00:00.25", &dhms), Some(86_400_250.0));
        assert_eq!(
            parse_one("3:15", &fields("mm:ss").unwrap()),
            Some(195_000.0)
        );
        assert!(fields("hh:ss").is_none());
        assert!(fields("yy:mm").is_none());
        assert!(fields("hh").is_none());
    }
}
