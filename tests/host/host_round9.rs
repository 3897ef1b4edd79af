//! The host engine's ninth round (issue 23): a group whose last step is a comparison or a
//! logical operation (`x > t`, `a & b`, `~m`, `isnan(x)`) is evaluated from that step's
//! operands straight into what reads it: the test of `any`/`all` (stopping at the first
//! block that answers) or the bits of a logical result, never a block of 0/1 values stored
//! and read again. Against known values (one element set at every block boundary) and
//! loops, double and single (thresholds a single cannot hold), NaN, Inf, -0, empties, int
//! classes. `[m, i] = max(x)`/`min` of a contiguous lane in the processor's widest vectors
//! (the runs' loop was compiled as baseline SSE2), against a loop and known positions.

use crate::{all_hold, host_only};

#[test]
fn any_and_all_of_comparisons_find_the_one_element() {
    host_only();
    // every element 0.25 but one, set at the first element, on both sides of the 4096- and
    // 16384-element blocks, the 2^16 and 2^18 thresholds, and the last: any/all of each
    // comparison and logical operation must see it (and nothing without it). 0.1 and 0.2
    // are not singles: only the comparisons whose answer is the same whether the double is
    // rounded to single first (Octave, matfuse's eager path) or compared exactly (the
    // fused path's `narrowed_compare`) are asked; the two differ for `single(0.1) == 0.1`
    // from 2^16 elements on, before this round too
    let code = "
        cmp = true; narrowed = true; chains = true; nans = true; infs = true; zeros_ = true; ints = true;
        for n = [1 2 7 4095 4096 4097 16383 16384 16385 65535 65536 65537 262143 262144 262145 300001]
          ks = unique(min(n, [1 2 4095 4096 4097 16384 16385 65536 65537 262144 262145 n]));
          for cls = {'double', 'single'}
                        base = cast(zeros(1, n) + 0.25, cls{1});
            cmp = cmp && ~any(base > 0.5) && all(base < 0.5) && ~any(base == 0.75) && all(base ~= 0.75) && ~any(base >= 0.3) && all(base <= 0.25);
            for k = ks
              y = base; y(k) = 0.75;
              cmp = cmp && any(y > 0.5) && ~all(y < 0.5) && any(y >= 0.75) && ~any(y > 0.75) ...
                && any(y == 0.75) && ~all(y ~= 0.75) && all(y <= 0.75) && any(0.5 < y) && ~all(0.5 > y) ...
                && (n == 1 || any(y ~= 0.75)) && (n == 1 || ~all(y == 0.75));
              cmp = cmp && any(y > 0.5 & y < 1) && ~all(y < 0.5 | y > 1) && any(xor(y > 0.5, y > 2)) ...
                && ~all(~(y > 0.5)) && any(~(y < 0.5)) && ~any(y > 0.5 & y > 0.8);
              z = base; z(k) = 0.1;
              narrowed = narrowed && ~any(z < 0.1) && all(z >= 0.1) && any(z < 0.2) && ~all(z >= 0.2);
              e = base; e(k) = 0.125;
              narrowed = narrowed && any(e == 0.125) && ~all(e ~= 0.125) && any(e <= 0.125) && ~all(e > 0.125);
              chains = chains && any(y * 2 > 1) && ~all(y * 2 < 1) && any(abs(y - 0.75) < 0.01) && ~any(sqrt(y) > 0.9);
              w = base; w(k) = NaN;
              nans = nans && ~any(w > 0.5) && any(w < 0.5) == (n > 1) && ~all(w < 0.5) && any(isnan(w)) ...
                && ~all(isfinite(w)) && ~all(w == w) && any(w ~= w) && ~any(isnan(base)) && all(base == base);
              v = base; v(k) = -Inf;
              infs = infs && any(isinf(v)) && ~all(isfinite(v)) && any(v < -1e30) && ~any(isinf(base)) && all(isfinite(base));
              zz = cast(zeros(1, n), cls{1}); zz(k) = -0;
              zeros_ = zeros_ && ~any(zz ~= 0) && all(zz == 0) && all(~zz) && ~any(zz < 0);
            end
          end
          if n >= 4095
            for icls = {'int32', 'uint8', 'int16'}
              a = zeros(1, n, icls{1});
              for k = ks
                b = a; b(k) = 7;
                ints = ints && any(b > 6) && ~any(b > 7) && all(b < 8) && ~all(b < 7) && any(b == 7) && ~all(b == 0);
              end
            end
          end
        end
        fprintf('comparisons %d\\n', cmp);
        fprintf('narrowed %d\\n', narrowed);
        fprintf('chains %d\\n', chains);
        fprintf('nan %d\\n', nans);
        fprintf('inf %d\\n', infs);
        fprintf('negzero %d\\n', zeros_);
        fprintf('ints %d\\n', ints);
        M = zeros(3, 4) + 0.25; M(2, 3) = 0.75;
        fprintf('columns %d\\n', isequal(any(M > 0.5), logical([0 0 1 0])) && isequal(all(M < 0.5), logical([1 1 0 1])) && isequal(any(M > 0.5, 2), logical([0; 1; 0])));
        fprintf('empty %d\\n', ~any(zeros(1, 0) > 0) && all(zeros(1, 0) > 0) && isequal(any(zeros(0, 3) > 0), false(1, 3)) && isequal(all(zeros(0, 3) > 0), true(1, 3)) && ~any(single(zeros(1, 0)) < 1));
        fprintf('class %d\\n', islogical(any(rand(1, 70000) > 0.5)) && islogical(all(single(rand(1, 70000)) > 2)));";
    all_hold(code, 10);
}

