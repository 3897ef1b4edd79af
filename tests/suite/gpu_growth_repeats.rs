//! Indexed assignment on the device where ranges reach past the end (`x(end+1:end+m) = w`,
//! resolved as progressions without an index array) and where an index subscript's positions
//! are known to be distinct (a mask's positions, an index array counted once): written
//! without the marking pass, so one kernel writes. Each form runs on host arrays and on
//! their gpuArrays: classes, sizes and values equal, results gpuArrays, nothing moved
//! between host and device but the counts and checks the forms must read.

use crate::common::{has_gpu, out};

/// Runs each form (statements over the setup's variables) on the host arrays and then on
/// their gpuArrays, and prints the forms after which some variable differs (class, size or
/// values) or a device result is not a gpuArray, then the bytes the device runs moved.
pub(crate) fn disagreements(setup: &str, forms: &[&str]) -> String {
    let list: Vec<String> = forms
        .iter()
        .map(|e| format!("'{}'", e.replace('\'', "''")))
        .collect();
    out(&format!(
        "{setup}
         names = who; bad = {{}}; moved = 0;
         forms = {{{}}};
         for formi = 1:numel(forms)
           Hs = cell(1, numel(names)); Ds = Hs;
           eval([forms{{formi}} ';']);
           for namej = 1:numel(names), Hs{{namej}} = eval(names{{namej}}); end
           {setup}
           for namej = 1:numel(names), eval([names{{namej}} ' = gpuArray(' names{{namej}} ');']); end
           gpuStats reset;
           eval([forms{{formi}} ';']);
           for namej = 1:numel(names), Ds{{namej}} = eval(names{{namej}}); end
           st = gpuStats; moved = moved + st.Session.BytesUploaded + st.Session.BytesDownloaded;
           for namej = 1:numel(names)
             dv = Ds{{namej}}; hv = Hs{{namej}};
             if ~isa(dv, 'gpuArray') || ~isequal(class(gather(dv)), class(hv)) || ...
                ~isequal(size(dv), size(hv)) || ~isequaln(gather(dv), hv)
               bad{{end+1}} = sprintf('%s [%s]', forms{{formi}}, names{{namej}});
             end
           end
           {setup}
         end
         fprintf('%s;', bad{{:}}); fprintf('moved %d\\n', moved);",
        list.join(", ")
    ))
}

/// The bytes `disagreements` reported once every form agreed.
pub(crate) fn moved(out: &str) -> u64 {
    out.trim()
        .strip_prefix("moved ")
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("forms differ from the host: {out}"))
}

#[test]
fn ranges_past_the_end_grow_arrays_like_the_host() {
    for class in ["double", "single"] {
        let setup = format!(
            "x = {class}(mod((1:1003)' * 37, 101)) - 50; x(5) = NaN; x(8) = -0;
             r = x(1:17)'; w = {class}(mod((1:211)' * 13, 29)) - 3;
             A = reshape(x(1:35), 7, 5); B = {class}(reshape(1:10, 2, 5)); C = ones(7, 3);"
        );
        let got = disagreements(
            &setup,
            &[
                "x(end+1:end+211) = w",
                "x(end+1:end+211) = w'",
                "x(end+1:end+211) = w * 2 + 1",
                "x(end+3:2:end+9) = 5",
                "x(end+4:-1:end+1) = w(1:4)",
                "x(numel(x)+1:numel(x)+numel(w)) = w",
                "x(end-1:end+2) = [1 2 3 4]",
                "for k = 1:4, x(end+1:end+211) = w + k; end",
                "for k = 1:3, x(x > 40 - k) = []; x(end+1:end+211) = w; end",
                "r(end+1:end+3) = [7 8 9]",
                "r(end+2:end+3) = w(1:2)'",
                "A(end+1:end+2, :) = B",
                "A(:, end+1:end+3) = C",
                "A(2:3, end+1:end+2) = 1",
                "A(end+1:end+2, 2:2:4) = [1 2; 3 4]",
                "x(end+1:end) = 7",
                "x(end+1:end+2) = true",
            ],
        );
        let bytes = moved(&got);
        if has_gpu() {
            // The deletions' mask counts (4 bytes each) and nothing else.
            assert!(bytes <= 256, "{class}: {got}");
        }
    }
}

