//! `x(idx)` and `x(mask)` of a host array with one subscript read in one typed pass across the
//! cores (`values::ops::linear_reads`). Each against the rule written out as a loop, on both
//! sides of the size below which the general plan reads, of the parallel threshold and of
//! the mask's blocks; every class of source and of index it takes; and every bad index
//! giving MATLAB's error for it, as the general plan does.

use crate::common::out;
use crate::host_only;

#[test]
fn index_vectors_and_masks_read_what_the_loop_reads() {
    host_only();
    let code = "
        rng(5); ok = true;
        for n = [1 63 64 65 1000 65535 65536 65537 131073 200001]
          x = rand(1, n) * 100; x(1) = NaN; x(end) = -0;
          for cls = {'double', 'single', 'int32', 'uint8', 'logical', 'char'}
            if strcmp(cls{1}, 'logical'), y = x > 50;
            elseif strcmp(cls{1}, 'char'), y = char(65 + mod(1:n, 26));
            else, y = cast(x, cls{1}); end
            for icls = {'double', 'single', 'int32', 'uint32'}
              m = n + 7;
              k = cast(mod((0:m-1) * 7919, n) + 1, icls{1});
              r = y(k);
              % the rule, read 50 at a time (the general plan's reads)
              e = repmat(y(1), 1, m);
              for j = 1:50:m, t = min(j + 49, m); e(j:t) = y(double(k(j:t))); end
              ok = ok && isequaln(r, e) && strcmp(class(r), class(y)) && isequal(size(r), [1 m]);
              % a column index of a row keeps the row (a scalar takes the index's shape)
              kc = k(:); rc = y(kc);
              ok = ok && isequaln(rc(:)', e) && (n == 1 || isequal(size(rc), [1 m]));
            end
            mask = mod(1:n, 3) == 1 | (1:n) > n - 70;
            r = y(mask);
            e = y(1:0);
            for j = find(mask), e(end + 1) = y(j); end
            ok = ok && isequaln(r, e) && isequal(size(r), [1 nnz(mask)]);
            ok = ok && isequal(size(y(mask')), [1 nnz(mask)]);
            ok = ok && isequaln(y(true(1, n)), y) && isempty(y(false(1, n))) && isequaln(y(:)', y(1:n));
            % a mask longer than the array, the rest false
            ok = ok && isequaln(y([mask false(1, 100)]), e);
          end
        end
        fprintf('vectors %d\\n', ok);
        A = reshape(1:120, 10, 12); k = [120 1 7 7 7 60 (1:70)];
        fprintf('matrix %d %d %d\\n', isequal(A(k), k), isequal(size(A(k')), [76 1]), isequal(A(A > 30), (31:120)'));
        c = zeros(1, 1, 100); c(:) = 1:100; k = 100:-1:1;
        fprintf('pages %d %d\\n', isequal(size(c(k)), [1 1 100]), isequal(squeeze(c(k))', k));
        z = (1:100) * (1 + 2i); k = 100:-1:1;
        fprintf('complex %d\\n', isequal(z(k), k * (1 + 2i)) && isequal(z(z == z), z));
        k = ones(10, 10) * 3; r = 1:100; c = r';
        fprintf('shape %d\\n', isequal(r(k), k) && isequal(size(c(ones(1, 80))), [80 1]) && isequal(size(r(ones(80, 1))), [1 80]));
    ";
    let text = out(code);
    assert_eq!(
        text, "vectors 1\nmatrix 1 1 1\npages 1 1\ncomplex 1\nshape 1\n",
        "{text}"
    );
}

#[test]
fn bad_indices_give_matlabs_errors_and_leave_the_workspace() {
    host_only();
    let code = "
        x = 1:100;
        bad = {[1:70 101], [1:70 1.5], [1:70 0], [1:70 NaN], [1:70 Inf], [1:70 -1], [1:70 -Inf], ...
               single([1:70 101]), int32([1:70 0]), [false(1, 100) true], [1:200000 101]};
        for j = 1:numel(bad)
          try
            y = x(bad{j}); disp('read');
          catch e
            fprintf('%s: %s\\n', e.identifier, e.message);
          end
        end
        fprintf('%d\\n', isequal(x, 1:100));
    ";
    let exceeds = "MATLAB:badsubscript: Index exceeds the number of array elements. Index must not exceed 100.\n";
    let invalid =
        "MATLAB:badsubscript: Array indices must be positive integers or logical values.\n";
    let expected = [
        exceeds, invalid, invalid, invalid, invalid, invalid, invalid, exceeds, invalid, exceeds,
        exceeds, "1\n",
    ]
    .concat();
    assert_eq!(out(code), expected);
}

#[test]
fn singles_compare_with_doubles_in_single_at_every_size() {
    host_only();
    // MATLAB converts the double to single before comparing (single(0.1) == 0.1 is true): the
    // fused blocks (2^16 elements and more) answer as the eager path does for a few elements.
    let code = "
        ok = true;
        for n = [10 65536 70001]
          x = single([0.1 0.2 0.3 1e30 -0 NaN Inf 16777217]); x = repmat(x, 1, ceil(n / 8)); x = x(1:n);
          small = x(1:8);
          for c = [0.1 0.3 1e30 16777217 -1e-50 1e300]
            r = {x == c, x ~= c, x < c, x <= c, x > c, x >= c, c < x, c >= x};
            e = {small == c, small ~= c, small < c, small <= c, small > c, small >= c, c < small, c >= small};
            for k = 1:numel(r)
              ok = ok && isequal(r{k}(1:8), e{k}) && isequal(r{k}(end - 7:end), e{k}(mod(n - 8:n - 1, 8) + 1));
            end
            d = double(small); y = repmat(d, 1, ceil(n / 8)); y = y(1:n);
            ok = ok && isequal(x == c, single(y) == single(c)) && nnz(x > c) == nnz(single(y) > single(c));
          end
        end
        fprintf('%d %d\\n', ok, single(0.1) == 0.1);
    ";
    assert_eq!(out(code), "1 1\n");
}

#[test]
fn a_read_past_the_size_limit_names_the_results_shape() {
    // A separate process, so that the size limit (4 MB: 3e5 complex doubles are 4.8 MB)
    // holds for it alone. The error names the shape the read would have had (a vector
    // source keeps its orientation, a matrix takes the index's shape), not Nx1 whatever
    // the index; the session goes on and a read under the limit still works.
    let code = "
        z = complex(1:100, 1); zc = z.'; A = complex(ones(10), 1); k = ones(1, 3e5);
        kc = k'; km = reshape(k, 500, 600);
        show = @(e) fprintf('%s %s\\n', e.identifier, e.message(1:strfind(e.message, ' (') - 1));
        try, y = z(k); catch e, show(e); end
        try, y = z(kc); catch e, show(e); end
        try, y = zc(k); catch e, show(e); end
        try, y = zc(kc); catch e, show(e); end
        try, y = A(k); catch e, show(e); end
        try, y = A(kc); catch e, show(e); end
        try, y = A(km); catch e, show(e); end
        fprintf('%d %d\\n', exist('y'), isequal(size(z(k(1:1000)')), [1 1000]));
    ";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_matfuse"))
        .arg("-e")
        .arg(code)
        .env("MATFUSE_DEVICE", "cpu")
        .env("MATFUSE_MAX_ARRAY_BYTES", "4000000")
        .output()
        .expect("matfuse runs");
    let limit = "MATLAB:array:SizeLimitExceeded Requested";
    let expected = [
        "1x300000", "1x300000", "300000x1", "300000x1", "1x300000", "300000x1", "500x600",
    ]
    .map(|s| format!("{limit} {s}\n"))
    .concat()
        + "0 1\n";
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        expected,
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_gather_inside_a_fused_group_reads_what_the_loop_reads() {
    host_only();
    // gpuArray values on the host engine: `g(k)` is a gather step inside the group that
    // consumes it (`plan::cpu::gather`), read in the index's and the source's own types
    // when the index is read in place, else by the general loop (a reversed index view, two
    // subscripts). Across the 4096-element blocks and 65536-element tasks; every index
    // class; double, single and logical sources; NaN, Inf and -0 passed through.
    let code = "
        ok = true;
        for n = [5 4095 4097 65537 200001]
          x = (1:n)' * 0.37; x(1) = NaN; x(end) = -0; x(min(2, n)) = Inf;
          % (not integer sources: an integer gpuArray gathered by an index comes back double
          % on the host engine, before and after this path, a separate fault)
          for cls = {'double', 'single', 'logical'}
            if strcmp(cls{1}, 'logical'), y = x > 10; else, y = cast(x, cls{1}); end
            g = gpuArray(y);
            for icls = {'double', 'single', 'int32', 'uint32'}
              m = n + 7;
              k = cast(mod((0:m-1)' * 7919, n) + 1, icls{1});
              e = repmat(y(1), m, 1);
              for j = 1:m, e(j) = y(double(k(j))); end
              r = gather(g(k));
              ok = ok && isequaln(r, e) && strcmp(class(r), class(y));
              f = gather(g(k) .* 2 + 1);
              ok = ok && isequaln(f, e .* 2 + 1);
              kr = k(end:-1:1); f = gather(g(kr) - 1);
              ok = ok && isequaln(f, e(end:-1:1) - 1);
            end
          end
        end
        A = gpuArray(reshape(single(1:40), 5, 8)); c = [8 1 3 3];
        B = reshape(single(1:40), 5, 8);
        fprintf('%d %d\\n', ok, isequal(gather(A(:, c) * 2), B(:, c) * 2));
    ";
    assert_eq!(out(code), "1 1\n");
}
