//! The scanf engine that `sscanf` and `fscanf` share: a format applied repeatedly to UTF-8
//! text, as C's scanf family does with MATLAB's extensions (`%*d` skips, text conversions
//! give character codes). It works on bytes, with no allocation per value, so a file of a
//! million numbers is read in milliseconds.

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    /// whitespace in the format matches any run of whitespace (also none)
    Space,
    Lit(u8),
    Conv {
        skip: bool,
        width: Option<usize>,
        kind: u8,
        /// the byte set of `%[...]` (true: the byte belongs), with `^` already applied
        set: Option<Box<[bool; 256]>>,
    },
}

/// A parsed format (escapes translated).
pub struct Format {
    pieces: Vec<Piece>,
}

impl Format {
    pub fn parse(fmt: &str) -> Format {
        let fmt = crate::display::printf::unescape(fmt);
        let b = fmt.as_bytes();
        let mut pieces = Vec::new();
        let mut k = 0;
        while k < b.len() {
            let c = b[k];
            if c.is_ascii_whitespace() {
                while k < b.len() && b[k].is_ascii_whitespace() {
                    k += 1;
                }
                pieces.push(Piece::Space);
                continue;
            }
            if c == b'%' && k + 1 < b.len() {
                if b[k + 1] == b'%' {
                    pieces.push(Piece::Lit(b'%'));
                    k += 2;
                    continue;
                }
                let mut j = k + 1;
                let skip = b[j] == b'*';
                if skip {
                    j += 1;
                }
                let d0 = j;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                let width = fmt[d0..j].parse().ok();
                // length modifiers (l, h) change nothing here
                while j < b.len() && matches!(b[j], b'l' | b'h' | b'L') {
                    j += 1;
                }
                if j < b.len() {
                    if b[j] == b'[' {
                        if let Some((set, end)) = parse_set(b, j + 1) {
                            pieces.push(Piece::Conv {
                                skip,
                                width,
                                kind: b'[',
                                set: Some(set),
                            });
                            k = end;
                            continue;
                        }
                    }
                    pieces.push(Piece::Conv {
                        skip,
                        width,
                        kind: b[j],
                        set: None,
                    });
                    k = j + 1;
                    continue;
                }
            }
            pieces.push(Piece::Lit(c));
            k += 1;
        }
        Format { pieces }
    }
}

/// `%[abc]`, `%[^abc]`, `%[a-z]` from just after the `[`: the set and the index after `]`.
pub fn parse_set(b: &[u8], mut j: usize) -> Option<(Box<[bool; 256]>, usize)> {
    let negate = b.get(j) == Some(&b'^');
    if negate {
        j += 1;
    }
    let mut set = Box::new([false; 256]);
    let start = j;
    loop {
        let c = *b.get(j)?;
        if c == b']' && j > start {
            j += 1;
            break;
        }
        if b.get(j + 1) == Some(&b'-') && b.get(j + 2).is_some_and(|&e| e != b']') {
            let e = b[j + 2];
            for x in c.min(e)..=c.max(e) {
                set[x as usize] = true;
            }
            j += 3;
        } else {
            set[c as usize] = true;
            j += 1;
        }
    }
    if negate {
        for x in set.iter_mut() {
            *x = !*x;
        }
    }
    Some((set, j))
}

/// What a scan produced.
pub struct Scan {
    pub values: Vec<f64>,
    /// every conversion that produced data was %s, %c or %[
    pub all_text: bool,
    /// conversions that produced data
    pub count: usize,
    /// bytes of the input used
    pub used: usize,
    pub error: String,
}

#[inline]
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Pushes the UTF-16 codes of the UTF-8 text `t` as numbers.
fn push_chars(out: &mut Vec<f64>, t: &[u8]) {
    if t.is_ascii() {
        out.extend(t.iter().map(|&c| c as f64));
    } else {
        out.extend(String::from_utf8_lossy(t).encode_utf16().map(|c| c as f64));
    }
}

/// Length of the UTF-8 character starting with byte `c`.
#[inline]
fn char_len(c: u8) -> usize {
    match c {
        0..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    }
}

