//! A hand-written, context-sensitive lexer for MATLAB.
//!
//! MATLAB's tokens depend on context in ways a grammar cannot see cheaply, so the lexer decides:
//! - `'` is a transpose after a value (and, inside brackets, only with no space before it);
//!   otherwise it opens a char literal;
//! - inside `[]` and `{}` literals, whitespace between two values separates elements
//!   (`[1 -2]` is two elements, `[1 - 2]` one), and a newline separates rows;
//! - a statement `name word ...` whose name is not a variable is command syntax;
//! - `end` inside any bracket is the end-of-dimension value, elsewhere it closes a block.

use super::assigned::assigned_names;
use super::command;
use super::span::Span;
use super::token::{Kw, Tok};
use std::collections::HashSet;
use std::rc::Rc;

#[derive(Debug, Clone)]
pub struct LexError {
    pub span: Span,
    pub message: String,
    pub identifier: &'static str,
    /// The input ended inside something unfinished (a bracket, a string continued by `...`):
    /// an interactive prompt should ask for more lines.
    pub incomplete: bool,
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Ctx {
    Paren,
    /// The parameter list of `@(x, y)`: whitespace after it does not separate elements.
    AnonParams,
    Bracket,
    BraceLit,
    BraceIdx,
}

pub type Tokens = Vec<(Tok, Span)>;

/// Lexes `src`. `is_var` tells which names are variables at this point (a name that is a
/// variable is never the start of command syntax).
pub fn lex(src: &str, is_var: &dyn Fn(&str) -> bool) -> Result<Tokens, LexError> {
    // First pass without command syntax, to learn which names the text itself assigns.
    let assigned = match Lexer::new(src, false, HashSet::new()).run() {
        Ok(toks) => assigned_names(&toks),
        Err(_) => HashSet::new(),
    };
    let known: HashSet<String> = assigned.into_iter().collect();
    let mut lx = Lexer::new(src, true, known);
    lx.is_var = Some(is_var);
    lx.run()
}

struct Lexer<'a> {
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    toks: Tokens,
    stack: Vec<(Ctx, usize)>,
    at_stmt_start: bool,
    commands: bool,
    known: HashSet<String>,
    is_var: Option<&'a dyn Fn(&str) -> bool>,
    /// Set after `@(...)`: the anonymous function's body follows, even after a space.
    after_anon_params: bool,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic()
}
fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

