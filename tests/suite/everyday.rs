//! The everyday language beyond numbers: inputParser, graphics calls in scripts, files and
//! folders, warnings, containers.Map types, split/join/regexp with strings, object
//! properties, and the errors their misuse raises.

use crate::common;
use crate::common::{err, out};

#[test]
fn input_parser_parses_positional_and_name_value_arguments() {
    let setup = "p = inputParser; p.FunctionName = 'area'; addRequired(p, 'w', @isnumeric); \
                 addOptional(p, 'h', 1, @(x) x > 0); addParameter(p, 'Units', 'cm', @ischar); \
                 p.addParameter('Scale', 1); ";
    let o = out(&format!(
        "{setup} parse(p, 2, 3, 'units', 'm', 'Sc', 10); r = p.Results; \
         fprintf('%g %g %s %g|', r.w, r.h, r.Units, r.Scale); disp(fieldnames(r)'); \
         parse(p, 4); fprintf('%s,', p.UsingDefaults{{:}}); fprintf('\\n');"
    ));
    assert_eq!(
        o,
        "2 3 m 10|    {'Scale'}    {'Units'}    {'h'}    {'w'}\nh,Units,Scale,\n"
    );
    let (id, msg) = err(&format!("{setup} parse(p, 'x')"));
    assert_eq!(id, "MATLAB:InputParser:ArgumentFailedValidation");
    assert_eq!(
        msg,
        "area: The value of 'w' is invalid. It must satisfy the function: isnumeric."
    );
    let (_, msg) = err(&format!("{setup} parse(p, 2, -1)"));
    assert!(
        msg.ends_with("It must satisfy the function: @(x)x>0."),
        "{msg}"
    );
    let (id, _) = err(&format!("{setup} parse(p, 2, 3, 'Bogus', 1)"));
    assert_eq!(id, "MATLAB:InputParser:UnmatchedParameter");
    let (id, _) = err(&format!("{setup} parse(p)"));
    assert_eq!(id, "MATLAB:minrhs");
    let (id, _) = err(&format!("{setup} parse(p, 1, 'Units')"));
    assert_eq!(id, "MATLAB:InputParser:ParamMissingValue");
    let (id, _) = err("p = inputParser; p.Results = 1;");
    assert_eq!(id, "MATLAB:class:SetProhibited");
    // KeepUnmatched collects unknown names; structs expand into name-value pairs.
    let o = out(
        "p = inputParser; p.KeepUnmatched = true; addParameter(p, 'a', 1); \
         s.a = 5; s.b = 2; parse(p, s); disp([p.Results.a, p.Unmatched.b])",
    );
    assert_eq!(o, "     5     2\n");
}

#[test]
fn graphics_calls_run_quietly_and_unfinished_ones_give_one_notice() {
    let o = common::run(
        "close all; h = figure; plot(1:3); hold on; ax = gca; ax.XLim = [0 1]; \
         set(h, 'Color', 'w'); colormap(jet); title('t'); disp('continued')",
    );
    assert_eq!(o, "continued\n");
    // functions not drawn yet print one notice and the script goes on
    let o = common::run("bar3([1 2]); boxplot([1 2]); disp('ok')");
    assert_eq!(
        o,
        "Note: some graphics functions are not available yet; those calls are ignored.\nok\n"
    );
    assert_eq!(common::run("clc; close all; disp('ok')"), "ok\n");
}

