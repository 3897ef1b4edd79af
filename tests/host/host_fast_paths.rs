//! The host engine's typed fast paths of the third round (issue 23) against the general rule
//! they replace, written out as loops in the language itself: variances along later
//! dimensions, cumulative sums and products, short lanes summed side by side, extremes along
//! rows, single cubes, integer comparisons, `find`, `reshape`, `repmat` of a row, the tiled
//! transpose and the sizes around the graph's threshold. Results must be equal bit for bit
//! (`isequaln`), with NaN, Inf and -0 among the values.

use crate::common::err;
use crate::{all_hold, host_only};

/// Test data: `A` of `r`x`c` doubles with NaN, Inf and -0 in some rows and columns.
const DATA: &str = "
    A = mod((0:r*c-1) * 0.6180339887498949, 1) * 10 - 5; A = reshape(A, r, c);
    A(3, 5) = NaN; A(7, :) = -0; A(9, 2) = Inf; A(2, 4) = -Inf; A(11, 1) = NaN; A(11, 6) = NaN;
";

#[test]
fn variances_along_rows_are_the_in_order_formula() {
    host_only();
    let code = format!(
        "r = 40; c = 333; {DATA}
         for cls = {{'double', 'single'}}
           B = cast(A, cls{{1}});
           for w = [0 1]
             v = var(B, w, 2); ref = zeros(r, 1);
             for i = 1:r
               x = double(B(i, :)); s = 0; for k = 1:c, s = s + x(k); end
               mu = s / c; q = 0; for k = 1:c, q = q + (x(k) - mu)^2; end
               if any(~isfinite(x)), ref(i) = NaN; elseif w == 0, ref(i) = q / (c - 1); else, ref(i) = q / c; end
             end
             fprintf('var %s %d %d\\n', cls{{1}}, w, isequaln(v, cast(ref, cls{{1}})) && strcmp(class(v), cls{{1}}));
           end
         end
         C = reshape(A(1:39*333), 3, 13, 333); v = var(C, 0, 2); ok = true;
         for i = 1:3, for o = 1:333, ok = ok && isequaln(v(i, 1, o), var(squeeze(C(i, :, o)))); end, end
         fprintf('var3 %d\\n', ok);
         fprintf('varempty %d\\n', isequal(size(var(zeros(3, 0), 0, 2)), [3 1]) && all(isnan(var(zeros(3, 0), 0, 2))));"
    );
    all_hold(&code, 6);
}

#[test]
fn cumulative_sums_and_products_accumulate_in_double_in_order() {
    host_only();
    let code = format!(
        "r = 37; c = 41; {DATA}
         A = A / 4;
         for cls = {{'double', 'single'}}
           B = cast(A, cls{{1}});
           for d = 1:2
             for p = [0 1]
               if p, y = cumprod(B, d); else, y = cumsum(B, d); end
               x = double(B); ref = x;
               if d == 1
                 for j = 1:c, a = p; for i = 1:r, if p, a = a * x(i, j); else, a = a + x(i, j); end, ref(i, j) = a; end, end
               else
                 for i = 1:r, a = p; for j = 1:c, if p, a = a * x(i, j); else, a = a + x(i, j); end, ref(i, j) = a; end, end
               end
               fprintf('cum %s %d %d %d\\n', cls{{1}}, d, p, isequaln(y, cast(ref, cls{{1}})) && strcmp(class(y), cls{{1}}));
             end
           end
         end
         x = single(mod((0:1e5+2) * 0.37, 1)); x(77) = NaN;
         y = cumsum(x, 'omitnan'); a = 0; ok = true; xd = double(x);
         for k = 1:numel(x), if ~isnan(xd(k)), a = a + xd(k); end, ok = ok && y(k) == single(a); end
         fprintf('omitnan %d\\n', ok);
         fprintf('reverse %d\\n', isequal(cumsum([1 2 3], 'reverse'), [6 5 3]));"
    );
    all_hold(&code, 10);
}

