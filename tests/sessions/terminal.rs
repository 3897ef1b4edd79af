//! The interactive prompt driven through a real pseudo-terminal: banner and prompt, multi-line
//! blocks, tab completion, colouring, Ctrl-C during an endless loop, Ctrl-D, history recalled
//! after a restart, and `--record`.

use rexpect::reader::Options;
use rexpect::session::PtySession;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const TIMEOUT_MS: u64 = 20_000;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("matfuse-terminal-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir.join(name)
}

fn spawn(history: &Path, env: &[(&str, &str)], strip_colour: bool) -> PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_matfuse"));
    // A capable terminal, whatever the test runner's environment says.
    cmd.env("MATFUSE_HISTORY", history)
        .env_remove("NO_COLOR")
        .env("TERM", "xterm-256color");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let options = Options::new()
        .timeout_ms(Some(TIMEOUT_MS))
        .strip_ansi_escape_codes(strip_colour);
    rexpect::spawn_with_options(cmd, options).expect("matfuse starts in a pty")
}

fn expect(p: &mut PtySession, s: &str) -> String {
    p.exp_string(s)
        .unwrap_or_else(|e| panic!("expected {s:?} from matfuse: {e}"))
}

/// Sends a line and waits for `marker` at the start of an output line (the editor redraws
/// the input with its prompt on every key, so `>> ` alone cannot tell that a statement ran).
fn run(p: &mut PtySession, line: &str, marker: &str) -> String {
    p.send_line(line).expect("send");
    expect(p, &format!("\n{marker}"))
}

/// The banner and first prompt.
fn started(p: &mut PtySession) -> String {
    expect(p, ">> ")
}

#[test]
fn prompt_blocks_completion_and_interrupt() {
    let history = temp("h1");
    let _ = std::fs::remove_file(&history);
    let mut p = spawn(&history, &[], true);
    let banner = started(&mut p);
    assert!(
        banner.contains(concat!("matfuse ", env!("CARGO_PKG_VERSION"))),
        "{banner}"
    );
    assert!(banner.contains("help"), "{banner}");

    run(&mut p, "zuluValue = 7; disp('set')", "set");
    // A block continues over several lines and runs once complete.
    p.send_line("for k = 1:2").expect("send");
    p.send_line("fprintf('k%d\\n', k * 10)").expect("send");
    p.send_line("end").expect("send");
    expect(&mut p, "\nk10");
    expect(&mut p, "\nk20");

    // Completion of a variable and of a struct field.
    p.send("zulu").expect("send");
    p.send("\t").expect("send");
    p.send_line("").expect("send");
    expect(&mut p, "\nzuluValue =");
    expect(&mut p, "\n     7");
    run(&mut p, "s.first = 1; s.second = 22; disp('made')", "made");
    p.send("s.sec").expect("send");
    p.send("\t").expect("send");
    p.send_line("").expect("send");
    expect(&mut p, "\n    22");

    // Ctrl-C stops an endless loop, not the session, and the workspace survives.
    run(
        &mut p,
        "disp('looping'); n = 0; while true, n = n + 1; end",
        "looping",
    );
    std::thread::sleep(Duration::from_millis(300));
    let t0 = Instant::now();
    p.send_control('c').expect("send ctrl-c");
    expect(&mut p, "Operation terminated by user");
    let took = t0.elapsed();
    assert!(took < Duration::from_secs(2), "Ctrl-C took {took:?}");
    run(&mut p, "disp(zuluValue + (n > 0))", "     8");

    // Ctrl-D leaves with status 0.
    p.send_control('d').expect("send ctrl-d");
    p.exp_eof().expect("matfuse exits");
    let status = p.process_mut().wait().expect("exit status");
    let shown = format!("{status:?}");
    assert!(
        shown.starts_with("Exited(") && shown.ends_with(", 0)"),
        "{shown}"
    );
}

#[test]
fn history_is_recalled_after_restart_by_prefix() {
    let history = temp("h2");
    let _ = std::fs::remove_file(&history);
    let mut p = spawn(&history, &[], true);
    started(&mut p);
    run(&mut p, "uniqueVar42 = 5", "uniqueVar42 =");
    run(&mut p, "other = 1", "other =");
    p.send_line("exit").expect("send");
    p.exp_eof().expect("exit leaves");

    let mut p = spawn(&history, &[], true);
    started(&mut p);
    // Up-arrow after a prefix finds the last entry starting with it, skipping `other`.
    p.send("uniq").expect("send");
    p.send("\x1b[A").expect("send up");
    p.send_line("").expect("send");
    expect(&mut p, "\nuniqueVar42 =");
    expect(&mut p, "\n     5");
    p.send_line("exit").expect("send");
    p.exp_eof().expect("exit leaves");
}

#[test]
fn keywords_and_strings_are_coloured_unless_no_color() {
    let history = temp("h3");
    let mut p = spawn(&history, &[], false);
    started(&mut p);
    p.send("for").expect("send");
    p.flush().expect("flush");
    expect(&mut p, "\x1b[34mfor");
    p.send_control('c').expect("ctrl-c clears the line");
    // Keys typed in the same instant as Ctrl-C are dropped with the line; give it a moment.
    std::thread::sleep(Duration::from_millis(300));
    p.send_line("exit").expect("send");
    p.exp_eof().expect("exit leaves");

    let mut p = spawn(&history, &[("NO_COLOR", "1")], false);
    started(&mut p);
    p.send_line("for k = 1, 'abc', end").expect("send");
    let shown = expect(&mut p, "ans =");
    assert!(
        !shown.contains("\x1b[34m") && !shown.contains("\x1b[35m"),
        "colour despite NO_COLOR: {shown:?}"
    );
    p.send_line("exit").expect("send");
    p.exp_eof().expect("exit leaves");
}

#[test]
fn record_writes_a_replayable_transcript() {
    use std::io::Write;
    let file = temp("session.txt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_matfuse"))
        .arg("--record")
        .arg(&file)
        .env("MATFUSE_HISTORY", temp("h4"))
        .env("MATFUSE_DEVICE", "cpu")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("matfuse starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"x = 2 + 3\nif x > 4\n  disp('big')\nend\ny = undefinedThing;\n")
        .expect("write");
    assert!(child.wait().expect("exits").success());
    let text = std::fs::read_to_string(&file).expect("record file");
    assert!(
        text.starts_with(">> x = 2 + 3\n\nx =\n\n     5\n\n"),
        "{text}"
    );
    assert!(
        text.contains(">> if x > 4\n>>   disp('big')\n>> end\nbig\n"),
        "{text}"
    );
    assert!(
        text.contains("Unrecognized function or variable 'undefinedThing'"),
        "{text}"
    );
    // The file replays to itself.
    let replayed = matfuse::cli::transcript::replay(&text);
    assert_eq!(
        matfuse::cli::transcript::normalize(&replayed),
        matfuse::cli::transcript::normalize(&text)
    );
}
