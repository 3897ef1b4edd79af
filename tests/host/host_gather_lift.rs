//! `x0(idx)` of a large host array by a large host index, without a device: a graph gather
//! that the consuming fused group reads in its blocks (`interp::gathers::host_read`). Its
//! values, classes and shapes must be what the host's own read gives, and its errors MATLAB's.

use super::{all_hold, common, host_only};
use matfuse::interp::Interp;
use matfuse::interp::output;
use matfuse::values::value::Value;

/// Runs `setup`, then reads `x(k)` through the interpreter's index path; whether the read
/// came back as a graph value (a gather) and its class.
fn read_form(setup: &str) -> (bool, String) {
    let mut interp = Interp::new();
    output::begin_capture();
    let r = interp.run_str(setup);
    output::end_capture();
    if let Err(e) = r {
        panic!("code failed: {setup}\n{}", e.report());
    }
    let (Some(x), Some(k)) = (interp.var("x"), interp.var("k")) else {
        panic!("no x or k after: {setup}");
    };
    let got = match interp.index_value(&x, &[k]) {
        Ok(v) => v,
        Err(e) => panic!("x(k) failed after {setup}: {}", e.report()),
    };
    let class = got.class_name().to_string();
    (matches!(got, Value::Device(_)), class)
}

#[test]
fn a_large_host_read_by_an_index_is_a_gather_only_for_real_double_and_single() {
    host_only();
    let k = "n = 70001; k = mod((0:n-1)' * 7919, n) + 1;";
    let cases = [
        ("x = rand(n, 1);", true, "double"),
        ("x = single(rand(1, n));", true, "single"),
        ("x = rand(n, 1); k = int32(k);", true, "double"),
        ("x = single(rand(n, 1)); k = single(k');", true, "single"),
        (
            "x = rand(7, 10001); k = reshape([k; k(1:6)], 7, []);",
            true,
            "double",
        ),
        // the host's read: other classes, scalars, masks, N-d sources, small indices
        ("x = rand(n, 1) > 0.5;", false, "logical"),
        ("x = int32(1:n);", false, "int32"),
        ("x = char(mod(0:n-1, 26) + 97);", false, "char"),
        ("x = complex(rand(n, 1), 1);", false, "double"),
        ("x = 5; k = ones(n, 1);", false, "double"),
        ("x = rand(1, 1, n);", false, "double"),
        ("x = rand(n, 1); k = rand(n, 1) > 0.5;", false, "double"),
        ("x = rand(n, 1); k = k(1:1000);", false, "double"),
    ];
    for (setup, gather, class) in cases {
        let got = read_form(&format!("{k} {setup}"));
        assert_eq!(got, (gather, class.to_string()), "{setup}");
    }
}

