//! Syntax: lexing decisions, precedence, literals, statements, and parse errors.

use crate::common::{err, num, out, run, var};

#[test]
fn comments_and_continuations() {
    assert_eq!(
        out("x = 1; % a comment\n%{\nx = 2;\n%}\nfprintf('%d\\n', x)"),
        "1\n"
    );
    assert_eq!(
        out("y = 1 + ...  trailing text is a comment\n 2;\nfprintf('%d\\n', y)"),
        "3\n"
    );
    assert_eq!(out("%{\n%{\nnested\n%}\n%}\nfprintf('ok\\n')"), "ok\n");
}

#[test]
fn number_literals() {
    assert_eq!(num("a = 1e-3;", "a"), 1e-3);
    assert_eq!(num("a = .5;", "a"), 0.5);
    assert_eq!(num("a = 1.5E2;", "a"), 150.0);
    assert_eq!(
        out("z = 3i + 2j; fprintf('%g %g\\n', real(z), imag(z))"),
        "0 5\n"
    );
    assert_eq!(
        out("z = 1 + 2i; fprintf('%g %g\\n', real(z), imag(z))"),
        "1 2\n"
    );
    assert_eq!(num("a = 0x1F;", "a"), 31.0);
}

#[test]
fn char_and_string_literals() {
    assert_eq!(
        out("s = 'it''s'; fprintf('%s %d\\n', s, length(s))"),
        "it's 4\n"
    );
    assert_eq!(
        out("s = \"say \"\"hi\"\"\"; fprintf('%s\\n', s)"),
        "say \"hi\"\n"
    );
    assert_eq!(out("s = \"text\"; fprintf('%s\\n', class(s))"), "string\n");
}

#[test]
fn transpose_versus_quote() {
    assert_eq!(
        out("a = [1 2 3]; b = a'; fprintf('%d %d\\n', size(b))"),
        "3 1\n"
    );
    assert_eq!(
        out("a = [1 2]; b = [4 5]; M = [a' b']; fprintf('%d %d\\n', size(M))"),
        "2 2\n"
    );
    assert_eq!(out("a = 1; s = [a 'b']; fprintf('%d\\n', numel(s))"), "2\n");
    assert_eq!(
        out("z = [1+2i 3]; w = z.'; v = z'; fprintf('%g %g\\n', imag(w(1)), imag(v(1)))"),
        "2 -2\n"
    );
    assert_eq!(out("x = 2; y = x'*3; fprintf('%g\\n', y)"), "6\n");
}

#[test]
fn whitespace_inside_brackets() {
    let cases = [
        ("a = 1; b = 2; x = [a -b];", 2.0),
        ("a = 1; b = 2; x = [a - b];", 1.0),
        ("a = 1; b = 2; x = [a -b + 1];", 2.0),
        ("a = 1; x = [a (1)];", 2.0),
        ("x = [1 +2];", 2.0),
        ("a = 1; b = 2; x = [a+1 b];", 2.0),
        ("f = @(t) t; x = [f(1) 2];", 2.0),
        ("x = {@(t) t + 1, @(t) t * 3};", 2.0),
        ("x = [1, 2\n 3, 4];", 4.0),
        ("x = [1 2;...\n 3 4];", 4.0),
    ];
    for (code, n) in cases {
        let v = var(code, "x");
        assert_eq!(v.numel() as f64, n, "{code}");
    }
}

#[test]
fn operator_precedence() {
    let cases = [
        ("r = -2^2;", -4.0),
        ("r = 2^-1;", 0.5),
        ("r = 2^3^2;", 64.0),
        ("r = -2^-2;", -0.25),
        ("r = 2 + 3 * 4;", 14.0),
        ("r = 8 / 2 / 2;", 2.0),
        ("r = ~0 == 1;", 1.0),
        ("r = 1:3+1; r = numel(r);", 4.0),
        ("r = 1 < 2 == 1;", 1.0),
        ("r = -3 - -2;", -1.0),
        ("r = [1 2 3].^2'; r = size(r, 1);", 3.0),
        ("r = 1 | 0 & 0;", 1.0),
        ("r = 2 * 3 ^ 2;", 18.0),
    ];
    for (code, want) in cases {
        assert_eq!(num(code, "r"), want, "{code}");
    }
}

