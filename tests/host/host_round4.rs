//! The host engine's fourth round (issue 23): singles' sin, cos, exp and log computed in
//! single (within 1 ulp of the double functions rounded, specials exact, the same bits eagerly
//! and in a fused group), `[m, i] = max/min` in one typed pass, `find` without branches,
//! mod and rem of whole numbers vectorised, logical results stored as they are made, text
//! literals appended in place, integer kernels writing fresh results, `ismember`'s table.
//! Each against the general rule written out in the language itself, NaN, Inf and -0 among
//! the values, on both sides of the host graph's threshold (65536 elements).

use crate::{all_hold, host_only};

#[test]
fn single_functions_are_within_one_ulp_and_agree_eagerly_and_fused() {
    host_only();
    // 2e5 arguments over many scales (the fused path), the first 3000 again eagerly
    let code = "
        rng(3); e = 10 .^ (rand(1, 2e5) * 14 - 8); s = sign(rand(1, 2e5) - 0.5);
        x = single(e .* s); x(1:8) = single([0 -0 Inf -Inf NaN 1e-40 -1e-40 524288]);
        x(9:2000) = single(pi / 2) * single(1:1992);
        fs = {@sin, @cos, @exp, @log};
        for k = 1:4
          f = fs{k}; a = x; if k == 3, a = x / 1e4; end; if k == 4, a = abs(x); end
          y = f(a); r = single(f(double(a)));
          ok = isfinite(r) & r ~= 0;
          u = max(abs(double(y(ok)) - double(r(ok))) ./ double(eps(r(ok))));
          same = isequaln(y(~ok), r(~ok)) && isequal(1 ./ y(r == 0), 1 ./ r(r == 0));
          small = a(1:3000); ys = f(small);
          fprintf('%s ulp %d\\n', func2str(f), u <= 1);
          fprintf('%s specials %d\\n', func2str(f), same && strcmp(class(y), 'single'));
          fprintf('%s eager %d\\n', func2str(f), isequaln(ys, y(1:3000)));
        end
        z = sin(single(-0)); fprintf('negzero %d\\n', 1 / z == -Inf);
        c = exp(-x(9:2000) .* x(9:2000)) .* cos(3 * x(9:2000)) + log(x(9:2000) + 1);
        fprintf('chain %d\\n', strcmp(class(c), 'single') && all(isfinite(c)));
        w = log(single([-1 2])); fprintf('complexlog %d\\n', ~isreal(w) && strcmp(class(w), 'single'));";
    all_hold(code, 15);
}

#[test]
fn extremes_and_positions_are_the_first_in_order() {
    host_only();
    let code = "
        function [m, i] = ref(x, ismax, omit)
          i = 0; m = NaN;
          for k = 1:numel(x)
            v = x(k);
            if isnan(v)
              if ~omit && (i == 0 || ~isnan(m)), i = k; m = v; return; end
              continue;
            end
            if i == 0 || isnan(m) || (ismax && v > m) || (~ismax && v < m), i = k; m = v; end
          end
          if i == 0, i = 1; m = x(1); end
        end
        rng(4); ok = true;
        for n = [5 2047 2049 70000]
          for cls = {'double', 'single'}
            x = cast(round(rand(1, n) * 100), cls{1}); x(min(n, 3)) = -0;
            x(n) = 100; x(ceil(n / 2)) = 100;
            for t = 1:3
              if t == 2, x(ceil(n / 3)) = NaN; end
              if t == 3, x(:) = NaN; x(end) = -Inf; end
              [m1, i1] = max(x); [r1, j1] = ref(x, true, true);
              [m2, i2] = min(x); [r2, j2] = ref(x, false, true);
              [m3, i3] = max(x, [], 'includenan'); [r3, j3] = ref(x, true, false);
              [m4, i4] = min(x, [], 'includenan'); [r4, j4] = ref(x, false, false);
              ok = ok && i1 == j1 && i2 == j2 && i3 == j3 && i4 == j4 ...
                && isequaln(m1, r1) && isequaln(m2, r2) && isequaln(m3, r3) && isequaln(m4, r4);
            end
          end
        end
        fprintf('vectors %d\\n', ok);
        A = round(rand(37, 41) * 10); A(3, :) = NaN; A(:, 5) = -0; A(7, 9) = Inf; ok = true;
        for cls = {'double', 'single'}
          B = cast(A, cls{1});
          for d = 1:2
            [m, i] = max(B, [], d, 'includenan'); [p, j] = min(B, [], d);
            for k = 1:size(B, 3 - d)
              if d == 1, v = B(:, k); else, v = B(k, :); end
              [r, q] = ref(v, true, false); [s, u] = ref(v, false, true);
              ok = ok && i(k) == q && isequaln(m(k), r) && j(k) == u && isequaln(p(k), s);
            end
          end
        end
        fprintf('matrices %d\\n', ok);";
    all_hold(code, 2);
}

