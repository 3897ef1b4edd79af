//! How time arrays show in the Command Window: a class header (`  datetime`,
//! `  1×3 duration array`), then the elements in their format, rows as rows.

use super::format::{calduration_text, datetime_text, duration_text};
use super::{Kind, TimeArray};

/// The text of each element, in column-major order.
pub fn element_texts(t: &TimeArray) -> Vec<String> {
    (0..t.numel()).map(|i| element_text(t, i)).collect()
}

pub fn element_text(t: &TimeArray, i: usize) -> String {
    let ms = t.ms.get(i).copied().unwrap_or(f64::NAN);
    match t.kind {
        Kind::DateTime => datetime_text(ms, &t.format),
        Kind::Duration => duration_text(ms, &t.format),
        Kind::CalDuration => calduration_text(
            t.months.get(i).copied().unwrap_or(0.0),
            t.days.get(i).copied().unwrap_or(0.0),
            ms,
        ),
    }
}

/// The header line a named display starts with.
pub fn header(t: &TimeArray) -> String {
    let class = t.kind.class_name();
    if t.numel() == 0 {
        format!("  {} empty {class} array", t.shape.size_text())
    } else if t.numel() == 1 {
        format!("  {class}")
    } else {
        format!("  {} {class} array", t.shape.size_text())
    }
}

/// The element lines (`   a   b   c` per row), split into column blocks that fit `width`.
pub fn body(t: &TimeArray, width: usize, loose: bool) -> Vec<String> {
    let n = t.numel();
    if n == 0 {
        return vec![];
    }
    let rows = t.shape.rows().max(1);
    let cols = n / rows;
    let texts = element_texts(t);
    // every element is padded to the widest one's width
    let wmax = texts.iter().map(|s| s.chars().count()).max().unwrap_or(0);
    let widths = vec![wmax; cols];
    // blocks of columns that fit the width
    let mut blocks: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    let mut used = 0;
    for (c, w) in widths.iter().enumerate() {
        if c > start && used + 3 + w > width.max(20) {
            blocks.push((start, c));
            start = c;
            used = 0;
        }
        used += 3 + w;
    }
    blocks.push((start, cols));
    let mut out = Vec::new();
    let many = blocks.len() > 1;
    for (b, &(c0, c1)) in blocks.iter().enumerate() {
        if many {
            if b > 0 && loose {
                out.push(String::new());
            }
            out.push(match c1 - c0 {
                1 => format!("  Column {}", c0 + 1),
                2 if c1 == cols => format!("  Columns {} and {}", c0 + 1, c1),
                _ => format!("  Columns {} through {}", c0 + 1, c1),
            });
            if loose {
                out.push(String::new());
            }
        }
        for r in 0..rows {
            let mut line = String::new();
            for c in c0..c1 {
                let s = &texts[r + c * rows];
                let pad = widths[c].saturating_sub(s.chars().count());
                line.push_str("   ");
                line.push_str(&" ".repeat(pad));
                line.push_str(s);
            }
            out.push(line);
        }
    }
    out
}

/// Lines of `name = ` display after the name line.
pub fn named_lines(t: &TimeArray, width: usize, loose: bool) -> Vec<String> {
    let mut out = vec![header(t)];
    if t.numel() > 0 {
        if loose {
            out.push(String::new());
        }
        out.extend(body(t, width, loose));
    }
    out
}

/// What a time array shows inside a cell or a struct field.
pub fn brief(t: &TimeArray) -> String {
    if t.numel() == 1 {
        element_text(t, 0)
    } else {
        format!("[{} {}]", t.shape.size_text(), t.kind.class_name())
    }
}