impl<'a> Lexer<'a> {
    fn new(src: &'a str, commands: bool, known: HashSet<String>) -> Lexer<'a> {
        Lexer {
            src,
            b: src.as_bytes(),
            pos: 0,
            toks: Vec::new(),
            stack: Vec::new(),
            at_stmt_start: true,
            commands,
            known,
            is_var: None,
            after_anon_params: false,
        }
    }

    fn peek(&self) -> u8 {
        self.at(0)
    }
    fn at(&self, k: usize) -> u8 {
        *self.b.get(self.pos + k).unwrap_or(&0)
    }
    fn err(&self, start: usize, message: impl Into<String>, identifier: &'static str) -> LexError {
        let len = self
            .src
            .get(start..)
            .and_then(|r| r.chars().next())
            .map(|c| c.len_utf8())
            .unwrap_or(1);
        LexError {
            span: Span::new(start, (start + len).min(self.b.len()).max(start)),
            message: message.into(),
            identifier,
            incomplete: false,
        }
    }
    fn push(&mut self, t: Tok, start: usize) {
        self.toks.push((t, Span::new(start, self.pos)));
    }
    fn last_ends_value(&self) -> bool {
        self.toks.last().is_some_and(|(t, _)| t.ends_value())
    }
    fn in_matrix(&self) -> bool {
        matches!(self.stack.last(), Some((Ctx::Bracket | Ctx::BraceLit, _)))
    }
    fn at_line_start(&self, p: usize) -> bool {
        let line_start = self.src[..p].rfind('\n').map(|i| i + 1).unwrap_or(0);
        self.src[line_start..p].trim().is_empty()
    }
    fn line_end(&self, p: usize) -> usize {
        self.src[p..]
            .find('\n')
            .map(|i| p + i)
            .unwrap_or(self.b.len())
    }

    /// Skips spaces, tabs, `...` continuations, and (inside parentheses) newlines.
    /// Returns whether anything was skipped.
    fn skip_ws(&mut self) -> bool {
        let start = self.pos;
        loop {
            match self.peek() {
                b' ' | b'\t' => self.pos += 1,
                // a byte-order mark is not text
                0xEF if self.at(1) == 0xBB && self.at(2) == 0xBF => self.pos += 3,
                b'\r' if self.at(1) != b'\n' => self.pos += 1,
                b'\r' if self.newline_is_space() => self.pos += 1,
                b'.' if self.at(1) == b'.' && self.at(2) == b'.' => {
                    // continuation: the rest of the line is a comment, the newline is a space
                    self.pos = self.line_end(self.pos);
                    if self.pos < self.b.len() {
                        self.pos += 1;
                    }
                }
                b'\n' if self.newline_is_space() => self.pos += 1,
                _ => break,
            }
        }
        self.pos > start
    }
    fn newline_is_space(&self) -> bool {
        matches!(
            self.stack.last(),
            Some((Ctx::Paren | Ctx::AnonParams | Ctx::BraceIdx, _))
        )
    }

    fn run(mut self) -> Result<Tokens, LexError> {
        loop {
            let had_ws = self.skip_ws();
            if self.pos >= self.b.len() {
                break;
            }
            let c = self.peek();
            let start = self.pos;
            if c == b'%' {
                if self.at(1) == b'{'
                    && self.at_line_start(start)
                    && self.src[start..self.line_end(start)].trim() == "%{"
                {
                    self.block_comment()?;
                } else {
                    self.pos = self.line_end(self.pos);
                }
                continue;
            }
            if c == b'\n' || c == b'\r' {
                self.pos += if c == b'\r' && self.at(1) == b'\n' {
                    2
                } else {
                    1
                };
                if self.in_matrix() {
                    self.push(Tok::Semi, start);
                } else if self.stack.is_empty() {
                    self.push(Tok::Newline, start);
                    self.at_stmt_start = true;
                }
                continue;
            }
            let after_anon = std::mem::replace(&mut self.after_anon_params, false);
            if self.in_matrix()
                && had_ws
                && self.last_ends_value()
                && self.starts_element()
                && !after_anon
            {
                self.toks.push((Tok::Comma, Span::new(start, start)));
            }
            let stmt_start = std::mem::replace(&mut self.at_stmt_start, false);
            if is_ident_start(c) {
                self.word(stmt_start)?;
            } else if c.is_ascii_digit() || (c == b'.' && self.at(1).is_ascii_digit()) {
                self.number()?;
            } else if c == b'\'' {
                // `@(x) 'text'`: the parameter list's `)` does not end a value
                if self.last_ends_value() && !(self.in_matrix() && had_ws) && !after_anon {
                    self.pos += 1;
                    self.push(Tok::Quote, start);
                } else {
                    let s = self.quoted(b'\'')?;
                    self.push(Tok::Char(s.into()), start);
                }
            } else if c == b'!' && stmt_start && self.stack.is_empty() && self.at(1) != b'=' {
                // MATLAB's `!command` hands the rest of the line to the operating system
                return Err(self.err(
                    start,
                    "Shell escapes (!command) are not supported: matfuse does not run operating-system commands.".to_string(),
                    "MATLAB:parse:shellEscape",
                ));
            } else if c == b'"' {
                let s = self.quoted(b'"')?;
                self.push(Tok::Str(s.into()), start);
            } else {
                self.punct(had_ws)?;
                if matches!(self.toks.last(), Some((Tok::Semi | Tok::Comma, _)))
                    && self.stack.is_empty()
                {
                    self.at_stmt_start = true;
                }
            }
        }
        if let Some(&(ctx, at)) = self.stack.last() {
            let what = match ctx {
                Ctx::Paren | Ctx::AnonParams => "parenthesis",
                Ctx::Bracket => "bracket",
                Ctx::BraceLit | Ctx::BraceIdx => "brace",
            };
            let mut e = self.err(
                at,
                format!("Unmatched opening {what}: this input ends before it is closed."),
                "MATLAB:parse:unbalanced",
            );
            e.incomplete = true;
            return Err(e);
        }
        Ok(self.toks)
    }

    fn block_comment(&mut self) -> Result<(), LexError> {
        let start = self.pos;
        let mut depth = 0;
        loop {
            let end = self.line_end(self.pos);
            let line = self.src[self.pos..end].trim();
            if line == "%{" {
                depth += 1;
            } else if line == "%}" {
                depth -= 1;
            }
            self.pos = if end < self.b.len() { end + 1 } else { end };
            if depth == 0 {
                return Ok(());
            }
            if end >= self.b.len() {
                let mut e = self.err(
                    start,
                    "Block comment is not terminated with %}.",
                    "MATLAB:parse:blockComment",
                );
                e.incomplete = true;
                return Err(e);
            }
        }
    }

    /// Whether the text at `pos` begins a new element of a matrix literal.
    fn starts_element(&self) -> bool {
        let (c, c2) = (self.peek(), self.at(1));
        match c {
            b'0'..=b'9' | b'\'' | b'"' | b'(' | b'[' | b'{' | b'@' => true,
            c if is_ident_start(c) => true,
            b'.' => c2.is_ascii_digit(),
            b'~' | b'!' => c2 != b'=',
            b'+' | b'-' => {
                !matches!(c2, b' ' | b'\t' | b'\n' | b'\r' | b'=')
                    && !(c2 == b'.' && self.at(2) == b'.')
            }
            _ => false,
        }
    }

    fn word(&mut self, stmt_start: bool) -> Result<(), LexError> {
        let start = self.pos;
        while is_ident_char(self.peek()) {
            self.pos += 1;
        }
        let w = &self.src[start..self.pos];
        let after_dot = matches!(self.toks.last(), Some((Tok::Dot, _)));
        if !after_dot {
            if let Some(kw) = Kw::from_word(w) {
                if kw == Kw::End && !self.stack.is_empty() {
                    self.push(Tok::EndIdx, start);
                } else {
                    self.push(Tok::Kw(kw), start);
                    self.at_stmt_start = matches!(kw, Kw::Else | Kw::Try | Kw::Otherwise | Kw::End);
                }
                return Ok(());
            }
        }
        if stmt_start && self.commands && self.stack.is_empty() {
            if let Some(args) = self.command_args(w) {
                let name: Rc<str> = w.into();
                self.push(Tok::Command(name, args), start);
                return Ok(());
            }
        }
        self.push(Tok::Ident(w.into()), start);
        Ok(())
    }

    fn is_known_var(&self, name: &str) -> bool {
        self.known.contains(name) || self.is_var.is_some_and(|f| f(name))
    }

    /// Decides command syntax for a statement that starts with `name`; on yes, consumes and
    /// returns the words after it.
    fn command_args(&mut self, name: &str) -> Option<Vec<String>> {
        let (args, end) = {
            let known = |n: &str| self.is_known_var(n);
            command::command_words(self.src, self.pos, name, &known)?
        };
        self.pos = end;
        Some(args)
    }

    fn number(&mut self) -> Result<(), LexError> {
        let start = self.pos;
        if self.peek() == b'0'
            && matches!(self.at(1), b'x' | b'X')
            && self.at(2).is_ascii_hexdigit()
        {
            self.pos += 2;
            let ds = self.pos;
            while self.peek().is_ascii_hexdigit() {
                self.pos += 1;
            }
            let v = u64::from_str_radix(&self.src[ds..self.pos], 16).map_err(|_| {
                self.err(
                    start,
                    "Hexadecimal literal is too large.",
                    "MATLAB:parse:number",
                )
            })?;
            self.push(Tok::Num(v as f64), start);
            return Ok(());
        }
        while self.peek().is_ascii_digit() {
            self.pos += 1;
        }
        if self.peek() == b'.' && !(self.at(1) == b'.' && self.at(2) == b'.') {
            // `3.*x` is `3 .* x`; `3.'` is a transpose of 3
            if !matches!(self.at(1), b'*' | b'/' | b'\\' | b'^' | b'\'') {
                self.pos += 1;
                while self.peek().is_ascii_digit() {
                    self.pos += 1;
                }
            }
        }
        if matches!(self.peek(), b'e' | b'E' | b'd' | b'D') {
            let save = self.pos;
            self.pos += 1;
            if matches!(self.peek(), b'+' | b'-') {
                self.pos += 1;
            }
            if self.peek().is_ascii_digit() {
                while self.peek().is_ascii_digit() {
                    self.pos += 1;
                }
            } else {
                self.pos = save;
            }
        }
        let text: String = self.src[start..self.pos].replace(['d', 'D'], "e");
        let v: f64 = text.parse().map_err(|_| {
            self.err(
                start,
                format!("Invalid number '{text}'."),
                "MATLAB:parse:number",
            )
        })?;
        if matches!(self.peek(), b'i' | b'j' | b'I' | b'J') && !is_ident_char(self.at(1)) {
            self.pos += 1;
            self.push(Tok::Imag(v), start);
        } else {
            if is_ident_start(self.peek()) {
                return Err(self.err(self.pos, "Invalid expression. Check for missing multiplication operator, missing or unbalanced delimiters, or other syntax error.", "MATLAB:parse:invalidExpression"));
            }
            self.push(Tok::Num(v), start);
        }
        Ok(())
    }

    /// A quoted literal; the delimiter is doubled to include it.
    fn quoted(&mut self, q: u8) -> Result<String, LexError> {
        let start = self.pos;
        self.pos += 1;
        let mut s = String::new();
        loop {
            match self.b.get(self.pos) {
                None | Some(b'\n') | Some(b'\r') => {
                    let what = if q == b'\'' {
                        "character vector"
                    } else {
                        "string"
                    };
                    return Err(self.err(
                        start,
                        format!("The {what} is missing its closing quote."),
                        "MATLAB:parse:unterminatedString",
                    ));
                }
                Some(&c) if c == q => {
                    if self.at(1) == q {
                        s.push(q as char);
                        self.pos += 2;
                    } else {
                        self.pos += 1;
                        return Ok(s);
                    }
                }
                Some(&c) => {
                    let n = utf8_len(c);
                    s.push_str(&self.src[self.pos..self.pos + n]);
                    self.pos += n;
                }
            }
        }
    }

    fn open(&mut self, ctx: Ctx, tok: Tok, start: usize) {
        self.stack.push((ctx, start));
        self.pos += 1;
        self.push(tok, start);
    }
    fn close(&mut self, tok: Tok, start: usize) -> Result<(), LexError> {
        let want = match tok {
            Tok::RParen => &[Ctx::Paren, Ctx::AnonParams][..],
            Tok::RBracket => &[Ctx::Bracket][..],
            _ => &[Ctx::BraceLit, Ctx::BraceIdx][..],
        };
        match self.stack.last() {
            Some((ctx, _)) if want.contains(ctx) => {
                self.after_anon_params = *ctx == Ctx::AnonParams;
                self.stack.pop();
                self.pos += 1;
                self.push(tok, start);
                Ok(())
            }
            _ => {
                let what = match tok {
                    Tok::RParen => "parenthesis",
                    Tok::RBracket => "bracket",
                    _ => "brace",
                };
                Err(self.err(start, format!("Invalid expression. When calling a function or indexing a variable, use parentheses. Otherwise, check for mismatched delimiters (unexpected closing {what})."), "MATLAB:parse:unbalanced"))
            }
        }
    }

    fn punct(&mut self, had_ws: bool) -> Result<(), LexError> {
        let start = self.pos;
        let (c, c2) = (self.peek(), self.at(1));
        let two = |t: Tok| (t, 2usize);
        let one = |t: Tok| (t, 1usize);
        let (tok, len) = match (c, c2) {
            (b'(', _) => {
                let anon = matches!(self.toks.last(), Some((Tok::At, _)));
                return Ok(self.open(
                    if anon { Ctx::AnonParams } else { Ctx::Paren },
                    Tok::LParen,
                    start,
                ));
            }
            (b'[', _) => return Ok(self.open(Ctx::Bracket, Tok::LBracket, start)),
            (b'{', _) => {
                let idx = self.last_ends_value() && !(self.in_matrix() && had_ws);
                return Ok(self.open(
                    if idx { Ctx::BraceIdx } else { Ctx::BraceLit },
                    Tok::LBrace,
                    start,
                ));
            }
            (b')', _) => return self.close(Tok::RParen, start),
            (b']', _) => return self.close(Tok::RBracket, start),
            (b'}', _) => return self.close(Tok::RBrace, start),
            (b'.', b'*') => two(Tok::DotStar),
            (b'.', b'/') => two(Tok::DotSlash),
            (b'.', b'\\') => two(Tok::DotBackslash),
            (b'.', b'^') => two(Tok::DotCaret),
            (b'.', b'\'') => two(Tok::DotQuote),
            (b'.', _) => one(Tok::Dot),
            (b'=', b'=') => two(Tok::EqEq),
            (b'=', _) => one(Tok::Assign),
            (b'~' | b'!', b'=') => two(Tok::NotEq),
            (b'~' | b'!', _) => one(Tok::Not),
            (b'<', b'=') => two(Tok::Le),
            (b'<', _) => one(Tok::Lt),
            (b'>', b'=') => two(Tok::Ge),
            (b'>', _) => one(Tok::Gt),
            (b'&', b'&') => two(Tok::AndAnd),
            (b'&', _) => one(Tok::Amp),
            (b'|', b'|') => two(Tok::OrOr),
            (b'|', _) => one(Tok::Bar),
            (b'+', _) => one(Tok::Plus),
            (b'-', _) => one(Tok::Minus),
            (b'*', _) => one(Tok::Star),
            (b'/', _) => one(Tok::Slash),
            (b'\\', _) => one(Tok::Backslash),
            (b'^', _) => one(Tok::Caret),
            (b':', _) => one(Tok::Colon),
            (b'@', _) => one(Tok::At),
            (b',', _) => one(Tok::Comma),
            (b';', _) => one(Tok::Semi),
            _ => {
                let ch = self.src[start..].chars().next().unwrap_or('?');
                return Err(self.err(start, format!("Invalid text character. Check for unsupported symbol, invisible character, or pasting of non-ASCII characters ('{ch}')."), "MATLAB:parse:invalidCharacter"));
            }
        };
        self.pos += len;
        self.push(tok, start);
        Ok(())
    }
}

pub(super) fn utf8_len(b: u8) -> usize {
    match b {
        0..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    }
}

#[cfg(test)]
#[path = "lexer_tests.rs"]
mod tests;