#[test]
fn short_circuit_skips_the_right_side() {
    assert_eq!(
        out("z = false && undefined_fn(1); fprintf('%d\\n', z)"),
        "0\n"
    );
    assert_eq!(
        out("z = true || undefined_fn(1); fprintf('%d\\n', z)"),
        "1\n"
    );
    let (id, _) = err("z = [1 2] && true;");
    assert_eq!(id, "MATLAB:nonLogicalConditional");
}

#[test]
fn end_inside_indices() {
    assert_eq!(num("x = 10:10:100; r = x(end - 1);", "r"), 90.0);
    assert_eq!(num("x = 1:5; y = [2 4]; r = x(y(end));", "r"), 4.0);
    assert_eq!(num("A = magic(4); r = A(end, end - 1);", "r"), 15.0);
    assert_eq!(num("x = 1:10; y = 1:3; r = x(end - y(end));", "r"), 7.0);
    assert_eq!(num("x = 1:10; r = x(min(end, 4));", "r"), 4.0);
    assert_eq!(num("c = {1:4}; r = c{end}(end);", "r"), 4.0);
}

#[test]
fn anonymous_functions_and_handles() {
    assert_eq!(
        out("a = 2; f = @(x) a * x; a = 5; fprintf('%g\\n', f(3))"),
        "6\n"
    );
    assert_eq!(out("f = @sin; fprintf('%.4f\\n', f(pi/2))"), "1.0000\n");
    assert_eq!(out("f = @(x, y) x + y; fprintf('%g\\n', f(1, 2))"), "3\n");
    assert_eq!(out("f = @() 42; fprintf('%g\\n', f())"), "42\n");
    assert_eq!(
        out("g = @(x) @(y) x + y; h = g(10); fprintf('%g\\n', h(5))"),
        "15\n"
    );
    assert_eq!(
        out("f = @(x) x.^2 + 1; fprintf('%s\\n', func2str(f))"),
        "@(x)x.^2+1\n"
    );
}

#[test]
fn command_syntax() {
    assert_eq!(out("disp hello"), "hello\n");
    assert_eq!(
        out("format long\nx = pi;\nfprintf('%.4f\\n', x)"),
        "3.1416\n"
    );
    assert_eq!(
        out("a = 1; b = 2; clear a b\nfprintf('%d\\n', exist('a'))"),
        "0\n"
    );
    // a variable is never the start of command syntax
    assert_eq!(out("x = 5; x -1\n"), "\nans =\n\n     4\n\n");
    assert_eq!(out("disp 'two words'"), "two words\n");
}

#[test]
fn statements_display_and_ans() {
    assert_eq!(out("x = 3"), "\nx =\n\n     3\n\n");
    assert_eq!(out("x = 3;"), "");
    assert_eq!(out("3 + 4;\nfprintf('%g\\n', ans)"), "7\n");
    assert_eq!(out("x = 1, y = 2;"), "\nx =\n\n     1\n\n");
    assert_eq!(out("5; x = 10; fprintf('%g\\n', ans)"), "5\n");
}

#[test]
fn multiple_assignment() {
    assert_eq!(
        out("[m, i] = max([3 9 2]); fprintf('%g %g\\n', m, i)"),
        "9 2\n"
    );
    assert_eq!(out("[~, i] = max([3 9 2]); fprintf('%g\\n', i)"), "2\n");
    assert_eq!(
        out("[r, c] = size(ones(2, 3)); fprintf('%g %g\\n', r, c)"),
        "2 3\n"
    );
    assert_eq!(
        out("c = cell(1, 2); [c{:}] = deal(7); fprintf('%g %g\\n', c{:})"),
        "7 7\n"
    );
    assert_eq!(
        out("s(1).a = 0; s(2).a = 0; [s.a] = deal(4, 5); fprintf('%g %g\\n', s.a)"),
        "4 5\n"
    );
}

#[test]
fn indexed_and_field_assignment_chains() {
    assert_eq!(
        out("s.a(2).b{3} = 1; fprintf('%d %d %d\\n', numel(s.a), numel(s.a(2).b), s.a(2).b{3})"),
        "2 3 1\n"
    );
    assert_eq!(out("s.x.y.z = 5; fprintf('%g\\n', s.x.y.z)"), "5\n");
    assert_eq!(
        out("c{2}.name = 'n'; fprintf('%s %d\\n', c{2}.name, numel(c))"),
        "n 2\n"
    );
    assert_eq!(
        out("s.v = [1 2 3]; s.v(end + 1) = 4; fprintf('%g ', s.v); fprintf('\\n')"),
        "1 2 3 4 \n"
    );
    assert_eq!(out("n = 'f'; s.(n) = 3; fprintf('%g\\n', s.f)"), "3\n");
}