#[test]
fn a_lifted_host_read_gives_what_the_loop_gives() {
    host_only();
    // Sizes on both sides of the 65536-element threshold, the 4096-element blocks and
    // 65536-element tasks; every index class; NaN, Inf and -0 passed through; the read alone,
    // fused with what follows, and reduced.
    let code = "
        for n = [65536 65537 131073 200001]
          x0 = (1:n)' * 0.37; x0(1) = NaN; x0(end) = -0; x0(2) = Inf; x0(3) = -Inf;
          for cls = {'double', 'single'}
            x = cast(x0, cls{1}); w = cast([x0(end:-1:1); (1:9)'] / 7, cls{1}); y = cast([x0; (1:9)'] / 3, cls{1});
            for icls = {'double', 'single', 'int32', 'uint32', 'int64', 'uint16'}
              m = n + 9;
              k = mod((0:m-1)' * 7919, n) + 1;
              if strcmp(icls{1}, 'uint16'), k = mod(k - 1, 65535) + 1; end
              k = cast(k, icls{1});
              e = repmat(x(1), m, 1);
              for j = 1:m, e(j) = x(double(k(j))); end
              r = x(k);
              ok = isequaln(r, e) && strcmp(class(r), cls{1}) && isequal(size(r), [m 1]);
              f = x(k) .* w(1:m) + y(1:m);
              ok = ok && isequaln(f, e .* w(1:m) + y(1:m)) && strcmp(class(f), cls{1});
              xc = cast((1:n)' * 0.37, cls{1}); ec = zeros(m, 1, cls{1});
              for j = 1:m, ec(j) = xc(double(k(j))); end
              wc = cast((1:m)' / 7, cls{1});
              s = sum(xc(k) .* wc); t = sum(ec .* wc);
              ok = ok && strcmp(class(s), cls{1}) && abs(s - t) <= 1e-4 * sum(abs(ec .* wc));
              s = sum(xc(k)); t = sum(ec);
              ok = ok && strcmp(class(s), cls{1}) && abs(s - t) <= 1e-4 * t;
              fprintf('%d %s %s %d\\n', n, cls{1}, icls{1}, ok);
            end
          end
        end
    ";
    all_hold(code, 4 * 2 * 6);
}

#[test]
fn a_lifted_host_read_keeps_matlabs_shapes() {
    host_only();
    // row and column sources by row, column and matrix indices; a matrix source by each.
    let code = "
        n = 90001; c = (1:n)' / 3; r = single(c'); A = reshape(c(1:90000), 300, 300);
        kc = mod((0:n-1)' * 7919, n) + 1; kr = kc'; km = reshape(kc(1:90000), 450, 200);
        L = {c, r, A};
        for i = 1:3
          x = L{i}; K = {kc, kr, km};
          for j = 1:3
            k = K{j}; k = k(k <= numel(x));
            if j == 3, k = reshape(k(1:80000), 400, 200); end
            g = x(k);
            if isvector(x) && isvector(k) && size(x, 1) == 1, sz = [1 numel(k)];
            elseif isvector(x) && isvector(k), sz = [numel(k) 1];
            else, sz = size(k); end
            e = zeros(sz, class(x));
            for p = 1:numel(k), e(p) = x(k(p)); end
            fprintf('%d %d %d\\n', i, j, isequal(g, e) && isequal(size(g), size(e)) && strcmp(class(g), class(x)));
          end
        end
    ";
    all_hold(code, 9);
}

#[test]
fn a_lifted_host_read_reports_matlabs_errors_and_leaves_the_workspace() {
    host_only();
    let setup = "n = 200001; x = single((1:n)') * 0.5; k = mod((0:n-1)' * 7919, n) + 1;";
    let positive = "Array indices must be positive integers or logical values.";
    let cases = [
        ("b = k; b(77) = 0; y = x(b);", positive.to_string()),
        ("b = k; b(77) = 1.5; y = x(b);", positive.to_string()),
        ("b = k; b(77) = NaN; y = x(b);", positive.to_string()),
        ("b = k; b(77) = -3; y = x(b);", positive.to_string()),
        ("b = int32(k); b(77) = 0; y = x(b);", positive.to_string()),
        ("y = x(0);", positive.to_string()),
        ("y = x(1.5);", positive.to_string()),
        (
            "b = k; b(77) = n + 1; y = x(b) .* 2 + 1;",
            "Index exceeds the number of array elements. Index must not exceed 200001.".into(),
        ),
        (
            "y = x(n + 1);",
            "Index exceeds the number of array elements. Index must not exceed 200001.".into(),
        ),
        (
            "A = reshape(x(1:200000), 400, 500); b = k(1:70000); b(5) = 200001; y = A(b);",
            "Index exceeds the number of array elements. Index must not exceed 200000.".into(),
        ),
    ];
    for (code, message) in cases {
        let got = common::err(&format!("{setup} {code}"));
        assert_eq!(got, ("MATLAB:badsubscript".to_string(), message), "{code}");
    }
    // After a caught error the variables are as they were, and a read after it works.
    let code = format!(
        "{setup} y = x(k); b = k; b(9) = 0;
         try, y = x(b) .* 2; catch, end
         e = zeros(n, 1, 'single'); for p = 1:n, e(p) = x(k(p)); end
         fprintf('%d %d %d\\n', isequal(y, e), isequal(x, single((1:n)') * 0.5), isequal(b(9), 0));"
    );
    assert_eq!(common::out(&code), "1 1 1\n");
}

#[test]
fn empty_and_small_reads_keep_the_hosts_shapes() {
    host_only();
    // (empty and small indices stay on the host's read: these hold before and after)
    let code = "
        c = (1:70000)'; r = single(c');
        fprintf('empty %d\\n', isequal(size(c([])), [0 0]));
        fprintf('row-empty %d\\n', isequal(size(c(zeros(1, 0))), [0 1]));
        fprintf('column-empty %d\\n', isequal(size(r(zeros(0, 1))), [1 0]) && isa(r(zeros(0, 1)), 'single'));
        fprintf('small %d\\n', isequal(c([3; 1]), [3; 1]) && isequal(r([3 1]), single([3 1])));
    ";
    all_hold(code, 4);
}
