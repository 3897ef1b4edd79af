//! The names a piece of source assigns, found before command syntax is decided: a name the
//! text itself assigns is a variable, so `x -1` after `x = 3` is arithmetic, not a command.

use super::lexer::Tokens;
use super::token::{Kw, Tok};
use std::collections::HashSet;

/// Names that a token stream assigns: targets of `=` at statement start (also through
/// indexing), multiple-assignment lists, `for` variables, `global`/`persistent` names,
/// `catch` variables, and function header names.
pub(super) fn assigned_names(toks: &Tokens) -> HashSet<String> {
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
