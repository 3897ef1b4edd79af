//! MAT-files: save and load in matfuse, and round trips with GNU Octave and SciPy's
//! `loadmat`/`savemat` in both directions. The external tools are installed by .ci/run; a test
//! that needs one fails under CI=true when it is missing, and is skipped elsewhere.

use crate::common;
use crate::common::{err, out, out_in, run};
use matfuse::interp::Interp;
use std::path::{Path, PathBuf};
use std::process::Command;

const VALUES: &str = include_str!("../data/mat_values.m");
const CHECK: &str = include_str!("../data/mat_check.m");
const CHECK_SCIPY: &str = include_str!("../data/mat_check_scipy.m");
const SCIPY_WRITE: &str = include_str!("../data/mat_scipy_write.py");
const SCIPY_CHECK: &str = include_str!("../data/mat_scipy_check.py");
/// Text past ASCII (é and €), saved beside VALUES for the tools that keep it.
const UNI: &str = "uni = ['h' char(233) 'llo ' char(8364)];\n";

/// A fresh, empty folder for one test.
fn folder(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("matfuse-mat-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temporary folder");
    d
}

fn p(d: &Path, file: &str) -> String {
    d.join(file).display().to_string()
}

/// Files in a folder whose names start with a dot (the temporary files of a save).
fn temporaries(d: &Path) -> Vec<String> {
    std::fs::read_dir(d)
        .expect("folder")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect()
}

/// An external tool: its command if it runs; under CI=true a missing one fails the test.
fn tool(candidates: &[&[&str]], what: &str) -> Option<Vec<String>> {
    for c in candidates {
        let ok = Command::new(c[0])
            .args(&c[1..])
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(vec![c[0].to_string()]);
        }
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{what} is needed for this test under CI=true (.ci/run installs it)");
    }
    eprintln!("skipped: {what} is not installed");
    None
}

fn python() -> Option<String> {
    let probe: &[&str] = &["-c", "import scipy.io, numpy"];
    let cands: Vec<Vec<&str>> = ["/usr/bin/python3", "python3"]
        .iter()
        .map(|py| {
            let mut v = vec![*py];
            v.extend_from_slice(probe);
            v
        })
        .collect();
    let refs: Vec<&[&str]> = cands.iter().map(|v| v.as_slice()).collect();
    tool(&refs, "Python 3 with SciPy").map(|v| v[0].clone())
}

fn octave() -> Option<String> {
    let cands: &[&[&str]] = &[&["octave-cli", "--version"], &["octave", "--version"]];
    tool(cands, "GNU Octave").map(|v| v[0].clone())
}

/// Runs a command; panics with its output unless it succeeds. Returns standard output.
fn sh(cmd: &str, args: &[&str]) -> String {
    let o = Command::new(cmd).args(args).output().expect("command runs");
    let (so, se) = (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    );
    assert!(o.status.success(), "{cmd} failed:\n{so}\n{se}");
    so
}

fn octave_eval(oct: &str, code: &str) -> String {
    sh(oct, &["--no-gui", "--norc", "--quiet", "--eval", code])
}

#[test]
fn every_class_round_trips_in_matfuse() {
    let d = folder("round");
    let code = format!(
        "{VALUES}{UNI}save('{0}'); save('{1}', '-v6'); clear\n\
         S = load('{0}');\n{CHECK}assert(isequal(double(S.uni), [104 233 108 108 111 32 8364]));\n\
         S = load('{1}');\n{CHECK}",
        p(&d, "all7.mat"),
        p(&d, "all6.mat")
    );
    assert_eq!(out(&code), "ALL OK\nALL OK\n");
    // v7 is compressed: the same values take fewer bytes than v6's
    let (n7, n6) = (
        std::fs::metadata(d.join("all7.mat")).unwrap().len(),
        std::fs::metadata(d.join("all6.mat")).unwrap().len(),
    );
    assert!(n7 < n6, "v7 {n7} bytes, v6 {n6}");
    assert!(temporaries(&d).is_empty());
}

