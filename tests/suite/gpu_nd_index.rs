//! Indexing of gpuArrays with three or more subscripts, growth by device indices and
//! assignment into empty arrays, all on the device: values equal to the host evaluator's (the
//! same statements on host arrays in the same session) in single and double, on odd sizes and
//! empties, with gpuStats showing nothing moved between host and device but the one value a
//! device index check reads back. Bad subscripts give the host's errors with the workspace
//! intact. Under MATFUSE_REQUIRE_GPU=1 an adapter must exist.

use crate::common::{has_gpu, out as run};

/// The same-class, same-size, same-values check run on the device and host forms.
const SAME: &str = "function ok = same(R, H)
       ok = isequal(class(R), class(H)) && isequal(size(R), size(H));
       R = double(R); H = double(H);
       ok = ok && isequal(isnan(R), isnan(H));
       f = ~isnan(H); e = abs(R(f) - H(f)) ./ max(1, abs(H(f)));
       ok = ok && all(e <= 1e-6);
     end
     function st(), s = gpuStats; fprintf('up %d down %d fallbacks %d\\n', \
       s.Session.BytesUploaded, s.Session.BytesDownloaded, s.Session.Fallbacks); end
";

/// Runs `setup`, then each `(device, host)` statement pair into `R{k}` / `H{k}` (a reset of
/// gpuStats before the device statements, printed after them), then compares each pair:
/// prints the stats line and the failing pairs' numbers.
fn parity(setup: &str, pairs: &[(&str, &str)]) -> String {
    let mut code = format!("{SAME} {setup} R = {{}}; H = {{}}; gpuStats reset;");
    for (k, (dev, _)) in pairs.iter().enumerate() {
        code.push_str(&format!("R{{{}}} = {dev};", k + 1));
    }
    code.push_str("st();");
    for (k, (_, host)) in pairs.iter().enumerate() {
        code.push_str(&format!("H{{{}}} = {host};", k + 1));
    }
    code.push_str(
        "bad = {}; for k = 1:numel(R), if ~same(gather(R{k}), H{k}), bad{end+1} = num2str(k); \
         end; end; fprintf('bad:%s\\n', strjoin(bad, ','));",
    );
    run(&code)
}

/// Whether every gpuArray `whos` lists in `out` is on the device or pending (none on the host).
fn on_device(out: &str) -> bool {
    out.lines()
        .filter(|l| l.contains("gpuArray"))
        .all(|l| !l.trim_end().ends_with("host"))
}

/// The bytes moved and the failing pairs from `parity`'s output.
fn moved_and_bad(out: &str) -> ((u64, u64, u64), String) {
    let mut moved = (u64::MAX, u64::MAX, u64::MAX);
    let mut bad = String::from("?");
    for line in out.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        if let ["up", u, "down", d, "fallbacks", f] = w[..] {
            moved = (
                u.parse().unwrap_or(u64::MAX),
                d.parse().unwrap_or(u64::MAX),
                f.parse().unwrap_or(u64::MAX),
            );
        }
        if let Some(b) = line.strip_prefix("bad:") {
            bad = b.to_string();
        }
    }
    (moved, bad)
}

const READS: [(&str, &str); 17] = [
    ("G(:, :, 2)", "X(:, :, 2)"),
    ("G(:, 2:end, :)", "X(:, 2:end, :)"),
    ("G(1:2:end, :, 3)", "X(1:2:end, :, 3)"),
    ("G(:, :, end)", "X(:, :, end)"),
    ("G(2, :, 3, 1)", "X(2, :, 3, 1)"),
    ("G(end:-1:1, end, :)", "X(end:-1:1, end, :)"),
    ("G(:, :, end-1:end) * 2 + 1", "X(:, :, end-1:end) * 2 + 1"),
    ("G([3 1 3], :, [2 2 1])", "X([3 1 3], :, [2 2 1])"),
    (
        "G(:, [true false true true false], 2)",
        "X(:, [true false true true false], 2)",
    ),
    ("G(:, :, [])", "X(:, :, [])"),
    ("G([], 2, :)", "X([], 2, :)"),
    ("G(2:end, :)", "X(2:end, :)"),
    ("sum(G(:, :, 2:3), 3)", "sum(X(:, :, 2:3), 3)"),
    ("G(:, 1, :) - G(:, end, :)", "X(:, 1, :) - X(:, end, :)"),
    ("M(:, :, 1)", "N(:, :, 1)"),
    ("M(:, 2:3, 1, 1)", "N(:, 2:3, 1, 1)"),
    ("M(end, :, 1)", "N(end, :, 1)"),
];

