//! textscan's format: field conversions (%f %d8 %u %s %q %c %[..] %*s, widths) and the
//! literal text between them.

use crate::io::scanf::parse_set;
use crate::values::class::Class;

#[derive(Debug, Clone)]
pub enum Kind {
    /// A number converted to `class` (double for %f and %n).
    Num(Class),
    /// %s: text up to whitespace or a delimiter.
    Str,
    /// %q: like %s, but a field in double quotes is read to the closing quote.
    Quoted,
    /// %c or %Nc: characters, whitespace and delimiters included.
    Chars,
    /// %[...] / %[^...]: the longest run of bytes in the set.
    Set(Box<[bool; 256]>),
    /// Text that must appear in the input; it is skipped.
    Literal(Vec<u8>),
}

#[derive(Debug, Clone)]
pub struct Spec {
    pub kind: Kind,
    pub skip: bool,
    pub width: Option<usize>,
}

impl Spec {
    /// Whether the conversion gives an output column.
    pub fn outputs(&self) -> bool {
        !self.skip && !matches!(self.kind, Kind::Literal(_))
    }
}

/// Parses a textscan format; Err names what is wrong.
pub fn parse_format(fmt: &str) -> Result<Vec<Spec>, String> {
    let fmt = crate::display::printf::unescape(fmt);
    let b = fmt.as_bytes();
    let mut specs = Vec::new();
    let mut k = 0;
    let mut lit = Vec::new();
    let flush_lit = |lit: &mut Vec<u8>, specs: &mut Vec<Spec>| {
        if !lit.is_empty() {
            specs.push(Spec {
                kind: Kind::Literal(std::mem::take(lit)),
                skip: true,
                width: None,
            });
        }
    };
    while k < b.len() {
        let c = b[k];
        if c.is_ascii_whitespace() {
            flush_lit(&mut lit, &mut specs);
            k += 1;
            continue;
        }
        if c != b'%' {
            lit.push(c);
            k += 1;
            continue;
        }
        if b.get(k + 1) == Some(&b'%') {
            lit.push(b'%');
            k += 2;
            continue;
        }
        flush_lit(&mut lit, &mut specs);
        let mut j = k + 1;
        let skip = b.get(j) == Some(&b'*');
        if skip {
            j += 1;
        }
        let d0 = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        let width: Option<usize> = fmt[d0..j].parse().ok();
        // a precision (%5.2f) changes nothing when reading
        if b.get(j) == Some(&b'.') {
            j += 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
        }
        let Some(&conv) = b.get(j) else {
            return Err(format!("Badly formed format '{fmt}'."));
        };
        j += 1;
        let bits = |j: &mut usize| -> Option<u32> {
            let s = *j;
            while *j < b.len() && b[*j].is_ascii_digit() {
                *j += 1;
            }
            fmt[s..*j].parse().ok()
        };
        let kind = match conv {
            b'f' | b'n' => match bits(&mut j) {
                None | Some(64) => Kind::Num(Class::Double),
                Some(32) => Kind::Num(Class::Single),
                Some(n) => return Err(format!("Unsupported format %f{n}.")),
            },
            b'd' | b'u' => {
                let signed = conv == b'd';
                let class = match (bits(&mut j), signed) {
                    (None | Some(32), true) => Class::Int32,
                    (Some(8), true) => Class::Int8,
                    (Some(16), true) => Class::Int16,
                    (Some(64), true) => Class::Int64,
                    (None | Some(32), false) => Class::UInt32,
                    (Some(8), false) => Class::UInt8,
                    (Some(16), false) => Class::UInt16,
                    (Some(64), false) => Class::UInt64,
                    (Some(n), _) => {
                        return Err(format!("Unsupported format %{}{n}.", conv as char));
                    }
                };
                Kind::Num(class)
            }
            b's' => Kind::Str,
            b'q' => Kind::Quoted,
            b'c' => Kind::Chars,
            b'[' => {
                let (set, end) =
                    parse_set(b, j).ok_or_else(|| format!("Badly formed format '{fmt}'."))?;
                j = end;
                Kind::Set(set)
            }
            other => {
                return Err(format!(
                    "Unsupported format specifier '%{}'.",
                    other as char
                ));
            }
        };
        specs.push(Spec { kind, skip, width });
        k = j;
    }
    flush_lit(&mut lit, &mut specs);
    Ok(specs)
}
