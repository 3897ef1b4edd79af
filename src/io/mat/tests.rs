//! Writer and reader against each other, and damaged files: every truncation and many byte
//! changes of a valid file give an error or a value, never a panic.

use super::reader;
use super::writer;
use crate::io::progress::Progress;
use crate::values::containers::{CellArray, StructArray};
use crate::values::value::Value;

fn file(vars: &[(&str, Value)], compress: bool) -> Vec<u8> {
    let mut out = super::format::header().to_vec();
    let mut warnings = Vec::new();
    for (name, v) in vars {
        let e = writer::variable(name, v, &mut warnings).unwrap().unwrap();
        if compress {
            out.extend(writer::compress(&e, &mut |_| {}).unwrap());
        } else {
            out.extend(e);
        }
    }
    out
}

fn sample() -> Vec<(&'static str, Value)> {
    let mut s = StructArray::scalar();
    s.set(0, "f", Value::str("text"));
    s.set(
        0,
        "g",
        Value::from(CellArray::row(vec![Value::Num(1.0), Value::Bool(true)])),
    );
    vec![
        ("a", Value::row(vec![1.0, 2.5, -3.0])),
        ("s", Value::from(s)),
        ("c", Value::str("hello")),
    ]
}

#[test]
fn reads_what_it_writes() {
    for compress in [false, true] {
        let bytes = file(&sample(), compress);
        let got = reader::read(&bytes, &|_| true, &mut Progress::quiet()).unwrap();
        let names: Vec<&str> = got.vars.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["a", "s", "c"]);
        assert_eq!(got.vars[2].1.text().unwrap(), "hello");
    }
}

#[test]
fn damaged_files_never_panic() {
    for compress in [false, true] {
        let good = file(&sample(), compress);
        for cut in 0..good.len() {
            let _ = reader::read(&good[..cut], &|_| true, &mut Progress::quiet());
        }
        let mut state = 0x2545F4914F6CDD1Du64;
        for _ in 0..3000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut bad = good.clone();
            let at = 120 + (state as usize) % (bad.len() - 120);
            bad[at] = (state >> 32) as u8;
            let _ = reader::read(&bad, &|_| true, &mut Progress::quiet());
        }
    }
}