#[test]
fn control_flow() {
    let code = "
        out = [];
        for k = 1:10
            if mod(k, 2) == 0, continue; end
            if k > 7, break; end
            out(end + 1) = k;
        end
        fprintf('%g ', out); fprintf('\\n');
        n = 0; while true, n = n + 1; if n >= 3, break, end, end
        fprintf('%d\\n', n);
        for c = [1 2; 3 4], fprintf('%d,', c); end
        fprintf('\\n');
        switch 'b', case {'a', 'b'}, disp('ab'); otherwise, disp('other'); end
        switch 3, case 1, disp('one'); case 3, disp('three'); end
    ";
    assert_eq!(out(code), "1 3 5 7 \n3\n1,3,2,4,\nab\nthree\n");
}

#[test]
fn try_catch_and_rethrow() {
    let code = "
        try
            error('pkg:id', 'value %d bad', 7);
        catch e
            fprintf('%s|%s\\n', e.identifier, e.message);
        end
        try
            x = [1 2](3);
        catch
            disp('caught');
        end
    ";
    assert_eq!(out(code), "pkg:id|value 7 bad\ncaught\n");
    let (id, msg) = err("try, error('a:b', 'inner'); catch e, rethrow(e); end");
    assert_eq!((id.as_str(), msg.as_str()), ("a:b", "inner"));
}

#[test]
fn functions_in_scripts() {
    let code = "
        fprintf('%g\\n', sq(4));
        [a, b] = two();
        fprintf('%g %g\\n', a, b);
        fprintf('%g\\n', fact(5));
        fprintf('%d %d\\n', count_args(1, 2, 3), count_args());
        function y = sq(x)
            y = x^2;
        end
        function [p, q] = two()
            p = 1; q = 2;
        end
        function r = fact(n)
            if n <= 1, r = 1; return; end
            r = n * fact(n - 1);
        end
        function n = count_args(varargin)
            n = nargin;
        end
    ";
    assert_eq!(out(code), "16\n1 2\n120\n3 0\n");
}

#[test]
fn global_and_persistent() {
    let code = "
        global G
        G = 5;
        bump(); bump();
        fprintf('%g %g\\n', G, counter());
        fprintf('%g\\n', counter());
        function bump()
            global G
            G = G + 1;
        end
        function n = counter()
            persistent k
            if isempty(k), k = 0; end
            k = k + 1;
            n = k;
        end
    ";
    assert_eq!(out(code), "7 1\n2\n");
}

#[test]
fn parse_errors_have_carets_and_leave_the_workspace_alone() {
    let mut interp = matfuse::interp::Interp::new();
    interp.run_str("x = 1;").expect("runs");
    let e = interp
        .run_str("x = 2;\ny = (1 + * 3)")
        .expect_err("a parse error");
    assert!(
        e.identifier().starts_with("MATLAB:parse"),
        "{}",
        e.identifier()
    );
    let report = e.report();
    assert!(report.contains("y = (1 + * 3)"), "{report}");
    assert!(
        report.contains("\n             ^"),
        "caret under the operator: {report}"
    );
    // nothing of the failed input ran
    assert_eq!(interp.var("x").and_then(|v| v.scalar_f64().ok()), Some(1.0));
}

#[test]
fn runtime_errors_keep_the_workspace() {
    let mut interp = matfuse::interp::Interp::new();
    interp.run_str("A = [1 2 3];").expect("runs");
    assert!(interp.run_str("A(2, :) = [1 2];").is_err());
    let a = interp.var("A").expect("A still there");
    assert_eq!(a.numel(), 3);
    // a failing nested assignment leaves the struct as it was
    interp.run_str("s.a = 1;").expect("runs");
    assert!(interp.run_str("s.a.b = 2;").is_err());
    assert_eq!(
        interp.var("s").map(|v| v.class_name()),
        Some("struct".to_string())
    );
    let r = run("q = [1 2 3]; q(7, 7, 7) = 1; fprintf('%d\\n', numel(q))");
    assert_eq!(r, "343\n");
}