#[test]
fn growth_errors_are_the_hosts_and_keep_the_workspace() {
    // A matrix grown through one linear range, and sizes that do not match.
    let out = out("A = gpuArray(magic(3)); B = A;
         try, A(end+1:end+2) = [1 2]; catch e, fprintf('%s\\n', e.identifier); end
         try, A(end+1:end+2, :) = [1 2]; catch e, fprintf('%s\\n', e.identifier); end
         x = gpuArray((1:5)');
         try, x(end+1:end+3) = [1 2]; catch e, fprintf('%s\\n', e.identifier); end
         fprintf('%d %d %s\\n', isequal(gather(A), magic(3)), isequal(gather(x), (1:5)'), class(A));
         h = magic(3);
         try, h(end+1:end+2) = [1 2]; catch e, fprintf('%s\\n', e.identifier); end
         try, h(end+1:end+2, :) = [1 2]; catch e, fprintf('%s\\n', e.identifier); end
         y = (1:5)';
         try, y(end+1:end+3) = [1 2]; catch e, fprintf('%s\\n', e.identifier); end");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7, "{out}");
    assert_eq!(lines[3], "1 1 gpuArray", "{out}");
    // The same errors as the host's.
    assert_eq!(&lines[0..3], &lines[4..7], "{out}");
}

#[test]
fn distinct_and_repeated_positions_match_the_host() {
    for class in ["double", "single"] {
        let setup = format!(
            "x = {class}(mod((1:1000)' * 37, 101)) / 101; x(7) = NaN;
             A = reshape(x(1:600), 30, 20);
             P = mod((0:299)' * 7, 1000) + 1; Q = mod((0:299)' * 7, 100) + 1;
             v = {class}(1:300)'; R = [3 1 3 2]'; S = [5 5 2]; V = {class}(reshape(1:12, 4, 3));"
        );
        let got = disagreements(
            &setup,
            &[
                // Distinct positions: counted once, then written without marks.
                "x(P) = v",
                "x(P) = v; x(P) = x(P) * 2 + v",
                "for k = 1:5, x(P) = x(P) * 0.5 + v; end",
                // Repeated positions: the last write wins, the first time and every time.
                "x(Q) = v",
                "for k = 1:3, x(Q) = x(Q) + v; end",
                "x(Q) = 5",
                "x(Q) = []",
                // The index array changed after its positions were counted.
                "x(P) = v; P(2) = P(1); x(P) = v * 3",
                "x(P) = v; P = P(end:-1:1); P(1) = P(2); x(P) = -v",
                // Positions of a mask and of find.
                "x(x > 0.5) = x(x > 0.5) * 2",
                "f = find(x > 0.3); x(f) = x(f) + 1; x(f) = -x(f)",
                "m = x > 0.5; x(m) = (1:nnz(m))'",
                // Two index subscripts, one or both with repeats.
                "A(R, S) = V",
                "A(R, S) = 0",
                "A([4 4 9 4], [2 7 9]) = V",
                "A([1 2 3 4], S) = V; A([1 2 3 4], S) = V + 1",
            ],
        );
        let bytes = moved(&got);
        if has_gpu() {
            // Index checks and repeat counts (a few bytes each, once per index array) and
            // mask counts: no array moves.
            assert!(bytes <= 1000, "{class}: {got}");
        }
    }
}

#[test]
fn distinct_positions_are_written_by_one_kernel() {
    if !has_gpu() {
        return;
    }
    // A loop scattering through a permutation: the first assignment counts the repeats, the
    // second reads the count (one word); then each step is the values' kernel and the write
    // (no marks, nothing read). Through positions with repeats the marks come every step.
    let kernels = |idx: &str| -> Vec<u64> {
        let text = out(&format!(
            "x = gpuArray(single(1:1e5)'); idx = gpuArray({idx}); v = gpuArray(single(1:1000)');
             xh = gather(x); ih = gather(idx); vh = gather(v);
             x(idx) = x(idx) + v; xh(ih) = xh(ih) + vh; x(idx) = x(idx) + v; xh(ih) = xh(ih) + vh;
             gpuStats reset; for k = 1:20, x(idx) = x(idx) * 0.5 + v; end; s = gpuStats;
             for k = 1:20, xh(ih) = xh(ih) * 0.5 + vh; end
             fprintf('%d %d %d\\n', s.Session.Kernels, s.Session.BytesDownloaded + s.Session.BytesUploaded, isequal(gather(x), xh));"
        ));
        text.split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect()
    };
    let distinct = kernels("mod((0:999)' * 7919, 1e5) + 1");
    assert!(
        distinct.len() == 3 && distinct[0] <= 2 * 20 + 2 && distinct[1] == 0 && distinct[2] == 1,
        "{distinct:?}"
    );
    let repeated = kernels("mod((0:999)' * 7919, 500) + 1");
    assert!(
        repeated.len() == 3
            && repeated[0] >= 3 * 20
            && repeated[0] <= 3 * 20 + 2
            && repeated[1] == 0
            && repeated[2] == 1,
        "{repeated:?}"
    );
    // A mask's positions are distinct from the start.
    let text = out("x = gpuArray(rand(1, 1e5)); xh = gather(x); gpuStats reset;
         for k = 1:10, x(x > 0.9) = x(x > 0.9) * 0.5; end; s = gpuStats;
         for k = 1:10, xh(xh > 0.9) = xh(xh > 0.9) * 0.5; end
         fprintf('%d\\n', isequal(gather(x), xh));");
    assert_eq!(text.trim(), "1", "{text}");
}
