//! Tokens produced by the lexer. Context decisions (transpose or quote, whitespace as element
//! separator, command syntax, `end` inside an index) are made by the lexer, so the grammar
//! sees an ordinary token stream.

use std::fmt;
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kw {
    If,
    Elseif,
    Else,
    End,
    For,
    Parfor,
    While,
    Switch,
    Case,
    Otherwise,
    Try,
    Catch,
    Function,
    Return,
    Break,
    Continue,
    Global,
    Persistent,
}

impl Kw {
    pub fn from_word(w: &str) -> Option<Kw> {
        Some(match w {
            "if" => Kw::If,
            "elseif" => Kw::Elseif,
            "else" => Kw::Else,
            "end" | "endif" | "endfor" | "endwhile" | "endfunction" | "endswitch"
            | "end_try_catch" => Kw::End,
            "for" => Kw::For,
            "parfor" => Kw::Parfor,
            "while" => Kw::While,
            "switch" => Kw::Switch,
            "case" => Kw::Case,
            "otherwise" => Kw::Otherwise,
            "try" => Kw::Try,
            "catch" => Kw::Catch,
            "function" => Kw::Function,
            "return" => Kw::Return,
            "break" => Kw::Break,
            "continue" => Kw::Continue,
            "global" => Kw::Global,
            "persistent" => Kw::Persistent,
            _ => return None,
        })
    }
    /// Words MATLAB reserves (`iskeyword`).
    pub const WORDS: [&'static str; 20] = [
        "break",
        "case",
        "catch",
        "classdef",
        "continue",
        "else",
        "elseif",
        "end",
        "for",
        "function",
        "global",
        "if",
        "otherwise",
        "parfor",
        "persistent",
        "return",
        "spmd",
        "switch",
        "try",
        "while",
    ];
}

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Num(f64),
    Imag(f64),
    Ident(Rc<str>),
    Kw(Kw),
    /// `end` inside an index expression: the last index of that dimension.
    EndIdx,
    Char(Rc<str>),
    Str(Rc<str>),
    /// A statement in command syntax: `format long`, `clear a b`, `hold on`.
    Command(Rc<str>, Vec<String>),
    Plus,
    Minus,
    Star,
    Slash,
    Backslash,
    Caret,
    DotStar,
    DotSlash,
    DotBackslash,
    DotCaret,
    /// `'` as the complex conjugate transpose.
    Quote,
    /// `.'`
    DotQuote,
    Assign,
    EqEq,
    NotEq,
    Lt,
    Le,
    Gt,
    Ge,
    Amp,
    Bar,
    AndAnd,
    OrOr,
    Not,
    Colon,
    Dot,
    At,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Semi,
    Newline,
}

impl Tok {
    /// Whether a value ends with this token (so a following `'` is a transpose, and a
    /// following space inside brackets may separate elements).
    pub fn ends_value(&self) -> bool {
        matches!(
            self,
            Tok::Num(_)
                | Tok::Imag(_)
                | Tok::Ident(_)
                | Tok::EndIdx
                | Tok::Char(_)
                | Tok::Str(_)
                | Tok::RParen
                | Tok::RBracket
                | Tok::RBrace
                | Tok::Quote
                | Tok::DotQuote
        )
    }
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Tok::Num(x) | Tok::Imag(x) => return write!(f, "{x}"),
            Tok::Ident(s) => return write!(f, "{s}"),
            Tok::Kw(k) => return write!(f, "{}", format!("{k:?}").to_lowercase()),
            Tok::EndIdx => "end",
            Tok::Char(s) => return write!(f, "'{s}'"),
            Tok::Str(s) => return write!(f, "\"{s}\""),
            Tok::Command(n, _) => return write!(f, "{n}"),
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Backslash => "\\",
            Tok::Caret => "^",
            Tok::DotStar => ".*",
            Tok::DotSlash => "./",
            Tok::DotBackslash => ".\\",
            Tok::DotCaret => ".^",
            Tok::Quote => "'",
            Tok::DotQuote => ".'",
            Tok::Assign => "=",
            Tok::EqEq => "==",
            Tok::NotEq => "~=",
            Tok::Lt => "<",
            Tok::Le => "<=",
            Tok::Gt => ">",
            Tok::Ge => ">=",
            Tok::Amp => "&",
            Tok::Bar => "|",
            Tok::AndAnd => "&&",
            Tok::OrOr => "||",
            Tok::Not => "~",
            Tok::Colon => ":",
            Tok::Dot => ".",
            Tok::At => "@",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::Comma => ",",
            Tok::Semi => ";",
            Tok::Newline => "end of line",
        };
        f.write_str(s)
    }
}
