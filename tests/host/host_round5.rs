//! The host engine's fifth round (issue 23): `max(A, [], d)` / `min` with one output along a
//! later dimension as running values (no positions), `[m, i] = max(A, [], 2)` split along the
//! rows across the cores, and the interpreter's thread joining the kernels' thread pool.
//! Each against the general rule written out in the language, or the same extremes taken
//! along the first dimension of the transpose (another kernel), with NaN, Inf, -0 and ties,
//! on both sides of the parallel threshold (2^18 elements).

use crate::{all_hold, host_only};

/// The general rule as a loop: first extreme, NaN skipped unless `omit` is false (then the
/// first NaN), a lane of NaN gives NaN.
const REF: &str = "
    function [m, i] = ref(x, ismax, omit)
      i = 0; m = NaN;
      for k = 1:numel(x)
        v = x(k);
        if isnan(v)
          if ~omit, i = k; m = v; return; end
          continue;
        end
        if i == 0 || (ismax && v > m) || (~ismax && v < m), i = k; m = v; end
      end
      if i == 0, i = 1; m = x(1); end
    end
";

#[test]
fn one_output_extremes_along_rows_follow_the_loop() {
    host_only();
    // small matrices (one core) with every special, each row against the loop; -0 before +0
    // must give -0 (its reciprocal is -Inf)
    let code = format!(
        "
        rng(5); ok = true; signs = true;
        for sz = [2 3; 37 41; 17 1; 5 300]'
          A = round(rand(sz(1), sz(2)) * 10) - 5; A(2, :) = NaN;
          if sz(2) > 3, A(1, 2) = -0; A(1, 3) = 0; A(1, 1) = -1; A(1, 4:end) = -2; A(min(end, 4), 1) = Inf; end
          for cls = {{'double', 'single'}}
            B = cast(A, cls{{1}});
            for mx = [true false]
              for omit = [true false]
                if mx && omit, m = max(B, [], 2); elseif mx, m = max(B, [], 2, 'includenan');
                elseif omit, m = min(B, [], 2); else, m = min(B, [], 2, 'includenan'); end
                ok = ok && isequal(size(m), [size(B, 1) 1]) && strcmp(class(m), cls{{1}});
                for r = 1:size(B, 1)
                  w = ref(B(r, :), mx, omit);
                  ok = ok && isequaln(m(r), w);
                  if w == 0, signs = signs && isequal(1 / m(r), 1 / w); end
                end
              end
            end
          end
        end
        fprintf('loop %d\\n', ok);
        fprintf('signs %d\\n', signs);
        z = max(single([-0 0; 0 -0]), [], 2); fprintf('negzero %d\\n', isequal(1 ./ z, single([-Inf; Inf])));
        e = max(zeros(3, 0), [], 2); f = min(zeros(0, 4, 'single'), [], 2);
        fprintf('empty %d\\n', isequal(size(e), [3 0]) && isequal(size(f), [0 1]) && isa(f, 'single'));
        fprintf('allnan %d\\n', isequaln(max(NaN(4, 3), [], 2), NaN(4, 1)) && isequaln(min(single(NaN(4, 3)), [], 2, 'includenan'), single(NaN(4, 1))));
        fprintf('ints %d\\n', isequal(max(int8([1 -128 127; 5 5 4]), [], 2), int8([127; 5])));
        fprintf('complex %d\\n', isequal(max([1+1i 2 -3; 0 1i -1i], [], 2), [-3; 1i]));
        {REF}"
    );
    all_hold(&code, 7);
}

