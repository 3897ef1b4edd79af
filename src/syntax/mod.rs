//! Source text to syntax tree: spans, tokens, the context-sensitive lexer, the chumsky
//! grammar, and printing expressions back as text.

pub mod ast;
pub mod lexer;
pub mod parser;
pub mod resolve;
pub mod span;
pub mod token;
pub mod unparse;

use span::Span;

/// A lexing or parsing error, with what an interactive prompt needs to know.
#[derive(Debug, Clone)]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
    pub identifier: &'static str,
    pub incomplete: bool,
}

/// Lexes and parses a whole input (a file, a REPL entry, `-e` code).
pub fn parse(text: &str, is_var: &dyn Fn(&str) -> bool) -> Result<ast::Program, SyntaxError> {
    let toks = lexer::lex(text, is_var).map_err(|e| SyntaxError {
        span: e.span,
        message: e.message,
        identifier: e.identifier,
        incomplete: e.incomplete,
    })?;
    let stmts = parser::parse_tokens(&toks, text).map_err(|e| SyntaxError {
        span: e.span,
        message: e.message,
        identifier: e.identifier,
        incomplete: e.incomplete,
    })?;
    Ok(parser::split_functions(stmts))
}
