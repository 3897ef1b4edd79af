//! textscan's reader of the input bytes: whitespace, delimiters, end-of-line characters and
//! comments by lookup tables, fields and literal text.

use super::Options;

pub(super) struct Lexer<'a> {
    pub(super) s: &'a [u8],
    pub(super) pos: usize,
    pub(super) is_ws: [bool; 256],
    pub(super) is_delim1: [bool; 256],
    /// delimiters of more than one byte
    pub(super) long_delims: Vec<&'a [u8]>,
    pub(super) is_eol_start: [bool; 256],
    pub(super) o: &'a Options,
}

impl<'a> Lexer<'a> {
    pub(super) fn at(&self, t: &[u8]) -> bool {
        self.s[self.pos..].starts_with(t)
    }
    /// Length of the end of line at the position (0: none).
    pub(super) fn eol_len(&self) -> usize {
        if self.pos >= self.s.len() || !self.is_eol_start[self.s[self.pos] as usize] {
            return 0;
        }
        self.o
            .end_of_line
            .iter()
            .filter(|e| self.at(e))
            .map(|e| e.len())
            .max()
            .unwrap_or(0)
    }
    /// Length of the delimiter at the position (0: none).
    pub(super) fn delim_len(&self) -> usize {
        if self.pos >= self.s.len() {
            return 0;
        }
        for d in &self.long_delims {
            if self.at(d) {
                return d.len();
            }
        }
        usize::from(self.is_delim1[self.s[self.pos] as usize])
    }
    /// Skips whitespace and comments, and ends of line too when `eol` is set.
    pub(super) fn skip_blank(&mut self, eol: bool) {
        loop {
            while self.pos < self.s.len() && self.is_ws[self.s[self.pos] as usize] {
                self.pos += 1;
            }
            if let Some((start, end)) = &self.o.comment {
                if !start.is_empty() && self.at(start) {
                    match end {
                        Some(end) => {
                            let from = self.pos + start.len();
                            self.pos = match find(&self.s[from..], end) {
                                Some(k) => from + k + end.len(),
                                None => self.s.len(),
                            };
                        }
                        None => {
                            while self.pos < self.s.len() && self.eol_len() == 0 {
                                self.pos += 1;
                            }
                        }
                    }
                    continue;
                }
            }
            if eol {
                let n = self.eol_len();
                if n > 0 {
                    self.pos += n;
                    continue;
                }
            }
            break;
        }
    }
    /// Whether the position ends a field (end of text, delimiter, end of line, or whitespace
    /// when fields are whitespace-separated).
    pub(super) fn field_ends(&self, delimited: bool) -> bool {
        self.pos >= self.s.len()
            || self.delim_len() > 0
            || self.eol_len() > 0
            || (!delimited && self.is_ws[self.s[self.pos] as usize])
    }
    /// The end of the field from the position.
    pub(super) fn field_end(&mut self, delimited: bool) -> usize {
        let start = self.pos;
        while !self.field_ends(delimited) {
            self.pos += 1;
        }
        let mut end = self.pos;
        self.pos = start;
        // a delimited field's trailing whitespace is not part of it
        while end > start && self.is_ws[self.s[end - 1] as usize] {
            end -= 1;
        }
        end
    }
}

pub(super) fn find(h: &[u8], n: &[u8]) -> Option<usize> {
    if n.is_empty() {
        return Some(0);
    }
    h.windows(n.len()).position(|w| w == n)
}

pub(super) fn text_of(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}
