//! The `sprintf`/`fprintf` engine: C conversions with MATLAB's rules (the format repeats
//! until the data is used up, arrays are read column by column, non-integers given to `%d`
//! print as `%e`, escapes in the format are translated).

use crate::interp::error::{MError, MResult};
use crate::values::value::Value;

// %g/%e live in cformat.rs; display code reaches them through here too
use super::cformat::{MAX_PREC, MAX_WIDTH, format_g_case, special};
pub use super::cformat::{format_e, format_g};

/// Translates the escape sequences MATLAB recognizes in a format.
pub fn unescape(fmt: &str) -> String {
    let mut out = String::with_capacity(fmt.len());
    let mut it = fmt.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('a') => out.push('\u{7}'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('v') => out.push('\u{b}'),
            Some('\\') => out.push('\\'),
            Some('x') => {
                let mut h = String::new();
                while let Some(&d) = it.peek() {
                    if d.is_ascii_hexdigit() && h.len() < 4 {
                        h.push(d);
                        it.next();
                    } else {
                        break;
                    }
                }
                if let Some(ch) = u32::from_str_radix(&h, 16).ok().and_then(char::from_u32) {
                    out.push(ch);
                }
            }
            Some(d) if d.is_digit(8) => {
                let mut o = String::from(d);
                while let Some(&d2) = it.peek() {
                    if d2.is_digit(8) && o.len() < 3 {
                        o.push(d2);
                        it.next();
                    } else {
                        break;
                    }
                }
                if let Some(ch) = u32::from_str_radix(&o, 8).ok().and_then(char::from_u32) {
                    out.push(ch);
                }
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

#[derive(Debug, Clone)]
enum Piece {
    Lit(String),
    Conv(Spec),
}

#[derive(Debug, Clone, Default)]
struct Spec {
    minus: bool,
    plus: bool,
    space: bool,
    zero: bool,
    alt: bool,
    width: Option<usize>,
    width_star: bool,
    prec: Option<usize>,
    prec_star: bool,
    conv: char,
}

fn parse_format(fmt: &str) -> Vec<Piece> {
    let chars: Vec<char> = fmt.chars().collect();
    let mut pieces = Vec::new();
    let mut lit = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c != '%' {
            lit.push(c);
            i += 1;
            continue;
        }
        if chars.get(i + 1) == Some(&'%') {
            lit.push('%');
            i += 2;
            continue;
        }
        let start = i;
        i += 1;
        let mut s = Spec::default();
        while let Some(&f) = chars.get(i) {
            match f {
                '-' => s.minus = true,
                '+' => s.plus = true,
                ' ' => s.space = true,
                '0' => s.zero = true,
                '#' => s.alt = true,
                _ => break,
            }
            i += 1;
        }
        if chars.get(i) == Some(&'*') {
            s.width_star = true;
            i += 1;
        } else {
            let mut w = String::new();
            while let Some(d) = chars.get(i).filter(|d| d.is_ascii_digit()) {
                w.push(*d);
                i += 1;
            }
            s.width = w.parse::<usize>().ok().map(|w| w.min(MAX_WIDTH));
        }
        if chars.get(i) == Some(&'.') {
            i += 1;
            if chars.get(i) == Some(&'*') {
                s.prec_star = true;
                i += 1;
            } else {
                let mut p = String::new();
                while let Some(d) = chars.get(i).filter(|d| d.is_ascii_digit()) {
                    p.push(*d);
                    i += 1;
                }
                s.prec = Some(p.parse::<usize>().unwrap_or(MAX_PREC).min(MAX_PREC));
            }
        }
        // length modifiers (ignored): l, h, L, t, b
        while matches!(chars.get(i), Some('l' | 'h' | 'L' | 't' | 'b')) {
            i += 1;
        }
        match chars.get(i) {
            Some(&cv) if "diuoxXfeEgGcs".contains(cv) => {
                s.conv = cv;
                i += 1;
                if !lit.is_empty() {
                    pieces.push(Piece::Lit(std::mem::take(&mut lit)));
                }
                pieces.push(Piece::Conv(s));
            }
            _ => {
                // an invalid operator ends the output, as MATLAB does
                let _ = start;
                if !lit.is_empty() {
                    pieces.push(Piece::Lit(std::mem::take(&mut lit)));
                }
                return pieces;
            }
        }
    }
    if !lit.is_empty() {
        pieces.push(Piece::Lit(lit));
    }
    pieces
}

/// One datum to format: a number or a piece of text.
#[derive(Debug, Clone)]
enum Item {
    Num(f64),
    /// An integer-class element, kept exact (int64 beyond 2^53).
    Int(i128),
    Text(String),
}

fn flatten(args: &[Value]) -> MResult<Vec<Item>> {
    let mut items = Vec::new();
    // Ctrl-C is looked at every so many elements (1e7 of them are half a second)
    let mut tick = crate::interp::interrupt::Ticker::new();
    for a in args {
        match a {
            Value::Num(x) => items.push(Item::Num(*x)),
            Value::Bool(b) => items.push(Item::Num(*b as u8 as f64)),
            Value::Tensor(t) if t.class() == crate::values::class::Class::Char => {
                items.push(Item::Text(t.to_text()))
            }
            Value::Tensor(t) => {
                if t.is_complex() {
                    // complex values print their real parts, then imaginary parts are dropped
                    for i in 0..t.numel() {
                        tick.tick();
                        items.push(Item::Num(t.get_c64(i).re));
                    }
                } else if let Some(ints) = t.data.as_i128() {
                    items.extend(ints.into_iter().inspect(|_| tick.tick()).map(Item::Int));
                } else {
                    items.reserve(t.numel());
                    for x in t.to_f64().iter() {
                        tick.tick();
                        items.push(Item::Num(*x));
                    }
                }
            }
            Value::Str(s) => items.extend(s.data.iter().map(|x| {
                tick.tick();
                Item::Text(x.clone())
            })),
            other => {
                return Err(MError::new(
                    "MATLAB:sprintf:InvalidInputType",
                    format!(
                        "Function is not defined for '{}' inputs.",
                        other.class_name()
                    ),
                ));
            }
        }
    }
    Ok(items)
}

fn item_f64(i: &Item) -> f64 {
    match i {
        Item::Num(x) => *x,
        Item::Int(v) => *v as f64,
        Item::Text(_) => 0.0,
    }
}

fn pad(s: String, spec: &Spec, numeric: bool) -> String {
    let w = spec.width.unwrap_or(0);
    let n = s.chars().count();
    if n >= w {
        return s;
    }
    if spec.minus {
        return format!("{s}{}", " ".repeat(w - n));
    }
    if spec.zero && numeric && !s.ends_with("Inf") && !s.ends_with("NaN") {
        let (sign, rest) = if s.starts_with(['-', '+', ' ']) {
            s.split_at(1)
        } else {
            ("", s.as_str())
        };
        return format!("{sign}{}{rest}", "0".repeat(w - n));
    }
    format!("{}{s}", " ".repeat(w - n))
}

fn with_sign(s: String, x: f64, spec: &Spec) -> String {
    if x >= 0.0 && !s.starts_with('-') && !x.is_nan() {
        if spec.plus {
            return format!("+{s}");
        }
        if spec.space {
            return format!(" {s}");
        }
    }
    s
}

fn format_num(x: f64, spec: &Spec) -> String {
    format_num_exact(x, None, spec)
}

fn format_num_exact(x: f64, exact: Option<i128>, spec: &Spec) -> String {
    let conv = spec.conv;
    let integral = x.fract() == 0.0 && x.is_finite();
    let s = match conv {
        'd' | 'i' | 'u' if exact.is_some() => exact.map(|v| v.to_string()).unwrap_or_default(),
        'x' | 'X' | 'o' if exact.is_some_and(|v| v >= 0) => {
            let v = exact.unwrap_or(0) as u128;
            match conv {
                'o' => format!("{v:o}"),
                'x' => format!("{v:x}"),
                _ => format!("{v:X}"),
            }
        }
        'd' | 'i' | 'u' => {
            if integral {
                if x.abs() < 1e18 {
                    format!("{}", x as i64)
                } else {
                    format!("{x:.0}")
                }
            } else if x.is_nan() || x.is_infinite() {
                special(x).unwrap_or_default()
            } else {
                // MATLAB prints non-integers given to an integer conversion in %e form
                let sub = Spec {
                    conv: 'e',
                    prec: spec.prec,
                    ..spec.clone()
                };
                return format_num(x, &sub);
            }
        }
        'o' | 'x' | 'X' => {
            if integral && x >= 0.0 && x < 18446744073709551616.0 {
                let v = x as u64;
                let mut s = match conv {
                    'o' => format!("{v:o}"),
                    'x' => format!("{v:x}"),
                    _ => format!("{v:X}"),
                };
                if spec.alt && v != 0 {
                    s = match conv {
                        'o' => format!("0{s}"),
                        'x' => format!("0x{s}"),
                        _ => format!("0X{s}"),
                    };
                }
                s
            } else {
                let sub = Spec {
                    conv: 'e',
                    ..spec.clone()
                };
                return format_num(x, &sub);
            }
        }
        'f' => special(x).unwrap_or_else(|| {
            let s = format!("{:.*}", spec.prec.unwrap_or(6).min(MAX_PREC), x);
            if spec.alt && spec.prec == Some(0) {
                format!("{s}.")
            } else {
                s
            }
        }),
        'e' | 'E' => format_e(x, spec.prec.unwrap_or(6), conv == 'E'),
        'g' | 'G' => {
            let s = format_g_case(x, spec.prec.unwrap_or(6), spec.alt, conv == 'G');
            if conv == 'G' {
                s.to_uppercase().replace("INF", "Inf").replace("NAN", "NaN")
            } else {
                s
            }
        }
        _ => format!("{x}"),
    };
    let s = if let ('d' | 'i' | 'u', Some(p)) = (conv, spec.prec) {
        // precision on integers is a minimum digit count
        let (sign, digits) = if let Some(d) = s.strip_prefix('-') {
            ("-", d)
        } else {
            ("", s.as_str())
        };
        if digits.len() < p && digits.chars().all(|c| c.is_ascii_digit()) {
            format!("{sign}{}{digits}", "0".repeat(p - digits.len()))
        } else {
            s
        }
    } else {
        s
    };
    pad(with_sign(s, x, spec), spec, true)
}

/// Formats `args` under `fmt` (escapes already translated by the caller when wanted).
pub fn sprintf(fmt: &str, args: &[Value]) -> MResult<String> {
    let pieces = parse_format(fmt);
    let mut items = flatten(args)?;
    let mut out = String::new();
    let nconv = pieces
        .iter()
        .filter(|p| matches!(p, Piece::Conv(_)))
        .count();
    if items.is_empty() || nconv == 0 {
        // No data: with no arguments at all the literal text up to the first conversion is
        // printed; with empty arguments (`sprintf('[%d]\n', [])`) every conversion prints
        // nothing and all the literal text is kept.
        let all_text = !args.is_empty();
        for p in &pieces {
            match p {
                Piece::Lit(s) => out.push_str(s),
                Piece::Conv(_) if all_text => {}
                Piece::Conv(_) => break,
            }
        }
        return Ok(out);
    }
    let mut k = 0;
    loop {
        for p in &pieces {
            match p {
                Piece::Lit(s) => out.push_str(s),
                Piece::Conv(spec) => {
                    crate::interp::interrupt::poll();
                    if k >= items.len() {
                        return Ok(out);
                    }
                    let mut spec = spec.clone();
                    if spec.width_star {
                        let w = item_f64(&items[k]);
                        if w < 0.0 {
                            spec.minus = true;
                        }
                        spec.width = Some((w.abs() as usize).min(MAX_WIDTH));
                        k += 1;
                        if k >= items.len() {
                            return Ok(out);
                        }
                    }
                    if spec.prec_star {
                        spec.prec = Some((item_f64(&items[k]).max(0.0) as usize).min(MAX_PREC));
                        k += 1;
                        if k >= items.len() {
                            return Ok(out);
                        }
                    }
                    let item = items[k].clone();
                    match (spec.conv, item) {
                        ('s', Item::Text(t)) => {
                            let t = match spec.prec {
                                Some(p) => t.chars().take(p).collect(),
                                None => t,
                            };
                            out.push_str(&pad(t, &spec, false));
                            k += 1;
                        }
                        ('c', Item::Text(t)) => {
                            // %c takes one character; the rest of the text stays for the next
                            let mut chars = t.chars();
                            match chars.next() {
                                Some(ch) => {
                                    out.push_str(&pad(ch.to_string(), &spec, false));
                                    let rest: String = chars.collect();
                                    if rest.is_empty() {
                                        k += 1;
                                    } else {
                                        items[k] = Item::Text(rest);
                                    }
                                }
                                None => {
                                    items.remove(k);
                                    if k >= items.len() {
                                        return Ok(out);
                                    }
                                    continue;
                                }
                            }
                        }
                        ('s' | 'c', Item::Num(x)) => {
                            if x.fract() == 0.0 && x.is_finite() && x >= 0.0 {
                                let ch = char::from_u32(x as u32).unwrap_or('\u{FFFD}');
                                out.push_str(&pad(ch.to_string(), &spec, false));
                            } else {
                                // text conversions of non-integers use %e, as MATLAB does
                                out.push_str(&format_num(
                                    x,
                                    &Spec {
                                        conv: 'e',
                                        ..spec.clone()
                                    },
                                ));
                            }
                            k += 1;
                        }
                        (_, Item::Text(t)) => {
                            // a numeric conversion meets text: the text becomes its char codes
                            let codes: Vec<Item> =
                                t.chars().map(|c| Item::Num(c as u32 as f64)).collect();
                            if codes.is_empty() {
                                items.remove(k);
                                if k >= items.len() {
                                    return Ok(out);
                                }
                                continue;
                            }
                            items.splice(k..k + 1, codes);
                            if let Item::Num(x) = items[k] {
                                out.push_str(&format_num(x, &spec));
                            }
                            k += 1;
                        }
                        (_, Item::Num(x)) => {
                            out.push_str(&format_num(x, &spec));
                            k += 1;
                        }
                        ('s' | 'c', Item::Int(v)) => {
                            let ch =
                                char::from_u32(v.clamp(0, 0x10FFFF) as u32).unwrap_or('\u{FFFD}');
                            out.push_str(&pad(ch.to_string(), &spec, false));
                            k += 1;
                        }
                        (_, Item::Int(v)) => {
                            out.push_str(&format_num_exact(v as f64, Some(v), &spec));
                            k += 1;
                        }
                    }
                }
            }
        }
        if k >= items.len() {
            return Ok(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    fn sp(f: &str, args: &[Value]) -> String {
        sprintf(&unescape(f), args).unwrap()
    }
    #[test]
    fn conversions() {
        assert_eq!(
            sp(
                "%5.2f|%-6d|%+d|%e|%g|%g",
                &[
                    Value::Num(std::f64::consts::PI),
                    Value::Num(42.0),
                    Value::Num(7.0),
                    Value::Num(12345.678),
                    Value::Num(0.0001),
                    Value::Num(1e10)
                ]
            ),
            " 3.14|42    |+7|1.234568e+04|0.0001|1e+10"
        );
        assert_eq!(
            sp(
                "%x %o %c %5s %.2s",
                &[
                    Value::Num(255.0),
                    Value::Num(8.0),
                    Value::Num(72.0),
                    Value::str("ab"),
                    Value::str("xyz")
                ]
            ),
            "ff 10 H    ab xy"
        );
        assert_eq!(sp("%d", &[Value::str("abc")]), "979899");
        assert_eq!(
            sp(
                "%s-%d,",
                &[
                    Value::str("ab"),
                    Value::Num(5.0),
                    Value::str("cd"),
                    Value::Num(6.0)
                ]
            ),
            "ab-5,cd-6,"
        );
        assert_eq!(
            sp(
                "%d %d\\n",
                &[Value::Num(1.0), Value::Num(2.0), Value::Num(3.0)]
            ),
            "1 2\n3 "
        );
        assert_eq!(sp("%d", &[Value::Num(1.5)]), "1.500000e+00");
        assert_eq!(
            sp("%.3d|%05.1f", &[Value::Num(5.0), Value::Num(2.345)]),
            "005|002.3"
        );
        assert_eq!(
            sp(
                "%g %g",
                &[Value::Num(f64::NAN), Value::Num(f64::NEG_INFINITY)]
            ),
            "NaN -Inf"
        );
        assert_eq!(sp("hello\\tworld", &[]), "hello\tworld");
        assert_eq!(sp("%d and %d", &[Value::Num(1.0)]), "1 and ");
    }
    #[test]
    fn g_format() {
        assert_eq!(format_g(0.1 + 0.2, 17, false), "0.30000000000000004");
        assert_eq!(format_g(100000.0, 6, false), "100000");
        assert_eq!(format_g(1000000.0, 6, false), "1e+06");
        assert_eq!(format_g(1.5e-5, 6, false), "1.5e-05");
    }
}
