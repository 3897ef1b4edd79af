//! jsonencode and jsondecode: MATLAB's mapping, options, errors, and a round trip through
//! Python's json module in both directions.

use crate::common::{err, out};
use std::process::Command;

#[test]
fn encode_follows_matlabs_mapping() {
    let cases: &[(&str, &str)] = &[
        ("3", "3"),
        ("pi", "3.141592653589793"),
        ("true", "true"),
        ("[1 2 3]", "[1,2,3]"),
        ("[1; 2; 3]", "[1,2,3]"),
        ("magic(3)", "[[8,1,6],[3,5,7],[4,9,2]]"),
        ("reshape(1:8, 2, 2, 2)", "[[[1,5],[3,7]],[[2,6],[4,8]]]"),
        ("[]", "[]"),
        ("''", "\"\""),
        ("'say \"hi\"'", "\"say \\\"hi\\\"\""),
        ("['ab'; 'cd']", "[\"ab\",\"cd\"]"),
        ("\"str\"", "\"str\""),
        ("[\"a\" \"b\"]", "[\"a\",\"b\"]"),
        ("[true false]", "[true,false]"),
        ("int8([-5 7])", "[-5,7]"),
        ("intmax('int64')", "9223372036854775807"),
        ("single(0.1)", "0.1"),
        ("[NaN Inf -Inf 1]", "[null,null,null,1]"),
        ("{1, 'a', [1 2]}", "[1,\"a\",[1,2]]"),
        ("{1; 2}", "[1,2]"),
        ("{}", "[]"),
        (
            "struct('a', 1, 'b', 'x', 'c', [])",
            "{\"a\":1,\"b\":\"x\",\"c\":[]}",
        ),
        ("struct('p', {1, 2})", "[{\"p\":1},{\"p\":2}]"),
        ("struct('a', {})", "[]"),
        ("struct()", "{}"),
    ];
    let mut failures = Vec::new();
    for (expr, want) in cases {
        let got = out(&format!("disp(jsonencode({expr}))"));
        if got != format!("{want}\n") {
            failures.push(format!("jsonencode({expr}): want {want}, got {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn encode_options() {
    assert_eq!(
        out("disp(jsonencode([NaN Inf -Inf], 'ConvertInfAndNaN', false))"),
        "[NaN,Infinity,-Infinity]\n"
    );
    assert_eq!(
        out("disp(jsonencode(struct('a', [1 2], 'b', struct('c', {})), 'PrettyPrint', true))"),
        "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": []\n}\n"
    );
    assert_eq!(out("disp(jsonencode({}, 'PrettyPrint', true))"), "[]\n");
    let (id, _) = err("jsonencode(1+2i)");
    assert_eq!(id, "MATLAB:json:ComplexNotSupported");
    let (id, _) = err("jsonencode(@sin)");
    assert_eq!(id, "MATLAB:json:UnsupportedClass");
    let (id, _) = err("jsonencode(1, 'Bogus', true)");
    assert_eq!(id, "MATLAB:jsonencode:unknownOption");
}

#[test]
fn decode_follows_matlabs_mapping() {
    let cases: &[(&str, &str)] = &[
        // (JSON, MATLAB expression that must be isequal to it, with its class)
        ("3", "3"),
        ("true", "true"),
        ("null", "[]"),
        ("\"hi\"", "'hi'"),
        ("[1, 2, 3]", "[1; 2; 3]"),
        ("[1, null, 3]", "[1; NaN; 3]"),
        ("[true, false]", "[true; false]"),
        ("[[1, 2], [3, 4]]", "[1 2; 3 4]"),
        ("[[[1,5],[3,7]],[[2,6],[4,8]]]", "reshape(1:8, 2, 2, 2)"),
        ("[\"a\", \"bc\"]", "{'a'; 'bc'}"),
        ("[1, \"a\"]", "{1; 'a'}"),
        ("[[1, 2], [3]]", "{[1; 2]; 3}"),
        ("[]", "[]"),
        ("{\"a\": 1, \"b\": [1, 2]}", "struct('a', 1, 'b', [1; 2])"),
        ("[{\"x\": 1}, {\"x\": 2}]", "struct('x', {1; 2})"),
        (
            "[{\"x\": 1}, {\"y\": 2}]",
            "{struct('x', 1); struct('y', 2)}",
        ),
        (
            "{\"my key\": 1, \"1st\": 2, \"for\": 3, \"a-b\": 4}",
            "struct('myKey', 1, 'x1st', 2, 'xFor', 3, 'a_b', 4)",
        ),
        ("{}", "struct()"),
    ];
    let mut failures = Vec::new();
    for (json, want) in cases {
        let code = format!(
            "v = jsondecode('{}'); w = {want}; disp(isequaln(v, w) && strcmp(class(v), class(w)) && isequal(size(v), size(w)))",
            json.replace('\'', "''")
        );
        let got = out(&code);
        if got != "   1\n" {
            failures.push(format!("jsondecode('{json}') is not {want}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let (id, msg) = err("jsondecode('{\"a\": ')");
    assert_eq!(id, "MATLAB:json:ExpectedValue");
    assert!(msg.starts_with("Unable to parse JSON text"), "{msg}");
    let (id, _) = err("jsondecode(3)");
    assert_eq!(id, "MATLAB:jsondecode:invalidInput");
}

#[test]
fn round_trip_in_matfuse() {
    let code = "s.name = 'matfuse'; s.list = [1.5; -2; 1e-7; 1e300]; s.flags = [true; false]; \
                s.m = magic(4); s.nested.deep = {'a'; 'b'}; s.arr = struct('k', {1; 2});\n\
                t = jsondecode(jsonencode(s)); disp(isequal(s, t))";
    assert_eq!(out(code), "   1\n");
}

/// Python's json module reads what jsonencode writes, and jsondecode reads what it writes.
#[test]
fn round_trip_with_python_json() {
    let python = ["/usr/bin/python3", "python3"].into_iter().find(|py| {
        Command::new(py)
            .args(["-c", "import json"])
            .output()
            .is_ok_and(|o| o.status.success())
    });
    let Some(py) = python else {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("python3 is needed for this test under CI=true");
        }
        eprintln!("skipped: python3 is not installed");
        return;
    };
    let text = out(
        "s.name = 'h\u{e9}llo \"q\"'; s.v = [1 2.5 NaN]; s.m = [1 2; 3 4]; s.b = true; \
         s.c = {1, 'x'}; s.e = []; s.arr = struct('k', {1, 2}); s.i = int32(-7); disp(jsonencode(s))",
    );
    let check = r#"
import json, sys
v = json.loads(sys.argv[1])
want = {"name": "h\u00e9llo \"q\"", "v": [1, 2.5, None], "m": [[1, 2], [3, 4]], "b": True,
        "c": [1, "x"], "e": [], "arr": [{"k": 1}, {"k": 2}], "i": -7}
assert v == want, v
assert list(v.keys()) == list(want.keys())
print(json.dumps({"x": [[1, 2, 3], [4, 5, 6]], "name": "caf\u00e9", "ok": [True, False],
                  "objs": [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}], "mixed": [1, "a", None],
                  "nothing": None, "num": 1e-300}))
"#;
    let o = Command::new(py)
        .args(["-c", check, text.trim_end()])
        .output()
        .expect("python runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let back = String::from_utf8_lossy(&o.stdout)
        .trim()
        .replace('\'', "''");
    let code = format!(
        "v = jsondecode('{back}');\n\
         assert(isequal(v.x, [1 2 3; 4 5 6]));\n\
         assert(isequal(double(v.name), [99 97 102 233]));\n\
         assert(islogical(v.ok) && isequal(v.ok, [true; false]));\n\
         assert(isstruct(v.objs) && isequal(size(v.objs), [2 1]) && v.objs(2).a == 2 && strcmp(v.objs(2).b, 'y'));\n\
         assert(iscell(v.mixed) && isequal(v.mixed{{1}}, 1) && strcmp(v.mixed{{2}}, 'a') && isempty(v.mixed{{3}}));\n\
         assert(isempty(v.nothing) && isa(v.nothing, 'double'));\n\
         assert(v.num == 1e-300);\n\
         disp('ALL OK')"
    );
    assert_eq!(out(&code), "ALL OK\n");
}

/// jsondecode's name options: MakeValidName, ReplacementStyle and Prefix.
#[test]
fn decode_name_options() {
    let text = r#"{"a-b":1,"1st":2,"for":3,"my key":4}"#;
    let names = |opts: &str| out(&format!("disp(fieldnames(jsondecode('{text}'{opts}))')"));
    assert_eq!(
        names(""),
        "    {'a_b'}    {'x1st'}    {'xFor'}    {'myKey'}\n"
    );
    assert_eq!(
        names(", 'ReplacementStyle', 'hex'"),
        "    {'a0x2Db'}    {'x1st'}    {'xFor'}    {'myKey'}\n"
    );
    assert_eq!(
        names(", 'ReplacementStyle', 'delete', 'Prefix', 'p_'"),
        "    {'ab'}    {'p_1st'}    {'p_For'}    {'myKey'}\n"
    );
    assert_eq!(
        names(", 'MakeValidName', false"),
        "    {'a-b'}    {'1st'}    {'for'}    {'my key'}\n"
    );
    let (id, _) = err(&format!("jsondecode('{text}', 'ReplacementStyle', 'dots')"));
    assert_eq!(id, "MATLAB:jsondecode:invalidReplacementStyle");
    let (id, _) = err(&format!("jsondecode('{text}', 'Prefix', '1')"));
    assert_eq!(id, "MATLAB:jsondecode:invalidPrefix");
    let (id, _) = err("jsondecode('1', 'Bogus', true)");
    assert_eq!(id, "MATLAB:jsondecode:unknownOption");
}

/// datetime and duration arrays encode as their display texts, NaT as null.
#[test]
fn encode_dates_as_text() {
    assert_eq!(
        out("disp(jsonencode(datetime(2024, 3, 15, 10, 30, 0)))"),
        "\"15-Mar-2024 10:30:00\"\n"
    );
    assert_eq!(
        out("disp(jsonencode(struct('t', [datetime(2024, 1, 1) NaT], 'd', hours(1.5))))"),
        "{\"t\":[\"01-Jan-2024\",null],\"d\":\"1.5 hr\"}\n"
    );
}
