//! Data in and out of files: the low-level family (fopen ... fclose, fscanf, fread/fwrite,
//! textscan), tables of numbers (readmatrix, writematrix, csv*, dlm*, readcell, importdata,
//! with round trips through Python's csv module), and files and folders (mkdir, delete,
//! copyfile, movefile, dir, exist). Every test works in a folder of its own from `tempname`
//! and removes it.

use crate::common;
use crate::common::{err, out, var};
use matfuse::values::value::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh folder for one test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let p = std::env::temp_dir().join(format!(
            "matfuse-fileio-{tag}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&p).expect("scratch folder");
        Scratch(p)
    }
    fn path(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }
    /// MATLAB code that sets `d` to this folder.
    fn set_d(&self) -> String {
        format!("d = '{}';", self.0.display())
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn nums(v: &Value) -> Vec<f64> {
    v.tensor().expect("numeric").to_f64().into_owned()
}

fn dims(v: &Value) -> Vec<usize> {
    v.shape().dims().to_vec()
}

fn text(v: &Value) -> String {
    v.text().expect("text")
}

/// Runs a Python script; None where python3 is missing (an error under CI=true).
fn python(script: &str) -> Option<String> {
    match Command::new("python3").arg("-c").arg(script).output() {
        Ok(o) => {
            assert!(
                o.status.success(),
                "python failed: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            Some(String::from_utf8_lossy(&o.stdout).into_owned())
        }
        Err(_) => {
            assert!(
                std::env::var("CI").map_or(true, |v| v != "true"),
                "python3 is needed for the csv round trips under CI"
            );
            None
        }
    }
}

#[test]
fn write_then_read_lines_with_fgetl() {
    let code = "d = tempname; mkdir(d); f = fullfile(d, 'notes.txt');
        fid = fopen(f, 'w'); n = fprintf(fid, '%s\\n', 'alpha', 'beta'); fprintf(fid, 'gamma'); fclose(fid);
        fid = fopen(f); lines = {}; t = fgetl(fid);
        while ischar(t), lines{end+1} = t; t = fgetl(fid); end
        at_end = feof(fid); last = t; fclose(fid); rmdir(d, 's'); gone = isfolder(d);";
    let c = var(code, "lines");
    let Value::Cell(c) = c else { panic!("a cell") };
    let got: Vec<String> = c.data.iter().map(text).collect();
    assert_eq!(got, ["alpha", "beta", "gamma"]);
    assert_eq!(nums(&var(code, "n")), [11.0]);
    assert_eq!(nums(&var(code, "at_end")), [1.0]);
    assert_eq!(nums(&var(code, "last")), [-1.0]);
    assert_eq!(nums(&var(code, "gone")), [0.0]);
}

#[test]
fn fgets_keeps_newlines_and_crlf_lines_read_clean() {
    let s = Scratch::new("fgets");
    std::fs::write(s.path("w.txt"), "one\r\ntwo\n\nlast").expect("write");
    let code = format!(
        "{} fid = fopen(fullfile(d, 'w.txt')); a = fgetl(fid); b = fgets(fid); e = fgetl(fid); c = fgets(fid, 2); r = fgetl(fid); z = fgets(fid); fclose(fid);",
        s.set_d()
    );
    assert_eq!(text(&var(&code, "a")), "one");
    assert_eq!(text(&var(&code, "b")), "two\n");
    assert_eq!(dims(&var(&code, "e")), [0, 0]);
    assert_eq!(text(&var(&code, "c")), "la");
    assert_eq!(text(&var(&code, "r")), "st");
    assert_eq!(nums(&var(&code, "z")), [-1.0]);
}

#[test]
fn fopen_failures_return_minus_one_and_a_message() {
    let s = Scratch::new("fail");
    let code = format!(
        "{} [fid, msg] = fopen(fullfile(d, 'missing.txt'));",
        s.set_d()
    );
    assert_eq!(nums(&var(&code, "fid")), [-1.0]);
    assert_eq!(text(&var(&code, "msg")), "No such file or directory");
    // a folder cannot be opened as a file
    let code = format!("{} [fid, msg] = fopen(d);", s.set_d());
    assert_eq!(nums(&var(&code, "fid")), [-1.0]);
    // no output: still -1, no error
    assert_eq!(
        nums(&var("fid = fopen('/nonexistent/dir/x.txt', 'w');", "fid")),
        [-1.0]
    );
    let (id, msg) = err("fopen('x.txt', 'rw')");
    assert_eq!(id, "MATLAB:fopen:InvalidPermission");
    assert!(msg.contains("rw"), "{msg}");
}

#[test]
fn invalid_file_identifiers_raise_and_leave_the_workspace() {
    for code in [
        "fclose(7)",
        "fgetl(7)",
        "fgets(12)",
        "fscanf(5, '%d')",
        "fread(9)",
        "fwrite(9, 1)",
        "fprintf(8, 'x')",
        "feof(44)",
        "ftell(44)",
        "fseek(44, 0, 'bof')",
        "frewind(3)",
        "textscan(3, '%f')",
        "fgetl('abc')",
        "fclose(2.5)",
    ] {
        let (id, msg) = err(code);
        assert_eq!(id, "MATLAB:FileIO:InvalidFid", "{code}");
        assert_eq!(
            msg, "Invalid file identifier. Use fopen to generate a valid file identifier.",
            "{code}"
        );
    }
    // the workspace is intact after the error
    let mut interp = matfuse::interp::Interp::new();
    matfuse::interp::output::begin_capture();
    let _ = interp.run_str("x = 42;");
    let r = interp.run_str("x = fgetl(99);");
    matfuse::interp::output::end_capture();
    assert!(r.is_err());
    assert_eq!(interp.var("x").map(|v| nums(&v)), Some(vec![42.0]));
    // closing twice is an error the second time
    let s = Scratch::new("twice");
    let code = format!(
        "{} fid = fopen(fullfile(d, 'a.txt'), 'w'); st = fclose(fid); fclose(fid);",
        s.set_d()
    );
    assert_eq!(err(&code).0, "MATLAB:FileIO:InvalidFid");
}

#[test]
fn open_file_table_and_file_information() {
    let s = Scratch::new("all");
    let code = format!(
        "{} f1 = fopen(fullfile(d, 'a.txt'), 'w'); f2 = fopen(fullfile(d, 'b.txt'), 'a+t', 'ieee-be', 'ISO-8859-1');
         ids = fopen('all'); [name, perm, mf, enc] = fopen(f2); [p1] = fopen(f1);
         fclose(f1); f3 = fopen(fullfile(d, 'c.txt'), 'w'); st = fclose('all'); after = fopen('all'); none = fopen(77);",
        s.set_d()
    );
    assert_eq!(nums(&var(&code, "ids")), [3.0, 4.0]);
    assert!(text(&var(&code, "name")).ends_with("/b.txt"));
    assert_eq!(text(&var(&code, "perm")), "at+");
    assert_eq!(text(&var(&code, "mf")), "ieee-be");
    assert_eq!(text(&var(&code, "enc")), "ISO-8859-1");
    // the lowest free identifier is reused
    assert_eq!(nums(&var(&code, "f3")), [3.0]);
    assert_eq!(nums(&var(&code, "st")), [0.0]);
    assert!(var(&code, "after").is_empty());
    assert_eq!(text(&var(&code, "none")), "");
}

#[test]
fn permissions_append_update_and_truncate() {
    let s = Scratch::new("modes");
    let code = format!(
        "{} f = fullfile(d, 'm.txt');
         fid = fopen(f, 'w'); fprintf(fid, 'abc'); fclose(fid);
         fid = fopen(f, 'a'); fprintf(fid, 'def'); fclose(fid); t1 = fileread(f);
         fid = fopen(f, 'r+'); fseek(fid, 1, 'bof'); fprintf(fid, 'XY'); frewind(fid); t2 = fgetl(fid); fclose(fid);
         fid = fopen(f, 'w+'); fprintf(fid, '12'); frewind(fid); t3 = fgetl(fid); fclose(fid);
         fid = fopen(f, 'a+'); fprintf(fid, '34'); frewind(fid); t4 = fgetl(fid); fclose(fid);
         fid = fopen(f, 'r'); fprintf(fid, 'no');",
        s.set_d()
    );
    let (id, _) = err(&code);
    assert_eq!(id, "MATLAB:FileIO:OperationFailed");
    let code = code.replace("fid = fopen(f, 'r'); fprintf(fid, 'no');", "");
    assert_eq!(text(&var(&code, "t1")), "abcdef");
    assert_eq!(text(&var(&code, "t2")), "aXYdef");
    assert_eq!(text(&var(&code, "t3")), "12");
    assert_eq!(text(&var(&code, "t4")), "1234");
}

#[test]
fn encodings_change_the_bytes() {
    let s = Scratch::new("enc");
    let code = format!(
        "{} f = fullfile(d, 'e.txt'); word = ['caf' char(233)];
         fid = fopen(f, 'w', 'n', 'ISO-8859-1'); fprintf(fid, '%s', word); fclose(fid);
         fid = fopen(f); b1 = fread(fid)'; fclose(fid);
         fid = fopen(f, 'r', 'n', 'latin1'); w1 = fgetl(fid); fclose(fid);
         fid = fopen(f, 'w'); fprintf(fid, '%s', word); fclose(fid);
         fid = fopen(f); b2 = fread(fid)'; fclose(fid);
         w2 = fileread(f); w3 = fileread(f, 'Encoding', 'UTF-8');",
        s.set_d()
    );
    assert_eq!(nums(&var(&code, "b1")), [99.0, 97.0, 102.0, 233.0]);
    assert_eq!(text(&var(&code, "w1")), "café");
    assert_eq!(nums(&var(&code, "b2")), [99.0, 97.0, 102.0, 195.0, 169.0]);
    assert_eq!(text(&var(&code, "w2")), "café");
    assert_eq!(text(&var(&code, "w3")), "café");
}

/// The other encodings MATLAB lists for fopen (through encoding_rs): windows-1252 is not
/// ISO-8859-1 (the euro sign is byte 128), multi-byte Shift_JIS and GBK read back, and a
/// character an encoding lacks is written as '?'.
#[test]
fn legacy_encodings_write_and_read_their_own_bytes() {
    let s = Scratch::new("enc2");
    let code = format!(
        "{} f = fullfile(d, 'e.txt');
         fid = fopen(f, 'w', 'n', 'windows-1252'); fprintf(fid, '%s\\n', ['5' char(8364)]); [~, ~, ~, e1] = fopen(fid); fclose(fid);
         fid = fopen(f); b1 = fread(fid)'; fclose(fid);
         fid = fopen(f, 'r', 'n', 'windows-1252'); w1 = double(fgetl(fid)); fclose(fid);
         fid = fopen(f, 'w', 'n', 'Shift_JIS'); fprintf(fid, '%s\\n%d', char([12354 12356]), 42); [~, ~, ~, e2] = fopen(fid); fclose(fid);
         fid = fopen(f); b2 = fread(fid)'; fclose(fid);
         fid = fopen(f, 'r', 'n', 'Shift_JIS'); w2 = double(fgetl(fid)); n2 = fscanf(fid, '%d'); fclose(fid);
         fid = fopen(f, 'w', 'n', 'GBK'); fprintf(fid, '%s', char([20013 25991 955 9731])); fclose(fid);
         fid = fopen(f, 'r', 'n', 'GBK'); w3 = double(fgetl(fid)); fclose(fid);
         w4 = double(fileread(f, 'Encoding', 'GBK'));",
        s.set_d()
    );
    assert_eq!(text(&var(&code, "e1")), "windows-1252");
    assert_eq!(nums(&var(&code, "b1")), [53.0, 128.0, 10.0]);
    assert_eq!(nums(&var(&code, "w1")), [53.0, 8364.0]);
    assert_eq!(text(&var(&code, "e2")), "Shift_JIS");
    assert_eq!(
        nums(&var(&code, "b2")),
        [130.0, 160.0, 130.0, 162.0, 10.0, 52.0, 50.0]
    );
    assert_eq!(nums(&var(&code, "w2")), [12354.0, 12356.0]);
    assert_eq!(nums(&var(&code, "n2")), [42.0]);
    // 中文 and λ are in GBK, the snowman is not
    assert_eq!(nums(&var(&code, "w3")), [20013.0, 25991.0, 955.0, 63.0]);
    assert_eq!(nums(&var(&code, "w4")), [20013.0, 25991.0, 955.0, 63.0]);
    // UTF-16 stays unsupported, as in MATLAB's fopen: a warning, and UTF-8
    let got = common::run(&format!(
        "{} fid = fopen(fullfile(d, 'u.txt'), 'w', 'n', 'UTF-16'); [~, ~, ~, e] = fopen(fid); disp(e); fclose(fid);",
        s.set_d()
    ));
    assert!(
        got.contains("Warning: The encoding 'UTF-16' is not supported."),
        "{got}"
    );
    assert!(got.ends_with("UTF-8\n"), "{got}");
}

#[test]
fn fscanf_sizes_fill_column_by_column() {
    let s = Scratch::new("fscanf");
    std::fs::write(s.path("n.txt"), "1 2 3\n4 5 6\n7 8\n").expect("write");
    let open = format!("{} fid = fopen(fullfile(d, 'n.txt'));", s.set_d());
    let a = var(
        &format!("{open} A = fscanf(fid, '%d', [3 Inf]); fclose(fid);"),
        "A",
    );
    assert_eq!(dims(&a), [3, 3]);
    assert_eq!(nums(&a), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 0.0]);
    let a = var(&format!("{open} A = fscanf(fid, '%f'); fclose(fid);"), "A");
    assert_eq!(dims(&a), [8, 1]);
    let code = format!(
        "{open} [A, n] = fscanf(fid, '%d', [2 2]); rest = fscanf(fid, '%d', Inf); fclose(fid);"
    );
    assert_eq!(dims(&var(&code, "A")), [2, 2]);
    assert_eq!(nums(&var(&code, "n")), [4.0]);
    assert_eq!(nums(&var(&code, "rest")), [5.0, 6.0, 7.0, 8.0]);
    let code = format!("{open} a = fscanf(fid, '%d', 2); b = fscanf(fid, '%d', 1); fclose(fid);");
    assert_eq!(nums(&var(&code, "a")), [1.0, 2.0]);
    assert_eq!(nums(&var(&code, "b")), [3.0]);

    // mixed conversions and literal text
    std::fs::write(s.path("m.txt"), "1-3 a: abcde\n2-9 c: ccccccccc\n").expect("write");
    let code = format!(
        "{} fid = fopen(fullfile(d, 'm.txt')); A = fscanf(fid, '%d-%d %c: %s\\n', [8 Inf]); fclose(fid);",
        s.set_d()
    );
    let a = var(&code, "A");
    assert_eq!(dims(&a), [8, 3]);
    let v = nums(&a);
    assert_eq!(&v[..3], &[1.0, 3.0, 97.0]);
    // text only: a char row
    std::fs::write(s.path("w.txt"), "hello world").expect("write");
    let code = format!(
        "{} fid = fopen(fullfile(d, 'w.txt')); t = fscanf(fid, '%s'); fclose(fid);",
        s.set_d()
    );
    assert_eq!(text(&var(&code, "t")), "helloworld");
    // a mismatch stops the scan and reports it
    std::fs::write(s.path("x.txt"), "1 2 x 4").expect("write");
    let code = format!(
        "{} fid = fopen(fullfile(d, 'x.txt')); [A, n, msg] = fscanf(fid, '%d'); fclose(fid);",
        s.set_d()
    );
    assert_eq!(nums(&var(&code, "A")), [1.0, 2.0]);
    assert_eq!(text(&var(&code, "msg")), "Matching failure in format.");
}

#[test]
fn fread_and_fwrite_with_precisions_orders_and_skips() {
    let s = Scratch::new("bin");
    let code = format!(
        "{} f = fullfile(d, 'b.bin');
         fid = fopen(f, 'w'); c1 = fwrite(fid, [1 -2 300], 'int16'); fwrite(fid, pi, 'double', 0, 'ieee-be'); fwrite(fid, 'Hi'); fwrite(fid, [1.6 -5 400]); fclose(fid);
         fid = fopen(f);
         a = fread(fid, 3, 'int16')'; p = fread(fid, 1, 'double', 0, 'b'); h = fread(fid, [1 2], '*char'); u = fread(fid, Inf, 'uint8=>uint8')';
         pos = ftell(fid); e = feof(fid);
         frewind(fid); raw = fread(fid, [2 3]); [x, cnt] = fread(fid, 2, 'int16=>single');
         fseek(fid, 0, 'bof'); sk = fread(fid, 3, 'int8', 1)';
         fseek(fid, 0, 'bof'); blk = fread(fid, 4, '2*uint8', 2)';
         fseek(fid, -3, 'eof'); tail = fread(fid)'; fclose(fid);
         sz = dir(f).bytes;",
        s.set_d()
    );
    assert_eq!(nums(&var(&code, "c1")), [3.0]);
    assert_eq!(nums(&var(&code, "a")), [1.0, -2.0, 300.0]);
    assert_eq!(nums(&var(&code, "p")), [std::f64::consts::PI]);
    assert_eq!(text(&var(&code, "h")), "Hi");
    let u = var(&code, "u");
    assert_eq!(u.class_name(), "uint8");
    // fwrite rounds and saturates to uint8
    assert_eq!(nums(&u), [2.0, 0.0, 255.0]);
    assert_eq!(nums(&var(&code, "pos")), [19.0]);
    assert_eq!(nums(&var(&code, "e")), [1.0]);
    let raw = var(&code, "raw");
    assert_eq!(dims(&raw), [2, 3]);
    assert_eq!(nums(&raw), [1.0, 0.0, 254.0, 255.0, 44.0, 1.0]);
    assert_eq!(var(&code, "x").class_name(), "single");
    assert_eq!(nums(&var(&code, "cnt")), [2.0]);
    assert_eq!(nums(&var(&code, "sk")), [1.0, -2.0, 44.0]);
    // two bytes read, two skipped
    assert_eq!(nums(&var(&code, "blk")), [1.0, 0.0, 44.0, 1.0]);
    assert_eq!(nums(&var(&code, "tail")), [2.0, 0.0, 255.0]);
    assert_eq!(nums(&var(&code, "sz")), [19.0]);
    let (id, _) = err("fid = fopen(tempname, 'w'); fwrite(fid, 1, 'bit7')");
    assert_eq!(id, "MATLAB:fread:InvalidPrecision");
}

#[test]
fn fseek_ftell_and_ferror() {
    let s = Scratch::new("seek");
    std::fs::write(s.path("s.txt"), "0123456789").expect("write");
    let code = format!(
        "{} fid = fopen(fullfile(d, 's.txt'));
         fseek(fid, 4, 'bof'); a = fread(fid, 1, '*char'); t1 = ftell(fid);
         fseek(fid, 2, 0); b = fread(fid, 1, '*char');
         fseek(fid, -1, 1); c = fread(fid, 1, '*char');
         st = fseek(fid, -1, -1); [msg, num] = ferror(fid); ferror(fid, 'clear'); m2 = ferror(fid);
         t2 = ftell(fid); fclose(fid); so = ftell(1);",
        s.set_d()
    );
    assert_eq!(text(&var(&code, "a")), "4");
    assert_eq!(nums(&var(&code, "t1")), [5.0]);
    assert_eq!(text(&var(&code, "b")), "7");
    assert_eq!(text(&var(&code, "c")), "9");
    assert_eq!(nums(&var(&code, "st")), [-1.0]);
    assert!(!text(&var(&code, "msg")).is_empty());
    assert_eq!(text(&var(&code, "m2")), "");
    assert_eq!(nums(&var(&code, "t2")), [10.0]);
    assert_eq!(nums(&var(&code, "so")), [-1.0]);
}

#[test]
fn textscan_formats_and_options() {
    let s = Scratch::new("textscan");
    std::fs::write(
        s.path("t.csv"),
        "Name,Age,Score\n\"Smith, J\",42,3.5\nLee,,4.25\nKim,37,NA\n",
    )
    .expect("write");
    let code = format!(
        "{} fid = fopen(fullfile(d, 't.csv')); C = textscan(fid, '%q %f %f', 'Delimiter', ',', 'HeaderLines', 1, 'TreatAsEmpty', 'NA'); e = feof(fid); fclose(fid);
         n = C{{1}}; age = C{{2}}; score = C{{3}};",
        s.set_d()
    );
    let Value::Cell(names) = var(&code, "n") else {
        panic!("a cell")
    };
    assert_eq!(
        names.data.iter().map(text).collect::<Vec<_>>(),
        ["Smith, J", "Lee", "Kim"]
    );
    let age = nums(&var(&code, "age"));
    assert_eq!(age[0], 42.0);
    assert!(age[1].is_nan());
    let score = nums(&var(&code, "score"));
    assert_eq!(&score[..2], &[3.5, 4.25]);
    assert!(score[2].is_nan());
    assert_eq!(nums(&var(&code, "e")), [1.0]);

    // whitespace-separated, integers, repeat count, and the position reached
    let code = "[C, pos] = textscan(sprintf('a 1\\nb 2\\nc 3'), '%s %d8', 2); k = C{2}; s = C{1};";
    let k = var(code, "k");
    assert_eq!(k.class_name(), "int8");
    assert_eq!(nums(&k), [1.0, 2.0]);
    assert_eq!(nums(&var(code, "pos")), [7.0]);
    // CollectOutput joins neighbouring columns of one class
    let code = "C = textscan(sprintf('1,2,x\\n3,4,y'), '%f %f %s', 'Delimiter', ',', 'CollectOutput', true); m = C{1}; n = numel(C);";
    let m = var(code, "m");
    assert_eq!(dims(&m), [2, 2]);
    assert_eq!(nums(&m), [1.0, 3.0, 2.0, 4.0]);
    assert_eq!(nums(&var(code, "n")), [2.0]);
    // literal text, skipped fields, sets
    let code = "C = textscan(sprintf('x=1 skip y=2\\nx=3 skip y=4'), 'x=%f %*s y=%f'); m = [C{:}];";
    assert_eq!(nums(&var(code, "m")), [1.0, 3.0, 2.0, 4.0]);
    let code = "C = textscan('abc123', '%[a-z]%d'); w = C{1}{1}; v = C{2};";
    assert_eq!(text(&var(code, "w")), "abc");
    assert_eq!(nums(&var(code, "v")), [123.0]);
    // comments, multiple delimiters as one, missing trailing fields
    let code = "C = textscan(sprintf('# head\\n1;;2\\n# c\\n3;4'), '%f %f', 'Delimiter', ';', 'CommentStyle', {'#'}, 'MultipleDelimsAsOne', 1); m = [C{:}];";
    let m = nums(&var(code, "m"));
    assert_eq!(m, [1.0, 3.0, 2.0, 4.0]);
    let code = "C = textscan(sprintf('1,2,3\\n4,5'), '%f %f %f', 'Delimiter', ','); c3 = C{3};";
    let c3 = nums(&var(code, "c3"));
    assert_eq!(c3[0], 3.0);
    assert!(c3[1].is_nan());
    // EndOfLine and an empty format (one %f per field of the first line)
    let code = "C = textscan('1 2;3 4', '', 'EndOfLine', ';'); a = C{1}; b = C{2};";
    assert_eq!(nums(&var(code, "a")), [1.0, 3.0]);
    assert_eq!(nums(&var(code, "b")), [2.0, 4.0]);
    // a bad field ends the read (or raises with ReturnOnError false)
    let code = "C = textscan('1 2 x 4', '%f'); v = C{1};";
    assert_eq!(nums(&var(code, "v")), [1.0, 2.0]);
    assert_eq!(
        err("textscan('1 x', '%f', 'ReturnOnError', false)").0,
        "MATLAB:textscan:handleErrorAndShowInfo"
    );
    assert_eq!(
        err("textscan('1', '%f', 'Bogus', 1)").0,
        "MATLAB:textscan:UnknownOption"
    );
}

#[test]
fn fileread_readlines_writelines() {
    let s = Scratch::new("lines");
    let code = format!(
        "{} f = fullfile(d, 'l.txt'); writelines([\"one\"; \"  two\"; \"\"; \"three\"], f);
         writelines({{'four'}}, f, 'WriteMode', 'append');
         L = readlines(f); K = readlines(f, 'EmptyLineRule', 'skip', 'WhitespaceRule', 'trim'); t = fileread(f);",
        s.set_d()
    );
    let Value::Str(l) = var(&code, "L") else {
        panic!("strings")
    };
    assert_eq!(l.data, ["one", "  two", "", "three", "four"]);
    assert_eq!(l.shape.dims(), [5, 1]);
    let Value::Str(k) = var(&code, "K") else {
        panic!("strings")
    };
    assert_eq!(k.data, ["one", "two", "three", "four"]);
    assert_eq!(text(&var(&code, "t")), "one\n  two\n\nthree\nfour\n");
    let (id, msg) = err("fileread('/nonexistent/x.txt')");
    assert_eq!(id, "MATLAB:fileread:cannotOpenFile");
    assert!(msg.contains("No such file or directory"), "{msg}");
    assert_eq!(
        err("readlines('/nonexistent/x.txt')").0,
        "MATLAB:textio:textio:FileNotFound"
    );
}

#[test]
fn readmatrix_finds_headers_delimiters_and_missing_values() {
    let s = Scratch::new("readmatrix");
    std::fs::write(s.path("h.csv"), "x,y,z\n1,2,3\n4,,6\n7,8\n").expect("write");
    std::fs::write(s.path("w.txt"), "  1  2.5\n\n 3 -4e2\n").expect("write");
    std::fs::write(s.path("t.tsv"), "a\tb\n1\t2\n").expect("write");
    std::fs::write(s.path("two.dat"), "title\nunits\n1;2\n3;4\n").expect("write");
    let code = format!(
        "{} A = readmatrix(fullfile(d, 'h.csv')); B = readmatrix(fullfile(d, 'w.txt'));
         C = readmatrix(fullfile(d, 't.tsv')); D = readmatrix(fullfile(d, 'two.dat'));
         E = readmatrix(fullfile(d, 'h.csv'), 'NumHeaderLines', 2); F = readmatrix(fullfile(d, 'h.csv'), 'Range', 'B2:C3');
         G = readmatrix(fullfile(d, 'two.dat'), 'Delimiter', ';', 'OutputType', 'int32');",
        s.set_d()
    );
    let a = var(&code, "A");
    assert_eq!(dims(&a), [3, 3]);
    let v = nums(&a);
    assert_eq!(v[0..3], [1.0, 4.0, 7.0]);
    assert!(v[4].is_nan() && v[8].is_nan());
    assert_eq!(nums(&var(&code, "B")), [1.0, 3.0, 2.5, -400.0]);
    assert_eq!(nums(&var(&code, "C")), [1.0, 2.0]);
    assert_eq!(nums(&var(&code, "D")), [1.0, 3.0, 2.0, 4.0]);
    assert_eq!(dims(&var(&code, "E")), [2, 3]);
    let f = nums(&var(&code, "F"));
    assert_eq!(f[0], 2.0);
    assert!(f[1].is_nan());
    assert_eq!(f[2..], [3.0, 6.0]);
    assert_eq!(var(&code, "G").class_name(), "int32");
    assert_eq!(
        err("readmatrix('/nonexistent/m.csv')").0,
        "MATLAB:textio:textio:FileNotFound"
    );
}

#[test]
fn writematrix_round_trips_through_python_csv() {
    let s = Scratch::new("csvpy");
    let f = s.path("out.csv");
    let code = format!(
        "A = [1 -2.5 pi; 1e-20 NaN 123456789012]; writematrix(A, '{f}');
         writematrix([\"a,b\" \"c\"; \"d\" \"e\"], '{}');
         writematrix({{1, 'x'; 'y \"q\"', 2}}, '{}');",
        s.path("s.csv"),
        s.path("c.csv")
    );
    out(&code);
    let Some(py) = python(&format!(
        "import csv\nfor name in ['{f}', '{}', '{}']:\n    print(list(csv.reader(open(name, newline=''))))",
        s.path("s.csv"),
        s.path("c.csv")
    )) else {
        return;
    };
    let lines: Vec<&str> = py.lines().collect();
    assert_eq!(
        lines[0],
        "[['1', '-2.5', '3.14159265358979'], ['1e-20', '', '123456789012']]"
    );
    assert_eq!(lines[1], "[['a,b', 'c'], ['d', 'e']]");
    assert_eq!(lines[2], "[['1', 'x'], ['y \"q\"', '2']]");
    // and back: python's numbers read by readmatrix
    let p = s.path("py.csv");
    python(&format!(
        "import csv\nw = csv.writer(open('{p}', 'w', newline=''))\nw.writerow(['t', 'v'])\nfor k in range(5):\n    w.writerow([k * 0.1, -k ** 3])"
    ));
    let m = var(&format!("M = readmatrix('{p}');"), "M");
    assert_eq!(dims(&m), [5, 2]);
    let v = nums(&m);
    assert_eq!(v[..5], [0.0, 0.1, 0.2, 0.30000000000000004, 0.4]);
    assert_eq!(v[5..], [0.0, -1.0, -8.0, -27.0, -64.0]);
    // writematrix then readmatrix gives the numbers back to 15 digits
    let back = var(
        &format!(
            "A = [1 -2.5 pi; 1e-20 NaN 123456789012]; writematrix(A, '{f}'); B = readmatrix('{f}') - A;"
        ),
        "B",
    );
    for x in nums(&back) {
        assert!(x.is_nan() || x.abs() < 1e-14, "{x}");
    }
}

#[test]
fn dlmwrite_csvwrite_and_their_readers() {
    let s = Scratch::new("dlm");
    let code = format!(
        "{} f = fullfile(d, 'a.txt');
         dlmwrite(f, [1 2; 3 4], ' '); dlmwrite(f, [pi 5], '-append', 'delimiter', ' ', 'precision', '%.3f');
         t1 = fileread(f);
         dlmwrite(f, magic(3) * pi, 'delimiter', '\\t', 'precision', 3); t2 = fileread(f);
         g = fullfile(d, 'b.csv'); csvwrite(g, [1.23456789 2; 3 4], 1, 2); t3 = fileread(g);
         M = csvread(g); N = csvread(g, 1, 2); P = dlmread(g, ',', [1 2 1 3]);
         dlmwrite(g, [10 20; 30 40], ';', 1, 1); t4 = fileread(g); Q = dlmread(g, ';', 1, 1);",
        s.set_d()
    );
    assert_eq!(text(&var(&code, "t1")), "1 2\n3 4\n3.142 5.000\n");
    assert_eq!(
        text(&var(&code, "t2")),
        "25.1\t3.14\t18.8\n9.42\t15.7\t22\n12.6\t28.3\t6.28\n"
    );
    assert_eq!(text(&var(&code, "t3")), ",,,\n,,1.2346,2\n,,3,4\n");
    let m = var(&code, "M");
    assert_eq!(dims(&m), [3, 4]);
    assert_eq!(
        nums(&m),
        [
            0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.2346, 3.0, 0.0, 2.0, 4.0
        ]
    );
    assert_eq!(nums(&var(&code, "N")), [1.2346, 3.0, 2.0, 4.0]);
    assert_eq!(nums(&var(&code, "P")), [1.2346, 2.0]);
    assert_eq!(text(&var(&code, "t4")), ";;\n;10;20\n;30;40\n");
    assert_eq!(nums(&var(&code, "Q")), [10.0, 30.0, 20.0, 40.0]);
    // text where numbers belong is an error for dlmread
    std::fs::write(s.path("h.csv"), "a,b\n1,2\n").expect("write");
    let (id, _) = err(&format!("csvread('{}')", s.path("h.csv")));
    assert_eq!(id, "MATLAB:textscan:handleErrorAndShowInfo");
    assert_eq!(
        nums(&var(
            &format!("M = csvread('{}', 1, 0);", s.path("h.csv")),
            "M"
        )),
        [1.0, 2.0]
    );
    // python reads what dlmwrite wrote
    let p = s.path("p.csv");
    out(&format!(
        "dlmwrite('{p}', [0.5 -1; 2 1e6], 'precision', 10);"
    ));
    if let Some(py) = python(&format!(
        "import csv\nprint([[float(x) for x in r] for r in csv.reader(open('{p}'))])"
    )) {
        assert_eq!(py.trim(), "[[0.5, -1.0], [2.0, 1000000.0]]");
    }
}

#[test]
fn readcell_and_importdata() {
    let s = Scratch::new("cells");
    std::fs::write(s.path("c.csv"), "Name,Age\nAnn,31\nBo,\n").expect("write");
    std::fs::write(s.path("n.txt"), "1 2\n3 4\n").expect("write");
    let code = format!(
        "{} C = readcell(fullfile(d, 'c.csv')); c1 = C{{1, 1}}; c2 = C{{2, 2}}; c3 = C{{3, 2}};
         S = importdata(fullfile(d, 'c.csv')); sd = S.data; sh = S.colheaders; sr = S.rowheaders;
         N = importdata(fullfile(d, 'n.txt'));",
        s.set_d()
    );
    assert_eq!(dims(&var(&code, "C")), [3, 2]);
    assert_eq!(text(&var(&code, "c1")), "Name");
    assert_eq!(nums(&var(&code, "c2")), [31.0]);
    assert!(var(&code, "c3").is_empty());
    let sd = nums(&var(&code, "sd"));
    assert_eq!(sd[0], 31.0);
    assert!(sd[1].is_nan());
    let Value::Cell(h) = var(&code, "sh") else {
        panic!("a cell")
    };
    assert_eq!(h.data.iter().map(text).collect::<Vec<_>>(), ["Name", "Age"]);
    let Value::Cell(r) = var(&code, "sr") else {
        panic!("a cell")
    };
    assert_eq!(r.data.iter().map(text).collect::<Vec<_>>(), ["Ann", "Bo"]);
    assert_eq!(nums(&var(&code, "N")), [1.0, 3.0, 2.0, 4.0]);
}

#[test]
fn folders_files_copies_and_moves() {
    let code = "d = tempname; [s1, m1, id1] = mkdir(d); [s2, m2, id2] = mkdir(d);
        mkdir(fullfile(d, 'a', 'b')); nested = isfolder(fullfile(d, 'a', 'b'));
        mkdir(d, 'side'); side = exist(fullfile(d, 'side'), 'dir');
        for k = 1:3, fid = fopen(fullfile(d, sprintf('f%d.txt', k)), 'w'); fprintf(fid, '%d', k); fclose(fid); end
        noext = fullfile(d, 'README'); fid = fopen(noext, 'w'); fclose(fid);
        e1 = exist(fullfile(d, 'f1.txt'), 'file'); e2 = exist(noext, 'file'); e3 = exist(noext); e4 = exist(d, 'file');
        e5 = exist(fullfile(d, 'zz.txt'), 'file'); f1 = isfile(fullfile(d, 'f1.txt'));
        l = dir(fullfile(d, 'f*.txt')); names = {l.name}; b1 = l(1).bytes; dt = l(1).date; isd = l(1).isdir;
        all = dir(d); dots = {all(1:2).name};
        copyfile(fullfile(d, 'f1.txt'), fullfile(d, 'g1.txt')); g = fileread(fullfile(d, 'g1.txt'));
        copyfile(fullfile(d, 'f*.txt'), fullfile(d, 'copies')); nc = numel(dir(fullfile(d, 'copies', '*.txt')));
        copyfile(fullfile(d, 'a'), fullfile(d, 'a2')); treecopy = isfolder(fullfile(d, 'a2', 'b'));
        movefile(fullfile(d, 'g1.txt'), fullfile(d, 'h1.txt')); moved = [isfile(fullfile(d, 'g1.txt')) isfile(fullfile(d, 'h1.txt'))];
        movefile(fullfile(d, 'f*.txt'), fullfile(d, 'side')); ns = numel(dir(fullfile(d, 'side', '*.txt')));
        rec = numel(dir(fullfile(d, '**', '*.txt')));
        delete(fullfile(d, 'copies', '*.txt')); left = numel(dir(fullfile(d, 'copies', '*.txt')));
        delete(fullfile(d, 'h1.txt'), noext); h = isfile(fullfile(d, 'h1.txt'));
        [r1, rm1] = rmdir(fullfile(d, 'side')); [r2, rm2, rid2] = rmdir(fullfile(d, 'nothere'));
        rmdir(d, 's'); gone = exist(d, 'dir');";
    assert_eq!(nums(&var(code, "s1")), [1.0]);
    assert_eq!(text(&var(code, "m2")), "Directory already exists.");
    assert_eq!(text(&var(code, "id2")), "MATLAB:MKDIR:DirectoryExists");
    assert_eq!(nums(&var(code, "nested")), [1.0]);
    assert_eq!(nums(&var(code, "side")), [7.0]);
    assert_eq!(nums(&var(code, "e1")), [2.0]);
    assert_eq!(nums(&var(code, "e2")), [2.0]);
    assert_eq!(nums(&var(code, "e3")), [2.0]);
    assert_eq!(nums(&var(code, "e4")), [7.0]);
    assert_eq!(nums(&var(code, "e5")), [0.0]);
    assert_eq!(nums(&var(code, "f1")), [1.0]);
    let Value::Cell(names) = var(code, "names") else {
        panic!("a cell")
    };
    assert_eq!(
        names.data.iter().map(text).collect::<Vec<_>>(),
        ["f1.txt", "f2.txt", "f3.txt"]
    );
    assert_eq!(nums(&var(code, "b1")), [1.0]);
    let dt = text(&var(code, "dt"));
    assert_eq!(dt.len(), 20, "{dt}");
    assert_eq!(&dt[2..3], "-");
    assert_eq!(nums(&var(code, "isd")), [0.0]);
    let Value::Cell(dots) = var(code, "dots") else {
        panic!("a cell")
    };
    assert_eq!(dots.data.iter().map(text).collect::<Vec<_>>(), [".", ".."]);
    assert_eq!(text(&var(code, "g")), "1");
    assert_eq!(nums(&var(code, "nc")), [3.0]);
    assert_eq!(nums(&var(code, "treecopy")), [1.0]);
    assert_eq!(nums(&var(code, "moved")), [0.0, 1.0]);
    assert_eq!(nums(&var(code, "ns")), [3.0]);
    // side/f1-3, copies/f1-3, h1.txt
    assert_eq!(nums(&var(code, "rec")), [7.0]);
    assert_eq!(nums(&var(code, "left")), [0.0]);
    assert_eq!(nums(&var(code, "h")), [0.0]);
    assert_eq!(nums(&var(code, "r1")), [0.0]);
    assert_eq!(text(&var(code, "rid2")), "MATLAB:RMDIR:NotADirectory");
    assert_eq!(nums(&var(code, "gone")), [0.0]);
    // without outputs, failures raise
    assert_eq!(
        err("rmdir(fullfile(tempname, 'x'))").0,
        "MATLAB:RMDIR:NotADirectory"
    );
    assert_eq!(
        err("copyfile(fullfile(tempname, 'x'), tempname)").0,
        "MATLAB:COPYFILE:OSError"
    );
    assert_eq!(
        err("movefile(fullfile(tempname, 'x'), tempname)").0,
        "MATLAB:MOVEFILE:OSError"
    );
    // a missing file is a warning for delete, not an error
    let printed = out("delete(fullfile(tempname, 'nothing.txt'))");
    assert!(printed.contains("Warning: File '"), "{printed}");
}

#[test]
fn sscanf_shares_the_engine() {
    assert_eq!(
        nums(&var("a = sscanf('3 4 5', '%d');", "a")),
        [3.0, 4.0, 5.0]
    );
    assert_eq!(
        nums(&var("a = sscanf('1,2,3,4', '%d,', [2 Inf]);", "a")),
        [1.0, 2.0, 3.0, 4.0]
    );
    assert_eq!(
        text(&var("a = sscanf('héllo wörld', '%s');", "a")),
        "héllowörld"
    );
    assert_eq!(
        nums(&var(
            "[a, n, e, next] = sscanf('é 12 x', '%*s %d');",
            "next"
        )),
        [7.0]
    );
}

/// An Advent-of-Code style solution run as a script file: its input read with fopen/fscanf
/// and fgetl, as such solutions do.
#[test]
fn advent_of_code_script_reads_its_input() {
    let s = Scratch::new("aoc");
    // two columns of location ids (2024, day 1)
    std::fs::write(
        s.path("input.txt"),
        "3   4\n4   3\n2   5\n1   3\n3   9\n3   3\n",
    )
    .expect("write");
    // groups of calories separated by blank lines (2022, day 1)
    std::fs::write(
        s.path("cal.txt"),
        "1000\n2000\n3000\n\n4000\n\n5000\n6000\n\n7000\n8000\n9000\n\n10000\n",
    )
    .expect("write");
    let script = "fid = fopen('input.txt', 'r');
if fid < 0, error('no input'); end
A = fscanf(fid, '%d %d', [2 Inf])';
fclose(fid);
left = sort(A(:, 1)); right = sort(A(:, 2));
fprintf('part 1: %d\\n', sum(abs(left - right)));
score = 0;
for k = 1:numel(left)
    score = score + left(k) * sum(right == left(k));
end
fprintf('part 2: %d\\n', score);
fid = fopen('cal.txt');
elves = []; total = 0;
line = fgetl(fid);
while ischar(line)
    if isempty(line)
        elves(end + 1) = total; total = 0;
    else
        total = total + str2double(line);
    end
    line = fgetl(fid);
end
elves(end + 1) = total;
fclose(fid);
fprintf('most: %d, top three: %d\\n', max(elves), sum(maxk(elves, 3)));
";
    let path = s.path("solve.m");
    std::fs::write(&path, script).expect("write script");
    let o = Command::new(env!("CARGO_BIN_EXE_matfuse"))
        .arg(&path)
        .current_dir(&s.0)
        .output()
        .expect("run matfuse");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        stdout,
        "part 1: 11\npart 2: 31\nmost: 24000, top three: 45000\n"
    );
    assert!(Path::new(&s.path("input.txt")).exists());
}

#[test]
fn byte_order_marks_and_bad_ranges() {
    let s = Scratch::new("bom");
    std::fs::write(s.path("b.csv"), b"\xef\xbb\xbfx,y\r\n1,2\r\n").expect("write");
    let code = format!(
        "{} f = fullfile(d, 'b.csv'); fid = fopen(f); h = fgetl(fid); fclose(fid);
         t = fileread(f); M = readmatrix(f); fid = fopen(f); raw = fread(fid, 3)'; fclose(fid);",
        s.set_d()
    );
    assert_eq!(text(&var(&code, "h")), "x,y");
    assert_eq!(text(&var(&code, "t")), "x,y\r\n1,2\r\n");
    assert_eq!(nums(&var(&code, "M")), [1.0, 2.0]);
    // binary reads see the bytes as they are
    assert_eq!(nums(&var(&code, "raw")), [239.0, 187.0, 191.0]);
    let (id, _) = err(&format!("dlmread('{}', ',', [1 1 0 0])", s.path("b.csv")));
    assert_eq!(id, "MATLAB:dlmread:InvalidRange");
}

#[test]
fn cd_returns_the_folder_it_leaves() {
    // (into the folder it is already in: the tests of this binary share the process's folder)
    assert_eq!(
        out("here = pwd; old = cd(here); disp(strcmp(old, here)); disp(strcmp(cd, here))"),
        "   1\n   1\n"
    );
}
