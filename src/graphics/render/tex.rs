//! The TeX subset MATLAB text understands, as plain Unicode: Greek letters and symbols
//! (`\alpha`, `\pi`, `\pm`), super- and subscripts of digits and signs (`x^2`, `10^{-3}`).

const SYMBOLS: [(&str, &str); 40] = [
    ("alpha", "α"),
    ("beta", "β"),
    ("gamma", "γ"),
    ("delta", "δ"),
    ("epsilon", "ε"),
    ("zeta", "ζ"),
    ("eta", "η"),
    ("theta", "θ"),
    ("iota", "ι"),
    ("kappa", "κ"),
    ("lambda", "λ"),
    ("mu", "μ"),
    ("nu", "ν"),
    ("xi", "ξ"),
    ("pi", "π"),
    ("rho", "ρ"),
    ("sigma", "σ"),
    ("tau", "τ"),
    ("upsilon", "υ"),
    ("phi", "φ"),
    ("chi", "χ"),
    ("psi", "ψ"),
    ("omega", "ω"),
    ("Gamma", "Γ"),
    ("Delta", "Δ"),
    ("Theta", "Θ"),
    ("Lambda", "Λ"),
    ("Pi", "Π"),
    ("Sigma", "Σ"),
    ("Phi", "Φ"),
    ("Psi", "Ψ"),
    ("Omega", "Ω"),
    ("pm", "±"),
    ("times", "×"),
    ("cdot", "·"),
    ("infty", "∞"),
    ("leq", "≤"),
    ("geq", "≥"),
    ("circ", "°"),
    ("approx", "≈"),
];

fn sup(c: char) -> Option<char> {
    Some(match c {
        '0' => '⁰',
        '1' => '¹',
        '2' => '²',
        '3' => '³',
        '4' => '⁴',
        '5' => '⁵',
        '6' => '⁶',
        '7' => '⁷',
        '8' => '⁸',
        '9' => '⁹',
        '-' => '⁻',
        '+' => '⁺',
        'n' => 'ⁿ',
        'i' => 'ⁱ',
        '(' => '⁽',
        ')' => '⁾',
        '=' => '⁼',
        _ => return None,
    })
}

fn sub(c: char) -> Option<char> {
    Some(match c {
        '0' => '₀',
        '1' => '₁',
        '2' => '₂',
        '3' => '₃',
        '4' => '₄',
        '5' => '₅',
        '6' => '₆',
        '7' => '₇',
        '8' => '₈',
        '9' => '₉',
        '-' => '₋',
        '+' => '₊',
        '(' => '₍',
        ')' => '₎',
        '=' => '₌',
        _ => return None,
    })
}

/// Text as shown with the 'tex' interpreter.
pub fn plain(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' {
            let mut j = i + 1;
            while j < chars.len() && chars[j].is_ascii_alphabetic() {
                j += 1;
            }
            let word: String = chars[i + 1..j].iter().collect();
            if let Some((_, s)) = SYMBOLS.iter().find(|(n, _)| *n == word) {
                out.push_str(s);
                i = j;
                continue;
            }
            if j == i + 1 && i + 1 < chars.len() {
                out.push(chars[i + 1]); // \_ \{ \\ ...
                i += 2;
                continue;
            }
            // \bf, \it, \rm and unknown commands: dropped
            i = j;
            continue;
        }
        if (c == '^' || c == '_') && i + 1 < chars.len() {
            let map = if c == '^' { sup } else { sub };
            let (group, next): (Vec<char>, usize) = if chars[i + 1] == '{' {
                let end = chars[i + 2..]
                    .iter()
                    .position(|x| *x == '}')
                    .map_or(chars.len(), |k| i + 2 + k);
                (chars[i + 2..end].to_vec(), (end + 1).min(chars.len()))
            } else {
                (vec![chars[i + 1]], i + 2)
            };
            let mapped: Option<String> = group.iter().map(|g| map(*g)).collect();
            match mapped {
                Some(m) => out.push_str(&m),
                None => out.extend(group.iter()),
            }
            i = next;
            continue;
        }
        if c != '{' && c != '}' {
            out.push(c);
        }
        i += 1;
    }
    out
}
