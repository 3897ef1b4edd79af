//! The host engine's seventh round (issue 23): `find` without the test for runs of zeros
//! on non-logical data (logical data skips eight zero bytes as one word), true values counted
//! as bytes (`nnz`, `find`); `x.^k` of whole k up to 32 by repeated squaring in
//! double-double instead of the C library's pow; `mean(A, 2)`, `sum(A, 2)` and
//! `var(A, 0, 2)` with the lanes split across the cores; `repmat` written in blocks. Each
//! against the rule written out as a loop (or the C library's pow), on both sides of the
//! parallel thresholds, with NaN, Inf and -0.

use crate::{all_hold, host_only};

#[test]
fn find_and_nnz_of_masks_follow_the_loop() {
    host_only();
    // logical masks of every length around eight and the 255-byte counting pieces, with
    // zero runs that start and end off the eight-byte words; dense doubles (no zero runs)
    let code = "
        rng(21); ok = true; counts = true;
        for n = [1 2 7 8 9 15 16 17 254 255 256 511 1000 65536 65537 262144 262145 300007]
          for dens = [0 0.01 0.5 0.97 1]
            m = rand(1, n) < dens;
            if n > 40, m(5:29) = false; m(33:34) = true; end
            r = zeros(1, 0); c = 0;
            for k = 1:n, if m(k), r(end + 1) = k; c = c + 1; end, end
            % a scalar counts as a row
            ok = ok && isequal(find(m), r) && (n == 1 || isequal(find(m.'), r.'));
            counts = counts && nnz(m) == c && nnz(m.') == c;
            x = rand(1, n) + 0.25; x(m) = 0;
            w = zeros(1, 0); for k = 1:n, if x(k) ~= 0, w(end + 1) = k; end, end
            ok = ok && isequal(find(x), w) && isequal(find(single(x)), w) && isequal(find(x > 0.5), find(x .* (x > 0.5)));
          end
        end
        fprintf('positions %d\\n', ok);
        fprintf('counts %d\\n', counts);
        fprintf('empty %d\\n', nnz(false(1, 0)) == 0 && isequal(size(find(false(0, 1))), [0 1]) && isequal(size(find(false(1, 0))), [1 0]));";
    all_hold(code, 3);
}

/// Distance in units in the last place between two doubles of one sign (0 when equal).
fn ulps(a: f64, b: f64) -> u64 {
    if a == b {
        return 0;
    }
    if a.is_sign_negative() != b.is_sign_negative() {
        return u64::MAX;
    }
    a.abs().to_bits().abs_diff(b.abs().to_bits())
}

/// A simple deterministic generator (xorshift), so the test needs no crate.
struct Xorshift(u64);
impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn whole_powers_are_within_one_ulp_of_pow() {
    use matfuse::values::ops::whole_power::{real_pow, whole_power};
    // every exponent from -32 to 32 over bases of every exponent (random bit patterns:
    // subnormal, tiny, huge, negative), results from subnormal to overflow; against the
    // C library's pow (itself within 0.52 ulp): at most 1 ulp apart, and every special
    // (zero, infinity, NaN, exact powers) the same
    let mut g = Xorshift(0x9e3779b97f4a7c15);
    let mut xs: Vec<f64> = (0..20000)
        .map(|_| f64::from_bits(g.next() & !(0x7ffu64 << 52) | ((g.next() % 2047) << 52)))
        .collect();
    // values near 1 and near the overflow and underflow edges of each power
    xs.extend((0..4000).map(|k| 1.0 + (k as f64 - 2000.0) * 1e-7));
    xs.extend((0..2000).map(|k| (k as f64 - 1000.0) * 0.013));
    for k in 1..=32 {
        let edge = 2f64.powf(1024.0 / k as f64);
        let low = 2f64.powf(-1074.0 / k as f64);
        for j in 0..40 {
            let f = 1.0 + (j as f64 - 20.0) * 1e-3;
            xs.extend([edge * f, -edge * f, low * f, -low * f]);
        }
    }
    let specials = [
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        5e-324,
        -5e-324,
        f64::MAX,
        -f64::MAX,
        1.0,
        -1.0,
        2.0,
        -2.0,
        0.5,
        3.0,
        -10.0,
    ];
    let (mut worst, mut differ, mut total) = (0u64, 0usize, 0usize);
    for k in -32..=32i32 {
        for &x in xs.iter().chain(&specials) {
            let want = x.powf(k as f64);
            let got = whole_power(x, k);
            assert_eq!(
                real_pow(x, k as f64).to_bits(),
                got.to_bits(),
                "real_pow {x:e}^{k}"
            );
            total += 1;
            if want.is_nan() || got.is_nan() {
                assert!(
                    want.is_nan() && got.is_nan(),
                    "{x:e}^{k}: {got:e} against {want:e}"
                );
                continue;
            }
            if !want.is_finite() || want == 0.0 || !x.is_finite() || x == 0.0 {
                assert_eq!(
                    got.to_bits(),
                    want.to_bits(),
                    "{x:e}^{k}: {got:e} against {want:e}"
                );
                continue;
            }
            let d = ulps(got, want);
            assert!(d <= 1, "{x:e}^{k}: {got:e} against {want:e} ({d} ulps)");
            worst = worst.max(d);
            differ += (d != 0) as usize;
        }
    }
    // the double-double chain is correctly rounded outside subnormal results and near-ties,
    // as pow is (within 0.52 ulp): they differ in very few last bits
    assert!(
        differ * 1000 < total,
        "{differ} of {total} differ (worst {worst} ulp)"
    );
    // exact results stay exact: whole numbers and powers of two
    for b in -200..=200i32 {
        for k in 0..=7i32 {
            let exact = (b as f64).powi(k);
            if exact.abs() < 9e15 {
                assert_eq!(whole_power(b as f64, k), exact, "{b}^{k}");
            }
        }
    }
    for e in -60..=60 {
        let x = 2f64.powi(e);
        for k in -16..=16 {
            assert_eq!(whole_power(x, k), x.powf(k as f64), "2^{e}^{k}");
        }
    }
}

#[test]
fn powers_of_arrays_follow_the_scalar_power() {
    host_only();
    // x.^k of arrays (eager, in a fused chain, across the 2^16 blocks) gives what x(i)^k
    // gives element by element, for whole and other exponents, double and single; negative
    // bases with whole exponents stay real
    let code = "
        rng(22); ok = true; cls_ok = true;
        for n = [1 7 8 9 100 65537]
          x = (rand(1, n) - 0.5) * 40; x(1) = -0; if n > 8, x(2:8) = [Inf -Inf NaN 0 1e-310 -1e300 1e155]; end
          for k = [-33 -32 -17 -3 -2 -1 0 1 2 3 4 5 7 16 31 32 33 2.5 -0.5]
            for cls = {'double', 'single'}
              y = cast(x, cls{1});
              if k ~= fix(k), y = abs(y); end
              e = y.^k; f = (y * 1).^k + 0; g = zeros(size(y), cls{1});
              for i = 1:n, g(i) = y(i)^k; end
              ok = ok && isequaln(e, g) && isequaln(f, g);
              cls_ok = cls_ok && strcmp(class(e), cls{1}) && isreal(e);
            end
          end
        end
        fprintf('elements %d\\n', ok);
        fprintf('classes %d\\n', cls_ok);
        w = (-300:300).^3; v = zeros(1, 601); for i = 1:601, t = i - 301; v(i) = t * t * t; end
        fprintf('exact %d\\n', isequal(w, v) && isequal((1:100).^-1, 1 ./ (1:100)));
        fprintf('empty %d\\n', isequal(size(zeros(0, 3).^3), [0 3]));
        fprintf('ints %d\\n', isequal(int32([-5 3 46341]).^2, int32([25 9 2147483647])) && isequal(int8(-3).^3, int8(-27)));";
    all_hold(code, 5);
}

#[test]
fn row_means_sums_and_variances_follow_the_loop() {
    host_only();
    // sum, mean and var along dimension 2 (lanes split across the cores from 2^18 elements)
    // against the lanes added in order in a loop: the same bits for sums and means (the
    // order is the same), variances within a few ulps; NaN and Inf rows, -0, 3-D arrays
    let code = "
        rng(23); ok = true; vars = true;
        for sz = [1 1 1; 5 3 1; 127 9 1; 300 1000 1; 1000 300 1; 513 600 1; 40 70 3; 600 500 2]'
          A = (rand(sz') - 0.3) * 9;
          if sz(1) > 2 && sz(2) > 2, A(2, 2) = NaN; A(3, 1) = Inf; A(1, :) = -0; end
          for cls = {'double', 'single'}
            B = cast(A, cls{1});
            s = sum(B, 2); m = mean(B, 2); v = var(B, 0, 2); w = var(B, 1, 2);
            for p = 1:sz(3)
              for i = 1:sz(1)
                t = 0; for j = 1:sz(2), t = t + double(B(i, j, p)); end
                ok = ok && isequaln(s(i, 1, p), cast(t, cls{1})) && isequaln(m(i, 1, p), cast(t / sz(2), cls{1}));
                mu = t / sz(2); q = 0; for j = 1:sz(2), q = q + (double(B(i, j, p)) - mu)^2; end
                v0 = q / max(sz(2) - 1, 1); if sz(2) == 1, v0 = 0; end
                tol = 1e-12; if strcmp(cls{1}, 'single'), tol = 1e-6; end
                if isnan(v0) || isinf(v0), vars = vars && isnan(v(i, 1, p)) && isnan(w(i, 1, p));
                else, vars = vars && abs(double(v(i, 1, p)) - v0) <= tol * max(v0, eps) && abs(double(w(i, 1, p)) - q / sz(2)) <= tol * max(q / sz(2), eps); end
              end
            end
            ok = ok && strcmp(class(m), cls{1}) && strcmp(class(v), cls{1}) && size(v, 1) == sz(1) && size(v, 2) == 1 && size(v, 3) == sz(3);
          end
        end
        fprintf('sums %d\\n', ok);
        fprintf('variances %d\\n', vars);
        fprintf('omitnan %d\\n', isequal(mean([1 NaN 3; NaN NaN 2], 2, 'omitnan'), [2; 2]) && isequal(sum(single([1 NaN; 2 3]), 2, 'omitnan'), single([1; 5])));
        fprintf('empty %d\\n', isequal(size(mean(zeros(3, 0), 2)), [3 1]) && all(isnan(mean(zeros(3, 0), 2))) && isequal(size(var(zeros(0, 5), 0, 2)), [0 1]));";
    all_hold(code, 4);
}

#[test]
fn repmat_follows_indexing() {
    host_only();
    // repmat of rows, columns and matrices of every class against indexing with repeated
    // subscripts, small and past 2^18 elements (written in blocks across the cores)
    let code = "
        ok = true;
        for sz = [1 1; 1 7; 1 1000; 7 1; 3 4; 513 2; 1 0; 0 3]'
          base = reshape(mod((0:prod(sz)-1) * 0.618, 1) - 0.2, sz');
          for reps = [1 1; 3 1; 1 3; 1000 1; 700 3; 2 600; 0 4]'
            for cls = {'double', 'single', 'int8', 'uint32', 'logical', 'char', 'complex'}
              switch cls{1}
                case 'logical', b = base > 0.3;
                case 'char', b = char(65 + floor(base * 20 + 5));
                case 'complex', b = complex(base, -base);
                otherwise, b = cast(base * 100, cls{1});
              end
              r = repmat(b, reps(1), reps(2));
              want = b(repmat(1:sz(1), 1, reps(1)), repmat(1:sz(2), 1, reps(2)));
              ok = ok && isequal(r, want) && strcmp(class(r), class(b)) && isequal(size(r), sz' .* reps');
            end
          end
        end
        fprintf('tiles %d\\n', ok);
        x = repmat(single([-0 NaN Inf 1]), 300, 1);
        fprintf('specials %d\\n', isequaln(x(300, :), single([0 NaN Inf 1])) && 1 / x(77, 1) == -Inf);";
    all_hold(code, 2);
}

#[test]
fn integer_sums_and_products_with_a_whole_number_saturate_as_through_double() {
    host_only();
    // a + q, a - q, q - a and a * q for whole q (of the class: its own width, products by
    // bounds found once; past it: in i64) against the value through double, cast back
    // (saturating); every class the typed kernels take, sizes both sides of 2^18, the
    // class's extremes included
    let code = "
        ok = true;
        for cls = {'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32'}
          lo = double(intmin(cls{1})); hi = double(intmax(cls{1}));
          for n = [5 1000 262145]
            d = [lo hi 0 1 -1 lo + 1 hi - 1 floor(lo / 3) ceil(hi / 3)];
            d = [d round(lo + (hi - lo) * mod((0:n-1) * 0.6180339887498949, 1))];
            d = max(min(d, hi), lo); a = cast(d, cls{1});
            for q = [0 1 -1 2 3 -3 7 -7 127 128 -128 255 256 40000 -40000 65535 2147483647 -2147483648 2147483648]
              r1 = a * q; r2 = q * a; r3 = a + q; r4 = a - q; r5 = q - a;
              ok = ok && isequal(r1, cast(d * q, cls{1})) && isequal(r2, r1);
              ok = ok && isequal(r3, cast(d + q, cls{1})) && isequal(r4, cast(d - q, cls{1})) && isequal(r5, cast(q - d, cls{1}));
              ok = ok && strcmp(class(r1), cls{1}) && strcmp(class(r5), cls{1}) && isequal(size(r1), size(a));
              if ~ok, fprintf('failed %s %d %g\\n', cls{1}, n, q); break; end
            end
          end
        end
        fprintf('saturated %d\\n', ok);
        fprintf('empty %d\\n', isequal(size(int32(zeros(0, 3)) * 3), [0 3]) && isequal(size(uint8(zeros(1, 0)) - 5), [1 0]));";
    all_hold(code, 2);
}
