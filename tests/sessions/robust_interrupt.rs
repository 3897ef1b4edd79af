//! Issue 26: Ctrl-C stops long builtins at the prompt, whatever loop they spend their time
//! in: faer factorizations (run detached and abandoned), the matrix product (a block of
//! columns at a time), element loops (formatting, convolution, primality), calls of a
//! function per element, display, text functions over long texts and big cells, lanes
//! along rows, a save (which leaves no file behind), `strfind`, `hist`, struct arrays and
//! `save -ascii`. Each case runs a statement that takes many seconds
//! unless interrupted, presses Ctrl-C after 300 ms and checks that the statement stopped:
//! MATLAB's message, the result variable never assigned, the inputs intact, the session
//! usable. (Before, each ran to its end: `y` was assigned and the message never came.)
//! Speed is not asserted here; bench notes give the latencies measured.

use rexpect::reader::Options;
use rexpect::session::PtySession;
use std::process::Command;
use std::time::Duration;

const TIMEOUT_MS: u64 = 30_000;

fn spawn(name: &str) -> PtySession {
    let dir = std::env::temp_dir().join(format!("matfuse-robust-interrupt-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_matfuse"));
    // host builtins are what is tested: no device takes the work over
    cmd.env("MATFUSE_HISTORY", dir.join(name))
        .env("MATFUSE_DEVICE", "cpu")
        .env("NO_COLOR", "1")
        .env("TERM", "xterm-256color");
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

/// Runs `setup` (which makes `x`), then `y = stmt` interrupted after 300 ms: the statement
/// stops with MATLAB's message, `y` does not exist, `x` is what it was.
fn interrupted(name: &str, setup: &str, stmt: &str) {
    let mut p = spawn(name);
    p.send_line(&format!("{setup}; x1 = x(1); nx = numel(x); disp('MADE')"))
        .expect("send");
    expect(&mut p, "\nMADE");
    p.send_line(&format!("disp('START'); y = {stmt}; disp('FINISHED')"))
        .expect("send");
    expect(&mut p, "\nSTART");
    std::thread::sleep(Duration::from_millis(300));
    p.send_control('c').expect("send ctrl-c");
    let before = expect(&mut p, "Operation terminated by user");
    assert!(!before.contains("FINISHED"), "{stmt}: {before}");
    p.send_line("fprintf('Y%d\\n', exist('y'))").expect("send");
    expect(&mut p, "Y0");
    p.send_line("fprintf('KEPT%d\\n', numel(x) == nx && isequal(x(1), x1))")
        .expect("send");
    expect(&mut p, "KEPT1");
    // the session goes on: a builtin of the same kind runs to its end
    p.send_line("z = numel(1:10); fprintf('AFTER%d\\n', z)")
        .expect("send");
    expect(&mut p, "AFTER10");
    p.send_line("exit").expect("send");
    p.exp_eof().expect("exit leaves");
}

#[test]
fn ctrl_c_stops_a_matrix_product() {
    interrupted("p1", "x = rand(6000); B = rand(6000)", "x * B");
}

#[test]
fn ctrl_c_stops_a_factorization() {
    interrupted("p2", "x = rand(5000)", "inv(x)");
}

#[test]
fn ctrl_c_stops_an_eigendecomposition() {
    interrupted("p3", "x = rand(2500)", "eig(x)");
}

#[test]
fn ctrl_c_stops_a_backslash_solve() {
    interrupted("p4", "x = rand(6000); b = rand(6000, 1)", "x \\ b");
}

#[test]
fn ctrl_c_stops_a_convolution() {
    // An Inf keeps the sum direct (through the FFT it would finish in milliseconds).
    interrupted("p5", "x = rand(4e5, 1); x(7) = Inf", "conv(x, x)");
}

#[test]
fn ctrl_c_stops_formatting_text() {
    interrupted("p6", "x = rand(2e7, 1)", "sprintf('%g,', x)");
}

#[test]
fn ctrl_c_stops_a_function_called_per_element() {
    interrupted("p7", "x = 1:2e7", "arrayfun(@(v) v + 1, x)");
}

#[test]
fn ctrl_c_stops_primality_tests() {
    interrupted("p8", "x = 1:1e8", "isprime(x)");
}

#[test]
fn ctrl_c_stops_num2str_of_many_values() {
    interrupted("p9", "x = rand(1e7, 1)", "num2str(x)");
}

#[test]
fn ctrl_c_stops_a_regexprep_over_a_long_text() {
    // 2e7 matches, replaced one by one (it ran to its end: the match loop never looked)
    interrupted(
        "p10",
        "x = repmat('ab ', 1, 2e7)",
        "regexprep(x, 'a', 'xy')",
    );
}

#[test]
fn ctrl_c_stops_a_deviation_along_rows() {
    // lanes along the second dimension (a complex copy of the whole matrix came first,
    // unwatched); the typed path takes about 0.14 s a call here, so twelve in one statement
    // are still running at the Ctrl-C, and only its look between rows stops them
    let stmt = vec!["std(x, 0, 2)"; 12].join(" + ");
    interrupted("p11", "x = rand(8000)", &stmt);
}

#[test]
fn ctrl_c_stops_text_functions_over_a_big_cell() {
    // one call per element of a cell of 4e6 texts (the loop over the cell never looked)
    interrupted(
        "p12",
        "x = cellstr(char(randi([97 122], 4e6, 8)))",
        "strrep(upper(x), 'A', 'bc')",
    );
}

#[test]
fn ctrl_c_stops_strfind_over_a_long_text() {
    // a subject of 4e7 characters, searched a character at a time (the search never looked:
    // 0.5 s a call); twelve in one statement are still running at the Ctrl-C
    let stmt = vec!["numel(strfind(x, 'bc'))"; 12].join(" + ");
    interrupted("p14", "x = repmat('abc ', 1, 1e7)", &stmt);
}

#[test]
fn ctrl_c_stops_hist_of_a_long_vector() {
    // the copy of the data and the counting into bins (0.7 s a call, unwatched)
    let stmt = vec!["sum(hist(x, 100))"; 12].join(" + ");
    interrupted("p15", "x = rand(3e7, 1)", &stmt);
}

#[test]
fn ctrl_c_stops_a_struct_array_of_many_elements() {
    // 3e6 elements built one by one (1 s a call, unwatched)
    let stmt = vec!["numel(struct('a', num2cell(x)))"; 12].join(" + ");
    interrupted("p16", "x = 1:3e6", &stmt);
}

#[test]
fn ctrl_c_stops_a_save_ascii_and_leaves_no_file() {
    // each element formatted as text (its loop never looked: 0.9 s for 3e6), then written
    let dir = std::env::temp_dir().join(format!("matfuse-robust-ascii-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("big.txt");
    let mut p = spawn("p17");
    p.send_line("x = rand(1e7, 1); disp('MADE')").expect("send");
    expect(&mut p, "\nMADE");
    p.send_line(&format!(
        "disp('START'); save('{}', 'x', '-ascii'); disp('FINISHED')",
        file.display()
    ))
    .expect("send");
    expect(&mut p, "\nSTART");
    std::thread::sleep(Duration::from_millis(300));
    p.send_control('c').expect("send ctrl-c");
    let before = expect(&mut p, "Operation terminated by user");
    assert!(!before.contains("FINISHED"), "{before}");
    p.send_line("fprintf('KEPT%d\\n', numel(x))").expect("send");
    expect(&mut p, "KEPT10000000");
    let left: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    p.send_line("exit").expect("send");
    p.exp_eof().expect("exit leaves");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_stops_a_save_and_leaves_no_file() {
    // The variable is built into bytes, compressed and written: each stage looks at Ctrl-C
    // as its progress goes (it saved to the end), and the temporary file is removed on the
    // way out, so neither the file nor a part of it is left.
    let dir = std::env::temp_dir().join(format!("matfuse-robust-save-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("big.mat");
    let mut p = spawn("p13");
    p.send_line("x = rand(6e7, 1); disp('MADE')").expect("send");
    expect(&mut p, "\nMADE");
    p.send_line(&format!(
        "disp('START'); save('{}', 'x'); disp('FINISHED')",
        file.display()
    ))
    .expect("send");
    expect(&mut p, "\nSTART");
    std::thread::sleep(Duration::from_millis(300));
    p.send_control('c').expect("send ctrl-c");
    let before = expect(&mut p, "Operation terminated by user");
    assert!(!before.contains("FINISHED"), "{before}");
    p.send_line("fprintf('KEPT%d\\n', numel(x))").expect("send");
    expect(&mut p, "KEPT60000000");
    let left: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    p.send_line("exit").expect("send");
    p.exp_eof().expect("exit leaves");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_stops_a_long_display_of_a_script() {
    // A script piped in shows 3e6 numbers (`disp(x)`, then `x` without a semicolon); SIGINT
    // 300 ms into each stops it with MATLAB's message (it ran on past a minute).
    for show in ["disp(x)", "x"] {
        use std::io::{BufRead, BufReader, Read, Write};
        use std::process::Stdio;
        let mut child = Command::new(env!("CARGO_BIN_EXE_matfuse"))
            .env("MATFUSE_DEVICE", "cpu")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("matfuse starts");
        let script = format!(
            "x = rand(3e6, 1);\nfprintf(2, 'START\\n');\n{show}\nfprintf(2, 'FINISHED\\n');\n"
        );
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(script.as_bytes())
            .expect("script written");
        let mut stdout = child.stdout.take().expect("stdout");
        let drain = std::thread::spawn(move || {
            let mut sink = Vec::new();
            let _ = stdout.read_to_end(&mut sink);
        });
        let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
        let first = lines.next().and_then(Result::ok).unwrap_or_default();
        assert_eq!(first, "START", "{show}");
        std::thread::sleep(Duration::from_millis(300));
        // SAFETY: a plain kill(2) of the child this test started.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
        let rest: Vec<String> = lines.map_while(Result::ok).collect();
        let _ = child.wait();
        let _ = drain.join();
        let rest = rest.join("\n");
        assert!(
            rest.contains("Operation terminated by user"),
            "{show}: {rest}"
        );
        assert!(!rest.contains("FINISHED"), "{show}: {rest}");
    }
}
