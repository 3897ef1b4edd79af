//! The host engine without a device, as a user gets it (`MATFUSE_DEVICE=cpu`, host arrays in
//! the graph by size): typed integer kernels (saturation, rounding half away from zero, NaN,
//! mixed with doubles) against the class conversion of the double result, plain-array range
//! reads and range assignment (views and embeds in place) against index-vector forms that take
//! the general path, and the fast `any`/`all` and `[m, i] = max` paths at odd sizes (1e5+3:
//! several threads' blocks and a tail).

use crate::common::out;
use crate::{all_hold, host_only};

/// `expr` with the integer operands `a` and `b` (single letters) as doubles.
fn widened(expr: &str) -> String {
    expr.chars()
        .map(|c| match c {
            'a' | 'b' => format!("double({c})"),
            c => c.to_string(),
        })
        .collect()
}

#[test]
fn integer_arithmetic_is_the_rounded_saturated_double_result() {
    host_only();
    let classes = ["int8", "uint8", "int16", "uint16", "int32", "uint32"];
    let ops = [
        "a + b", "a - b", "a .* b", "a ./ b", "a + 0.5", "a - 2.5", "a * 1.5", "a / 3", "2.5 - a",
        "7 ./ a", "a .* d", "a + d", "d ./ b",
    ];
    let mut code = String::from(
        "n = 1e5 + 3; k = (0:n-1)';
         ra = mod(k * 7919, 997) - 498; rb = mod(k * 104729, 61) - 30;
         rd = mod(k * 0.6180339887, 1) * 600 - 300; rd(5) = NaN; rd(9) = Inf; rd(11) = -Inf; rd(13) = 0.5; rd(17) = -0.5;
",
    );
    let mut count = 0;
    for cls in classes {
        code.push_str(&format!(
            "a = {cls}(ra * 300); b = {cls}(rb); a(1:4) = [intmax('{cls}') intmin('{cls}') 0 1]; b(1:4) = [1 -1 0 0]; d = rd;\n"
        ));
        for op in ops {
            let exact = widened(op);
            code.push_str(&format!(
                "r = {op}; fprintf('%s %s %d\\n', '{cls}', '{op}', strcmp(class(r), '{cls}') && isequal(r, {cls}({exact})));\n"
            ));
            count += 1;
        }
        for cmp in ["a > b", "a <= 0.5", "a == d", "d < a", "a ~= 3"] {
            let exact = widened(cmp);
            code.push_str(&format!(
                "r = {cmp}; fprintf('%s %s %d\\n', '{cls}', '{cmp}', islogical(r) && isequal(r, {exact}));\n"
            ));
            count += 1;
        }
    }
    all_hold(&code, count);
}

#[test]
fn integer_saturation_nan_and_halves() {
    host_only();
    let code = "
        fprintf('%d ', int8([100 -100 7 -7]) + int8([100 -100 -8 8])); fprintf('\\n');
        fprintf('%d ', uint8([5 250]) - uint8([10 3]), uint8([200 3]) .* uint8([2 3])); fprintf('\\n');
        fprintf('%d ', int8([1 3 -1 -3 5]) ./ int8(2), int16([1 -1 0]) ./ int16(0)); fprintf('\\n');
        fprintf('%d ', int32([5 -5 0]) + NaN, int32([5 -5]) * Inf, uint32(7) - Inf); fprintf('\\n');
        fprintf('%d ', int8(-128) * -1, -int8(-128), int8([2 3]) * 0.5, int8([-2 -3]) * 0.5); fprintf('\\n');
        fprintf('%d ', int32(2147483647) + 1, int32(-2147483647) - 5, uint32(4294967295) + 0.4); fprintf('\\n');
        a = int64([9223372036854775807 -9223372036854775807 5]);
        fprintf('%d ', a + int64(10), a - int64(10), a .* int64(-3)); fprintf('\\n');
        b = uint64([18446744073709551615 3]); fprintf('%u ', b + uint64(1), b - uint64(5), b .* uint64(2)); fprintf('\\n');
        x = int8(mod(0:1e5+2, 256) - 128); y = x + x; z = x - int8(100);
        fprintf('%d %d %d %d %s\\n', sum(y == 127), sum(y == -128), min(z), max(z), class(y));
    ";
    assert_eq!(
        out(code),
        "127 -128 -1 1 \n0 247 255 9 \n1 2 -1 -2 3 32767 -32768 0 \n0 0 0 2147483647 -2147483648 0 \n127 127 1 2 -1 -2 \n2147483647 -2147483648 4294967295 \n9223372036854775807 -9223372036854775798 15 9223372036854775797 -9223372036854775808 -5 -9223372036854775808 9223372036854775807 -15 \n18446744073709551615 4 18446744073709551610 0 18446744073709551615 6 \n24960 25415 -128 27 int8\n"
    );
}

