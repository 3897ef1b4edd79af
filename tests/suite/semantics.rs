//! Values and semantics: classes and their mixing rules, empties, N-d arrays, implicit
//! expansion, indexing, growth, deletion, and the errors misuse raises.

use crate::common::{err, out};

#[test]
fn class_rules_in_arithmetic() {
    let code = "
        fprintf('%s ', class(int8(1) + 2.7), class(single(1) + 2), class(true + true), class('a' + 1));
        fprintf('%s ', class(int16(5) * 0.5), class(single(2) * int32(3)), class(~true + 1));
        fprintf('\\n');
        fprintf('%d %d %d %d\\n', int8(100) + 100, uint8(5) - 10, int8(-128) * -1, int32(7) / int32(2));
        fprintf('%d %d\\n', int16(3.5), int16(-3.5));
        fprintf('%d\\n', intmax('int64') - 1);
        fprintf('%d\\n', int64(9007199254740993) == int64(9007199254740992));
    ";
    assert_eq!(
        out(code),
        "int8 single double double int16 int32 double \n127 0 127 4\n4 -4\n9223372036854775806\n1\n"
    );
    let (id, _) = err("int8(1) + int16(1)");
    assert_eq!(id, "MATLAB:mixedClasses");
}

#[test]
fn concatenation_class_rules() {
    let code = "
        fprintf('%s %s %s %s %s\\n', class([int8(1) 2.7]), class([single(1) 2]), class([true 2]), class(['a' 66]), class([true false]));
        fprintf('%d ', [int16(1000) int8(100)]); fprintf('%s\\n', class([int16(1000) int8(100)]));
        fprintf('%s\\n', ['a' 66 'c']);
    ";
    assert_eq!(
        out(code),
        "int8 single double char logical\n1000 100 int16\naBc\n"
    );
}

#[test]
fn empties_keep_their_shape() {
    let code = "
        fprintf('%d %d|', size([]), size(zeros(1, 0)), size(zeros(0, 3)), size(''), size({}), size(1:0));
        fprintf('\\n');
        a = zeros(0, 3) * 2; fprintf('%d %d\\n', size(a));
        b = ones(0, 3) * ones(3, 2); fprintf('%d %d\\n', size(b));
        c = ones(2, 0) * ones(0, 3); fprintf('%d %d %g\\n', size(c), sum(c(:)));
        fprintf('%d %d\\n', size(sum(zeros(0, 3))));
        fprintf('%g %g %d\\n', sum([]), prod([]), isempty(max([])));
    ";
    assert_eq!(
        out(code),
        "0 0|1 0|0 3|0 0|0 0|1 0|\n0 3\n0 2\n2 3 0\n1 3\n0 1 1\n"
    );
}

#[test]
fn nd_arrays() {
    let code = "
        A = reshape(1:24, 2, 3, 4);
        fprintf('%d %d %d\\n', size(A));
        fprintf('%g\\n', A(2, 3, 4));
        S = sum(A, 3); fprintf('%d %d %g\\n', size(S), S(1, 1));
        B = permute(A, [3 1 2]); fprintf('%d %d %d %g\\n', size(B), B(4, 2, 3));
        C = cat(3, [1 2], [3 4]); fprintf('%d %d %d\\n', size(C));
        D = squeeze(A(1, 2, :)); fprintf('%d %d\\n', size(D));
        fprintf('%d\\n', ndims(ones(2, 3, 1)));
        E = A(:, :, 2); fprintf('%g ', E); fprintf('\\n');
        [r, c] = size(A); fprintf('%d %d\\n', r, c);
    ";
    assert_eq!(
        out(code),
        "2 3 4\n24\n2 3 40\n4 2 3 24\n1 2 2\n4 1\n2\n7 8 9 10 11 12 \n2 12\n"
    );
}

#[test]
fn implicit_expansion() {
    let code = "
        M = [1 2 3] + [10; 20];
        fprintf('%d %d | ', size(M)); fprintf('%g ', M); fprintf('\\n');
        N = max([1 5 3], [2; 4]); fprintf('%g ', N); fprintf('\\n');
        L = [1 2 3] > [2; 0]; fprintf('%d ', L); fprintf('\\n');
    ";
    assert_eq!(
        out(code),
        "2 3 | 11 21 12 22 13 23 \n2 4 5 5 3 4 \n0 1 0 1 1 1 \n"
    );
    let (id, msg) = err("x = [1 2] + [1 2 3];");
    assert_eq!(id, "MATLAB:sizeDimensionsMustMatch");
    assert!(msg.contains("1×2") && msg.contains("1×3"), "{msg}");
}