#[test]
fn short_lanes_sums_and_means_are_in_order() {
    host_only();
    let code = format!(
        "r = 300; c = 45; {DATA}
         for cls = {{'double', 'single'}}
           B = cast(A, cls{{1}}); B(isnan(B)) = 0.25;
           s = sum(B, 1); m = mean(B, 1); rs = zeros(1, c); x = double(B);
           for j = 1:c, a = 0; for i = 1:r, a = a + x(i, j); end, rs(j) = a; end
           fprintf('sum %s %d\\n', cls{{1}}, isequaln(s, cast(rs, cls{{1}})));
           fprintf('mean %s %d\\n', cls{{1}}, isequaln(m, cast(rs / r, cls{{1}})));
         end
         x = mod((0:999) * 0.77, 1) - 0.5; y = reshape(x, 10, 100); s = sum(y, 1); ok = true;
         for j = 1:100, a = 0; for i = 1:10, a = a + y(i, j); end, ok = ok && s(j) == a; end
         fprintf('tiny %d\\n', ok);"
    );
    all_hold(&code, 5);
}

#[test]
fn extremes_along_rows_keep_the_first_and_nan_rules() {
    host_only();
    let code = format!(
        "r = 23; c = 300; {DATA}
         A(5, :) = NaN; A(6, 10) = 4.75; A(6, 20) = 4.75;
         for cls = {{'double', 'single'}}
           B = cast(A, cls{{1}});
           for f = {{'max', 'min'}}
             for omit = [0 1]
               if omit, [m, i] = feval(f{{1}}, B, [], 2, 'omitnan'); else, [m, i] = feval(f{{1}}, B, [], 2, 'includenan'); end
               rm = zeros(r, 1); ri = zeros(r, 1);
               for q = 1:r
                 best = NaN; bk = 0; nk = 0;
                 for k = 1:c
                   v = double(B(q, k));
                   if isnan(v), if nk == 0, nk = k; end
                   elseif bk == 0 || (strcmp(f{{1}}, 'max') && v > best) || (strcmp(f{{1}}, 'min') && v < best), best = v; bk = k; end
                 end
                 if (~omit && nk > 0) || bk == 0, rm(q) = NaN; ri(q) = nk; else, rm(q) = best; ri(q) = bk; end
               end
               fprintf('%s %s %d %d\\n', f{{1}}, cls{{1}}, omit, isequaln(double(m), rm) && isequal(i, ri));
             end
           end
         end"
    );
    all_hold(&code, 8);
}

#[test]
fn single_cubes_are_the_rounded_double_power() {
    host_only();
    all_hold(
        "for n = [1000, 1e5 + 3]
           x = single((mod((0:n-1) * 0.6180339887498949, 1) - 0.5) .* 10 .^ mod(0:n-1, 13) - 3);
           x(1:8) = [NaN Inf -Inf 0 -0 1e-30 3e12 -7];
           y = x.^3; ref = single(double(x).^3);
           fprintf('cube %d %d\\n', n, isequaln(y, ref) && strcmp(class(y), 'single') && isequal(1 ./ y(5), -Inf));
           z = double(x).^3; xd = double(x); ok = true;
           for k = 1:n, ok = ok && isequaln(z(k), xd(k)^3); end
           fprintf('double %d %d\\n', n, ok);
         end
         d = single(2) .^ [3 3]; fprintf('mixed %d\\n', isequal(d, single([8 8])));
         for n = [101, 1e5 + 3]
           x = floor(mod((0:n-1) * 0.6180339887498949, 1) * 2000) - 1000; x(1) = -0;
           ok = true;
           for y = [7 -7 3 -3 1 2^40 0.5]
             m = mod(x, y); r = rem(x, y);
             ok = ok && isequal(m, x - floor(x ./ y) .* y) && isequal(r, x - fix(x ./ y) .* y);
           end
           ok = ok && isequal(1 ./ rem(-0, 5), -Inf) && isequal(1 ./ mod(-0, 5), Inf) && isequal(mod(2^60 + 2^10, 3), mod(2^60 + 2^10, 3 + 0 * x(2)));
           fprintf('modrem %d %d\\n', n, ok);
         end",
        7,
    );
}

