//! Colouring of the line being edited: keywords, strings and comments, and the bracket that
//! matches the one at the cursor. A light scan rather than the lexer, because the text being
//! typed is usually unfinished (an open string, half a block).

const KEYWORD: &str = "\x1b[34m";
const STRING: &str = "\x1b[35m";
const COMMENT: &str = "\x1b[32m";
const MATCH: &str = "\x1b[1;4m";
const RESET: &str = "\x1b[0m";

/// The reserved words, coloured as keywords.
pub const KEYWORDS: &[&str] = &crate::syntax::token::Kw::WORDS;

/// What a byte range of the line is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    Keyword,
    String,
    Comment,
    Bracket,
}

/// Classified ranges of `line` (byte offsets, in order), and a string still open at the end.
pub struct Scan {
    pub spans: Vec<(usize, usize, Kind)>,
    pub open_string: Option<usize>,
}

/// Whether a quote after `prev` (the previous character, with `spaced` telling whether
/// whitespace came between) is a transpose rather than the start of a char vector.
fn is_transpose(prev: Option<char>, spaced: bool) -> bool {
    match prev {
        Some(c) if !spaced => {
            c.is_alphanumeric() || matches!(c, '_' | ')' | ']' | '}' | '.' | '\'')
        }
        _ => false,
    }
}

pub fn scan(line: &str) -> Scan {
    let mut spans = Vec::new();
    let mut open_string = None;
    let mut prev: Option<char> = None;
    let mut spaced = false;
    let mut it = line.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        match c {
            '%' => {
                let end = line[i..].find('\n').map_or(line.len(), |k| i + k);
                spans.push((i, end, Kind::Comment));
                while it.peek().is_some_and(|&(k, _)| k < end) {
                    it.next();
                }
                prev = None;
                spaced = true;
                continue;
            }
            '"' | '\'' if c == '"' || !is_transpose(prev, spaced) => {
                let mut end = None;
                while let Some((k, d)) = it.next() {
                    if d == '\n' {
                        break;
                    }
                    if d == c {
                        // A doubled quote is an escaped quote inside the text.
                        if it.peek().is_some_and(|&(_, n)| n == c) {
                            it.next();
                            continue;
                        }
                        end = Some(k + 1);
                        break;
                    }
                }
                match end {
                    Some(e) => spans.push((i, e, Kind::String)),
                    None => {
                        let e = line[i..].find('\n').map_or(line.len(), |k| i + k);
                        spans.push((i, e, Kind::String));
                        if e == line.len() {
                            open_string = Some(i);
                        }
                    }
                }
                prev = Some(c);
                spaced = false;
                continue;
            }
            c if c.is_alphabetic() || c == '_' => {
                let mut end = i + c.len_utf8();
                while let Some(&(k, d)) = it.peek() {
                    if d.is_alphanumeric() || d == '_' {
                        end = k + d.len_utf8();
                        it.next();
                    } else {
                        break;
                    }
                }
                // `s.end` is a field, not a keyword.
                if prev != Some('.') && KEYWORDS.contains(&&line[i..end]) {
                    spans.push((i, end, Kind::Keyword));
                }
                prev = line[..end].chars().last();
                spaced = false;
                continue;
            }
            _ => {}
        }
        spaced = c.is_whitespace();
        if !spaced {
            prev = Some(c);
        }
    }
    Scan { spans, open_string }
}

/// The bracket matching the one under (or just before) the cursor, as two byte offsets.
pub fn matching_bracket(line: &str, pos: usize, sc: &Scan) -> Option<(usize, usize)> {
    let mut stack: Vec<(usize, u8)> = Vec::new();
    let mut pairs = Vec::new();
    // The spans are in order and do not overlap: one walk through them beside the bytes
    // (asking every span about every byte made a pasted line of many strings quadratic).
    let mut next = 0;
    for (k, c) in line.bytes().enumerate() {
        while sc.spans.get(next).is_some_and(|s| s.1 <= k) {
            next += 1;
        }
        if sc.spans.get(next).is_some_and(|s| s.0 <= k) {
            continue;
        }
        match c {
            b'(' | b'[' | b'{' => stack.push((k, c)),
            b')' | b']' | b'}' => {
                let open = match c {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                if let Some(&(o, oc)) = stack.last() {
                    if oc == open {
                        stack.pop();
                        pairs.push((o, k));
                    }
                }
            }
            _ => {}
        }
    }
    let at = |p: usize| pairs.iter().find(|&&(a, b)| a == p || b == p).copied();
    at(pos).or_else(|| pos.checked_sub(1).and_then(at))
}

/// The line with ANSI colours (keywords, strings, comments, the matching bracket pair).
pub fn highlight(line: &str, pos: usize) -> String {
    let mut sc = scan(line);
    if let Some((a, b)) = matching_bracket(line, pos, &sc) {
        sc.spans.push((a, a + 1, Kind::Bracket));
        sc.spans.push((b, b + 1, Kind::Bracket));
        sc.spans.sort_by_key(|s| s.0);
    }
    let mut out = String::with_capacity(line.len() + 16 * sc.spans.len());
    let mut at = 0;
    for (a, b, kind) in sc.spans {
        if a < at {
            continue;
        }
        out.push_str(&line[at..a]);
        out.push_str(match kind {
            Kind::Keyword => KEYWORD,
            Kind::String => STRING,
            Kind::Comment => COMMENT,
            Kind::Bracket => MATCH,
        });
        out.push_str(&line[a..b]);
        out.push_str(RESET);
        at = b;
    }
    out.push_str(&line[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(line: &str) -> Vec<(&str, Kind)> {
        scan(line)
            .spans
            .iter()
            .map(|&(a, b, k)| (&line[a..b], k))
            .collect()
    }

    #[test]
    fn keywords_strings_comments() {
        assert_eq!(
            kinds("for k = 1:3, s = 'it''s'; end % done"),
            vec![
                ("for", Kind::Keyword),
                ("'it''s'", Kind::String),
                ("end", Kind::Keyword),
                ("% done", Kind::Comment),
            ]
        );
        // A transpose is not a string; a field named like a keyword is not a keyword.
        assert_eq!(kinds("y = x' + s.end"), vec![]);
        assert_eq!(kinds("y = [x 'ab']"), vec![("'ab'", Kind::String)]);
        assert_eq!(kinds("t = \"a % b\""), vec![("\"a % b\"", Kind::String)]);
    }

    #[test]
    fn open_string_and_brackets() {
        let sc = scan("cd('/tm");
        assert_eq!(sc.open_string, Some(3));
        let line = "a(b{1}, [2 ')'])";
        let sc = scan(line);
        assert_eq!(matching_bracket(line, 0, &sc), None);
        assert_eq!(matching_bracket(line, 1, &sc), Some((1, 15)));
        assert_eq!(matching_bracket(line, 16, &sc), Some((1, 15)));
        assert_eq!(matching_bracket(line, 4, &sc), Some((3, 5)));
        let h = highlight(line, 16);
        assert!(h.starts_with("a\x1b[1;4m(\x1b[0m"));
        assert!(h.ends_with("\x1b[1;4m)\x1b[0m"));
    }
}