#[test]
fn command_form_names_wildcards_and_struct_output() {
    let d = folder("forms");
    let f = p(&d, "vars");
    let mut i = Interp::new();
    out_in(
        &mut i,
        &format!("x1 = 1; x2 = [2 3]; y = 'why'; z = {{4}};\nsave {f} x* y\nclear\nload {f}"),
    );
    // `.mat` was added to the name
    assert!(d.join("vars.mat").is_file());
    assert_eq!(
        out_in(&mut i, "who"),
        "\nYour variables are:\n\nx1  x2  y\n\n"
    );
    assert_eq!(
        out_in(
            &mut i,
            &format!("clear\nS = load('{f}.mat', 'x*'); disp(fieldnames(S)')")
        ),
        "    {'x1'}    {'x2'}\n"
    );
    assert_eq!(
        out_in(&mut i, &format!("load {f} y\ndisp(y); disp(exist('x1'))")),
        "why\n     0\n"
    );
    // a named variable the file lacks is a warning, the others still load
    let got = run(&format!("load {f} y nothere\ndisp(y)"));
    assert!(
        got.contains("Warning: Variable 'nothere' not found."),
        "{got}"
    );
    assert!(got.contains("why"), "{got}");
}

#[test]
fn struct_option_append_and_function_form() {
    let d = folder("struct");
    let f = p(&d, "s.mat");
    let code = format!(
        "s.a = 1; s.b = 'bee'; s.c = [1 2];\n\
         save('{f}', '-struct', 's', 'a', 'b');\n\
         T = load('{f}'); disp(fieldnames(T)')\n\
         q = 5; a = 99;\n\
         save('{f}', 'q', 'a', '-append');\n\
         T = load('{f}'); disp(fieldnames(T)'); disp(T.a); disp(T.b)\n\
         save('{f}', '-struct', 's');\n\
         T = load('{f}'); disp(fieldnames(T)')"
    );
    assert_eq!(
        out(&code),
        "    {'a'}    {'b'}\n    {'b'}    {'q'}    {'a'}\n    99\nbee\n    {'a'}    {'b'}    {'c'}\n"
    );
    let (id, _) = err(&format!("x = 1; save('{f}', '-struct', 'x')"));
    assert_eq!(id, "MATLAB:save:notScalarStruct");
}

#[test]
fn ascii_files_save_and_load() {
    let d = folder("ascii");
    let f = p(&d, "nums.txt");
    let code = format!(
        "m = [1 -2.5; 3e10 4];\nsave('{f}', 'm', '-ascii');\nM = load('{f}'); disp(isequal(M, m))\n\
         load('{f}'); disp(isequal(nums, m))"
    );
    assert_eq!(out(&code), "   1\n   1\n");
    let text = std::fs::read_to_string(d.join("nums.txt")).unwrap();
    assert_eq!(
        text,
        "   1.0000000e+00  -2.5000000e+00\n   3.0000000e+10   4.0000000e+00\n"
    );
    // a plain numeric text file, with a comment and commas, as MATLAB reads it
    std::fs::write(d.join("2data.dat"), "% header\n1, 2, 3\n4 5 6\n\n").unwrap();
    let v = common::var(&format!("load {}", p(&d, "2data.dat")), "X2data");
    assert_eq!(v.shape().dims(), &[2, 3]);
    std::fs::write(d.join("ragged.txt"), "1 2\n3\n").unwrap();
    let (id, msg) = err(&format!("load {}", p(&d, "ragged.txt")));
    assert_eq!(id, "MATLAB:load:numColumnsNotSame");
    assert!(msg.contains("line 2"), "{msg}");
}

