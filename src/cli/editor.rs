//! The line editor's helper: multi-line validation, completion, colouring, history file and
//! MATLAB's up-arrow prefix search.

use super::colour;
use super::complete::{self, Snapshot};
use rustyline::completion::Completer;
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{
    Cmd, ConditionalEventHandler, Context, Event, EventContext, EventHandler, KeyCode, KeyEvent,
    Modifiers, RepeatCount,
};
use std::borrow::Cow;
use std::path::PathBuf;

pub struct MatHelper {
    pub snapshot: Snapshot,
    pub colour: bool,
}

impl rustyline::Helper for MatHelper {}

impl Completer for MatHelper {
    type Candidate = String;
    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        Ok(complete::complete(line, pos, &self.snapshot))
    }
}

impl Hinter for MatHelper {
    type Hint = String;
}

/// Lines longer than this (bytes) are not coloured. The editor redraws a coloured line on every
/// key, so a long line pasted into a terminal without bracketed paste cost a redraw of the
/// whole line per character (100 KB: 115 s); uncoloured, a key at the end of the line writes
/// that key alone, and the line is redrawn once a screen row.
pub const COLOURED_LINE_MAX: usize = 2000;

impl Highlighter for MatHelper {
    fn highlight<'l>(&self, line: &'l str, pos: usize) -> Cow<'l, str> {
        if self.colour && line.len() <= COLOURED_LINE_MAX {
            Cow::Owned(colour::highlight(line, pos))
        } else {
            Cow::Borrowed(line)
        }
    }
    fn highlight_char(&self, line: &str, _: usize, _: CmdKind) -> bool {
        // Short lines: re-colour on every edit and cursor move (bracket matching).
        self.colour && line.len() <= COLOURED_LINE_MAX
    }
}

impl Validator for MatHelper {
    /// An open block, bracket, string continuation or `...` keeps the input going: Enter adds
    /// a line instead of running it.
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        Ok(if super::repl::is_incomplete(ctx.input()) {
            ValidationResult::Incomplete
        } else {
            ValidationResult::Valid(None)
        })
    }
}

/// Whether to colour: a terminal on standard output and no `NO_COLOR`.
pub fn colour_wanted() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
}

/// The history file: `$MATFUSE_HISTORY`, else `$XDG_DATA_HOME/matfuse/history`, else
/// `~/.local/share/matfuse/history`.
pub fn history_path() -> Option<PathBuf> {
    crate::dirs::env_path("MATFUSE_HISTORY").or_else(|| {
        crate::dirs::matfuse_dir("XDG_DATA_HOME", ".local/share").map(|d| d.join("history"))
    })
}

/// A history file the editor cannot read because it is not UTF-8 (written by another program,
/// or an old entry pasted in another encoding) is rewritten with its bytes decoded as source
/// files are; returns whether it was rewritten.
pub fn repair_history(path: &std::path::Path) -> bool {
    let Ok(bytes) = std::fs::read(path) else {
        return false;
    };
    if std::str::from_utf8(&bytes).is_ok() {
        return false;
    }
    let text = crate::syntax::decode::text_from_bytes(&bytes);
    std::fs::write(path, text).is_ok()
}

/// Up and Down: within a multi-line input, move between its lines; otherwise search the
/// history for entries starting with what is typed before the cursor, as MATLAB does.
struct PrefixSearch {
    up: bool,
}

impl ConditionalEventHandler for PrefixSearch {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext) -> Option<Cmd> {
        let line = ctx.line();
        let pos = ctx.pos();
        let inside = if self.up {
            line[..pos].contains('\n')
        } else {
            line[pos..].contains('\n')
        };
        if inside {
            None
        } else if self.up {
            Some(Cmd::HistorySearchBackward)
        } else {
            Some(Cmd::HistorySearchForward)
        }
    }
}

pub fn bind_keys<H: rustyline::Helper, I: rustyline::history::History>(
    rl: &mut rustyline::Editor<H, I>,
) {
    for (code, up) in [(KeyCode::Up, true), (KeyCode::Down, false)] {
        rl.bind_sequence(
            KeyEvent(code, Modifiers::NONE),
            EventHandler::Conditional(Box::new(PrefixSearch { up })),
        );
    }
}
