//! Command syntax: `format long`, `hold on`, `clear a b` are calls with text arguments when
//! the first word is not a variable and what follows does not read as an expression.

use super::lexer::utf8_len;

/// Decides command syntax for a statement that starts with `name` (the text after it begins
/// at `pos`); on yes, returns the words and where the statement's text ends.
pub(super) fn command_words(
    src: &str,
    pos: usize,
    name: &str,
    is_known_var: &dyn Fn(&str) -> bool,
) -> Option<(Vec<String>, usize)> {
    let b = src.as_bytes();
    let mut p = pos;
    if !matches!(b.get(p), Some(b' ' | b'\t')) {
        return None;
    }
    while matches!(b.get(p), Some(b' ' | b'\t')) {
        p += 1;
    }
    let c = *b.get(p).unwrap_or(&b'\n');
    let c2 = *b.get(p + 1).unwrap_or(&b'\n');
    // `explain` takes a whole statement (assignments included) as its one argument.
    if name == "explain" && !matches!(c, b'(' | b'=' | b'\n' | b'\r') {
        let end = src[p..].find(['\n', '\r']).map_or(src.len(), |k| p + k);
        return Some((vec![src[p..end].trim_end().to_string()], end));
    }
    if matches!(c, b'\n' | b'\r' | b';' | b',' | b'%' | b'(') {
        return None;
    }
    if c == b'=' && c2 != b'=' {
        return None;
    }
    if c == b'.' && c2 == b'.' && b.get(p + 2) == Some(&b'.') {
        return None;
    }
    let ops2: [&[u8]; 11] = [
        b"==", b"~=", b"!=", b"<=", b">=", b"&&", b"||", b".*", b"./", b".\\", b".^",
    ];
    let op_len = if ops2.iter().any(|o| b[p..].starts_with(o)) {
        2
    } else if b"+-*/\\^<>&|:=~!".contains(&c) {
        1
    } else {
        0
    };
    if op_len > 0 {
        let after = b.get(p + op_len).copied();
        if matches!(after, Some(b' ' | b'\t')) {
            return None; // `a + b`: an expression
        }
        // (an operator that ends the statement cannot start an expression: `clear *` is a
        // command)
    }
    if is_known_var(name) {
        return None;
    }
    // Command syntax: split the rest of the statement into words.
    let mut args = Vec::new();
    let mut cur = String::new();
    let mut has = false;
    let mut q = p;
    while q < b.len() {
        let ch = b[q];
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
                    match b.get(q) {
                        None | Some(b'\n') => break,
                        Some(b'\'') if b.get(q + 1) == Some(&b'\'') => {
                            cur.push('\'');
                            q += 2;
                        }
                        Some(b'\'') => {
                            q += 1;
                            break;
                        }
                        Some(_) => {
                            let ch_len = utf8_len(b[q]);
                            cur.push_str(&src[q..q + ch_len]);
                            q += ch_len;
                        }
                    }
                }
            }
            _ => {
                has = true;
                let ch_len = utf8_len(ch);
                cur.push_str(&src[q..q + ch_len]);
                q += ch_len;
            }
        }
    }
    if has {
        args.push(cur);
    }
    Some((args, q))
}