#[test]
fn plain_range_reads_and_assignment_match_the_general_path() {
    host_only();
    let mut code = String::new();
    let mut count = 0;
    for cls in ["double", "single"] {
        code.push_str(&format!(
            "n = 1e5 + 3; x = {cls}(mod((0:n-1) * 0.6180339887, 1) * 4 - 2); x(7) = NaN; x(20) = Inf; x(31) = -0;
             i1 = 1:n-2; i2 = 2:n-1; i3 = 3:n; ie = n:-1:1; io = 1:3:n;
"
        ));
        let cases = [
            (
                "r = x(2:end) - x(1:end-1);",
                "a1 = x(i2(1):n); a2 = x(i1(1):n-1); r = a1 - a2;",
            ),
            ("r = x(2:end-1);", "r = x(i2);"),
            ("r = x(end:-1:1) .* 2;", "r = x(ie) .* 2;"),
            ("r = x(1:3:end) + 1;", "r = x(io) + 1;"),
            (
                "u = x; for s = 1:3, u(2:end-1) = u(2:end-1) + 0.25 * (u(1:end-2) - 2 * u(2:end-1) + u(3:end)); end, r = u;",
                "u = x; for s = 1:3, u(i2) = u(i2) + 0.25 * (u(i1) - 2 * u(i2) + u(i3)); end, r = u;",
            ),
            (
                "u = x; u(2:end) = 5; r = u;",
                "u = x; u(i2(1):n) = 5; r = u;",
            ),
            ("u = x; u(end:-1:1) = x; r = u;", "u = x(ie); r = u;"),
            (
                "u = x; u(1:2:end) = 0.5; r = u;",
                "i5 = 1:2:n; u = x; u(i5) = 0.5; r = u;",
            ),
            ("u = x; w = u; u(2:end-1) = 1; r = w;", "r = x;"),
            (
                "c = {x(2:end)}; x0 = x; x(3) = 7; r = c{1}; x = x0;",
                "r = x(i2(1):n);",
            ),
            (
                "u = x; u(2:end-1) = single(3); r = u;",
                "u = x; u(i2) = single(3); r = u;",
            ),
            (
                "r = sum(x(2:end) > 0.5) + any(x(3:end) < -1.9);",
                "v = x(i3); r = sum(x(i2(1):n) > 0.5) + any(v < -1.9);",
            ),
        ];
        for (fast, general) in cases {
            code.push_str(&format!(
                "{fast} r1 = r; {general} fprintf('%s %d\\n', '{cls}', isequaln(r1, r) && strcmp(class(r1), class(r)) && isequal(size(r1), size(r)));\n"
            ));
            count += 1;
        }
    }
    all_hold(&code, count);
}

#[test]
fn any_all_and_max_positions_at_odd_sizes() {
    host_only();
    let code = "
        n = 1e5 + 3;
        for c = {'double', 'single'}
          x = cast(mod((0:n-1) * 0.6180339887, 1), c{1}); x(end) = 2;
          fprintf('%d %d %d %d ', any(x > 1.9), any(x(1:end-1) > 1.9), all(x < 2.1), all(x < 1.9));
          fprintf('%d %d %d %d\\n', any(x > 0.999999), any(x == 0.1), all(x ~= 0.1), any(0.3 > x));
          y = x; y([5 70000 n]) = 3; [m, i] = max(y); [m2, i2] = min(-y); fprintf('%g %d %g %d ', m, i, m2, i2);
          y(99999) = NaN; [m, i] = max(y); fprintf('%g %d ', m, i); [m, i] = max(y, [], 'includenan'); fprintf('%g %d\\n', m, i);
        end
        t = int32(mod((0:n-1) * 7919, 1000)); fprintf('%d %d %d\\n', any(t > 998), all(t >= 0), any(t > 999));
    ";
    assert_eq!(
        out(code),
        "1 0 1 0 1 0 1 1\n3 5 -3 5 3 5 NaN 99999\n1 0 1 0 1 0 1 1\n3 5 -3 5 3 5 NaN 99999\n1 1 0\n"
    );
}
