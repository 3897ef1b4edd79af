//! `matlab.lang.makeValidName` for JSON object keys: whitespace removed (a letter after it
//! capitalised), other invalid characters replaced by `_`, an `x` before a name that does not
//! start with a letter or that is a keyword, at most 63 characters.

use crate::syntax::token::Kw;

pub fn make_valid_name(s: &str) -> String {
    if is_valid(s) {
        return s.to_string();
    }
    let mut out = String::new();
    let mut after_space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            after_space = !out.is_empty();
            continue;
        }
        let c = if after_space {
            c.to_ascii_uppercase()
        } else {
            c
        };
        after_space = false;
        out.push(if c.is_ascii_alphanumeric() || c == '_' {
            c
        } else {
            '_'
        });
    }
    if Kw::WORDS.contains(&out.as_str()) {
        let mut chars = out.chars();
        let first: String = chars
            .next()
            .map(|c| c.to_ascii_uppercase())
            .into_iter()
            .collect();
        out = format!("x{first}{}", chars.as_str());
    } else if !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out.insert(0, 'x');
    }
    out.truncate(63);
    out
}

fn is_valid(s: &str) -> bool {
    crate::builtins::is_valid_field_name(s) && !Kw::WORDS.contains(&s)
}

/// `name`, or `name_1`, `name_2`, ... when `taken` already holds it.
pub fn unique(name: String, taken: &[String]) -> String {
    if !taken.contains(&name) {
        return name;
    }
    (1..)
        .map(|k| format!("{name}_{k}"))
        .find(|n| !taken.contains(n))
        .unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::make_valid_name as v;

    #[test]
    fn valid_names() {
        assert_eq!(v("abc"), "abc");
        assert_eq!(v("1abc"), "x1abc");
        assert_eq!(v("my name"), "myName");
        assert_eq!(v("a-b"), "a_b");
        assert_eq!(v("for"), "xFor");
        assert_eq!(v(""), "x");
        assert_eq!(v("_a"), "x_a");
        assert_eq!(v(&"a".repeat(70)).len(), 63);
    }
}