#[test]
fn three_and_four_subscripts_read_on_the_device() {
    has_gpu();
    for class in ["double", "single"] {
        for dims in ["3, 5, 4", "5, 5, 3, 2", "3, 5, 3"] {
            let setup = format!(
                "rng(7); X = {class}(randn({dims})); X(4) = NaN; G = gpuArray(X) + 0; \
                 N = {class}(magic(5)); M = gpuArray(N) + 0; G(1) = G(1) * 1; M(1) = M(1) * 1; \
                 gather(G(1)); gather(M(1));"
            );
            let out = parity(&setup, &READS);
            let (moved, bad) = moved_and_bad(&out);
            assert_eq!(bad, "", "{class} {dims}: {out}");
            assert_eq!(moved, (0, 0, 0), "{class} {dims}: {out}");
        }
    }
    // Views stay pending: nothing is computed or moved for them.
    let out = run(
        "G = gpuArray(reshape(1:60, 3, 4, 5)) + 0; gather(G(1)); gpuStats reset; \
         a = G(:, :, 2); b = G(:, 2:end, :); c = G(1:2:end, :, 3); \
         s = gpuStats; fprintf('%d %d %d\\n', s.Session.Kernels, s.Session.BytesUploaded, \
         s.Session.BytesDownloaded); whos a b c",
    );
    if has_gpu() {
        assert!(out.starts_with("0 0 0\n"), "{out}");
        assert_eq!(out.matches("pending").count(), 3, "{out}");
    }
    // Device subscripts in three dimensions: each checked on the device, one value back.
    let out = parity(
        "X = reshape(1:120, 3, 4, 5, 2); G = gpuArray(X) + 0; gather(G(1)); \
         r = gpuArray([1 3 1 2]) + 0; q = gpuArray([2 2 1]) + 0; gather(r(1)); gather(q(1));",
        &[
            ("G(r(1:3), :, q)", "X([1 3 1], :, [2 2 1])"),
            ("G(2, r, q, 2)", "X(2, [1 3 1 2], [2 2 1], 2)"),
        ],
    );
    let (moved, bad) = moved_and_bad(&out);
    assert_eq!(bad, "", "{out}");
    if has_gpu() {
        assert_eq!((moved.0, moved.2), (0, 0), "{out}");
        assert!(moved.1 <= 4 * 8, "index checks read one value each: {out}");
    }
}

#[test]
fn three_and_four_subscripts_assign_on_the_device() {
    has_gpu();
    // Each statement is written for a variable `V` (the device form G, the host form X).
    let steps = [
        "V(:, :, 2) = -V(:, :, 1);",
        "V(1:2:end, :, 3) = 0;",
        "V(2, 3, 1) = 7;",
        "V(:, 2:end, :) = V(:, 1:end-1, :);",
        "V([3 1 3], [2 1], [4 1]) = 9;",
        "V([2 1 2], [3 1 4], [1 3 2]) = reshape(1:27, 3, 3, 3);",
        "V(end, :, end) = V(1, :, 1) * 2;",
        "V(:, :, 2, 1) = 5;",
        "V(:, :, end + 1) = 1;",
        "V(2, end + 1, 1) = 3;",
        "V([true false true], 2, :) = 4;",
        "V(:, :, []) = [];",
    ];
    for class in ["double", "single"] {
        let mut dev = String::new();
        let mut host = String::new();
        for s in steps {
            dev.push_str(&s.replace('V', "G"));
            host.push_str(&s.replace('V', "X"));
        }
        let setup = format!(
            "rng(2); X = {class}(randn(3, 5, 4)); G = gpuArray(X) + 0; Y = G; Y0 = X; \
             gather(G(1));"
        );
        let code = format!(
            "{SAME} {setup} gpuStats reset; {dev} st(); {host} \
             fprintf('same %d %d\\n', same(gather(G), X), same(gather(Y), Y0)); whos G"
        );
        let out = run(&code);
        assert!(out.contains("same 1 1"), "{class}: {out}");
        if has_gpu() {
            assert!(out.contains("up 0 down 0 fallbacks 0"), "{class}: {out}");
            assert!(on_device(&out), "{class}: {out}");
        }
    }
}

