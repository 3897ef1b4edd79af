//! The interactive prompt: `>> `, multi-line blocks continued until complete, errors
//! reported without leaving.

use crate::interp::Interp;
use crate::interp::output;
use crate::syntax::span::Source;
use rustyline::DefaultEditor;
use rustyline::error::ReadlineError;

/// Whether `text` is an unfinished input (an open block or bracket, or a function definition
/// not yet closed by `end`) that needs more lines.
pub fn is_incomplete(text: &str) -> bool {
    match crate::syntax::parse(text, &|_| false) {
        Err(e) => e.incomplete,
        Ok(prog) => prog.functions.iter().any(|f| !f.has_end),
    }
}

pub fn run(interp: &mut Interp) -> i32 {
    let Ok(mut rl) = DefaultEditor::new() else {
        eprintln!("matfuse: cannot start the line editor");
        return 2;
    };
    println!(
        "matfuse {} — MATLAB syntax, GPU workspace. Type help for help, exit to leave.",
        env!("CARGO_PKG_VERSION")
    );
    let mut buf = String::new();
    loop {
        let prompt = if buf.is_empty() { ">> " } else { "" };
        match rl.readline(prompt) {
            Ok(line) => {
                if !buf.is_empty() {
                    buf.push('\n');
                }
                buf.push_str(&line);
                if is_incomplete(&buf) {
                    continue;
                }
                let _ = rl.add_history_entry(buf.as_str());
                let code = std::mem::take(&mut buf);
                if let Err(e) = interp.run_source(Source::new("", code, false)) {
                    output::write_err(&e.report());
                }
                output::flush();
            }
            Err(ReadlineError::Interrupted) => {
                buf.clear();
            }
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                eprintln!("matfuse: {e}");
                return 2;
            }
        }
    }
    output::flush();
    0
}
