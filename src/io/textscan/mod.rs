//! textscan's engine: a format of field conversions (%f %d8 %u %s %q %c %[..] %*s, literal
//! text) applied row after row to UTF-8 text, with delimiters, whitespace, end-of-line
//! characters, header lines, comments, empty-value markers and a repeat count. Works on bytes
//! with lookup tables, so a million lines take well under a second.
//!
//! The format (`format`) and the reading of bytes (`lexer`) are their own modules; this
//! one runs the rows and gathers the columns.

mod format;
mod lexer;

use crate::io::scanf::read_float;
use crate::values::class::Class;
pub use format::{Kind, Spec, parse_format};
use lexer::{Lexer, text_of};

pub struct Options {
    /// Field delimiters; empty: fields are separated by whitespace.
    pub delimiters: Vec<Vec<u8>>,
    pub whitespace: Vec<u8>,
    pub end_of_line: Vec<Vec<u8>>,
    pub header_lines: usize,
    pub multiple_delims_as_one: bool,
    pub treat_as_empty: Vec<Vec<u8>>,
    /// A line comment's start, or a block comment's start and end.
    pub comment: Option<(Vec<u8>, Option<Vec<u8>>)>,
    pub empty_value: f64,
    pub return_on_error: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            delimiters: Vec::new(),
            whitespace: b" \x08\t".to_vec(),
            end_of_line: vec![b"\r\n".to_vec(), b"\n".to_vec(), b"\r".to_vec()],
            header_lines: 0,
            multiple_delims_as_one: false,
            treat_as_empty: Vec::new(),
            comment: None,
            empty_value: f64::NAN,
            return_on_error: true,
        }
    }
}

/// One output column.
#[derive(Debug, Clone)]
pub enum Column {
    Num(Class, Vec<f64>),
    Text(Vec<String>),
    Chars(Vec<u16>),
}

pub struct Output {
    pub columns: Vec<Column>,
    /// Bytes of the input used.
    pub used: usize,
    /// Set when a field could not be converted (with ReturnOnError false this is an error).
    pub failure: Option<String>,
}

/// Reads `s` with `specs`, at most `repeat` rows (None: until the text or a match runs out).
pub fn scan(s: &[u8], specs: &[Spec], o: &Options, repeat: Option<usize>) -> Output {
    let delimited = !o.delimiters.is_empty();
    let mut is_delim1 = [false; 256];
    let mut long_delims = Vec::new();
    for d in &o.delimiters {
        match d.as_slice() {
            [c] => is_delim1[*c as usize] = true,
            [] => {}
            _ => long_delims.push(d.as_slice()),
        }
    }
    let mut is_ws = [false; 256];
    for &c in &o.whitespace {
        is_ws[c as usize] = !is_delim1[c as usize];
    }
    let mut is_eol_start = [false; 256];
    for e in &o.end_of_line {
        if let Some(&c) = e.first() {
            is_eol_start[c as usize] = true;
            is_ws[c as usize] = false;
        }
    }
    let mut lx = Lexer {
        s,
        pos: 0,
        is_ws,
        is_delim1,
        long_delims,
        is_eol_start,
        o,
    };
    // header lines
    for _ in 0..o.header_lines {
        while lx.pos < s.len() && lx.eol_len() == 0 {
            lx.pos += 1;
        }
        lx.pos += lx.eol_len();
    }
    let mut columns: Vec<Column> = specs
        .iter()
        .filter(|sp| sp.outputs())
        .map(|sp| match &sp.kind {
            Kind::Num(c) => Column::Num(*c, Vec::new()),
            Kind::Chars => Column::Chars(Vec::new()),
            _ => Column::Text(Vec::new()),
        })
        .collect();
    let mut failure = None;
    let mut rows = 0;
    'rows: while repeat.is_none_or(|n| rows < n) {
        crate::interp::interrupt::poll();
        lx.skip_blank(true);
        if lx.pos >= s.len() {
            break;
        }
        let row_start = lx.pos;
        let mut col = 0;
        let mut line_ended = false;
        for (si, spec) in specs.iter().enumerate() {
            if si > 0 {
                lx.skip_blank(!delimited);
            }
            if lx.pos >= s.len() && !line_ended {
                if delimited && si > 0 {
                    line_ended = true;
                } else {
                    break 'rows;
                }
            }
            if !line_ended && delimited && si > 0 && lx.eol_len() > 0 {
                line_ended = true;
            }
            let empty_field = line_ended || (delimited && lx.field_ends(true));
            let push_num = |columns: &mut Vec<Column>, v: f64| {
                if let Some(Column::Num(_, vals)) = columns.get_mut(col) {
                    vals.push(v);
                }
            };
            match &spec.kind {
                Kind::Literal(l) => {
                    if line_ended {
                        continue;
                    }
                    if lx.at(l) {
                        lx.pos += l.len();
                    } else {
                        failure = Some(format!("Literal '{}' not found.", text_of(l)));
                        break 'rows;
                    }
                    continue;
                }
                Kind::Num(_) => {
                    let v = if empty_field {
                        o.empty_value
                    } else {
                        let end = lx.field_end(delimited);
                        let end = spec.width.map_or(end, |w| end.min(lx.pos + w));
                        let field = &s[lx.pos..end];
                        match read_float(field) {
                            Some((v, used)) => {
                                lx.pos += used;
                                v
                            }
                            None if o.treat_as_empty.iter().any(|t| t.as_slice() == field) => {
                                lx.pos = end;
                                o.empty_value
                            }
                            None => {
                                failure = Some(format!(
                                    "Could not convert '{}' to a number (row {}, field {}).",
                                    text_of(field),
                                    rows + 1,
                                    si + 1
                                ));
                                break 'rows;
                            }
                        }
                    };
                    if spec.outputs() {
                        push_num(&mut columns, v);
                    }
                }
                Kind::Str | Kind::Quoted | Kind::Set(_) => {
                    let text = if empty_field {
                        String::new()
                    } else if matches!(spec.kind, Kind::Quoted) && s[lx.pos] == b'"' {
                        let mut t = Vec::new();
                        let mut k = lx.pos + 1;
                        while k < s.len() {
                            if s[k] == b'"' {
                                if s.get(k + 1) == Some(&b'"') {
                                    t.push(b'"');
                                    k += 2;
                                    continue;
                                }
                                k += 1;
                                break;
                            }
                            t.push(s[k]);
                            k += 1;
                        }
                        lx.pos = k;
                        text_of(&t)
                    } else if let Kind::Set(set) = &spec.kind {
                        let from = lx.pos;
                        while lx.pos < s.len()
                            && set[s[lx.pos] as usize]
                            && spec.width.is_none_or(|w| lx.pos - from < w)
                        {
                            lx.pos += 1;
                        }
                        text_of(&s[from..lx.pos])
                    } else {
                        let end = lx.field_end(delimited);
                        let end = spec.width.map_or(end, |w| end.min(lx.pos + w));
                        let t = text_of(&s[lx.pos..end]);
                        lx.pos = end;
                        t
                    };
                    if spec.outputs() {
                        if let Some(Column::Text(v)) = columns.get_mut(col) {
                            v.push(text);
                        }
                    }
                }
                Kind::Chars => {
                    let n = spec.width.unwrap_or(1);
                    let from = lx.pos;
                    let mut got = 0;
                    while lx.pos < s.len() && got < n && !line_ended {
                        lx.pos += 1;
                        got += 1;
                    }
                    if spec.outputs() {
                        if let Some(Column::Chars(v)) = columns.get_mut(col) {
                            let mut t: Vec<u16> =
                                text_of(&s[from..lx.pos]).encode_utf16().collect();
                            t.resize(n, b' ' as u16);
                            v.extend(t);
                        }
                    }
                }
            }
            if spec.outputs() {
                col += 1;
            }
            // the delimiter after a field
            if delimited && !line_ended {
                lx.skip_blank(false);
                let n = lx.delim_len();
                if n > 0 {
                    lx.pos += n;
                    if o.multiple_delims_as_one {
                        loop {
                            lx.skip_blank(false);
                            let n = lx.delim_len();
                            if n == 0 {
                                break;
                            }
                            lx.pos += n;
                        }
                    }
                }
            }
        }
        rows += 1;
        if lx.pos == row_start {
            break;
        }
    }
    Output {
        columns,
        used: lx.pos,
        failure,
    }
}