#[test]
fn logical_results_follow_the_loop() {
    host_only();
    // logical arrays of comparisons and logical operations (written as bits from their
    // operands) against each element compared in a loop: lengths around the 4096-element
    // blocks and the 2^16 split, double and single, thresholds exact and not exact in
    // single, a single against a double array, with NaN, Inf, -Inf, -0, 0 and the threshold
    // itself among the values (no NaN where & | ~ read a value: MATLAB refuses it); 0.1 only
    // where rounding it to single first or not gives the same answer (see above); find of
    // them against the loop's positions
    let code = "
        rng(43); ok = true; classes = true; found = true;
        for n = [1 7 64 65 4095 4096 4097 16385 65537]
          x = rand(1, n); d = rand(1, n);
          if n > 20, x(3) = NaN; x(5) = Inf; x(6) = -Inf; x(7) = -0; x(8) = 0.5; x(9) = 0; x(10) = 0.1; d(11) = -0; d(12) = 0; end
          for cls = {'double', 'single'}
            y = cast(x, cls{1}); dc = cast(d, cls{1});
            r = false(13, n);
            for i = 1:n
              a = y(i); b = d(i);
              r(:, i) = [a > 0.5; a >= 0.1; a < 0.1; a <= 0.5; a == 0.5; a ~= 0.5; ...
                         (a > 0.3) && (b ~= 0); (a > 0.3) || (b > 0.5); (a > 0.5) ~= (b > 0.5); ...
                         dc(i) == 0; isnan(a); isinf(a); a > b];
            end
            got = {y > 0.5, y >= 0.1, y < 0.1, y <= 0.5, y == 0.5, y ~= 0.5, (y > 0.3) & d, (y > 0.3) | d > 0.5, ...
                   xor(y > 0.5, d > 0.5), ~dc, isnan(y), isinf(y), y > d};
            for j = 1:13
              ok = ok && isequal(got{j}, r(j, :));
              classes = classes && islogical(got{j}) && isequal(size(got{j}), [1 n]);
            end
            found = found && isequal(find(y > 0.5), find(r(1, :))) && isequal(find(y == 0.5), find(r(5, :)));
          end
        end
        fprintf('bits %d\\n', ok);
        fprintf('classes %d\\n', classes);
        fprintf('find %d\\n', found);
        fprintf('empty %d\\n', isequal(size(zeros(0, 3) > 0), [0 3]) && islogical(single(zeros(1, 0)) == 1) && isequal(size(~zeros(2, 0)), [2 0]));";
    all_hold(code, 4);
}

#[test]
fn max_and_min_positions_follow_the_loop() {
    host_only();
    // [m, i] = max/min of vectors on both sides of the 32-element accumulators, the
    // 2048-element runs and the 2^18 split across the cores: against the first extreme
    // found in a loop (NaN skipped; with 'includenan' the first NaN), ties (the first
    // wins), infinities, a lane of NaN (its first), -0 and +0 (equal: the first); past
    // 65537 elements against known positions
    let code = "
        rng(47); ok = true; inc = true; big = true;
        for n = [1 2 31 32 33 63 2047 2048 2049 4097 65537]
          x = rand(1, n) * 10 - 5;
          for cls = {'double', 'single'}
            y = cast(x, cls{1});
            for c = 1:6
              z = y;
              if c == 2, z(max(1, floor(n / 2))) = 20; z(n) = 20; z(1) = -20; z(n) = -20; end
              if c == 3, z(ceil(n / 3)) = NaN; z(n) = NaN; end
              if c == 4, z(n) = Inf; z(1) = -Inf; end
              if c == 5, z(:) = NaN; end
              if c == 6, z(:) = 0; z(min(2, n)) = -0; end
              for mx = [true false]
                bm = NaN; bi = 0; fn = 0;
                for k = 1:n
                  v = double(z(k));
                  if isnan(v)
                    if fn == 0, fn = k; end
                  elseif bi == 0 || (mx && v > bm) || (~mx && v < bm)
                    bm = v; bi = k;
                  end
                end
                if bi == 0, bi = 1; end
                if mx, [m, i] = max(z); [mn, in] = max(z, [], 'includenan');
                else, [m, i] = min(z); [mn, in] = min(z, [], 'includenan'); end
                ok = ok && i == bi && isequaln(double(m), bm) && strcmp(class(m), cls{1});
                if fn > 0, inc = inc && in == fn && isnan(mn); else, inc = inc && in == bi; end
              end
            end
          end
        end
        for n = [262143 262144 262145 300001 1000003]
          for cls = {'double', 'single'}
            z = cast(rand(1, n), cls{1});
            for p = unique(min(n, [1 2047 2048 2049 131072 262144 262145 n]))
              q = p - 1; if p == 1, q = 2; end
              w = z; w(p) = 2; w(n) = 2; w(q) = -1; w(p) = 2;
              [m, i] = max(w); [a, j] = min(w);
              big = big && i == p && m == 2 && j == q && a == -1;
              r = n; if p == n, r = 3; end
              w(r) = NaN; [m, i] = max(w); [mn, in] = max(w, [], 'includenan');
              big = big && i == p && in == r && isnan(mn);
            end
          end
        end
        fprintf('positions %d\\n', ok);
        fprintf('includenan %d\\n', inc);
        fprintf('large %d\\n', big);";
    all_hold(code, 3);
}
