//! Issue 26 at the prompt, through a real pseudo-terminal: a long line typed (or pasted
//! without bracketed paste) runs without a redraw of the whole line per key; Ctrl-C stops a
//! long builtin (`sort`) and a kernel's first compile before they finish, the workspace as it
//! was; keys typed while a statement runs are kept, also across Ctrl-C.

use crate::common;

use rexpect::reader::Options;
use rexpect::session::PtySession;
use std::process::Command;
use std::time::Duration;

const TIMEOUT_MS: u64 = 20_000;

fn spawn(name: &str) -> PtySession {
    spawn_with(name, &[])
}

fn spawn_with(name: &str, env: &[(&str, &str)]) -> PtySession {
    let dir = std::env::temp_dir().join(format!("matfuse-robust-terminal-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_matfuse"));
    cmd.env("MATFUSE_HISTORY", dir.join(name))
        .env_remove("NO_COLOR")
        .env("TERM", "xterm-256color");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let options = Options::new()
        .timeout_ms(Some(TIMEOUT_MS))
        .strip_ansi_escape_codes(true);
    let mut p = rexpect::spawn_with_options(cmd, options).expect("matfuse starts in a pty");
    expect(&mut p, ">> ");
    p
}

fn expect(p: &mut PtySession, s: &str) -> String {
    p.exp_string(s)
        .unwrap_or_else(|e| panic!("expected {s:?} from matfuse: {e}"))
}

#[test]
fn a_long_line_typed_key_by_key_runs_without_redrawing_per_key() {
    // 8 KB of strings and brackets, sent as keys (no bracketed paste): the editor redrew and
    // re-coloured the whole line per key (2 KB took 5 s, 100 KB 115 s).
    let mut p = spawn("h1");
    let items = vec!["'ab'"; 1600].join(",");
    let line = format!("c = {{{items}}}; fprintf('LONGLINE%d\\n', numel(c))");
    assert!(line.len() > 8000);
    for chunk in line.as_bytes().chunks(512) {
        p.send(std::str::from_utf8(chunk).expect("ascii"))
            .expect("send");
    }
    p.send_line("").expect("send");
    expect(&mut p, "LONGLINE1600");
    p.send_line("exit").expect("send");
    p.exp_eof().expect("exit leaves");
}

#[test]
fn ctrl_c_stops_a_long_sort_and_keys_typed_meanwhile_are_kept() {
    // A sort of 3e7 doubles takes 0.3-1.5 s, so on a fast machine it ended before the
    // Ctrl-C: the injected fault stalls it 3 s first (without looking at Ctrl-C itself).
    let mut p = spawn_with("h2", &[("MATFUSE_FAULT", "slowsort")]);
    p.send_line("x = rand(3e7, 1); disp('MADE')").expect("send");
    expect(&mut p, "\nMADE");
    p.send_line("disp('SORTING'); y = sort(x); disp('SORTED')")
        .expect("send");
    expect(&mut p, "\nSORTING");
    std::thread::sleep(Duration::from_millis(300));
    // Typed while the sort runs, then Ctrl-C: the sort stops (y is never assigned: the
    // interrupt used to wait for the sort to end), and the typed line runs next.
    p.send_line("fprintf('AHEAD%d\\n', exist('y') + 40)")
        .expect("send");
    std::thread::sleep(Duration::from_millis(100));
    p.send_control('c').expect("send ctrl-c");
    expect(&mut p, "Operation terminated by user");
    expect(&mut p, "AHEAD40");
    p.send_line("fprintf('KEPT%d\\n', numel(x))").expect("send");
    expect(&mut p, "KEPT30000000");
    p.send_line("exit").expect("send");
    p.exp_eof().expect("exit leaves");
}

#[test]
fn ctrl_c_stops_the_wait_for_a_kernel_compile() {
    if !common::has_gpu() {
        return;
    }
    // A reduction of nested double functions: its first compile takes seconds (10-14 s on
    // lavapipe), and the wait for it ignored Ctrl-C (y was assigned once it finished).
    // How long a compile takes depends on the machine and on the driver's disk cache (a CI
    // machine compiled it within the 300 ms below, and y was assigned): the injected fault
    // makes the first compile 30 s longer, so the Ctrl-C always lands in the wait.
    let mut p = spawn_with(
        "h3",
        &[
            ("MESA_SHADER_CACHE_DISABLE", "true"),
            ("__GL_SHADER_DISK_CACHE", "0"),
            ("MATFUSE_FAULT", "slowcompile"),
        ],
    );
    p.send_line("g = gpuArray(rand(1e5, 1)); disp('MADE')")
        .expect("send");
    expect(&mut p, "\nMADE");
    p.send_line(
        "disp('COMPILING'); y = gather(sum(sin(exp(cos(g))) .* log(g + 2))); disp('COMPILED')",
    )
    .expect("send");
    expect(&mut p, "\nCOMPILING");
    std::thread::sleep(Duration::from_millis(300));
    p.send_control('c').expect("send ctrl-c");
    let before = expect(&mut p, "Operation terminated by user");
    assert!(!before.contains("COMPILED"), "{before}");
    p.send_line("fprintf('AFTER%d\\n', exist('y') + 10)")
        .expect("send");
    expect(&mut p, "AFTER10");
    // The session and the device go on (the compile finishes in the background).
    p.send_line("z = gather(g(1:3) * 0 + 2); fprintf('DEVICE%d\\n', sum(z))")
        .expect("send");
    expect(&mut p, "DEVICE6");
    p.send_line("exit").expect("send");
    p.exp_eof().expect("exit leaves");
}
