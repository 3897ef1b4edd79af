//! The command line: running files, `-e` code and piped scripts, and the interactive prompt.

pub mod colour;
pub mod complete;
pub mod editor;
pub mod repl;
pub mod transcript;

use crate::interp::Interp;
use crate::interp::output;
use crate::syntax::span::Source;
use std::io::{IsTerminal, Read};

const USAGE: &str = "usage: matfuse [options] [file.m [args...]]

  matfuse               interactive prompt (reads a script from standard input when it is not a terminal)
  matfuse file.m        run a script file
  matfuse -e CODE       run CODE (also --eval)
  matfuse -             run the script on standard input
  --record FILE         interactive prompt that also writes the session to FILE as a transcript
  --replay FILE         replay a transcript (>> inputs) and print it with this build's output

  Scripts (files, -e, piped input) stop at the first error, print it to standard error as
  file:line:col, and exit with status 1. argv() gives a script its arguments.

  Environment: MATFUSE_HISTORY (history file), NO_COLOR, MATFUSE_DEVICE=cpu,
  MATFUSE_ADAPTER=substring (choose the GPU), MATFUSE_FIGURES=inline|file|none
  (where figures appear), MATFUSE_FIGURES_DIR (their folder, default figures).
  --help                this text
  --version             the version
";

/// Entry point; returns the process exit status.
pub fn main(args: Vec<std::ffi::OsString>) -> i32 {
    crate::interp::error::install_panic_hook();
    let mut interp = Interp::new();
    interp.term_width = terminal_width();
    interp.graphics.borrow_mut().output = crate::graphics::output::from_env();
    // Paths stay as the OS gave them (a name that is not UTF-8 still opens); code, options and
    // argv() are text, bytes that are not UTF-8 decoded as MATLAB reads them.
    let raw: Vec<std::ffi::OsString> = args.into_iter().skip(1).collect();
    let texts: Vec<String> = raw
        .iter()
        .map(|a| crate::syntax::decode::text_from_os(a))
        .collect();
    let after = |k: usize| texts.get(k..).unwrap_or_default().to_vec();
    let code = match texts.first().map(String::as_str) {
        Some("--help") | Some("-h") => {
            print!("{USAGE}");
            0
        }
        Some("--version") | Some("-V") => {
            println!("matfuse {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Some("-e") | Some("--eval") => match texts.get(1) {
            Some(code) => {
                interp.script_args = after(2);
                run(&mut interp, Source::new("-e", code.clone(), false))
            }
            None => {
                eprintln!("matfuse: -e needs code to run");
                2
            }
        },
        Some("-") => {
            interp.script_args = after(1);
            run_stdin(&mut interp)
        }
        Some("--record") => match raw.get(1) {
            Some(file) => repl::run(&mut interp, Some(file.into())),
            None => {
                eprintln!("matfuse: --record needs a file name");
                2
            }
        },
        Some("--replay") => match raw
            .get(1)
            .map(|p| crate::syntax::decode::read_source(std::path::Path::new(p)))
        {
            Some(Ok(text)) => {
                print!("{}", transcript::replay(&text));
                0
            }
            _ => {
                eprintln!("matfuse: --replay needs a readable transcript file");
                2
            }
        },
        Some(path) if !path.starts_with('-') => {
            let os_path = std::path::Path::new(&raw[0]);
            match crate::syntax::decode::read_source(os_path) {
                Ok(text) => {
                    if let Some(dir) = os_path.parent().filter(|d| !d.as_os_str().is_empty()) {
                        if let Ok(d) = std::fs::canonicalize(dir) {
                            interp.search_path.push(d);
                        }
                    }
                    interp.script_args = after(1);
                    match function_file_call(path, &text, &interp.script_args) {
                        // A function file runs its function, with the arguments as char vectors.
                        Some(call) => run(&mut interp, Source::new(path, call, false)),
                        None => run(&mut interp, Source::new(path, text, true)),
                    }
                }
                Err(e) => {
                    eprintln!("matfuse: cannot read {path}: {e}");
                    2
                }
            }
        }
        Some(other) => {
            eprintln!("matfuse: unknown option {other}\n{USAGE}");
            2
        }
        None => {
            if std::io::stdin().is_terminal() {
                repl::run(&mut interp, None)
            } else {
                run_stdin(&mut interp)
            }
        }
    };
    crate::gpu::trace_report();
    code
}

/// For a file whose code starts with `function` (a function file, not a script), the call
/// that runs it: its name with the command-line arguments as char vectors.
fn function_file_call(path: &str, text: &str, args: &[String]) -> Option<String> {
    let code = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('%'))?;
    let is_function = code
        .strip_prefix("function")
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_whitespace() || c == '['));
    if !is_function {
        return None;
    }
    let stem = std::path::Path::new(path)
        .file_stem()?
        .to_str()?
        .to_string();
    let quoted: Vec<String> = args
        .iter()
        .map(|a| format!("'{}'", a.replace('\'', "''")))
        .collect();
    Some(format!("{stem}({})", quoted.join(", ")))
}

fn run_stdin(interp: &mut Interp) -> i32 {
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
        eprintln!("matfuse: cannot read standard input: {e}");
        return 2;
    }
    let text = crate::syntax::decode::text_from_bytes(&bytes);
    run(interp, Source::new("stdin", text, false))
}

/// Runs a whole script; prints the first error and returns 1 after one. Ctrl-C stops the
/// script at the next statement or loop iteration; a second Ctrl-C before that ends the process.
pub fn run(interp: &mut Interp, source: std::rc::Rc<Source>) -> i32 {
    use signal_hook::{consts::SIGINT, flag};
    let _ = flag::register_conditional_shutdown(SIGINT, 130, interp.interrupt.clone());
    let _ = flag::register(SIGINT, interp.interrupt.clone());
    let r = interp.run_source(source);
    output::flush();
    match r {
        Ok(()) => 0,
        Err(e) => {
            output::write_err(&e.report());
            1
        }
    }
}

/// The width to wrap displays at: the terminal's, or 80 (also honouring $COLUMNS).
pub fn terminal_width() -> usize {
    if let Some(w) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse::<usize>().ok())
    {
        if w > 10 {
            return w;
        }
    }
    if std::io::stdout().is_terminal() {
        if let Ok((w, _)) = crossterm::terminal::size() {
            if w > 10 {
                return w as usize;
            }
        }
    }
    80
}
