//! Delimited text tables (CSV, tab- or space-separated): splitting lines into fields (with
//! double-quoted fields), finding the delimiter and the header lines, numbers from fields,
//! and numbers written back as text. readmatrix, csvread, dlmread, readcell and importdata
//! read through here; writematrix, csvwrite and dlmwrite write through `number_text`.

use super::scanf::read_float;

#[derive(Clone, Debug, PartialEq)]
pub enum Delim {
    /// One byte (',' '\t' ';' '|').
    Byte(u8),
    /// Runs of spaces and tabs; leading ones ignored.
    Whitespace,
    /// A longer delimiter.
    Text(Vec<u8>),
}

impl Delim {
    /// The delimiter an option names: 'comma', 'tab', ',', '\t', ' ' ...
    pub fn from_name(name: &str) -> Option<Delim> {
        let n = crate::display::printf::unescape(name);
        Some(match n.to_ascii_lowercase().as_str() {
            "," | "comma" => Delim::Byte(b','),
            "\t" | "tab" => Delim::Byte(b'\t'),
            " " | "space" => Delim::Whitespace,
            ";" | "semi" | "semicolon" => Delim::Byte(b';'),
            "|" | "bar" => Delim::Byte(b'|'),
            "" => return None,
            _ if n.len() == 1 => Delim::Byte(n.as_bytes()[0]),
            _ => Delim::Text(n.into_bytes()),
        })
    }
    /// The delimiter as written between fields.
    pub fn text(&self) -> String {
        match self {
            Delim::Byte(b) => (*b as char).to_string(),
            Delim::Whitespace => " ".into(),
            Delim::Text(t) => String::from_utf8_lossy(t).into_owned(),
        }
    }
}

/// The file's bytes without a UTF-8 byte-order mark.
pub fn strip_bom(b: &[u8]) -> &[u8] {
    b.strip_prefix(b"\xef\xbb\xbf").unwrap_or(b)
}

/// Lines of the text (without their \n or \r\n).
pub fn lines(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    let text = text.strip_suffix(b"\n").unwrap_or(text);
    text.split(|&c| c == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .filter(|_| !text.is_empty())
}

/// Splits one line into fields (reusing `out`). A field starting with a double quote runs to
/// its closing quote, delimiters inside included; the quotes stay in the field.
pub fn split<'a>(line: &'a [u8], d: &Delim, out: &mut Vec<&'a [u8]>) {
    out.clear();
    let mut k = 0;
    if *d == Delim::Whitespace {
        loop {
            while k < line.len() && matches!(line[k], b' ' | b'\t') {
                k += 1;
            }
            if k >= line.len() {
                return;
            }
            let from = k;
            if line[k] == b'"' {
                k = quoted_end(line, k);
            }
            while k < line.len() && !matches!(line[k], b' ' | b'\t') {
                k += 1;
            }
            out.push(&line[from..k]);
        }
    }
    loop {
        let from = k;
        // leading spaces before a quote
        let mut q = k;
        while q < line.len() && line[q] == b' ' {
            q += 1;
        }
        if q < line.len() && line[q] == b'"' {
            k = quoted_end(line, q);
        }
        let found = match d {
            Delim::Byte(b) => line[k..].iter().position(|c| c == b).map(|p| (k + p, 1)),
            Delim::Text(t) => line[k..]
                .windows(t.len().max(1))
                .position(|w| w == t.as_slice())
                .map(|p| (k + p, t.len())),
            Delim::Whitespace => None,
        };
        match found {
            Some((at, n)) => {
                out.push(&line[from..at]);
                k = at + n;
            }
            None => {
                out.push(&line[from..]);
                return;
            }
        }
    }
}

/// The index after the closing quote of a quoted field starting at `q`.
fn quoted_end(line: &[u8], q: usize) -> usize {
    let mut k = q + 1;
    while k < line.len() {
        if line[k] == b'"' {
            if line.get(k + 1) == Some(&b'"') {
                k += 2;
                continue;
            }
            return k + 1;
        }
        k += 1;
    }
    line.len()
}

/// A field's text: trimmed, unquoted ("" inside quotes is one quote).
pub fn field_text(f: &[u8]) -> String {
    let t = trim(f);
    if t.len() >= 2 && t[0] == b'"' && t[t.len() - 1] == b'"' {
        let inner = &t[1..t.len() - 1];
        return String::from_utf8_lossy(inner).replace("\"\"", "\"");
    }
    String::from_utf8_lossy(t).into_owned()
}

pub fn trim(f: &[u8]) -> &[u8] {
    let mut a = 0;
    let mut b = f.len();
    while a < b && matches!(f[a], b' ' | b'\t' | b'\r') {
        a += 1;
    }
    while b > a && matches!(f[b - 1], b' ' | b'\t' | b'\r') {
        b -= 1;
    }
    &f[a..b]
}

/// A field as a number: the whole trimmed field must be one (quotes allowed around it).
pub fn number(f: &[u8]) -> Option<f64> {
    let mut t = trim(f);
    if t.len() >= 2 && t[0] == b'"' && t[t.len() - 1] == b'"' {
        t = trim(&t[1..t.len() - 1]);
    }
    if t.is_empty() {
        return None;
    }
    match read_float(t) {
        Some((v, n)) if n == t.len() => Some(v),
        // complex numbers and the like are not read as numbers
        _ => None,
    }
}