#[test]
fn files_and_folders() {
    let o = out(
        "disp(fullfile('a', 'b/', '/c.m')); [d, n, e] = fileparts('/x/y/file.tar.gz'); \
         fprintf('%s|%s|%s\\n', d, n, e); disp(class(fullfile(\"p\", \"q\"))); \
         disp([isfolder(tempdir), isfile(tempdir), isfolder('/no/such/place')]); \
         disp(filesep); disp(pathsep)",
    );
    assert_eq!(
        o,
        "a/b/c.m\n/x/y|file.tar|.gz\nstring\n   1   0   0\n/\n:\n"
    );
    let dir = std::env::temp_dir().join(format!("matfuse-everyday-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).expect("temp dir");
    std::fs::write(dir.join("one.m"), "x = 1;\n").expect("temp file");
    let d = dir.to_string_lossy();
    let o = out(&format!(
        "s = dir('{d}/*.m'); disp({{s.name}}); disp(s(1).bytes); \
         p = genpath('{d}'); disp(numel(strsplit(p, pathsep)))"
    ));
    assert_eq!(o, "    {'one.m'}\n     7\n     2\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn warning_states_and_locations() {
    let o = common::run(
        "warning('error', 'my:id'); try, warning('my:id', 'boom'), catch e, disp(e.message), end; \
         s = warning; disp(s(1).state); warning('off', 'x:y'); q = warning('query', 'x:y'); disp(q.state)",
    );
    assert_eq!(o, "boom\non\noff\n");
    let o = common::run("f = str2func('@(x) x'); warning('plain:id', 'at top');");
    assert_eq!(o, "Warning: at top\n");
    // Inside a function, MATLAB adds where the warning came from.
    let o = common::run("function f()\n  x = 1;\n  warning('in:fn', 'inside');\nend\nf();");
    assert_eq!(o, "Warning: inside\n> In f (line 3)\n");
}

#[test]
fn maps_infer_their_types() {
    let o = out("m = containers.Map({'a','b'}, {1, 2}); disp(m.ValueType); \
         m2 = containers.Map({'x','y'}, {'a','bc'}); disp(m2.ValueType); \
         m3 = containers.Map(int32(5), 'v'); disp(m3.KeyType); \
         m4 = containers.Map([\"a\" \"b\"], {1, 2}); disp(m4('b')); \
         m5 = containers.Map({'a','b'}, {1, 'x'}); disp(m5.ValueType); disp(m.Count(1))");
    assert_eq!(o, "double\nchar\nint32\n     2\nany\n     2\n");
    let (id, _) = err("m = containers.Map({'a','b'}, {1, 2}); m('z') = 'str';");
    assert_eq!(id, "MATLAB:Containers:TypeMismatch");
}

#[test]
fn split_join_and_regexp_keep_the_kind_of_text() {
    let o = out("a = split('a,b', ','); disp(class(a)); disp(size(a)); \
         j = join({'a','b'}, ','); disp(class(j)); \
         k = join([\"x\" \"y\" \"z\"; \"a\" \"b\" \"c\"], \"-\"); disp(k); \
         s = split([\"a b\"; \"c d\"]); disp(size(s)); \
         r = regexp(\"ab12\", '\\d', 'match'); disp(class(r)); \
         c = regexp('ab12', '\\d', 'match'); disp(class(c))");
    assert_eq!(
        o,
        "cell\n     2     1\ncell\n    \"x-y-z\"\n    \"a-b-c\"\n     2     2\nstring\ncell\n"
    );
}

#[test]
fn properties_index_and_small_semantics() {
    let o = out(
        "ME = MException('a:b', 'hello'); disp(ME.message(end)); disp(ME.message(1:3)); \
         try, error('q:r', 'oops'); catch e, disp(e.message(end)); end; \
         cellfun(@disp, {1, 2}); c = {1, {2, 'x'}}; celldisp(c, 'c'); \
         disp(validatestring('app', {'apple', 'applesauce'})); disp(isempty(which('nosuchfn'))); \
         disp(size(string.empty(0, 3))); disp(class(cell.empty))",
    );
    assert_eq!(
        o,
        "o\nhel\ns\n     1\n     2\n\nc{1} =\n\n     1\n\n\nc{2}{1} =\n\n     2\n\n\nc{2}{2} =\n\n    'x'\n\napple\n   1\n     0     3\ncell\n"
    );
    let (id, msg) = err("s.('bad name') = 1;");
    assert_eq!(
        (id.as_str(), msg.as_str()),
        (
            "MATLAB:AddField:InvalidFieldName",
            "Invalid field name \"bad name\"."
        )
    );
    let (id, _) = err("setfield(struct(), 'x-y', 1)");
    assert_eq!(id, "MATLAB:AddField:InvalidFieldName");
    let (id, _) = err("assert([1 1 0])");
    assert_eq!(id, "MATLAB:assertion:LogicalScalar");
    let (id, _) = err("assert('abc')");
    assert_eq!(id, "MATLAB:assertion:LogicalScalar");
    let (id, _) = err("validatestring('a', {'apple', 'apricot'})");
    assert_eq!(id, "MATLAB:ambiguousStringChoice");
    let (_, msg) = err("[1 2; 3]");
    assert_eq!(
        msg,
        "Dimensions of arrays being concatenated are not consistent."
    );
}

#[test]
fn deep_recursion_traceback_is_collapsed_and_function_files_run() {
    let dir = std::env::temp_dir().join(format!("matfuse-recursion-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(
        dir.join("rec.m"),
        "function r = rec(n)\n  r = rec(n + 1);\nend\n",
    )
    .expect("write");
    std::fs::write(
        dir.join("greet.m"),
        "% greets\nfunction greet(name)\n  fprintf('hello %s\\n', name);\nend\n",
    )
    .expect("write");
    std::fs::write(dir.join("main.m"), "rec(1)\n").expect("write");
    let bin = env!("CARGO_BIN_EXE_matfuse");
    let o = std::process::Command::new(bin)
        .arg(dir.join("main.m"))
        .output()
        .expect("runs");
    let errtext = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1));
    assert!(errtext.contains("MATLAB:recursionLimit"), "{errtext}");
    assert!(errtext.lines().count() < 12, "{errtext}");
    assert!(errtext.contains("more times"), "{errtext}");
    let o = std::process::Command::new(bin)
        .arg(dir.join("greet.m"))
        .arg("Ada")
        .output()
        .expect("runs");
    assert_eq!(String::from_utf8_lossy(&o.stdout), "hello Ada\n");
    let _ = std::fs::remove_dir_all(&dir);
}
