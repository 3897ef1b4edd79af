//! Source text to syntax tree: spans, tokens, the context-sensitive lexer, the chumsky
//! grammar, and printing expressions back as text.

mod assigned;
pub mod ast;
mod command;
pub mod decode;
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

/// In a script file every local function must come after the last statement.
pub fn check_script_layout(prog: &ast::Program) -> Result<(), SyntaxError> {
    let Some(first) = prog.functions.iter().min_by_key(|d| d.span.start) else {
        return Ok(());
    };
    match prog.stmts.iter().find(|s| s.span.start > first.span.start) {
        Some(stray) => Err(SyntaxError {
            span: stray.span,
            message: format!(
                "Function definitions in a script must appear at the end of the file.\nMove all statements after the \"{}\" function definition to before the first local function definition.",
                first.name
            ),
            identifier: "MATLAB:parse:scriptFunctionsNotAtEnd",
            incomplete: false,
        }),
        None => Ok(()),
    }
}
