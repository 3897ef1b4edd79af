//! The host engine's eighth round (issue 23): `find(mask)` of a pending mask computes the
//! mask once on the host and counts it there (no fused count that computed it a second
//! time); `x(mask)` compacts the kept elements in one pass on the host (no positions in
//! doubles and gather); `sum(A, 2)` and `mean(A, 2)` keep a stretch of 32 lanes in registers down the
//! rows. Each against the rule written out as a loop, on both sides of the block and
//! parallel thresholds, with NaN, Inf and -0, every class touched.

use crate::{all_hold, host_only};

#[test]
fn find_of_pending_masks_follows_the_loop() {
    host_only();
    // find of comparisons (pending masks) and of pending arithmetic (nonzero: NaN yes, -0
    // no) at lengths around eight, the 64-byte vectors, the 2^16 blocks and 2^18, in every
    // class the comparison can start from; x(mask), x(mask) = v and sums of x(mask) too
    let code = "
        rng(31); ok = true; gathers = true; puts = true;
        for n = [1 2 7 8 9 63 64 65 127 128 129 1000 65535 65536 65537 262143 262144 262145 300001]
          x = rand(1, n);
          if n > 20, x(3) = NaN; x(5) = Inf; x(6) = -Inf; x(7) = -0; x(8) = 0.5; x(9) = 0; end
          for cls = {'double', 'single', 'int32', 'uint8', 'int8', 'logical'}
            if strcmp(cls{1}, 'logical'), y = x > 0.3; t = 0;
            elseif cls{1}(1) == 'i' || cls{1}(1) == 'u', y = cast(x * 200 - 50, cls{1}); t = 20;
            else, y = cast(x, cls{1}); t = 0.5; end
            m = y > t;
            r = zeros(1, 0);
            for k = 1:n, if y(k) > t, r(end + 1) = k; end, end
            ok = ok && isequal(find(y > t), r) && isequal(find(y.' > t), r.');
            v = y(r);
            gathers = gathers && isequal(y(y > t), v) && isequal(size(y(y > t)), size(v));
            if ~strcmp(cls{1}, 'logical')
              gathers = gathers && isequaln(sum(y(y > t)), sum(v));
            end
            z = y; z(z > t) = 0; w = y; w(r) = 0;
            puts = puts && isequaln(z, w);
          end
          % pending arithmetic: NaN is nonzero, -0 is zero
          d = x - 0.5; d(min(n, 4)) = 0;
          q = zeros(1, 0); e = d .* 2;
          for k = 1:n, if e(k) ~= 0, q(end + 1) = k; end, end
          ok = ok && isequal(find(d .* 2), q) && isequal(find(single(d) .* 2), q);
          nz = zeros(1, 0); s = x .* 1; for k = 1:n, if s(k) ~= 0, nz(end + 1) = k; end, end
          ok = ok && isequal(find(x .* 1), nz);
        end
        fprintf('positions %d\\n', ok);
        fprintf('gathers %d\\n', gathers);
        fprintf('puts %d\\n', puts);
        fprintf('none %d\\n', isequal(size(find(rand(1, 70000) > 2)), [1 0]) && isequal(size(find(rand(70000, 1) > 2)), [0 1]) && isempty(find(zeros(1, 0) > 1)));
        fprintf('all %d\\n', isequal(find(ones(1, 70001) > 0), 1:70001) && isequal(find(ones(3, 4) > 0), (1:12)'));
        fprintf('matrix %d\\n', isequal(find(magic(6) > 20), find(double(magic(6) > 20))) && isequal(size(find(magic(6) > 20)), [16 1]));";
    all_hold(code, 6);
}

#[test]
fn row_sums_and_means_in_registers_follow_the_loop() {
    host_only();
    // sum and mean along dimension 2 against the columns added in order in a loop from +0
    // (the same additions, so the same bits): row counts around the 32-lane stretches and
    // the split across the cores, past 2^18 elements, NaN and Inf rows, a -0 row, 3-D
    // arrays, 'omitnan' (NaN added as 0), every real class
    let code = "
        rng(37); ok = true; classes = true; omit = true;
        for sz = [1 1 1; 5 3 1; 31 7 1; 32 9 1; 33 9 1; 63 40 1; 64 40 1; 65 40 1; 300 1000 1; 1000 300 1; 1001 299 1; 513 600 1; 40 70 3; 600 500 2]'
          A = (rand(sz') - 0.3) * 9;
          if sz(1) > 2 && sz(2) > 2, A(2, 2) = NaN; A(3, 1) = Inf; A(1, :) = -0; end
          if sz(1) > 40, A(40, 5) = -Inf; A(41, :) = NaN; end
          for cls = {'double', 'single'}
            B = cast(A, cls{1});
            s = sum(B, 2); m = mean(B, 2); so = sum(B, 2, 'omitnan');
            for p = 1:sz(3)
              t = zeros(sz(1), 1); u = zeros(sz(1), 1);
              for j = 1:sz(2)
                c = double(B(:, j, p)); t = t + c; c(isnan(c)) = 0; u = u + c;
              end
              ok = ok && isequaln(s(:, 1, p), cast(t, cls{1})) && isequaln(m(:, 1, p), cast(t / sz(2), cls{1}));
              omit = omit && isequaln(so(:, 1, p), cast(u, cls{1}));
            end
            ok = ok && strcmp(class(s), cls{1}) && strcmp(class(m), cls{1}) && size(s, 1) == sz(1) && size(s, 2) == 1 && size(s, 3) == sz(3);
          end
          if sz(3) == 1
            % integers and logical: sums of whole numbers, exact in double
            for cls = {'int32', 'uint8', 'int16', 'logical'}
              if strcmp(cls{1}, 'logical'), B = A > 1; else, B = cast(A * 10, cls{1}); end
              t = zeros(sz(1), 1); for j = 1:sz(2), t = t + double(B(:, j)); end
              classes = classes && isequal(double(sum(B, 2)), t) && isequal(mean(B, 2), t / sz(2));
            end
          end
        end
        fprintf('sums %d\\n', ok);
        fprintf('omitnan %d\\n', omit);
        fprintf('classes %d\\n', classes);
        fprintf('empty %d\\n', isequal(size(sum(zeros(3, 0), 2)), [3 1]) && isequal(sum(zeros(3, 0), 2), zeros(3, 1)) && isequal(size(mean(zeros(0, 4), 2)), [0 1]) && isequal(size(sum(single(zeros(0, 40)), 2)), [0 1]));";
    all_hold(code, 4);
}

#[test]
fn masked_gathers_follow_the_loop() {
    host_only();
    // x(mask) compacted on the host: a mask from another array, of a matrix (a column), of
    // a row (a row), complex values, the result used in a later expression, masks of every
    // density across the 2^16 blocks, NaN and -0 kept as they are
    let code = "
        rng(41); ok = true;
        for n = [1 9 64 65 1000 65537 262145 300001]
          z = rand(1, n); x = rand(1, n) * 4 - 2;
          if n > 20, x(2) = NaN; x(4) = -0; z(2) = 0.9; z(4) = 0.9; end
          for dens = [0 0.3 0.999 1]
            m = z < dens;
            r = zeros(1, 0); for k = 1:n, if m(k), r(end + 1) = x(k); end, end
            % a scalar indexed by a false scalar gives 0x0 (MATLAB, Octave)
            if n == 1 && isempty(r), r = zeros(0, 0); end
            got = x(z < dens);
            ok = ok && isequaln(got, r) && isequal(size(got), size(r));
            if n > 20 && dens > 0.95, ok = ok && 1 / got(find(r == 0, 1)) == -Inf; end
            ok = ok && isequaln(x(z < dens) * 2 + 1, r * 2 + 1);
            xs = single(x); ok = ok && isequaln(xs(z < dens), single(r));
            xi = int16(x * 100); ok = ok && isequal(xi(z < dens), int16(r * 100));
            c = complex(x, z); rc = complex(r, z(m));
            ok = ok && isequaln(c(z < dens), rc);
          end
        end
        fprintf('vectors %d\\n', ok);
        A = reshape(1:30, 5, 6); M = mod(A, 3) == 0;
        fprintf('matrix %d\\n', isequal(A(A > 20), (21:30)') && isequal(A(M), find(M)) && isequal(size(A(A > 100)), [0 1]));
        fprintf('column %d\\n', isequal(size(x(:)), [n 1]) && isequaln(x(x(:) > 0.5), x(x > 0.5)));";
    all_hold(code, 3);
}