#[test]
fn growth_by_device_indices_and_end_stays_on_the_device() {
    has_gpu();
    let steps = [
        "V(I) = 3;",
        "V(end + 1) = 4;",
        "V(end + 1:end + 3) = W;",
        "V(J) = [1 2];",
        "V(I) = V(I) + 1;",
    ];
    for class in ["double", "single"] {
        let mut dev = String::new();
        let mut host = String::new();
        for s in steps {
            dev.push_str(&s.replace('V', "G").replace('I', "gi").replace('J', "gj"));
            host.push_str(&s.replace('V', "X").replace('I', "hi").replace('J', "hj"));
            dev = dev.replace('W', "gw");
            host = host.replace('W', "hw");
        }
        let code = format!(
            "{SAME} X = {class}(1:5); G = gpuArray(X) + 0; hi = [2 8]; gi = gpuArray(hi) + 0; \
             hj = [20; 11]; gj = gpuArray(hj) + 0; hw = {class}([7 8 9]); gw = gpuArray(hw) + 0; \
             A = {class}(magic(3)); B = gpuArray(A) + 0; C = gpuArray(A(1:0, :)) + 0; \
             gather(G(1)); gather(gi(1)); gather(gj(1)); gather(gw(1)); gather(B(1)); \
             gpuStats reset; {dev} B(end + 1, :) = gw; B(:, end + 2) = 1; st(); \
             {host} A(end + 1, :) = hw; A(:, end + 2) = 1; \
             fprintf('same %d %d\\n', same(gather(G), X), same(gather(B), A)); whos G B"
        );
        let out = run(&code);
        assert!(out.contains("same 1 1"), "{class}: {out}");
        if has_gpu() {
            // Two assignments by new device indices each read back their largest position;
            // the third reuses `gi`, already checked.
            assert!(out.contains("up 0 down 16 fallbacks 0"), "{class}: {out}");
            assert!(on_device(&out), "{class}: {out}");
        }
    }
}

#[test]
fn assignment_into_an_empty_array_makes_a_gpuarray_on_the_device() {
    has_gpu();
    let cases = [
        // (statements, variable, its host value, class underlying)
        ("x = []; x(2) = gpuArray(1);", "x", "[0 1]", "double"),
        (
            "y = zeros(0, 1, 'gpuArray'); y(3) = 5;",
            "y",
            "[0; 0; 5]",
            "double",
        ),
        (
            "z = gpuArray([]); z(1:4) = gpuArray(single(1:4));",
            "z",
            "single(1:4)",
            "single",
        ),
        (
            "w = gpuArray(single([])); w(3) = 2;",
            "w",
            "single([0 0 2])",
            "single",
        ),
        (
            "v = zeros(0, 1); v(2:3) = gpuArray(single([4 5]));",
            "v",
            "[0; 4; 5]",
            "double",
        ),
        (
            "u = []; u(2, 3) = gpuArray(7);",
            "u",
            "[0 0 0; 0 0 7]",
            "double",
        ),
        (
            "t = gpuArray([]); t(gpuArray([4 2])) = gpuArray([1 2]);",
            "t",
            "[0 2 0 1]",
            "double",
        ),
        (
            "clear s; s(3) = gpuArray(true);",
            "s",
            "logical([0 0 1])",
            "logical",
        ),
        (
            "r = zeros(1, 0, 'single'); r(2) = gpuArray(3);",
            "r",
            "single([0 3])",
            "single",
        ),
    ];
    for (stmts, name, want, class) in cases {
        let code = format!(
            "{SAME} gather(gpuArray(1) + 1); e = gpuArray(1) + 0; gather(e); gpuStats reset; \
             {stmts} st(); \
             fprintf('class %s %s same %d\\n', class({name}), classUnderlying({name}), \
             same(gather({name}), {want})); whos {name}"
        );
        let out = run(&code);
        assert!(
            out.contains(&format!("class gpuArray {class} same 1")),
            "{stmts}: {out}"
        );
        if has_gpu() {
            // gpuArray(...) of host data in the statement is an upload; nothing comes back
            // but a device index's largest position.
            let (moved, _) = moved_and_bad(&out);
            let down = if stmts.contains("gpuArray([4 2])") {
                8
            } else {
                0
            };
            assert_eq!((moved.1, moved.2), (down, 0), "{stmts}: {out}");
            assert!(out.contains(" device"), "{stmts}: {out}");
        }
    }
}