#[test]
fn find_mod_rem_and_logicals_match_the_loops() {
    host_only();
    let code = "
        x = mod((0:99999) * 0.6180339887498949, 1); x(5) = NaN; x(9) = -0;
        k = find(x > 0.5); r = zeros(1, 0); for i = 1:numel(x), if x(i) > 0.5, r(end+1) = i; end, end
        fprintf('find %d\\n', isequal(k, r));
        fprintf('findcol %d\\n', isequal(find((x > 0.5)'), r'));
        fprintf('findnan %d\\n', isequal(find(x(1:10)), [2:8 10]));
        [i, j] = find(reshape(x(1:12) > 0.5, 3, 4)); [ii, jj] = find(reshape(x(1:12), 3, 4) > 0.5);
        fprintf('findrc %d\\n', isequal(i, ii) && isequal(j, jj));
        fprintf('findempty %d\\n', isequal(size(find(zeros(0, 0))), [0 0]) && isequal(size(find(zeros(1, 3))), [1 0]));
        fprintf('findlimit %d\\n', isequal(find(x > 0.5, 3), r(1:3)) && isequal(find(x > 0.5, 2, 'last'), r(end-1:end)));
        y = floor(x * 1000) - 300; y(7) = Inf; y(11) = 0.5; y(13) = -0;
        for q = [7 -7 0 2.5 Inf]
          a = mod(y, q); b = rem(y, q); ra = zeros(size(y)); rb = ra;
          for i = 1:numel(y), ra(i) = mod(y(i), q); rb(i) = rem(y(i), q); end
          fprintf('modrem%g %d\\n', q, isequaln(a, ra) && isequaln(b, rb) && isequal(1 ./ a(a == 0), 1 ./ ra(ra == 0)) && isequal(1 ./ b(b == 0), 1 ./ rb(rb == 0)));
        end
        s = single(x); t = s > 0.5; u = false(size(s)); for i = 1:numel(s), u(i) = s(i) > 0.5; end
        fprintf('logical %d\\n', isequal(t, u) && islogical(t));
        g = x(2:end) - x(1:end-1); h = zeros(1, numel(x) - 1); for i = 1:numel(h), h(i) = x(i+1) - x(i); end
        fprintf('diff %d\\n', isequaln(g, h));";
    all_hold(code, 13);
}

#[test]
fn integers_text_appends_and_membership() {
    host_only();
    let code = "
        a = int32(mod((0:99999) * 7919, 100000)) - 50000; b = int32(mod((0:99999) * 104729 + 17, 200000)) - 100000;
        a(3) = intmax('int32'); b(3) = 5; a(4) = intmin('int32'); b(4) = -5;
        c = a + b; e = a == b; g = a > b; m = a * 3;
        rc = zeros(size(a), 'int32'); re = false(size(a)); rg = re; rm = rc;
        for i = 1:numel(a), rc(i) = a(i) + b(i); re(i) = a(i) == b(i); rg(i) = a(i) > b(i); rm(i) = a(i) * 3; end
        fprintf('iadd %d\\n', isequal(c, rc) && strcmp(class(c), 'int32'));
        fprintf('icmp %d\\n', isequal(e, re) && isequal(g, rg) && islogical(e));
        fprintf('iscale %d\\n', isequal(m, rm));
        s = ''; for i = 1:1000, s = [s 'ab']; end
        fprintf('append %d\\n', isequal(s, repmat('ab', 1, 1000)) && ischar(s));
        t = s; s = [s 'xy' 'z']; fprintf('shared %d\\n', numel(t) == 2000 && isequal(s(end-2:end), 'xyz'));
        u = 'q'; v = u; u = [u 'r']; fprintf('copy %d\\n', isequal(v, 'q') && isequal(u, 'qr'));
        d = [1 2]; d = [d 'a']; fprintf('mixed %d\\n', ischar(d) && isequal(double(d), [1 2 97]));
        w = ['ab'; 'cd']; w2 = w; try, w = [w 'e']; fprintf('rows 0\\n'); catch, fprintf('rows %d\\n', isequal(w, w2)); end
        p = int32(mod((0:4999) * 37, 3000)); q = int32(mod((0:2999) * 11, 4000));
        tf = ismember(p, q); rt = false(size(p)); for i = 1:numel(p), rt(i) = any(q == p(i)); end
        [tf2, loc] = ismember(p, q); rl = zeros(size(p));
        for i = 1:numel(p), f = find(q == p(i), 1); if ~isempty(f), rl(i) = f; end, end
        fprintf('ismember %d\\n', isequal(tf, rt) && isequal(tf2, rt) && isequal(loc, rl));";
    all_hold(code, 9);
}
