//! The host engine's sixth round (issue 23): `find` counted and written in blocks across the
//! cores into a result that is not cleared first; `var`/`std` without a separate scan for
//! NaN and Inf, and their sums and squares in wide vectors; short lanes of `[m, i] = min(A,
//! [], 1)` across the cores; results from 1 MiB in kept mappings (host_alloc). Each against
//! the rule written out as a loop in the language, on both sides of the parallel thresholds
//! (2^18 elements, blocks of 2^16), with NaN, Inf and -0.

use crate::{all_hold, host_only};

#[test]
fn find_follows_the_loop_across_the_blocks() {
    host_only();
    // sizes around eight (the skipped runs of zeros), the 2^16 blocks and the 2^18 threshold;
    // densities from none to all, runs of zeros longer than a block; NaN counts as nonzero,
    // -0 as zero; single, double, int32 and logical
    let code = "
        rng(11); ok = true; shapes = true;
        for n = [1 7 8 9 17 1000 65535 65536 65537 262143 262144 262150 600001]
          for dens = [0 0.0005 0.5 1]
            x = double(rand(1, n) < dens) .* (1 + floor(rand(1, n) * 3));
            if n > 20, x(3) = NaN; x(5) = -0; x(min(n, 70000):min(n, 200000)) = 0; end
            r = zeros(1, 0);
            for k = 1:n, if x(k) ~= 0, r(end + 1) = k; end, end
            for cls = {'double', 'single', 'int32', 'logical'}
              % int32(NaN) is 0
              if strcmp(cls{1}, 'logical'), y = x ~= 0; else, y = cast(x, cls{1}); end
              w = r; if strcmp(cls{1}, 'int32'), w = reshape(r(~isnan(x(r))), 1, []); end
              f = find(y);
              ok = ok && isequal(f, w) && strcmp(class(f), 'double');
              c = find(y.');
              % a scalar counts as a row
              shapes = shapes && (n == 1 || (isequal(c, w.') && isequal(size(c), [numel(w) 1])));
            end
            m = find(x > 0.5); ok = ok && isequal(m, find(x >= 1));
          end
        end
        fprintf('positions %d\\n', ok);
        fprintf('shapes %d\\n', shapes);
        x = zeros(1, 300000); x([1 65536 65537 131072 299999 300000]) = [2 NaN -1 Inf 4 5];
        first = find(x, 2); last = find(x, 3, 'last');
        fprintf('limits %d\\n', isequal(first, [1 65536]) && isequal(last, [131072 299999 300000]));
        A = zeros(700, 500); A([1 700 701 350000]) = [1 2 3 4];
        [i, j, v] = find(A);
        fprintf('subscripts %d\\n', isequal([i j v], [1 1 1; 700 1 2; 1 2 3; 700 500 4]));
        fprintf('empty %d\\n', isequal(size(find(zeros(1, 300000))), [1 0]) && isequal(size(find(zeros(300000, 1))), [0 1]) && isequal(size(find([])), [0 0]));";
    all_hold(code, 5);
}

#[test]
fn variances_follow_the_two_pass_loop() {
    host_only();
    // lengths below the 1024 sequential cut, between, and above 2^18 (split across the
    // cores); a NaN, an Inf or Inf and -Inf together anywhere give NaN; against the mean and
    // the squared deviations added in a loop in double (the kernel adds in blocks: within a
    // few ulps, not bit for bit)
    let code = "
        rng(12); ok = true; specials = true;
        for n = [1 2 9 1023 1024 5000 262143 262144 300001]
          x = (rand(1, n) - 0.3) * 7;
          for cls = {'double', 'single'}
            y = cast(x, cls{1}); d = double(y);
            s = 0; for k = 1:n, s = s + d(k); end
            mu = s / n; q = 0; for k = 1:n, q = q + (d(k) - mu)^2; end
            if n > 1, v0 = q / (n - 1); else, v0 = 0; end
            v1 = q / n;
            tol = 1e-12; if strcmp(cls{1}, 'single'), tol = 2e-7; end
            a = var(y); b = var(y, 1); c = std(y); e = std(y(:));
            ok = ok && strcmp(class(a), cls{1}) && strcmp(class(c), cls{1});
            ok = ok && abs(double(a) - v0) <= tol * max(v0, eps) && abs(double(b) - v1) <= tol * max(v1, eps);
            ok = ok && abs(double(c) - sqrt(v0)) <= tol * max(sqrt(v0), eps);
            ok = ok && abs(double(e) - sqrt(v0)) <= tol * max(sqrt(v0), eps);
            if n > 2
              for at = unique([1 floor(n / 2) n])
                z = y; z(at) = NaN; specials = specials && isnan(var(z)) && isnan(std(z, 1));
                z = y; z(at) = Inf; specials = specials && isnan(var(z)) && isnan(std(z));
                z = y; z(at) = -Inf; specials = specials && isnan(std(z));
                z = y; z(1) = Inf; z(end) = -Inf; specials = specials && isnan(std(z));
              end
              z = y; z(2) = -0; specials = specials && ~isnan(std(z));
            end
          end
        end
        fprintf('values %d\\n', ok);
        fprintf('specials %d\\n', specials);
        fprintf('constant %d\\n', std(single(ones(1, 300000)) * 3) == 0 && std(-zeros(1, 5000)) == 0);
        A = reshape((0:299999) * 0.37, 600, 500); A(3, 7) = NaN;
        s = std(A); t = zeros(1, 500);
        for j = 1:500, t(j) = std(A(:, j).'); end
        fprintf('columns %d\\n', isequaln(s, t) && isnan(s(7)) && ~any(isnan(s([1:6 8:end]))));";
    all_hold(code, 4);
}

#[test]
fn short_lane_extremes_across_the_cores_follow_the_loop() {
    host_only();
    // [m, i] = min/max(A, [], 1) of many short columns (above 2^18 elements the columns are
    // split across the cores): every column against the first-extreme loop, NaN skipped
    // unless 'includenan', all-NaN columns at position 1, ties at the first, -0 before +0
    let code = "
        rng(13); ok = true;
        for sz = [300 1000; 257 1021; 40 30]'
          A = floor(rand(sz(1), sz(2)) * 50) - 25;
          A(ceil(rand(1, 500) * numel(A))) = NaN; A(:, 3) = NaN; A(:, 5) = 2; A(1, 6) = -0; A(2:end, 6) = 0;
          A(4, 8) = -Inf; A(9, 8) = -Inf; A(1:2, 9) = Inf;
          for cls = {'double', 'single'}
            B = cast(A, cls{1});
            [m, i] = min(B, [], 1); [p, j] = max(B, [], 1); [q, k] = min(B, [], 1, 'includenan');
            for c = 1:size(B, 2)
              col = B(:, c); mi = 0; pi = 0; qi = 0;
              for r = 1:size(B, 1)
                v = col(r);
                if isnan(v), if qi == 0 || ~isnan(col(qi)), qi = r; end, continue; end
                if mi == 0 || v < col(mi), mi = r; end
                if pi == 0 || v > col(pi), pi = r; end
                if qi == 0 || (~isnan(col(qi)) && v < col(qi)), qi = r; end
              end
              if mi == 0, mi = 1; pi = 1; end
              ok = ok && i(c) == mi && j(c) == pi && k(c) == qi;
              ok = ok && isequaln(m(c), col(mi)) && isequaln(p(c), col(pi)) && isequaln(q(c), col(qi));
            end
            ok = ok && isequal(1 / m(6), -Inf) && strcmp(class(m), cls{1});
          end
        end
        fprintf('columns %d\\n', ok);";
    all_hold(code, 1);
}

#[test]
fn results_in_kept_mappings_hold_their_values() {
    host_only();
    // results of 1 to 4 MiB are mapped now and their mappings kept: a result made in a freed
    // one holds exactly its values, and a zeroed array made in a freed one is all zeros
    let code = "
        ok = true; zero = true;
        for n = [131072 131073 250000 500000 1000000]
          for cls = {'single', 'double'}
            x = cast(mod((0:n-1) * 0.6180339887498949, 1), cls{1});
            for rep = 1:3
              y = x(2:end) - x(1:end-1);
              ok = ok && numel(y) == n - 1 && y(1) == x(2) - x(1) && y(end) == x(end) - x(end-1);
              ok = ok && isequal(y(1:97:end), x(2:97:end) - x(1:97:end-1));
              junk = y + 5; clear junk;
              z = zeros(1, n - 1, cls{1}); zero = zero && ~any(z) && isequal(1 ./ z(1:1000:end), Inf(1, numel(1:1000:n-1), cls{1}));
              w = int32(x * 1000) + int32(3);
              ok = ok && w(end) == int32(x(end) * 1000) + 3;
            end
          end
        end
        fprintf('values %d\\n', ok);
        fprintf('zeros %d\\n', zero);";
    all_hold(code, 2);
}