#[test]
fn large_extremes_along_rows_agree_with_the_transpose() {
    host_only();
    // 600x500 and 3000x100 (above 2^18 elements: split across the cores), 3-D along 2 and 3;
    // the transpose's columns are taken by another kernel (contiguous lanes)
    let code = "
        rng(6); ok = true; pos = true;
        for sz = [600 500; 3000 100; 300 900; 4500 61]'
          A = floor(rand(sz(1), sz(2)) * 1000) - 500;
          A(ceil(rand(1, 200) * numel(A))) = NaN; A(ceil(rand(1, 50) * numel(A))) = -0;
          A(7, :) = NaN; A(9, [3 end-1 end]) = Inf; A(11, :) = -0; A(11, end) = 0; A(13, :) = 3;
          for cls = {'double', 'single'}
            B = cast(A, cls{1}); T = B.';
            for f = {@max, @min}
              g = f{1};
              a = g(B, [], 2); b = g(T, [], 1).';
              c = g(B, [], 2, 'includenan'); d = g(T, [], 1, 'includenan').';
              [p, i] = g(B, [], 2); [q, j] = g(T, [], 1);
              [r, k] = g(B, [], 2, 'includenan'); [s, l] = g(T, [], 1, 'includenan');
              ok = ok && isequaln(a, b) && isequaln(c, d) && isequal(1 ./ a(a == 0), 1 ./ b(b == 0));
              pos = pos && isequal(i, j.') && isequaln(p, q.') && isequal(k, l.') && isequaln(r, s.') && isequaln(p, a);
            end
          end
        end
        fprintf('values %d\\n', ok);
        fprintf('positions %d\\n', pos);
        C = reshape(single(mod((0:300*40*30-1) * 0.618034, 1)), 300, 40, 30); C(5, 7, :) = NaN;
        m2 = max(C, [], 2); m3 = min(C, [], 3); ok = true;
        for i = 1:300
          for k = 1:30, ok = ok && isequaln(m2(i, 1, k), max(reshape(C(i, :, k), 1, []))); end
        end
        for i = 1:300
          for j = 1:40, ok = ok && isequaln(m3(i, j), min(reshape(C(i, j, :), 1, []))); end
        end
        fprintf('threed %d\\n', ok && isequal(size(m2), [300 1 30]) && isequal(size(m3), [300 40]));";
    all_hold(code, 3);
}

#[test]
fn short_column_sums_add_in_order() {
    host_only();
    // lanes shorter than 1024 are summed in order from +0, eight lanes side by side in pieces
    // of eight: lengths around the piece, lane counts around the group, against the loop bit
    // for bit (values of wide range so that the order shows), NaN, Inf and -0 columns
    let code = "
        rng(7); ok = true;
        for sz = [1 9; 7 8; 8 17; 9 16; 15 3; 16 40; 17 23; 1023 9; 100 1000]'
          A = (rand(sz(1), sz(2)) - 0.5) .* 10 .^ round(rand(sz(1), sz(2)) * 12 - 6);
          A(:, 1) = -0; if sz(2) > 3, A(2:end, 2) = NaN; A(1, 3) = Inf; end
          for cls = {'double', 'single'}
            B = cast(A, cls{1}); s = sum(B, 1); m = mean(B, 1);
            r = zeros(1, size(B, 2));
            for j = 1:size(B, 2)
              t = 0; for i = 1:size(B, 1), t = t + double(B(i, j)); end
              r(j) = t;
            end
            q = cast(r / size(B, 1), cls{1}); r = cast(r, cls{1});
            ok = ok && isequaln(s, r) && strcmp(class(s), cls{1}) && isequal(1 ./ s(s == 0), 1 ./ r(r == 0));
            ok = ok && isequaln(m, q);
          end
        end
        fprintf('columns %d\\n', ok);";
    all_hold(code, 1);
}

#[test]
fn large_complex_products_agree_with_sums_of_outer_products() {
    host_only();
    // Above 32^3 multiply-adds complex products go to faer's kernels; the reference adds
    // outer products (each below the threshold: the loop) column by column.
    all_hold(
        "rng(3); A = complex(rand(40, 50) - 0.5, rand(40, 50)); B = complex(rand(50, 45), -rand(50, 45));
         R = rand(50, 45);
         C = A * B; D = zeros(40, 45); for p = 1:50, D = D + A(:, p) * B(p, :); end
         fprintf('cc %d\\n', isequal(size(C), [40 45]) && max(abs(C(:) - D(:))) < 1e-12);
         C = A * R; D = zeros(40, 45); for p = 1:50, D = D + A(:, p) * R(p, :); end
         fprintf('cr %d\\n', max(abs(C(:) - D(:))) < 1e-12);
         S = single(A) * single(B);
         fprintf('single %d\\n', isa(S, 'single') && ~isreal(S) && max(abs(double(S(:)) - reshape(A * B, [], 1))) < 1e-4);
         Z = complex(rand(40, 50), zeros(40, 50)) * rand(50, 45);
         fprintf('demoted %d\\n', isreal(Z));",
        4,
    );
}
