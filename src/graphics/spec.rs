//! Colour specifications (`'r'`, `'red'`, `[1 0 0]`, `'#FF0000'`) and line specifications
//! (`'r--o'`).

use crate::interp::error::{MError, MResult};
use crate::values::value::Value;

const NAMED: [(&str, &str, [f64; 3]); 8] = [
    ("r", "red", [1.0, 0.0, 0.0]),
    ("g", "green", [0.0, 1.0, 0.0]),
    ("b", "blue", [0.0, 0.0, 1.0]),
    ("c", "cyan", [0.0, 1.0, 1.0]),
    ("m", "magenta", [1.0, 0.0, 1.0]),
    ("y", "yellow", [1.0, 1.0, 0.0]),
    ("k", "black", [0.0, 0.0, 0.0]),
    ("w", "white", [1.0, 1.0, 1.0]),
];

/// The markers MATLAB knows, with their long names.
pub const MARKERS: [(&str, &str); 14] = [
    ("o", "circle"),
    ("+", "plus"),
    ("*", "asterisk"),
    (".", "point"),
    ("x", "cross"),
    ("_", "horizontal"),
    ("|", "vertical"),
    ("s", "square"),
    ("d", "diamond"),
    ("^", "^"),
    ("v", "v"),
    (">", ">"),
    ("<", "<"),
    ("p", "pentagram"),
];

pub const LINE_STYLES: [&str; 5] = ["-", "--", ":", "-.", "none"];

/// A colour name or letter.
pub fn named_color(t: &str) -> Option<[f64; 3]> {
    let t = t.trim().to_ascii_lowercase();
    if let Some(hex) = t.strip_prefix('#') {
        let parse = |s: &str| u8::from_str_radix(s, 16).ok().map(|x| x as f64 / 255.0);
        return match hex.len() {
            6 => Some([parse(&hex[0..2])?, parse(&hex[2..4])?, parse(&hex[4..6])?]),
            3 => {
                let d = |i: usize| parse(&hex[i..i + 1].repeat(2));
                Some([d(0)?, d(1)?, d(2)?])
            }
            _ => None,
        };
    }
    NAMED
        .iter()
        .find(|(s, l, _)| *s == t || *l == t)
        .map(|(_, _, c)| *c)
}

/// A colour value: a name, a letter, a hex code, or an RGB triplet in [0, 1].
pub fn color(v: &Value) -> MResult<[f64; 3]> {
    if let Ok(t) = v.text() {
        return named_color(&t).ok_or_else(|| bad_color(&t));
    }
    if v.is_numeric_like() && v.numel() == 3 {
        let t = v.tensor()?;
        let d = t.to_f64();
        if d.iter().all(|x| (0.0..=1.0).contains(x)) {
            return Ok([d[0], d[1], d[2]]);
        }
    }
    Err(MError::new(
        "MATLAB:hg:ColorSpec_InvalidSpecification",
        "Color value must be a 3 element vector with values between 0 and 1, or a color name.",
    ))
}

fn bad_color(t: &str) -> MError {
    MError::new(
        "MATLAB:hg:ColorSpec_InvalidSpecification",
        format!("Invalid color name '{t}'."),
    )
}

/// What a line specification says (each part optional).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LineSpec {
    pub style: Option<&'static str>,
    pub marker: Option<&'static str>,
    pub color: Option<[f64; 3]>,
}

/// Parses `'r--o'`-style text; None when the text is not a line specification.
pub fn line_spec(t: &str) -> Option<LineSpec> {
    let mut spec = LineSpec::default();
    let mut rest = t.trim();
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        if let Some(style) = ["--", "-.", "-", ":"]
            .iter()
            .find(|s| rest.starts_with(**s))
        {
            if spec.style.is_some() {
                return None;
            }
            spec.style = Some(LINE_STYLES.iter().find(|s| *s == style)?);
            rest = &rest[style.len()..];
            continue;
        }
        let c = rest.chars().next()?;
        let one = &rest[..c.len_utf8()];
        if let Some((_, _, rgb)) = NAMED.iter().find(|(s, _, _)| *s == one) {
            if spec.color.is_some() {
                return None;
            }
            spec.color = Some(*rgb);
        } else if let Some((m, _)) = MARKERS.iter().find(|(m, _)| *m == one && *m != "_") {
            if spec.marker.is_some() {
                return None;
            }
            spec.marker = Some(m);
        } else if one == "h" {
            spec.marker = Some("h");
        } else {
            return None;
        }
        rest = &rest[c.len_utf8()..];
    }
    Some(spec)
}

/// A marker name (short or long) in its short form.
pub fn marker(t: &str) -> Option<&'static str> {
    let t = t.trim().to_ascii_lowercase();
    if t == "none" {
        return Some("none");
    }
    if t == "h" || t == "hexagram" {
        return Some("h");
    }
    MARKERS
        .iter()
        .find(|(s, l)| *s == t || *l == t || (t.len() >= 3 && l.starts_with(&t)))
        .map(|(s, _)| *s)
}

/// Colours as a Value: an RGB triplet row.
pub fn color_value(c: [f64; 3]) -> Value {
    Value::row(c.to_vec())
}
