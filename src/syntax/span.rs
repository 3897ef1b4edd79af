//! Byte spans into a source text, and the source texts themselves (with line lookup for carets).

use std::fmt;
use std::rc::Rc;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }
    pub fn join(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// A named source text: a file, a REPL input, `-e` code or standard input.
#[derive(Debug)]
pub struct Source {
    pub name: String,
    pub text: String,
    /// Whether `name` is a real file path (errors then print `file:line:col`).
    pub is_file: bool,
    /// Line number of the first line of `text` within the named input (for REPL chunks).
    pub first_line: usize,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>, is_file: bool) -> Rc<Source> {
        Rc::new(Source {
            name: name.into(),
            text: text.into(),
            is_file,
            first_line: 1,
        })
    }
    /// The nearest character boundary at or before a byte offset.
    fn boundary(&self, offset: usize) -> usize {
        let mut i = offset.min(self.text.len());
        while !self.text.is_char_boundary(i) {
            i -= 1;
        }
        i
    }
    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = self.boundary(offset);
        let before = &self.text[..offset];
        let line = before.matches('\n').count();
        let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
        let col = self.text[line_start..offset].chars().count() + 1;
        (line + self.first_line, col)
    }
    /// The full text of the line containing `offset`, without its newline.
    pub fn line_text(&self, offset: usize) -> &str {
        let offset = self.boundary(offset);
        let start = self.text[..offset].rfind('\n').map(|i| i + 1).unwrap_or(0);
        let end = self.text[offset..]
            .find('\n')
            .map(|i| offset + i)
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches('\r')
    }
    /// The source line with a caret line under `span` (clipped to that line).
    pub fn caret(&self, span: Span) -> String {
        let start = self.boundary(span.start as usize);
        let line = self.line_text(start);
        let line_start = self.text[..start].rfind('\n').map(|i| i + 1).unwrap_or(0);
        let col: usize = self.text[line_start..start].chars().count();
        let end = self.boundary((span.end as usize).clamp(start, line_start + line.len()));
        let width = self.text[start..end].chars().count().max(1);
        let pad: String = line
            .chars()
            .take(col)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        format!("{line}\n{pad}{}", "^".repeat(width))
    }
}