/// Reads a decimal number (`%f %e %g`, and `%d`'s digits) from the start of `b`: the value
/// and the bytes used; None when no number starts there.
pub fn read_float(b: &[u8]) -> Option<(f64, usize)> {
    let mut k = 0;
    let neg = b.first() == Some(&b'-');
    if matches!(b.first(), Some(b'+' | b'-')) {
        k = 1;
    }
    let int_start = k;
    let mut mant: u64 = 0;
    let mut digits = 0;
    while k < b.len() && b[k].is_ascii_digit() {
        mant = mant.wrapping_mul(10).wrapping_add((b[k] - b'0') as u64);
        digits += 1;
        k += 1;
    }
    let mut any = k > int_start;
    let mut simple = digits <= 18;
    if k < b.len() && b[k] == b'.' {
        let f0 = k + 1;
        let mut j = f0;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        any |= j > f0;
        if j > f0 || any {
            k = j;
            simple = false;
        }
    }
    if !any {
        // Inf and NaN (any case)
        let rest = &b[k..];
        for (word, v) in [(&b"inf"[..], f64::INFINITY), (&b"nan"[..], f64::NAN)] {
            if rest.len() >= 3 && rest[..3].eq_ignore_ascii_case(word) {
                let mut used = k + 3;
                if word == b"inf" && rest.len() >= 8 && rest[..8].eq_ignore_ascii_case(b"infinity")
                {
                    used = k + 8;
                }
                return Some((if neg { -v } else { v }, used));
            }
        }
        return None;
    }
    let mut exp_d = false;
    if k < b.len() && matches!(b[k], b'e' | b'E' | b'd' | b'D') {
        let mut e = k + 1;
        if e < b.len() && matches!(b[e], b'+' | b'-') {
            e += 1;
        }
        let e0 = e;
        while e < b.len() && b[e].is_ascii_digit() {
            e += 1;
        }
        if e > e0 {
            exp_d = matches!(b[k], b'd' | b'D');
            k = e;
            simple = false;
        }
    }
    if simple {
        let v = mant as f64;
        return Some((if neg { -v } else { v }, k));
    }
    let text = std::str::from_utf8(&b[..k]).ok()?;
    let v = if exp_d {
        text.replace(['d', 'D'], "e").parse::<f64>().ok()?
    } else {
        text.parse::<f64>().ok()?
    };
    Some((v, k))
}

/// Reads an integer of `kind` (d u i x o) from the start of `b`.
fn read_int(b: &[u8], kind: u8) -> Option<(f64, usize)> {
    let mut k = 0;
    let neg = b.first() == Some(&b'-');
    if matches!(b.first(), Some(b'+' | b'-')) {
        k = 1;
    }
    let hex_prefix = |k: usize| {
        b.len() > k + 2
            && b[k] == b'0'
            && matches!(b[k + 1], b'x' | b'X')
            && b[k + 2].is_ascii_hexdigit()
    };
    let (radix, from) = match kind {
        b'x' | b'X' => (16, if hex_prefix(k) { k + 2 } else { k }),
        b'o' => (8, k),
        b'i' if hex_prefix(k) => (16, k + 2),
        b'i' if b.get(k) == Some(&b'0')
            && b.get(k + 1).is_some_and(|c| (b'0'..=b'7').contains(c)) =>
        {
            (8, k + 1)
        }
        _ => (10, k),
    };
    let mut j = from;
    let mut v: f64 = 0.0;
    while j < b.len() {
        let d = match (b[j] as char).to_digit(radix) {
            Some(d) => d,
            None => break,
        };
        v = v * radix as f64 + d as f64;
        j += 1;
    }
    if j == from {
        return None;
    }
    // a decimal point after the digits is no integer: MATLAB's %d fails on '2.34'
    if radix == 10 && b.get(j) == Some(&b'.') {
        return None;
    }
    Some((if neg { -v } else { v }, j))
}

