//! A hand-written, context-sensitive lexer for MATLAB.
//!
//! MATLAB's tokens depend on context in ways a grammar cannot see cheaply, so the lexer decides:
//! - `'` is a transpose after a value (and, inside brackets, only with no space before it);
//!   otherwise it opens a char literal;
//! - inside `[]` and `{}` literals, whitespace between two values separates elements
//!   (`[1 -2]` is two elements, `[1 - 2]` one), and a newline separates rows;
//! - a statement `name word ...` whose name is not a variable is command syntax;
//! - `end` inside any bracket is the end-of-dimension value, elsewhere it closes a block.

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
        let mut p = self.pos;
        if !matches!(self.b.get(p), Some(b' ' | b'\t')) {
            return None;
        }
        while matches!(self.b.get(p), Some(b' ' | b'\t')) {
            p += 1;
        }
        let c = *self.b.get(p).unwrap_or(&b'\n');
        let c2 = *self.b.get(p + 1).unwrap_or(&b'\n');
        if matches!(c, b'\n' | b'\r' | b';' | b',' | b'%' | b'(') {
            return None;
        }
        if c == b'=' && c2 != b'=' {
            return None;
        }
        if c == b'.' && c2 == b'.' && self.b.get(p + 2) == Some(&b'.') {
            return None;
        }
        let ops2: [&[u8]; 11] = [
            b"==", b"~=", b"!=", b"<=", b">=", b"&&", b"||", b".*", b"./", b".\\", b".^",
        ];
        let op_len = if ops2.iter().any(|o| self.b[p..].starts_with(o)) {
            2
        } else if b"+-*/\\^<>&|:=~!".contains(&c) {
            1
        } else {
            0
        };
        if op_len > 0 {
            let after = *self.b.get(p + op_len).unwrap_or(&b'\n');
            if matches!(after, b' ' | b'\t' | b'\n' | b'\r') {
                return None; // `a + b`: an expression
            }
        }
        if self.is_known_var(name) {
            return None;
        }
        // Command syntax: split the rest of the statement into words.
        let mut args = Vec::new();
        let mut cur = String::new();
        let mut has = false;
        let mut q = p;
        while q < self.b.len() {
            let ch = self.b[q];
            match ch {
                b'\n' | b'\r' | b';' | b',' => break,
                b'%' => break,
                b' ' | b'\t' => {
                    if has {
                        args.push(std::mem::take(&mut cur));
                        has = false;
                    }
                    q += 1;
                }
                b'\'' => {
                    has = true;
                    q += 1;
                    loop {
                        match self.b.get(q) {
                            None | Some(b'\n') => break,
                            Some(b'\'') if self.b.get(q + 1) == Some(&b'\'') => {
                                cur.push('\'');
                                q += 2;
                            }
                            Some(b'\'') => {
                                q += 1;
                                break;
                            }
                            Some(_) => {
                                let ch_len = utf8_len(self.b[q]);
                                cur.push_str(&self.src[q..q + ch_len]);
                                q += ch_len;
                            }
                        }
                    }
                }
                _ => {
                    has = true;
                    let ch_len = utf8_len(ch);
                    cur.push_str(&self.src[q..q + ch_len]);
                    q += ch_len;
                }
            }
        }
        if has {
            args.push(cur);
        }
        self.pos = q;
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

fn utf8_len(b: u8) -> usize {
    match b {
        0..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    }
}

