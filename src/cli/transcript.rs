//! REPL transcripts: `>> ` input lines with the expected output below them. Tests replay the
//! files in `history/` in a fresh session; `--record` writes a live session in this form.

use crate::interp::Interp;
use crate::interp::output;
use crate::syntax::span::Source;

/// One prompt of a transcript: what was typed (possibly several lines) and what followed.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub input: String,
    pub output: String,
}

fn prompt_text(line: &str) -> Option<&str> {
    if line == ">>" {
        Some("")
    } else {
        line.strip_prefix(">> ")
    }
}

/// Splits a transcript into entries. Consecutive prompt lines belong to one input while it is
/// incomplete (an open block or bracket), as the prompt itself would read them.
pub fn parse(text: &str) -> Vec<Entry> {
    let lines: Vec<&str> = text.lines().collect();
    let mut entries = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(first) = prompt_text(lines[i]) else {
            i += 1;
            continue;
        };
        let mut input = first.to_string();
        i += 1;
        while super::repl::is_incomplete(&input) && i < lines.len() {
            match prompt_text(lines[i]) {
                Some(more) => {
                    input.push('\n');
                    input.push_str(more);
                    i += 1;
                }
                None => break,
            }
        }
        let mut out = Vec::new();
        while i < lines.len() && prompt_text(lines[i]).is_none() {
            out.push(lines[i]);
            i += 1;
        }
        let mut output = out.join("\n");
        if !out.is_empty() {
            output.push('\n');
        }
        entries.push(Entry { input, output });
    }
    entries
}

/// Runs one input as the prompt does and returns everything it printed (errors included).
pub fn run_entry(interp: &mut Interp, input: &str) -> String {
    output::begin_capture();
    if let Err(e) = interp.run_source(Source::new("", input, false)) {
        output::write_err(&e.report());
    }
    output::end_capture()
}

/// Writes entries back as transcript text.
pub fn render(entries: &[Entry]) -> String {
    let mut s = String::new();
    for e in entries {
        for (k, l) in e.input.lines().enumerate() {
            let _ = k;
            s.push_str(">> ");
            s.push_str(l);
            s.push('\n');
        }
        if e.input.is_empty() {
            s.push_str(">>\n");
        }
        s.push_str(&e.output);
    }
    s
}

/// Replays a transcript's inputs in a fresh session and returns the transcript that results.
pub fn replay(text: &str) -> String {
    let mut interp = Interp::new();
    let entries: Vec<Entry> = parse(text)
        .into_iter()
        .map(|e| {
            let output = run_entry(&mut interp, &e.input);
            Entry {
                input: e.input,
                output,
            }
        })
        .collect();
    render(&entries)
}

/// Trailing spaces and trailing blank lines are not significant when comparing transcripts.
pub fn normalize(text: &str) -> String {
    let mut lines: Vec<&str> = text.lines().map(|l| l.trim_end()).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines.join("\n")
}