/// Applies `fmt` to `s` repeatedly until the text or a match runs out, or `limit` values were
/// read.
pub fn scan(s: &[u8], fmt: &Format, limit: Option<usize>) -> Scan {
    let pieces = &fmt.pieces;
    let mut out = Scan {
        values: Vec::new(),
        all_text: true,
        count: 0,
        used: 0,
        error: String::new(),
    };
    let mut pos = 0;
    let full = |out: &Scan| limit.is_some_and(|n| out.values.len() >= n);
    let skip_ws = |pos: &mut usize| {
        while *pos < s.len() && is_space(s[*pos]) {
            *pos += 1;
        }
    };
    'passes: loop {
        let start = pos;
        let mut converted = false;
        for p in pieces {
            if full(&out) {
                break 'passes;
            }
            match p {
                Piece::Space => skip_ws(&mut pos),
                Piece::Lit(c) => {
                    if pos < s.len() && s[pos] == *c {
                        pos += 1;
                    } else {
                        break 'passes;
                    }
                }
                Piece::Conv {
                    skip,
                    width,
                    kind,
                    set,
                } => match kind {
                    b's' | b'[' => {
                        if *kind == b's' {
                            skip_ws(&mut pos);
                        }
                        let from = pos;
                        let mut chars = 0;
                        while pos < s.len() && width.is_none_or(|w| chars < w) {
                            let c = s[pos];
                            let ok = match set {
                                Some(set) => set[c as usize],
                                None => !is_space(c),
                            };
                            if !ok {
                                break;
                            }
                            pos = (pos + char_len(c)).min(s.len());
                            chars += 1;
                        }
                        if pos == from {
                            break 'passes;
                        }
                        if !skip {
                            push_chars(&mut out.values, &s[from..pos]);
                            out.count += 1;
                            converted = true;
                        }
                    }
                    b'c' => {
                        let n = width.unwrap_or(1);
                        let from = pos;
                        let mut chars = 0;
                        while pos < s.len() && chars < n {
                            pos = (pos + char_len(s[pos])).min(s.len());
                            chars += 1;
                        }
                        if chars == 0 {
                            break 'passes;
                        }
                        if !skip {
                            push_chars(&mut out.values, &s[from..pos]);
                            out.count += 1;
                            converted = true;
                        }
                        if chars < n {
                            break 'passes;
                        }
                    }
                    _ => {
                        skip_ws(&mut pos);
                        let end = width.map_or(s.len(), |w| (pos + w).min(s.len()));
                        let field = &s[pos..end];
                        let r = match kind {
                            b'd' | b'u' | b'i' | b'x' | b'X' | b'o' => read_int(field, *kind),
                            b'f' | b'e' | b'g' | b'E' | b'G' | b'n' => read_float(field),
                            _ => None,
                        };
                        match r {
                            Some((v, used)) => {
                                pos += used;
                                if !skip {
                                    out.values.push(v);
                                    out.all_text = false;
                                    out.count += 1;
                                    converted = true;
                                }
                            }
                            None => {
                                if pos < s.len() {
                                    out.error = "Matching failure in format.".into();
                                }
                                break 'passes;
                            }
                        }
                    }
                },
            }
        }
        // a pass that reads nothing, or a format with no conversions, ends the scan
        if pos == start || !converted || pos >= s.len() {
            break;
        }
    }
    out.used = pos;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, fmt: &str) -> Vec<f64> {
        scan(text.as_bytes(), &Format::parse(fmt), None).values
    }

    #[test]
    fn numbers_and_literals() {
        assert_eq!(run("1 2 3", "%d"), vec![1.0, 2.0, 3.0]);
        assert_eq!(run("1,2,3", "%d,"), vec![1.0, 2.0, 3.0]);
        assert_eq!(
            run("1.5e2 -0.25 inf", "%f"),
            vec![150.0, -0.25, f64::INFINITY]
        );
        assert_eq!(run("3-7 x", "%d-%d %c"), vec![3.0, 7.0, 120.0]);
        assert_eq!(run("ff 0x10", "%x"), vec![255.0, 16.0]);
        assert_eq!(run("ab12", "%[a-z]%d"), vec![97.0, 98.0, 12.0]);
        // %d does not read the integer part of a decimal number
        assert_eq!(run("2.34", "%d"), Vec::<f64>::new());
    }

    #[test]
    fn stops_at_mismatch() {
        let r = scan(b"1 2 x 3", &Format::parse("%d"), None);
        assert_eq!(r.values, vec![1.0, 2.0]);
        assert_eq!(r.error, "Matching failure in format.");
        assert_eq!(r.used, 4);
    }

    #[test]
    fn floats_parse_exactly() {
        for t in [
            "0.1",
            "123456789012345678901",
            "1e-300",
            "-2.5E+10",
            "7.",
            ".5",
        ] {
            let (v, n) = read_float(t.as_bytes()).expect("a number");
            assert_eq!(n, t.len());
            assert_eq!(v, t.parse::<f64>().expect("std parses it"));
        }
    }
}
