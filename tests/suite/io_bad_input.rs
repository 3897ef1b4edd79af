//! Bad input to the file functions: corrupt and truncated MAT-files, malformed text, folders
//! given as files, permission-denied paths (as a user without rights, also when the tests run
//! as root), a save over a file that may not be written. Each must be a MATLAB error with an
//! identifier, leave the workspace as it was and leave no partial file. Also: a long save or
//! load shows its progress on a terminal only, and a save reads device values back once.

use crate::common::{has_gpu, out, out_in};
use matfuse::interp::Interp;
use matfuse::interp::output;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh folder for one test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("matfuse-badio-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("scratch folder");
        Scratch(d)
    }
    fn path(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Runs `code` in `i`; it must fail with an identifier starting with `prefix`. Returns the
/// identifier and message.
fn fails_in(i: &mut Interp, code: &str, prefix: &str) -> (String, String) {
    output::begin_capture();
    let r = i.run_str(code);
    output::end_capture();
    match r {
        Ok(()) => panic!("expected an error from: {code}"),
        Err(e) => {
            let id = e.identifier().to_string();
            assert!(
                id.starts_with(prefix),
                "{code}: identifier {id} ({})",
                e.message()
            );
            (id, e.message().to_string())
        }
    }
}

/// Files whose names start with a dot (the temporary files of a save).
fn temporaries(d: &Path) -> Vec<String> {
    std::fs::read_dir(d)
        .expect("folder")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect()
}

/// A small deterministic generator (no crate for it).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

#[test]
fn corrupt_and_truncated_mat_files_are_errors_never_crashes() {
    let s = Scratch::new("corrupt");
    let (v7, v6) = (s.path("base7.mat"), s.path("base6.mat"));
    out(&format!(
        "d = [1.5 -2; 3 4e300]; s1 = single([1.25 -2.5]); i8 = int8([-128 127]); lg = [true false];\n\
         ch = ['ab'; 'cd']; cm = [1+2i, -3.5i]; c = {{1, 'two'; [3 4], {{5}}}}; st.a = 1; st.c.d = [1 2 3];\n\
         sa = struct('v', {{1, 'w', [1 2]}}); nd = reshape(1:24, 2, 3, 4); es = struct('a', {{}});\n\
         save('{v7}'); save('{v6}', '-v6');"
    ));
    let mut rng = Lcg(27);
    let mut i = Interp::new();
    out_in(&mut i, "keep = 42;");
    let (mut failed, mut loaded) = (0, 0);
    for base in [&v7, &v6] {
        let bytes = std::fs::read(base).expect("saved file");
        // every truncation past the header of the small v6 file, a sample of the v7 one
        let step = if base == &v6 { 1 } else { 7 };
        for len in (0..bytes.len()).step_by(step) {
            let f = s.path("cut.mat");
            std::fs::write(&f, &bytes[..len]).expect("write");
            output::begin_capture();
            let r = i.run_str(&format!("S = load('{f}');"));
            output::end_capture();
            match r {
                Ok(()) => loaded += 1,
                Err(e) => {
                    assert!(
                        e.identifier().starts_with("MATLAB:load:"),
                        "{len} bytes: {} {}",
                        e.identifier(),
                        e.message()
                    );
                    failed += 1;
                }
            }
        }
        // bytes changed at random past the header, sometimes also cut
        for k in 0..400 {
            let mut b = bytes.clone();
            for _ in 0..1 + rng.next(6) {
                let at = 116 + rng.next(b.len() - 116);
                b[at] = rng.next(256) as u8;
            }
            if k % 3 == 0 {
                b.truncate(128 + rng.next(b.len() - 128));
            }
            let f = s.path(&format!("bad{k}.mat"));
            std::fs::write(&f, &b).expect("write");
            output::begin_capture();
            let r = i.run_str(&format!("load('{f}');"));
            output::end_capture();
            if let Err(e) = r {
                assert!(
                    e.identifier().starts_with("MATLAB:load:"),
                    "{f}: {} {}",
                    e.identifier(),
                    e.message()
                );
                failed += 1;
            }
            let _ = std::fs::remove_file(&f);
        }
    }
    assert!(failed > 500, "{failed} failed, {loaded} loaded");
    assert_eq!(out_in(&mut i, "disp(keep)"), "    42\n");
}

/// A v6 file of `x = [1 2 3]` whose dimensions claim far more elements than its data holds:
/// an error about the file, not an attempt at allocating what the header says.
#[test]
fn mat_headers_that_lie_about_sizes() {
    let s = Scratch::new("lie");
    let f = s.path("one.mat");
    out(&format!("x = [1 2 3]; save('{f}', 'x', '-v6');"));
    let bytes = std::fs::read(&f).expect("saved");
    // the dimensions sub-element's values follow the matrix tag (8), the flags (16) and the
    // dimensions tag (8)
    let at = 128 + 8 + 16 + 8;
    let mut i = Interp::new();
    out_in(&mut i, "keep = 'intact';");
    for (r, c) in [
        (200_000i32, 200_000i32),
        (i32::MAX, i32::MAX),
        (-1, 3),
        (0, 3),
    ] {
        let mut b = bytes.clone();
        b[at..at + 4].copy_from_slice(&r.to_le_bytes());
        b[at + 4..at + 8].copy_from_slice(&c.to_le_bytes());
        std::fs::write(&f, &b).expect("write");
        let (id, msg) = fails_in(&mut i, &format!("S = load('{f}');"), "MATLAB:load:");
        assert_eq!(id, "MATLAB:load:unableToReadMatFile", "{r}x{c}: {msg}");
    }
    assert_eq!(
        out_in(&mut i, "disp(keep); disp(exist('S'))"),
        "intact\n     0\n"
    );
}

#[test]
fn malformed_text_files_read_as_matlab_does_or_fail_cleanly() {
    let s = Scratch::new("text");
    let ragged = s.path("ragged.csv");
    std::fs::write(&ragged, "1,2,3\n4,5\n6,,8,9\n").expect("write");
    let garbage = s.path("garbage.bin");
    let bytes: Vec<u8> = (0..4000u32).map(|k| (k * 7919 % 251) as u8).collect();
    std::fs::write(&garbage, &bytes).expect("write");
    let latin = s.path("latin.txt");
    std::fs::write(&latin, b"caf\xe9,1\nna\xefve,2\n").expect("write");
    // ragged rows: readmatrix and dlmread fill with NaN and 0 as MATLAB does
    let got = out(&format!(
        "M = readmatrix('{ragged}'); disp(size(M)); disp(isnan(M(2, 3)) && isnan(M(3, 2)) && isnan(M(1, 4)));\n\
         D = dlmread('{ragged}', ','); disp(D)"
    ));
    assert_eq!(
        got,
        "     3     4\n   1\n     1     2     3     0\n     4     5     0     0\n     6     0     8     9\n"
    );
    // a ragged numeric text file is not an ASCII MAT-file
    let mut i = Interp::new();
    out_in(&mut i, "keep = 1;");
    std::fs::write(s.path("ragged.txt"), "1 2 3\n4 5\n").expect("write");
    let (id, _) = fails_in(
        &mut i,
        &format!("load('{}')", s.path("ragged.txt")),
        "MATLAB:load:",
    );
    assert_eq!(id, "MATLAB:load:numColumnsNotSame");
    // binary garbage through every reader: a value or an identified error, never a crash
    for code in [
        format!("x = readmatrix('{garbage}');"),
        format!("x = readcell('{garbage}');"),
        format!("x = dlmread('{garbage}');"),
        format!("x = csvread('{garbage}');"),
        format!("x = importdata('{garbage}');"),
        format!("x = readlines('{garbage}');"),
        format!("x = fileread('{garbage}');"),
        format!("x = jsondecode(fileread('{garbage}'));"),
        format!("x = load('{garbage}', '-ascii');"),
        format!("x = load('{garbage}', '-mat');"),
        format!("fid = fopen('{garbage}'); x = fscanf(fid, '%f %s %d'); fclose(fid);"),
        format!(
            "fid = fopen('{garbage}'); x = textscan(fid, '%f %q %s', 'Delimiter', ','); fclose(fid);"
        ),
        format!(
            "fid = fopen('{garbage}'); x = fgetl(fid); y = fread(fid, Inf, 'double'); fclose(fid);"
        ),
        format!("x = readmatrix('{latin}'); y = readcell('{latin}');"),
    ] {
        output::begin_capture();
        let r = i.run_str(&code);
        output::end_capture();
        if let Err(e) = r {
            assert!(
                e.identifier().starts_with("MATLAB:"),
                "{code}: {} {}",
                e.identifier(),
                e.message()
            );
        }
        let _ = i.run_str("fclose('all');");
    }
    // malformed JSON names what is wrong and where
    for (text, id) in [
        ("{\"a\":", "MATLAB:json:ExpectedValue"),
        ("[1,2", "MATLAB:json:ExpectedValue"),
        ("{\"a\" 1}", "MATLAB:json:ExpectedValue"),
        ("", "MATLAB:json:ExpectedValue"),
        ("[1,2] x", "MATLAB:json:ExpectedValue"),
    ] {
        let (got, msg) = fails_in(&mut i, &format!("v = jsondecode('{text}');"), "MATLAB:");
        assert_eq!(got, id, "{text}: {msg}");
    }
    let deep = format!("{}1{}", "[".repeat(600), "]".repeat(600));
    fails_in(
        &mut i,
        &format!("v = jsondecode('{deep}');"),
        "MATLAB:json:",
    );
    assert_eq!(
        out_in(&mut i, "disp(keep); disp(exist('v'))"),
        "     1\n     0\n"
    );
}

#[test]
fn folders_given_as_files() {
    let s = Scratch::new("dirs");
    let dir = s.path("data.mat");
    std::fs::create_dir(&dir).expect("folder");
    let csv_dir = s.path("table.csv");
    std::fs::create_dir(&csv_dir).expect("folder");
    let mut i = Interp::new();
    out_in(&mut i, "x = 5;");
    // fopen answers -1 and the system's message
    assert_eq!(
        out_in(
            &mut i,
            &format!("[fid, msg] = fopen('{dir}'); disp(fid); disp(msg)")
        ),
        "    -1\nIs a directory\n"
    );
    fails_in(&mut i, &format!("load('{dir}')"), "MATLAB:load:");
    fails_in(
        &mut i,
        &format!("S = load('{dir}', '-mat');"),
        "MATLAB:load:",
    );
    fails_in(&mut i, &format!("fileread('{dir}')"), "MATLAB:fileread:");
    fails_in(
        &mut i,
        &format!("readmatrix('{csv_dir}')"),
        "MATLAB:textio:",
    );
    fails_in(&mut i, &format!("readlines('{csv_dir}')"), "MATLAB:");
    let (id, _) = fails_in(&mut i, &format!("save('{dir}', 'x')"), "MATLAB:save:");
    assert_eq!(id, "MATLAB:save:couldNotWriteFile");
    fails_in(
        &mut i,
        &format!("save('{dir}', 'x', '-ascii')"),
        "MATLAB:save:",
    );
    fails_in(&mut i, &format!("writematrix(1, '{csv_dir}')"), "MATLAB:");
    fails_in(&mut i, &format!("csvwrite('{csv_dir}', 1)"), "MATLAB:");
    fails_in(
        &mut i,
        &format!("writelines(\"a\", '{csv_dir}')"),
        "MATLAB:",
    );
    assert!(Path::new(&dir).is_dir() && Path::new(&csv_dir).is_dir());
    assert!(temporaries(&s.0).is_empty(), "{:?}", temporaries(&s.0));
    assert_eq!(out_in(&mut i, "disp(x)"), "     5\n");
}

#[test]
fn a_failed_save_keeps_the_old_file() {
    let s = Scratch::new("keep");
    let f = s.path("f.mat");
    let mut i = Interp::new();
    out_in(&mut i, &format!("x = 1; save('{f}', 'x');"));
    let before = std::fs::read(&f).expect("saved");
    fails_in(&mut i, &format!("save('{f}', 'x', 'nope')"), "MATLAB:save:");
    fails_in(
        &mut i,
        &format!("save('{f}', '-struct', 'x')"),
        "MATLAB:save:",
    );
    fails_in(
        &mut i,
        &format!("save('{f}', 'x', '-v7.3')"),
        "MATLAB:save:",
    );
    assert_eq!(std::fs::read(&f).expect("still there"), before);
    assert!(temporaries(&s.0).is_empty(), "{:?}", temporaries(&s.0));
    // a save through a link writes the file it points to and keeps the link
    let target = s.path("target.mat");
    let link = s.path("link.mat");
    std::os::unix::fs::symlink(&target, &link).expect("link");
    out_in(
        &mut i,
        &format!("y = 2; save('{link}', 'y'); clear y; load('{target}');"),
    );
    assert!(
        std::fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink()
    );
    assert_eq!(out_in(&mut i, "disp(y)"), "     2\n");
    // again, now that the target exists, through a relative link
    let rel = s.path("rel.mat");
    std::os::unix::fs::symlink("target.mat", &rel).expect("link");
    out_in(
        &mut i,
        &format!("y = 3; save('{rel}', 'y'); clear y; load('{target}');"),
    );
    assert!(
        std::fs::symlink_metadata(&rel)
            .expect("link")
            .file_type()
            .is_symlink()
    );
    assert_eq!(out_in(&mut i, "disp(y)"), "     3\n");
    assert!(temporaries(&s.0).is_empty(), "{:?}", temporaries(&s.0));
}

/// Whether this process runs as root (whose rights pass every permission bit).
fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Runs matfuse on the script `file` in `dir` as a user without rights to the test's files: this user where it
/// is not root; as root, the binary (copied into `dir`, which everyone may read) runs as
/// nobody through setpriv. None where that cannot be done (an error under CI=true).
fn run_without_rights(dir: &Path, file: &str) -> Option<String> {
    let bin = env!("CARGO_BIN_EXE_matfuse");
    let mut cmd = if running_as_root() {
        let copy = dir.join("matfuse");
        std::fs::copy(bin, &copy).expect("copy the binary");
        let probe = Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "true"])
            .output();
        if !probe.is_ok_and(|o| o.status.success()) {
            assert!(
                !under_ci(),
                "setpriv (util-linux) is needed under CI=true to test permissions as root"
            );
            eprintln!("skipped: running as root without setpriv");
            return None;
        }
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(copy);
        c
    } else {
        Command::new(bin)
    };
    let o = cmd
        .arg(file)
        .current_dir(dir)
        .env("MATFUSE_DEVICE", "cpu")
        .env("HOME", dir)
        .output()
        .expect("matfuse runs");
    assert!(
        o.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    Some(String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn permission_denied_is_a_matlab_error() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new("perm");
    let mode = |p: &str, m: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).expect("chmod")
    };
    mode(&s.path(""), 0o755);
    std::fs::write(s.path("secret.csv"), "1,2\n").expect("write");
    mode(&s.path("secret.csv"), 0o000);
    std::fs::create_dir(s.path("locked")).expect("folder");
    mode(&s.path("locked"), 0o555);
    std::fs::create_dir(s.path("open")).expect("folder");
    mode(&s.path("open"), 0o777);
    std::fs::write(s.path("open/ro.mat"), "old contents").expect("write");
    mode(&s.path("open/ro.mat"), 0o444);
    let show = "catch e, fprintf('%s | %s\\n', e.identifier, e.message); end";
    let script = format!(
        "x = 1;\n\
         [fid, msg] = fopen('secret.csv'); fprintf('%d %s\\n', fid, msg);\n\
         try, readmatrix('secret.csv'); {show}\n\
         try, load('secret.csv'); {show}\n\
         try, fileread('secret.csv'); {show}\n\
         try, save('locked/x.mat', 'x'); {show}\n\
         try, save('open/ro.mat', 'x'); {show}\n\
         try, writematrix(1, 'locked/a.csv'); {show}\n\
         try, mkdir('locked/sub'); {show}\n\
         [fid, msg] = fopen('locked/new.txt', 'w'); fprintf('%d %s\\n', fid, msg);\n\
         fprintf('%d\\n', x);\n"
    );
    std::fs::write(s.path("perm.m"), script).expect("write");
    mode(&s.path("perm.m"), 0o644);
    let Some(got) = run_without_rights(&s.0, "perm.m") else {
        return;
    };
    let lines: Vec<&str> = got.lines().collect();
    assert_eq!(
        lines,
        [
            "-1 Permission denied",
            "MATLAB:textio:textio:FileNotFound | Unable to find or open 'secret.csv'. Check the path and filename or file permissions.",
            "MATLAB:load:couldNotReadFile | Unable to read file 'secret.csv'. Permission denied.",
            "MATLAB:fileread:cannotOpenFile | Could not open file secret.csv. Permission denied.",
            "MATLAB:save:couldNotWriteFile | Unable to write file locked/x.mat: Permission denied.",
            "MATLAB:save:couldNotWriteFile | Unable to write file open/ro.mat: Permission denied.",
            "MATLAB:writematrix:FileOpenFailed | Unable to open file 'locked/a.csv' for writing. Permission denied.",
            "MATLAB:MKDIR:OSError | Permission denied",
            "-1 Permission denied",
            "1",
        ],
        "{got}"
    );
    // the file that may not be written keeps its contents and its mode; no temporaries
    mode(&s.path("open/ro.mat"), 0o644);
    assert_eq!(
        std::fs::read_to_string(s.path("open/ro.mat")).expect("read"),
        "old contents"
    );
    assert!(temporaries(&s.0.join("open")).is_empty());
    assert!(temporaries(&s.0.join("locked")).is_empty());
    mode(&s.path("locked"), 0o755);
    mode(&s.path("secret.csv"), 0o644);
}