#[test]
fn defaults_matlab_mat_in_the_current_folder() {
    let d = folder("default");
    let bin = env!("CARGO_BIN_EXE_matfuse");
    let o = Command::new(bin)
        .current_dir(&d)
        .args([
            "-e",
            "a = 1; b = 'two'; save; clear; load; disp(b); S = load; disp(S.a)",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "two\n     1\n");
    assert!(d.join("matlab.mat").is_file());
}

#[test]
fn failures_are_matlab_errors_and_leave_files_and_workspace_intact() {
    let d = folder("fail");
    let (id, msg) = err(&format!("load('{}')", p(&d, "missing")));
    assert_eq!(id, "MATLAB:load:couldNotReadFile");
    assert!(msg.contains("missing.mat"), "{msg}");
    let (id, msg) = err(&format!("x = 1; save('{}', 'nope')", p(&d, "f.mat")));
    assert_eq!(
        (id.as_str(), msg.as_str()),
        (
            "MATLAB:save:couldNotFindVariable",
            "Variable 'nope' not found."
        )
    );
    assert!(!d.join("f.mat").exists());
    let (id, _) = err(&format!(
        "x = 1; save('{}', 'x')",
        p(&d, "no/such/folder/f.mat")
    ));
    assert_eq!(id, "MATLAB:save:couldNotWriteFile");
    let (id, _) = err(&format!("x = 1; save('{}', 'x', '-v7.3')", p(&d, "f.mat")));
    assert_eq!(id, "MATLAB:save:unsupportedFormat");
    // a corrupt file: load fails before assigning anything; -append onto it fails and keeps it
    let mut bad = Vec::from(&b"MATLAB 5.0 MAT-file, truncated"[..]);
    bad.resize(126, b' ');
    bad.extend_from_slice(b"IM");
    bad.extend_from_slice(&[14, 0, 0, 0, 200, 0, 0, 0, 6, 0]);
    std::fs::write(d.join("bad.mat"), &bad).unwrap();
    let got = run(&format!("x = 7;\nload('{}')\ndisp(x)", p(&d, "bad.mat")));
    assert!(
        got.contains("MATLAB:load:unableToReadMatFile") || got.contains("corrupt"),
        "{got}"
    );
    let mut i = Interp::new();
    out_in(&mut i, "x = 7;");
    let r = i.run_str(&format!("load('{}')", p(&d, "bad.mat")));
    assert!(r.is_err());
    assert_eq!(out_in(&mut i, "disp(x)"), "     7\n");
    let r = i.run_str(&format!("save('{}', 'x', '-append')", p(&d, "bad.mat")));
    assert!(r.is_err());
    assert_eq!(std::fs::read(d.join("bad.mat")).unwrap(), bad);
    // not a MAT-file at all, read as a MAT-file
    std::fs::write(d.join("text.mat"), "hello world\n").unwrap();
    let (id, _) = err(&format!("load('{}')", p(&d, "text.mat")));
    assert_eq!(id, "MATLAB:load:notBinaryFile");
    assert!(temporaries(&d).is_empty(), "{:?}", temporaries(&d));
}

#[test]
fn unsavable_values_are_skipped_with_a_warning() {
    let d = folder("skip");
    let f = p(&d, "h.mat");
    let got = run(&format!(
        "h = @sin; x = 2; m = containers.Map(); save('{f}'); clear; load('{f}'); disp(exist('h')); disp(exist('m')); disp(x)"
    ));
    assert!(
        got.contains("Warning: Variable 'h' is a function handle"),
        "{got}"
    );
    assert!(
        got.contains("Warning: Variable 'm' is an object of class containers.Map"),
        "{got}"
    );
    assert!(got.ends_with("     0\n     0\n     2\n"), "{got}");
}

#[test]
fn gpu_arrays_are_saved_as_their_values() {
    let d = folder("gpu");
    let f = p(&d, "g.mat");
    let code = format!(
        "g = gpuArray(single([1 2 3])) * 2; save('{f}', 'g'); clear; load('{f}'); disp(class(g)); disp(g)"
    );
    assert_eq!(out(&code), "single\n     2     4     6\n");
}

/// A big-endian file (as Solaris or old Macs wrote): `x = [1 2]` and `c = 'hi'`.
#[test]
fn big_endian_files_load() {
    let d = folder("be");
    let mut b = Vec::from(&b"MATLAB 5.0 MAT-file, big-endian test"[..]);
    b.resize(124, b' ');
    b.extend_from_slice(&0x0100u16.to_be_bytes());
    b.extend_from_slice(b"MI");
    let be = |v: u32| v.to_be_bytes();
    // x: double 1x2
    let mut m = Vec::new();
    m.extend(be(6));
    m.extend(be(8));
    m.extend(be(6));
    m.extend(be(0)); // flags: double
    m.extend(be(5));
    m.extend(be(8));
    m.extend(1i32.to_be_bytes());
    m.extend(2i32.to_be_bytes()); // dims
    m.extend(((1u32 << 16) | 1).to_be_bytes());
    m.extend(b"x\0\0\0"); // small name
    m.extend(be(9));
    m.extend(be(16));
    m.extend(1f64.to_be_bytes());
    m.extend(2f64.to_be_bytes());
    b.extend(be(14));
    b.extend(be(m.len() as u32));
    b.extend(&m);
    // c: char 1x2 as small UTF-16 data
    let mut m = Vec::new();
    m.extend(be(6));
    m.extend(be(8));
    m.extend(be(4));
    m.extend(be(0));
    m.extend(be(5));
    m.extend(be(8));
    m.extend(1i32.to_be_bytes());
    m.extend(2i32.to_be_bytes());
    m.extend(((1u32 << 16) | 1).to_be_bytes());
    m.extend(b"c\0\0\0");
    m.extend(((4u32 << 16) | 4).to_be_bytes());
    m.extend(u16::from(b'h').to_be_bytes());
    m.extend(u16::from(b'i').to_be_bytes());
    b.extend(be(14));
    b.extend(be(m.len() as u32));
    b.extend(&m);
    std::fs::write(d.join("be.mat"), &b).unwrap();
    let code = format!(
        "load('{}'); disp(x); disp(c); disp(class(c))",
        p(&d, "be.mat")
    );
    assert_eq!(out(&code), "     1     2\nhi\nchar\n");
}

#[test]
fn octave_reads_matfuse_files_and_matfuse_reads_octaves() {
    let Some(oct) = octave() else { return };
    let d = folder("octave");
    let (m7, m6) = (p(&d, "m7.mat"), p(&d, "m6.mat"));
    out(&format!("{VALUES}save('{m7}'); save('{m6}', '-v6');"));
    // one Octave start for both checks and both writes
    let (o7, o6) = (p(&d, "o7.mat"), p(&d, "o6.mat"));
    let got = octave_eval(
        &oct,
        &format!(
            "S = load('{m7}');\n{CHECK}S = load('{m6}');\n{CHECK}clear S\n{VALUES}save('-v7', '{o7}'); save('-v6', '{o6}');"
        ),
    );
    assert_eq!(got.trim(), "ALL OK\nALL OK", "Octave said:\n{got}");
    let got = out(&format!(
        "S = load('{o7}');\n{CHECK}S = load('{o6}');\n{CHECK}"
    ));
    assert_eq!(got, "ALL OK\nALL OK\n");
}

#[test]
fn scipy_reads_matfuse_files_and_matfuse_reads_scipys() {
    let Some(py) = python() else { return };
    let d = folder("scipy");
    let (m7, m6) = (p(&d, "m7.mat"), p(&d, "m6.mat"));
    out(&format!("{VALUES}{UNI}save('{m7}'); save('{m6}', '-v6');"));
    let got = sh(&py, &["-c", SCIPY_CHECK, &m7, &m6]);
    assert_eq!(got.trim(), "ALL OK");
    let (p5, p5z) = (p(&d, "p5.mat"), p(&d, "p5z.mat"));
    sh(&py, &["-c", SCIPY_WRITE, &p5, &p5z]);
    let got = out(&format!(
        "S = load('{p5}');\n{CHECK_SCIPY}S = load('{p5z}');\n{CHECK_SCIPY}"
    ));
    assert_eq!(got, "ALL OK\nALL OK\n");
}

#[test]
fn whos_lists_the_variables_of_a_file() {
    let dir = std::env::temp_dir().join(format!("matfuse-whos-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let f = dir.join("w.mat");
    let o = out(&format!(
        "x = 1; y = [1+2i 3]; save('{0}', 'x', 'y'); s = whos('-file', '{0}'); disp({{s.name}}); disp([s.bytes]); \
         t = whos('-file', '{1}', 'y'); disp(t.complex)",
        f.display(),
        dir.join("w").display()
    ));
    assert_eq!(o, "    {'x'}    {'y'}\n     8    32\n   1\n");
    let _ = std::fs::remove_dir_all(&dir);
}
