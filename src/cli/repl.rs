//! The interactive prompt: `>> `, multi-line blocks continued until complete, completion,
//! colouring, history kept across sessions, Ctrl-C that stops the running statement but never
//! the session, and `--record` of the session as a transcript.

use super::editor::{self, MatHelper};
use super::transcript::{self, Entry};
use crate::interp::Interp;
use crate::interp::output;
use crate::syntax::span::Source;
use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use rustyline::{Config, Editor};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Whether `text` is an unfinished input (an open block or bracket, or a function definition
/// not yet closed by `end`) that needs more lines.
pub fn is_incomplete(text: &str) -> bool {
    match crate::syntax::parse(text, &|_| false) {
        Err(e) => e.incomplete,
        Ok(prog) => prog.functions.iter().any(|f| !f.has_end),
    }
}

/// The banner: version, the device (the prompt does not wait for it: while it starts, the
/// banner names the device the last session used) and where help is.
fn banner() -> String {
    let deadline = Instant::now() + Duration::from_millis(5);
    while crate::gpu::device::peek().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    let device = crate::gpu::banner_summary();
    format!(
        "matfuse {} | {device} | help, help name, exit",
        env!("CARGO_PKG_VERSION")
    )
}

/// Appends one entry to the record file (each entry at once, so `exit` loses nothing).
fn record_entry(path: &Path, entry: &Entry) {
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(transcript::render(std::slice::from_ref(entry)).as_bytes()));
    if let Err(e) = written {
        eprintln!("matfuse: cannot write {}: {e}", path.display());
    }
}

/// Keys typed while a statement runs wait in the terminal for the next prompt, also when the
/// statement is stopped with Ctrl-C: a terminal discards its pending input on an interrupt
/// unless NOFLSH is set. Returns the terminal's settings before, to restore at the end.
fn keep_type_ahead() -> Option<libc::termios> {
    use std::os::fd::AsRawFd;
    let fd = std::io::stdin().as_raw_fd();
    // SAFETY: termios is plain data; tcgetattr fills it or fails (not a terminal).
    let mut t: libc::termios = unsafe { std::mem::zeroed() };
    if unsafe { libc::tcgetattr(fd, &mut t) } != 0 {
        return None;
    }
    let before = t;
    t.c_lflag |= libc::NOFLSH;
    // SAFETY: settings read from this terminal, one flag changed.
    (unsafe { libc::tcsetattr(fd, libc::TCSADRAIN, &t) } == 0).then_some(before)
}

fn restore_terminal(before: Option<libc::termios>) {
    use std::os::fd::AsRawFd;
    if let Some(t) = before {
        // SAFETY: the settings tcgetattr gave for this terminal.
        unsafe { libc::tcsetattr(std::io::stdin().as_raw_fd(), libc::TCSADRAIN, &t) };
    }
}

pub fn run(interp: &mut Interp, record: Option<PathBuf>) -> i32 {
    let before = keep_type_ahead();
    let status = prompt(interp, record);
    restore_terminal(before);
    status
}

fn prompt(interp: &mut Interp, record: Option<PathBuf>) -> i32 {
    crate::gpu::device::start();
    let config = Config::builder()
        .auto_add_history(false)
        .history_ignore_dups(true)
        .and_then(|c| c.max_history_size(10_000))
        .map(|c| c.build());
    let Ok(Ok(mut rl)) = config.map(Editor::<MatHelper, FileHistory>::with_config) else {
        eprintln!("matfuse: cannot start the line editor");
        return 2;
    };
    rl.set_helper(Some(MatHelper {
        snapshot: Default::default(),
        colour: editor::colour_wanted(),
    }));
    editor::bind_keys(&mut rl);
    let history = editor::history_path();
    if let Some(h) = &history {
        if let Some(dir) = h.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        // a missing file is a first session's: it is made when the session ends
        if let Err(e) = rl
            .load_history(h)
            .or_else(|e| if h.exists() { Err(e) } else { Ok(()) })
        {
            if !editor::repair_history(h) || rl.load_history(h).is_err() {
                eprintln!(
                    "matfuse: cannot read the history file {} ({e}); history will not be saved",
                    h.display()
                );
            }
        }
    }
    // Ctrl-C outside the line editor (while a statement runs) only raises the flag that loops
    // check; the editor itself reads Ctrl-C as a key.
    if let Err(e) =
        signal_hook::flag::register(signal_hook::consts::SIGINT, interp.interrupt.clone())
    {
        eprintln!("matfuse: Ctrl-C will not interrupt statements ({e})");
    }
    if let Some(r) = &record {
        if let Err(e) = std::fs::write(r, "") {
            eprintln!("matfuse: cannot write {}: {e}", r.display());
            return 2;
        }
        output::start_tee();
    }
    output::set_line_buffered(true);
    println!("{}", banner());
    // Lines of an unfinished block. On a terminal the editor's validator keeps a block in one
    // edit; when input is not a terminal the editor hands over single lines.
    let mut pending = String::new();
    // Input the editor could not decode (a byte that is not UTF-8) is dropped with a note; a
    // stream that yields nothing else ends the session.
    let mut undecodable = 0;
    let mut history_warned = false;
    loop {
        if let Some(h) = rl.helper_mut() {
            h.snapshot = super::complete::Snapshot::take(interp);
        }
        match rl.readline(if pending.is_empty() { ">> " } else { "" }) {
            Ok(line) => {
                undecodable = 0;
                if !pending.is_empty() {
                    pending.push('\n');
                }
                pending.push_str(&line);
                if is_incomplete(&pending) {
                    continue;
                }
                let code = std::mem::take(&mut pending);
                if code.trim().is_empty() {
                    continue;
                }
                let _ = rl.add_history_entry(code.as_str());
                if let Some(h) = &history {
                    if let Err(e) = rl.append_history(h) {
                        if !history_warned {
                            history_warned = true;
                            eprintln!("matfuse: cannot save history to {} ({e})", h.display());
                        }
                    }
                }
                interp.interrupt.store(false, Ordering::Relaxed);
                output::take_tee();
                if let Err(e) = interp.run_source(Source::new("", code.as_str(), false)) {
                    output::write_err(&e.report());
                }
                output::flush();
                if let Some(r) = &record {
                    let entry = Entry {
                        input: code,
                        output: output::take_tee(),
                    };
                    record_entry(r, &entry);
                }
            }
            Err(ReadlineError::Interrupted) => pending.clear(),
            Err(ReadlineError::Eof) => break,
            Err(ReadlineError::Io(e))
                if e.kind() == std::io::ErrorKind::InvalidData && undecodable < 1000 =>
            {
                undecodable += 1;
                eprintln!("matfuse: input that is not valid UTF-8 was ignored");
            }
            Err(e) => {
                eprintln!("matfuse: {e}");
                return 2;
            }
        }
    }
    output::flush();
    0
}