#[test]
fn bad_subscripts_give_the_host_errors_and_keep_the_workspace() {
    let reads = [
        "V(3, 1, 1)",
        "V(1, 4, 1)",
        "V(1, 1, 5)",
        "V(:, :, 5)",
        "V(0, 1, 1)",
        "V(1.5, 1, 1)",
        "V(:, 2:4, 1)",
        "V(1, 1, 1, 2)",
        "V(25)",
        "V(1, 13)",
        "V(-1)",
        "V(gpuArray(3), 1, 1)",
        "V(gpuArray(0))",
        "V(:, :, gpuArray(1.5))",
        "V(:, :, gpuArray([1 5]))",
        "V(true(1, 30))",
        "V(:, :, [true false true false true])",
        "V(:, :, 'a')",
    ];
    let writes = [
        "V(0, 1, 1) = 1",
        "V(1.5, 1, 1) = 1",
        "V(:, :, 2) = ones(3, 3)",
        "V(:, :, 2) = ones(2, 2)",
        "V(gpuArray(0)) = 1",
        "V(gpuArray(1.5)) = 2",
        "V(gpuArray(NaN)) = 2",
        "V(:, :, gpuArray(2)) = ones(2, 4)",
        "V(-1, 1, 1) = 3",
        "V(1:2, 1, 1) = [1 2 3]",
        "V(gpuArray([1 2])) = [1 2 3]",
        "V([1 2], [1 3], [2 4]) = ones(2, 2)",
        "V(30) = 1",
        "V(gpuArray(30)) = 1",
        "V(:, :, 2) = {1}",
    ];
    let mut code = String::from(
        "function r = probe(c, X, dev) \
           if dev, V = gpuArray(X) + 0; else, V = X; end \
           try, eval([c ';']); r = 'no error'; \
           catch e, r = [e.identifier ' | ' e.message]; end \
           r = sprintf('%s | intact %d', r, isequal(gather(V), X) || ~contains(c, '=')); end \
         X = reshape(1:24, 2, 3, 4); bad = {};",
    );
    for c in reads.iter().chain(&writes) {
        let c = c.replace('\'', "''");
        code.push_str(&format!(
            "a = probe('{c}', X, true); b = probe('{c}', X, false); \
             if ~strcmp(a, b), bad{{end+1}} = sprintf('%s: %s ~= %s', '{c}', a, b); end;"
        ));
    }
    code.push_str("fprintf('%s\\n', bad{:}); disp('done')");
    let out = run(&code);
    assert_eq!(out, "done\n", "device and host errors differ:\n{out}");
}

#[test]
fn explain_says_where_the_indexing_runs() {
    if !has_gpu() {
        return;
    }
    let out = run(
        "G = gpuArray(reshape(1:120, 3, 4, 5, 2)) + 0; x = gpuArray(1:5) + 0; \
         e = gpuArray([]); r = gpuArray([1 3]) + 0; gather(G(1)); gather(x(1)); \
         explain a = G(:, :, 2) + 1\n\
         explain G(:, :, 3, 2) = G(:, :, 1, 1) * 2\n\
         explain G([2 1 2], [3 1 4], [1 5 2]) = 7\n\
         explain G([2 1 2], [3 1 4], [1 5 2]) = reshape(1:27, 3, 3, 3)\n\
         explain x(r + 10) = 5\n\
         explain x(end + 1) = 5\n\
         explain e(3) = 5\n\
         explain b = G(2, 3, 1)\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    let after = |what: &str| {
        let k = lines
            .iter()
            .position(|l| l.contains(what))
            .unwrap_or_else(|| panic!("no {what}: {out}"));
        lines[k..].join("\n")
    };
    assert!(after("value: 3×4").contains("runs on the GPU"), "{out}");
    assert!(after("G(:, :, 3, 2)").contains("runs on the GPU"), "{out}");
    // One value everywhere: whichever write lands, so no marks; a value each: marks first.
    let three = after("G([2 1 2], [3 1 4], [1 5 2]) = 7");
    assert!(
        three.contains("1 kernel(s) over 27")
            && three.contains("positions given by the host")
            && three.contains("one value for all: no marks"),
        "{out}"
    );
    let many = after("G([2 1 2], [3 1 4], [1 5 2]) = reshape");
    assert!(
        many.contains("2 kernel(s) over 27") && many.contains("marks repeated positions"),
        "{out}"
    );
    let grow = after("x(r + 10)");
    assert!(
        grow.contains("grows the array on the GPU") && grow.contains("checked there"),
        "{out}"
    );
    let end = after("x(end + 1)");
    assert!(end.contains("1 kernel(s) over 1 element(s) grows"), "{out}");
    assert!(
        after("e(3)").contains("into an empty array: a 1×3 double of zeros made on the GPU"),
        "{out}"
    );
    // An element of a gpuArray is a view of it (a gpuArray, as in MATLAB): nothing is read
    // back, and the view runs on the GPU when a sink needs it.
    let scalar = after("value: 1×1");
    assert!(
        scalar.contains("runs on the GPU") && !scalar.contains("read back from the device"),
        "{out}"
    );
}