#[test]
fn indexing_reads() {
    let code = "
        A = magic(4);
        fprintf('%g ', A(2, :)); fprintf('| ');
        fprintf('%g ', A(:, 2)'); fprintf('| ');
        fprintf('%g ', A([1 3], [2 4])); fprintf('| ');
        fprintf('%g ', A(A > 13)'); fprintf('| ');
        fprintf('%d %d\\n', size(A(:)));
        v = 1:5;
        fprintf('%d %d|', size(v([1; 2])), size(v([1 2; 3 4])), size(v(logical([1 0 1 0 1]))));
        c = (1:5)'; fprintf('%d %d|', size(c([1 2])));
        s = 7; fprintf('%d %d\\n', size(s([1 1 1])));
    ";
    assert_eq!(
        out(code),
        "5 11 10 8 | 2 11 7 14 | 2 7 13 12 | 16 14 15 | 16 1\n1 2|2 2|1 3|2 1|1 3\n"
    );
}

#[test]
fn indexing_writes_grow_and_delete() {
    let code = "
        x = []; x(3) = 5; fprintf('%d %d:', size(x)); fprintf('%g ', x); fprintf('\\n');
        y = [1; 2]; y(4) = 4; fprintf('%d %d\\n', size(y));
        z = 5; z(2, 3) = 1; fprintf('%d %d:', size(z)); fprintf('%g ', z); fprintf('\\n');
        A = ones(2, 3); A(:, 2) = [5; 6]; A(1, :) = 7; fprintf('%g ', A); fprintf('\\n');
        A(:, end) = []; fprintf('%d %d\\n', size(A));
        v = 1:6; v([1 end]) = []; v(v == 4) = []; fprintf('%g ', v); fprintf('\\n');
        B = reshape(1:6, 2, 3); B([1 2]) = []; fprintf('%d %d\\n', size(B));
        C = zeros(2); C(:) = 1:4; fprintf('%g ', C); fprintf('\\n');
        w = 1:3; w(:) = []; fprintf('%d %d\\n', size(w));
        s = 'hello'; s(1) = 'H'; s(end + 1) = '!'; fprintf('%s\\n', s);
        L = true(1, 3); L(2) = 5; fprintf('%s\\n', class(L));
        q = int8([1 2]); q(2) = 300; fprintf('%d %s\\n', q(2), class(q));
    ";
    assert_eq!(
        out(code),
        "1 3:0 0 5 \n4 1\n2 3:5 0 0 0 0 1 \n7 1 7 6 7 1 \n2 2\n2 3 5 \n1 4\n1 2 3 4 \n0 0\nHello!\nlogical\n127 int8\n"
    );
}

#[test]
fn index_errors_have_identifiers() {
    let cases = [
        ("x = [1 2 3]; y = x(5);", "MATLAB:badsubscript"),
        ("x = [1 2 3]; y = x(0);", "MATLAB:badsubscript"),
        ("x = [1 2 3]; y = x(1.5);", "MATLAB:badsubscript"),
        ("A = zeros(2); y = A(3, 1);", "MATLAB:badsubscript"),
        (
            "A = [1 2; 3 4]; A(7) = 5;",
            "MATLAB:indexed:ambiguousGrowth",
        ),
        (
            "A = zeros(2); A(1, :) = [1 2 3];",
            "MATLAB:subsassigndimmismatch",
        ),
        ("x = [1 2 3]; y = x{1};", "MATLAB:cellRefFromNonCell"),
        ("y = undefined_q + 1;", "MATLAB:UndefinedFunction"),
        ("A = [1 2; 3];", "MATLAB:catenate:dimensionMismatch"),
        ("a = [1 2] * [3 4];", "MATLAB:innerdim"),
        (
            "B = reshape(1:6, 4, 2);",
            "MATLAB:getReshapeDims:notSameNumel",
        ),
        ("t = logical([1 NaN]);", "MATLAB:nologicalnan"),
        ("s.a = 1; v = s.b;", "MATLAB:nonExistentField"),
        ("[a, b] = numel([1 2]);", "MATLAB:TooManyOutputs"),
        ("f = @(x) x; f(1, 2)", "MATLAB:TooManyInputs"),
        ("c = {1}; d = c + 1;", "MATLAB:UndefinedFunction"),
        ("x = 1:3; x([1 2; 3 4] > 0)", "MATLAB:badsubscript"),
    ];
    for (code, want) in cases {
        let (id, _) = err(code);
        assert_eq!(id, want, "{code}");
    }
}

#[test]
fn value_semantics_copy_on_write() {
    let code = "
        a = [1 2 3]; b = a; b(1) = 100; fprintf('%g %g\\n', a(1), b(1));
        s.x = 1; t = s; t.x = 2; fprintf('%g %g\\n', s.x, t.x);
        c = {1}; d = c; d{1} = 5; fprintf('%g %g\\n', c{1}, d{1});
        m = containers.Map(); n = m; n('k') = 1; fprintf('%d\\n', m.Count);
    ";
    assert_eq!(out(code), "1 100\n1 2\n1 5\n1\n");
}

#[test]
fn complex_numbers() {
    let code = "
        z = sqrt(-4); fprintf('%g %g %d\\n', real(z), imag(z), isreal(z));
        w = (1 + 2i) * (1 - 2i); fprintf('%g %d\\n', w, isreal(w));
        c = complex(1, 0); fprintf('%d\\n', isreal(c));
        fprintf('%.4f\\n', abs(3 + 4i));
        v = [3+4i, 1]; fprintf('%g ', abs(v)); fprintf('\\n');
        p = (-8)^(1/3); fprintf('%.4f %.4f\\n', real(p), imag(p));
    ";
    assert_eq!(out(code), "0 2 0\n5 1\n0\n5.0000\n5 1 \n1.0000 1.7321\n");
}

#[test]
fn random_streams_are_reproducible() {
    let code = "
        rng(7); a = rand(1, 5); rng(7); b = rand(1, 5);
        fprintf('%d\\n', isequal(a, b));
        rng(7); c = rand(1, 3); d = rand(1, 2);
        fprintf('%d\\n', isequal(a, [c d]));
        rng('default'); x = randn(1000, 1); fprintf('%d %d\\n', abs(mean(x)) < 0.15, abs(std(x) - 1) < 0.1);
        k = randi([3 5], 1, 200); fprintf('%d %d %d\\n', min(k), max(k), all(k == round(k)));
        s = rand(3, 'single'); fprintf('%s %d\\n', class(s), all(s(:) > 0 & s(:) < 1));
        p = randperm(6); fprintf('%g ', sort(p)); fprintf('\\n');
    ";
    assert_eq!(out(code), "1\n1\n1 1\n3 5 1\nsingle 1\n1 2 3 4 5 6 \n");
}