/// The number of fields on the first data line, for a format of `%f`s when none is given.
pub fn count_fields(s: &[u8], o: &Options) -> usize {
    // lines end where any of the end-of-line texts does
    let eol_at = |k: usize| -> usize {
        o.end_of_line
            .iter()
            .filter(|e| !e.is_empty() && s[k..].starts_with(e))
            .map(|e| e.len())
            .max()
            .unwrap_or(0)
    };
    let mut lines: Vec<&[u8]> = Vec::new();
    let mut from = 0;
    let mut k = 0;
    while k < s.len() && lines.len() < o.header_lines + 1000 {
        let n = eol_at(k);
        if n > 0 {
            lines.push(&s[from..k]);
            k += n;
            from = k;
        } else {
            k += 1;
        }
    }
    if from < s.len() {
        lines.push(&s[from..]);
    }
    let line = lines
        .iter()
        .skip(o.header_lines)
        .find(|l| l.iter().any(|c| !c.is_ascii_whitespace()))
        .copied()
        .unwrap_or(&[]);
    if o.delimiters.is_empty() {
        line.split(|c| c.is_ascii_whitespace())
            .filter(|f| !f.is_empty())
            .count()
            .max(1)
    } else {
        let mut n = 1;
        let mut j = 0;
        while j < line.len() {
            if let Some(d) = o
                .delimiters
                .iter()
                .find(|d| !d.is_empty() && line[j..].starts_with(d))
            {
                n += 1;
                j += d.len();
            } else {
                j += 1;
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nums(c: &Column) -> Vec<f64> {
        match c {
            Column::Num(_, v) => v.clone(),
            _ => panic!("not numeric"),
        }
    }

    #[test]
    fn whitespace_fields() {
        let specs = parse_format("%s %f %d").expect("format");
        let out = scan(b"a 1.5 2\nbb 3 4\n", &specs, &Options::default(), None);
        assert!(matches!(&out.columns[0], Column::Text(t) if t == &["a", "bb"]));
        assert_eq!(nums(&out.columns[1]), vec![1.5, 3.0]);
        assert_eq!(nums(&out.columns[2]), vec![2.0, 4.0]);
    }

    #[test]
    fn delimited_with_empty_fields() {
        let specs = parse_format("%f %f %f").expect("format");
        let o = Options {
            delimiters: vec![b",".to_vec()],
            ..Options::default()
        };
        let out = scan(b"1,,3\n4,5\n", &specs, &o, None);
        assert_eq!(nums(&out.columns[0]), vec![1.0, 4.0]);
        assert!(nums(&out.columns[1])[0].is_nan());
        assert_eq!(nums(&out.columns[1])[1], 5.0);
        assert_eq!(nums(&out.columns[2])[0], 3.0);
        assert!(nums(&out.columns[2])[1].is_nan());
    }

    #[test]
    fn stops_at_bad_field() {
        let specs = parse_format("%f").expect("format");
        let out = scan(b"1 2 x 4", &specs, &Options::default(), None);
        assert_eq!(nums(&out.columns[0]), vec![1.0, 2.0]);
        assert!(out.failure.is_some());
    }
}
