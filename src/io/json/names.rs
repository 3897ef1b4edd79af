//! `matlab.lang.makeValidName` for JSON object keys: whitespace removed (a letter after it
//! capitalised), other invalid characters replaced by `_`, an `x` before a name that does not
//! start with a letter or that is a keyword, at most 63 characters.

use crate::syntax::token::Kw;

/// What jsondecode's `ReplacementStyle` does with a character a name may not hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replacement {
    /// `a-b` is `a_b` (the default)
    Underscore,
    /// `a-b` is `ab`
    Delete,
    /// `a-b` is `a0x2Db`
    Hex,
}

/// jsondecode's `MakeValidName`, `ReplacementStyle` and `Prefix`.
#[derive(Clone, Debug)]
pub struct NameRule {
    pub make_valid: bool,
    pub replacement: Replacement,
    pub prefix: String,
}

impl Default for NameRule {
    fn default() -> NameRule {
        NameRule {
            make_valid: true,
            replacement: Replacement::Underscore,
            prefix: "x".into(),
        }
    }
}

pub fn make_valid_name(s: &str) -> String {
    make_valid_name_by(s, &NameRule::default())
}

/// A JSON key as a field name by `rule` (keys kept as they are when `make_valid` is off).
pub fn make_valid_name_by(s: &str, rule: &NameRule) -> String {
    if is_valid(s) || (!rule.make_valid && !s.is_empty()) {
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
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c);
        } else {
            match rule.replacement {
                Replacement::Underscore => out.push('_'),
                Replacement::Delete => {}
                Replacement::Hex => {
                    let mut units = [0u16; 2];
                    for u in c.encode_utf16(&mut units) {
                        out.push_str(&format!("0x{u:02X}"));
                    }
                }
            }
        }
    }
    if Kw::WORDS.contains(&out.as_str()) {
        let mut chars = out.chars();
        let first: String = chars
            .next()
            .map(|c| c.to_ascii_uppercase())
            .into_iter()
            .collect();
        out = format!("{}{first}{}", rule.prefix, chars.as_str());
    } else if !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out.insert_str(0, &rule.prefix);
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

    #[test]
    fn replacement_styles_and_prefixes() {
        use super::{NameRule, Replacement, make_valid_name_by as by};
        let rule = |replacement, prefix: &str| NameRule {
            make_valid: true,
            replacement,
            prefix: prefix.into(),
        };
        assert_eq!(by("a-b", &rule(Replacement::Hex, "x")), "a0x2Db");
        assert_eq!(by("a-b", &rule(Replacement::Delete, "x")), "ab");
        assert_eq!(by("1a", &rule(Replacement::Underscore, "p_")), "p_1a");
        assert_eq!(by("end", &rule(Replacement::Underscore, "my")), "myEnd");
        let raw = NameRule {
            make_valid: false,
            ..NameRule::default()
        };
        assert_eq!(by("a b", &raw), "a b");
        assert_eq!(by("", &raw), "x");
    }
}