#[test]
fn integer_comparisons_find_reshape_repmat_and_transpose() {
    host_only();
    all_hold(
        "n = 1e5 + 3; a = int32(mod((0:n-1) * 7919, 1000) - 500); b = int32(mod((0:n-1) * 104729, 1000) - 500);
         a(1:2) = [intmax('int32') intmin('int32')]; b(1:2) = [intmax('int32') intmin('int32') + 1];
         ops = {'==', '~=', '<', '<=', '>', '>='};
         for k = 1:6
           r = eval(['a ' ops{k} ' b']); ref = eval(['double(a) ' ops{k} ' double(b)']);
           fprintf('cmp %s %d\\n', ops{k}, isequal(r, ref) && islogical(r));
         end
         x = single(mod((0:n-1) * 0.37, 1) - 0.5); x(9) = NaN; x(12) = -0;
         fprintf('find %d\\n', isequal(find(x), find(double(x) ~= 0 | isnan(double(x)))));
         fprintf('findl %d\\n', isequal(find(x > 0.2), find(double(x) > double(single(0.2)))));
         fprintf('findi %d\\n', isequal(find(a), find(double(a))));
         fprintf('findc %d\\n', isequal(find('a b'), [1 2 3]) && isequal(size(find(zeros(0, 3))), [0 1]));
         A = reshape(x(1:100000), 400, []); fprintf('reshape %d\\n', isequal(size(A), [400 250]) && isequaln(A(:)', x(1:100000)) && strcmp(class(A), 'single'));
         c = reshape('abcdef', 2, 3); fprintf('reshapec %d\\n', ischar(c) && isequal(c(2, 3), 'f'));
         r = single(1:5); R = repmat(r, 4, 2); fprintf('repmat %d\\n', isequal(R, [r r; r r; r r; r r]) && strcmp(class(R), 'single'));
         fprintf('repmatc %d\\n', isequal(repmat('ab', 3, 1), ['ab'; 'ab'; 'ab']));
         for s = [1 7; 33 65; 64 31; 1000 3]'
           M = reshape(1:s(1)*s(2), s(1), s(2)); T = M';
           ok = isequal(size(T), [s(2) s(1)]);
           for i = 1:s(1), ok = ok && isequal(T(:, i)', M(i, :)); end
           fprintf('transpose %d %d %d\\n', s(1), s(2), ok);
         end
         z = [1+2i 3; 4 5-1i]; fprintf('ctranspose %d\\n', isequal(z', [1-2i 4; 3 5+1i]) && isequal(z.', [1+2i 4; 3 5-1i]));
         L = logical([1 0 1; 0 0 1]); fprintf('transposel %d\\n', isequal(L', logical([1 0; 0 0; 1 1])) && islogical(L'));",
        20,
    );
    let (id, _) = err("reshape(1:6, 4, [])");
    assert_eq!(id, "MATLAB:getReshapeDims:notDivisible");
    let (id, _) = err("reshape(1:6, 4, 2)");
    assert_eq!(id, "MATLAB:getReshapeDims:notSameNumel");
    let (id, _) = err("A = ones(3, 4); b = ones(4, 1); A' * b");
    assert_eq!(id, "MATLAB:innerdim");
}

#[test]
fn products_with_transposed_host_matrices() {
    host_only();
    all_hold(
        "m = 400; A = reshape(mod((0:m*m-1) * 0.6180339887498949, 1), m, m); b = A(1:m)';
         for cls = {'double', 'single'}
           B = cast(A, cls{1}); c = cast(b, cls{1});
           y = B' * c; T = B'; y2 = T * c; Y = B' * [c c]; Z = (B') * B;
           ok = strcmp(class(y), cls{1}) && isequal(size(y), [m 1]) && max(abs(double(y) - double(y2))) < 1e-3 * m;
           ok = ok && isequal(size(Y), [m 2]) && max(abs(double(Y(:, 2)) - double(y))) < 1e-3 * m && max(max(abs(double(Z) - double(T) * double(B)))) < 1e-2 * m;
           fprintf('atb %s %d\\n', cls{1}, ok);
         end
         z = [1+2i 3; 4 5-1i]; fprintf('complex %d\\n', isequal(z' * [1; 1], [5-2i; 8+1i]));
         v = (1:3)'; fprintf('vector %d\\n', isequal(v' * v, 14) && isequal(single(v)' * v, single(14)));
         i8 = int8([1 2; 3 4]); fprintf('int %d\\n', isequal(i8' * 2, int8([2 6; 4 8])));",
        5,
    );
}

/// `A' * b` of a column `b` (`A` read transposed where it is stored, `linalg::mtimes_transposed`)
/// against the same dot products in double by a loop, for both classes, small and large
/// matrices, with NaN and Inf.
#[test]
fn transposed_matrix_times_a_column_is_its_columns_dot_products() {
    host_only();
    all_hold(
        "for cls = {'double', 'single'} \
           ok = true; \
           for sz = [2 3; 17 5; 16 4; 401 33; 700 400; 1000 1000]' \
             k = sz(1); m = sz(2); \
             A = cast(reshape(mod((0:k*m-1) * 0.6180339887498949, 1) - 0.5, k, m), cls{1}); \
             b = cast(mod((0:k-1)' * 0.7548776662466927, 1) + 0.25, cls{1}); \
             if k == 401, A(3, 2) = NaN; A(2, 3) = Inf; A(400, 5) = -Inf; end \
             y = A' * b; r = zeros(m, 1); \
             for j = 1:m, r(j) = sum(double(A(:, j)) .* double(b)); end \
             f = isfinite(r); \
             ok = ok && strcmp(class(y), cls{1}) && isequal(size(y), [m 1]) \
               && isequaln(double(y(~f)), r(~f)) && max([0; abs(double(y(f)) - r(f))]) <= eps(cls{1}) * k; \
           end \
           fprintf('dots %s %d\\n', cls{1}, ok); \
         end",
        2,
    );
}

#[test]
fn intersect_by_merge_keeps_first_positions() {
    host_only();
    all_hold(
        "a0 = floor(mod((0:2999) * 0.6180339887498949, 1) * 900) - 450; b0 = floor(mod((0:2499) * 0.7548776662466927, 1) * 1200) - 600;
         a0([5 9]) = [NaN -0]; b0([3 7]) = [NaN 0];
         for cls = {'double', 'single', 'int32', 'uint16'}
           a = cast(abs(a0), cls{1}); b = cast(abs(b0), cls{1});
           if any(strcmp(cls{1}, {'double', 'single'})), a = cast(a0, cls{1}); b = cast(b0, cls{1}); end
           [c, ia, ib] = intersect(a, b);
           u = unique(a); u = u(~isnan(u)); keep = false(size(u)); ra = []; rb = [];
           for k = 1:numel(u)
             if any(b == u(k)), keep(k) = true; ra(end+1, 1) = find(a == u(k), 1); rb(end+1, 1) = find(b == u(k), 1); end
           end
           ok = isequal(c, u(keep)) && isequal(ia, ra) && isequal(ib, rb) && strcmp(class(c), cls{1}) && isrow(c);
           [cs, ias] = intersect(a, b, 'stable'); [~, p] = sort(ra);
           ok = ok && isequal(ias, ra(p)) && isequal(cs, a(ra(p)));
           fprintf('intersect %s %d\\n', cls{1}, ok);
         end
         c = intersect([3; 1; 2], [2 3]); fprintf('shape %d\\n', isequal(c, [2; 3]));
         c = intersect(int8([1 2 3]), [2 3 4]); fprintf('mixed %d\\n', isequal(c, int8([2 3])));
         fprintf('empty %d\\n', isequal(size(intersect([], [1 2])), [1 0]) && isequal(size(intersect(zeros(0, 1), [1; 2])), [0 1]));",
        7,
    );
}