/// A save or load past MATFUSE_PROGRESS_AFTER_MS (a second by default) rewrites one line on
/// standard error while standard error is a terminal; piped, it shows nothing.
#[test]
fn progress_shows_on_a_terminal_only() {
    let s = Scratch::new("progress");
    let f = s.path("big.mat");
    let code = format!("x = rand(1, 2e6); save('{f}', 'x'); clear x; load('{f}'); disp(numel(x))");
    let bin = env!("CARGO_BIN_EXE_matfuse");
    // standard error on a pseudo-terminal, through Python's pty module
    let script = r#"
import os, pty, subprocess, sys
m, s = pty.openpty()
env = dict(os.environ, MATFUSE_PROGRESS_AFTER_MS='0', MATFUSE_DEVICE='cpu')
p = subprocess.Popen([sys.argv[1], '-e', sys.argv[2]], stdin=subprocess.DEVNULL,
                     stdout=subprocess.PIPE, stderr=s, env=env)
os.close(s)
err = b''
while True:
    try:
        d = os.read(m, 4096)
    except OSError:
        break
    if not d:
        break
    err += d
out = p.stdout.read()
p.wait()
sys.stdout.write(repr(out.decode()) + '\n' + repr(err.decode()) + '\n' + str(p.returncode) + '\n')
"#;
    let o = Command::new("python3")
        .args(["-c", script, bin, &code])
        .output();
    let Ok(o) = o else {
        assert!(!under_ci(), "python3 is needed for this test under CI=true");
        eprintln!("skipped: python3 is not installed");
        return;
    };
    let got = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{got}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lines: Vec<&str> = got.lines().collect();
    assert_eq!(lines.first(), Some(&"'     2000000\\n'"), "{got}");
    let err = lines.get(1).copied().unwrap_or_default();
    assert!(err.contains(&format!("\\rSaving {f}: ")), "{err}");
    assert!(err.contains(&format!("\\rLoading {f}: ")), "{err}");
    assert!(err.contains("%"), "{err}");
    // cleared at the end, so the next output starts on a clean line
    assert!(err.contains("\\r\\x1b[2K"), "{err}");
    assert_eq!(lines.get(2), Some(&"0"), "{got}");
    // piped: no progress at all
    let o = Command::new(bin)
        .args(["-e", &code])
        .env("MATFUSE_PROGRESS_AFTER_MS", "0")
        .env("MATFUSE_DEVICE", "cpu")
        .output()
        .expect("matfuse runs");
    assert_eq!(String::from_utf8_lossy(&o.stdout), "     2000000\n");
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
}

/// Saving device-resident variables reads each back once: the bytes downloaded are the
/// variables' bytes, whatever the number of variables or the format.
#[test]
fn a_save_reads_device_values_back_once() {
    if !has_gpu() {
        eprintln!("skipped: no GPU adapter");
        return;
    }
    let s = Scratch::new("gather");
    let (f7, f6) = (s.path("g7.mat"), s.path("g6.mat"));
    let got = out(&format!(
        "g = gpuArray(single(1:1000)) * 2; h = gpuArray(1:500); k = 3;\n\
         s0 = gpuStats; save('{f7}'); s1 = gpuStats; save('{f6}', 'g', 'h', '-v6'); s2 = gpuStats;\n\
         disp([s1.Session.BytesDownloaded - s0.Session.BytesDownloaded, s2.Session.BytesDownloaded - s1.Session.BytesDownloaded]);\n\
         clear; S = load('{f7}'); disp(class(S.g)); disp(isequal(S.g, single(2:2:2000)) && isequal(S.h, 1:500))"
    ));
    // 1000 singles and 500 doubles: 4000 + 4000 bytes, once per save
    assert_eq!(got, "        8000        8000\nsingle\n   1\n");
}