/// Names that a token stream assigns: targets of `=` at statement start (also through
/// indexing), multiple-assignment lists, `for` variables, `global`/`persistent` names,
/// `catch` variables, and function header names.
fn assigned_names(toks: &Tokens) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut i = 0;
    let mut stmt_start = true;
    while i < toks.len() {
        let t = &toks[i].0;
        match t {
            Tok::Newline | Tok::Semi | Tok::Comma => {
                stmt_start = true;
                i += 1;
                continue;
            }
            Tok::Kw(Kw::For | Kw::Parfor) => {
                let j = if matches!(toks.get(i + 1), Some((Tok::LParen, _))) {
                    i + 2
                } else {
                    i + 1
                };
                if let Some((Tok::Ident(n), _)) = toks.get(j) {
                    out.insert(n.to_string());
                }
            }
            Tok::Kw(Kw::Global | Kw::Persistent | Kw::Catch) | Tok::Kw(Kw::Function) => {
                // a function's own name is not a variable (so `name arg` stays a command)
                let fname = if matches!(t, Tok::Kw(Kw::Function)) {
                    let header: Vec<&Tok> = toks[i + 1..]
                        .iter()
                        .map(|(tk, _)| tk)
                        .take_while(|tk| !matches!(tk, Tok::Newline | Tok::Semi))
                        .collect();
                    let after = header
                        .iter()
                        .position(|tk| matches!(tk, Tok::Assign))
                        .map(|k| k + 1)
                        .unwrap_or(0);
                    match header.get(after) {
                        Some(Tok::Ident(n)) => Some(n.to_string()),
                        _ => None,
                    }
                } else {
                    None
                };
                let mut j = i + 1;
                while let Some((tk, _)) = toks.get(j) {
                    match tk {
                        Tok::Newline | Tok::Semi => break,
                        Tok::Ident(n) if fname.as_deref() != Some(&**n) => {
                            out.insert(n.to_string());
                        }
                        _ => {}
                    }
                    if matches!(t, Tok::Kw(Kw::Catch)) {
                        break;
                    }
                    j += 1;
                }
            }
            Tok::Ident(n) if stmt_start => {
                // scan to the end of the statement looking for `=` at depth 0
                let mut depth = 0i32;
                let mut j = i + 1;
                while let Some((tk, _)) = toks.get(j) {
                    match tk {
                        Tok::LParen | Tok::LBracket | Tok::LBrace => depth += 1,
                        Tok::RParen | Tok::RBracket | Tok::RBrace => depth -= 1,
                        Tok::Assign if depth == 0 => {
                            out.insert(n.to_string());
                            break;
                        }
                        Tok::Newline | Tok::Semi | Tok::Comma if depth == 0 => break,
                        _ => {}
                    }
                    j += 1;
                }
            }
            Tok::LBracket if stmt_start => {
                let mut j = i + 1;
                let mut names = vec![];
                let mut depth = 0;
                while let Some((tk, _)) = toks.get(j) {
                    match tk {
                        Tok::Ident(n) if depth == 0 => names.push(n.to_string()),
                        Tok::LParen | Tok::LBrace | Tok::LBracket => depth += 1,
                        Tok::RParen | Tok::RBrace => depth -= 1,
                        Tok::RBracket if depth == 0 => break,
                        Tok::RBracket => depth -= 1,
                        Tok::Newline => break,
                        _ => {}
                    }
                    j += 1;
                }
                if matches!(toks.get(j + 1), Some((Tok::Assign, _))) {
                    out.extend(names);
                }
            }
            _ => {}
        }
        stmt_start = false;
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    fn kinds(src: &str) -> Vec<Tok> {
        lex(src, &|_| false)
            .unwrap()
            .into_iter()
            .map(|(t, _)| t)
            .collect()
    }
    fn count_commas(src: &str) -> usize {
        kinds(src).iter().filter(|t| **t == Tok::Comma).count()
    }
    #[test]
    fn whitespace_separates_elements() {
        assert_eq!(count_commas("[1 -2]"), 1);
        assert_eq!(count_commas("[1 - 2]"), 0);
        assert_eq!(count_commas("[a' b']"), 1);
        assert_eq!(count_commas("[a (1)]"), 1);
        assert_eq!(count_commas("[f(1, 2) 3]"), 2);
        assert_eq!(count_commas("[1 +2]"), 1);
        assert_eq!(count_commas("[a -b + 1]"), 1);
        assert_eq!(count_commas("{@(x) x + 1, @(x) x * 3}"), 1);
    }
    #[test]
    fn quote_is_transpose_after_values() {
        let t = kinds("x = a';");
        assert!(t.contains(&Tok::Quote));
        let t = kinds("x = 'it''s';");
        assert!(t.contains(&Tok::Char("it's".into())));
        let t = kinds("[a 'b']");
        assert!(t.contains(&Tok::Char("b".into())));
    }
    #[test]
    fn command_syntax() {
        assert_eq!(
            kinds("format long")[0],
            Tok::Command("format".into(), vec!["long".into()])
        );
        assert_eq!(
            kinds("disp 'hello world'")[0],
            Tok::Command("disp".into(), vec!["hello world".into()])
        );
        assert!(matches!(kinds("a + b")[0], Tok::Ident(_)));
        assert!(matches!(kinds("x = 1; x -1")[4], Tok::Ident(_)));
        assert!(matches!(kinds("hold on;")[0], Tok::Command(..)));
    }
    #[test]
    fn end_inside_index() {
        let t = kinds("x(end)");
        assert!(t.contains(&Tok::EndIdx));
        let t = kinds("if x\nend");
        assert!(t.contains(&Tok::Kw(Kw::End)));
    }
    #[test]
    fn numbers() {
        assert_eq!(kinds("1e-3")[0], Tok::Num(1e-3));
        assert_eq!(kinds(".5")[0], Tok::Num(0.5));
        assert_eq!(kinds("3i")[0], Tok::Imag(3.0));
        assert_eq!(kinds("2j")[0], Tok::Imag(2.0));
        assert_eq!(kinds("3.*2")[1], Tok::DotStar);
    }
    #[test]
    fn newlines_in_brackets_are_rows() {
        let t = kinds("[1 2\n3 4]");
        assert!(t.contains(&Tok::Semi));
        assert!(!t.contains(&Tok::Newline));
    }
    #[test]
    fn block_comments_and_continuations() {
        let t = kinds("x = 1 + ...\n 2;\n%{\nignored\n%}\ny = 3");
        assert!(
            !t.iter()
                .any(|t| matches!(t, Tok::Ident(n) if &**n == "ignored"))
        );
        assert_eq!(t.iter().filter(|t| **t == Tok::Plus).count(), 1);
    }
    #[test]
    fn unbalanced_is_incomplete() {
        let e = lex("x = [1 2", &|_| false).unwrap_err();
        assert!(e.incomplete);
    }
}