/// Picks the delimiter of a text from its first lines: the candidate found the same number
/// of times (at least once) on most of them; whitespace when none is.
pub fn detect(text: &[u8]) -> Delim {
    let sample: Vec<&[u8]> = lines(text)
        .filter(|l| !trim(l).is_empty())
        .take(50)
        .collect();
    let mut best: Option<(usize, u8)> = None;
    for cand in [b',', b'\t', b';', b'|'] {
        let counts: Vec<usize> = sample
            .iter()
            .map(|l| {
                let mut v = Vec::new();
                split(l, &Delim::Byte(cand), &mut v);
                v.len() - 1
            })
            .collect();
        // the count on the last lines (data, past any header)
        let Some(&typical) = counts.last() else {
            continue;
        };
        if typical == 0 {
            continue;
        }
        let agree = counts.iter().filter(|&&c| c == typical).count();
        if best.is_none_or(|(a, _)| agree > a) {
            best = Some((agree, cand));
        }
    }
    match best {
        Some((_, c)) => Delim::Byte(c),
        None => Delim::Whitespace,
    }
}

/// The number of header lines at the top: lines with text fields and no number, before the
/// first line that has one.
pub fn detect_header(text: &[u8], d: &Delim) -> usize {
    let mut fields = Vec::new();
    let mut n = 0;
    for l in lines(text).take(1000) {
        split(l, d, &mut fields);
        let any_number = fields.iter().any(|f| number(f).is_some());
        let any_text = fields.iter().any(|f| !trim(f).is_empty());
        if any_number {
            return n;
        }
        n += 1;
        if !any_text {
            // blank lines are skipped, not counted as headers, when data follows
            continue;
        }
    }
    // no numbers anywhere: nothing is a header
    0
}

/// Numbers of the lines after `skip` lines, one row per non-blank line: (rows, columns,
/// row-major values). Fields that are not numbers are `fill`.
pub fn numeric_rows(
    text: &[u8],
    d: &Delim,
    skip: usize,
    fill: f64,
) -> (usize, usize, Vec<Vec<f64>>) {
    let mut fields = Vec::new();
    let mut rows: Vec<Vec<f64>> = Vec::new();
    let mut ncols = 0;
    // the last column that holds anything, so trailing delimiters add no empty column
    let mut used_cols = 0;
    for l in lines(text).skip(skip) {
        if trim(l).is_empty() {
            continue;
        }
        split(l, d, &mut fields);
        ncols = ncols.max(fields.len());
        let mut row = Vec::with_capacity(fields.len());
        for (j, f) in fields.iter().enumerate() {
            match number(f) {
                Some(v) => {
                    row.push(v);
                    used_cols = used_cols.max(j + 1);
                }
                None => {
                    if !trim(f).is_empty() {
                        used_cols = used_cols.max(j + 1);
                    }
                    row.push(fill);
                }
            }
        }
        rows.push(row);
    }
    let ncols = used_cols.min(ncols);
    (rows.len(), ncols, rows)
}

/// Column-major storage of ragged rows, padded with `fill`.
pub fn column_major(rows: &[Vec<f64>], ncols: usize, fill: f64) -> Vec<f64> {
    let m = rows.len();
    let mut out = vec![fill; m * ncols];
    for (i, r) in rows.iter().enumerate() {
        for (j, &v) in r.iter().take(ncols).enumerate() {
            out[j * m + i] = v;
        }
    }
    out
}

/// A number as writematrix writes it: up to 15 significant digits (MATLAB's longG), NaN as
/// an empty field.
pub fn number_text(x: f64, digits: usize, nan_empty: bool) -> String {
    // called once per field: Ctrl-C is looked at every so many of them
    crate::interp::interrupt::poll();
    if x.is_nan() {
        return if nan_empty {
            String::new()
        } else {
            "NaN".into()
        };
    }
    if x.is_infinite() {
        return if x > 0.0 { "Inf".into() } else { "-Inf".into() };
    }
    if x.fract() == 0.0 && x.abs() < 1e15 {
        return format!("{}", x as i64);
    }
    crate::display::printf::format_g(x, digits, false)
}

/// A number with `digits` significant digits (C's %g), as dlmwrite and csvwrite write it.
pub fn number_text_g(x: f64, digits: usize) -> String {
    crate::interp::interrupt::poll();
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Inf".into() } else { "-Inf".into() };
    }
    crate::display::printf::format_g(x, digits, false)
}

/// Quotes a text field when it holds the delimiter, a quote or a line break.
pub fn quote_field(s: &str, delim: &str) -> String {
    if (!delim.is_empty() && s.contains(delim)) || s.contains('"') || s.contains('\n') {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_quoted_fields() {
        let mut v = Vec::new();
        split(b"1,\"a,b\",3", &Delim::Byte(b','), &mut v);
        assert_eq!(v, vec![&b"1"[..], &b"\"a,b\""[..], &b"3"[..]]);
        assert_eq!(field_text(v[1]), "a,b");
        split(b"  1  2\t3", &Delim::Whitespace, &mut v);
        assert_eq!(v.len(), 3);
    }

    #[test]
    fn detects_delimiter_and_header() {
        let t = b"x;y\n1;2\n3;4\n";
        assert_eq!(detect(t), Delim::Byte(b';'));
        assert_eq!(detect_header(t, &Delim::Byte(b';')), 1);
        assert_eq!(detect(b"1 2\n3 4\n"), Delim::Whitespace);
    }

    #[test]
    fn numbers_with_missing() {
        let (m, n, rows) = numeric_rows(b"1,2,3\n4,,6\n7,8\n", &Delim::Byte(b','), 0, f64::NAN);
        assert_eq!((m, n), (3, 3));
        let cm = column_major(&rows, n, f64::NAN);
        assert!(cm[4].is_nan() && cm[8].is_nan());
        assert_eq!(cm[0], 1.0);
    }
}
