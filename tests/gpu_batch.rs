//! Recording: a sink's kernels (in one compute pass) and its read-back go to the device in
//! one submit, repeated statements reuse compiled kernels and bind groups, and `gpuArray` of
//! pending work computes it once instead of inside every kernel that reads it. Kernel timing
//! is off (the default), so the submits counted are the work's own.

mod common;
use common::{has_gpu, out_in as run};
use matfuse::interp::Interp;

/// The device's counters (submits, passes, `gpuStats`) are the process's: the tests here
/// take turns, so one's work never lands between another's two readings.
static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A session where there is a GPU, and this test's turn (kernel timing is off by default).
fn session() -> Option<(Interp, std::sync::MutexGuard<'static, ()>)> {
    let turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    has_gpu().then(|| (Interp::new(), turn))
}

#[test]
fn a_sink_submits_its_kernels_and_read_back_once() {
    let Some((mut i, _turn)) = session() else {
        return;
    };
    run(
        &mut i,
        "x = gpuArray(single(mod((1:300000)' * 7, 13) / 13 - 0.5));",
    );
    let sink = "y = sin(x).*x + 0.5; m = mean(y); v = gather(m); clear y m";
    // The first run compiles the kernels (compiling submits nothing either).
    run(&mut i, sink);
    for _ in 0..3 {
        let before = matfuse::gpu::device::submits();
        let passes = matfuse::gpu::batch::passes_opened();
        run(&mut i, &format!("gpuStats reset; {sink}; s = gpuStats;"));
        let after = matfuse::gpu::device::submits();
        let passes = matfuse::gpu::batch::passes_opened() - passes;
        let out = run(
            &mut i,
            "fprintf('%d %d\\n', s.Session.Kernels, s.Session.CacheMisses)",
        );
        // Two kernels (the fused map and fold in parts, then the parts) and the copy back.
        assert_eq!(out, "2 0\n");
        assert_eq!(after - before, 1, "one submit per sink");
        assert_eq!(passes, 1, "the two kernels share one compute pass");
    }
    let out = run(
        &mut i,
        "h = double(gather(x)); d = abs(double(v) - mean(double(single(sin(single(h)) .* single(h) + 0.5)))); \
         fprintf('%d\\n', d < 1e-6);",
    );
    assert_eq!(out, "1\n");
}

#[test]
fn repeated_work_writes_its_parameters_once() {
    let Some((mut i, _turn)) = session() else {
        return;
    };
    run(&mut i, "x = gpuArray(single(mod((1:300000)' * 7, 5)));");
    let sink = |c: u32| format!("v = gather(sum(x.*{c} + 1)); clear ans");
    run(&mut i, &sink(2));
    let writes = matfuse::gpu::batch::param_writes();
    for _ in 0..3 {
        run(&mut i, &sink(2));
    }
    assert_eq!(
        matfuse::gpu::batch::param_writes() - writes,
        0,
        "the same kernels with the same parameters write nothing"
    );
    // Other constants are written, and used: the sums follow them. Going back to 2 writes
    // nothing: another parameter buffer still holds them.
    for (c, writes) in [(3, 1), (2, 0), (5, 1)] {
        let before = matfuse::gpu::batch::param_writes();
        run(&mut i, &sink(c));
        assert_eq!(
            matfuse::gpu::batch::param_writes() - before,
            writes,
            "constant {c}"
        );
        let out = run(
            &mut i,
            &format!("fprintf('%d\\n', v == sum(mod((1:300000)' * 7, 5) * {c} + 1))"),
        );
        assert_eq!(out, "1\n", "constant {c}");
    }
}

/// Sets `MATFUSE_EARLY_BYTES` for one test and puts the default back when it ends, failed or
/// not (the setting is the process's).
struct EarlyBytes;

impl EarlyBytes {
    fn set(i: &mut Interp, bytes: u64) -> EarlyBytes {
        run(i, &format!("setenv('MATFUSE_EARLY_BYTES', '{bytes}');"));
        EarlyBytes
    }
}

impl Drop for EarlyBytes {
    fn drop(&mut self) {
        // SAFETY: the tests that read settings take turns (TURN), and this one holds it.
        unsafe { std::env::remove_var("MATFUSE_EARLY_BYTES") };
        matfuse::settings::changed();
    }
}

#[test]
fn a_long_chain_of_arithmetic_goes_to_the_device_as_soon_as_it_is_recorded() {
    let Some((mut i, _turn)) = session() else {
        return;
    };
    // Workload 4's loop, smaller, run iteration by iteration (not as a loop kernel): the chain
    // budget cuts it into kernels of many steps each,
    // and each is submitted when it is recorded, however busy the device (one submit for
    // the whole input, or one per 2 ms of age, without).
    let before = matfuse::gpu::device::submits();
    run(
        &mut i,
        "setenv('MATFUSE_LOOPS', 'off'); rng(3); gpuStats reset; S = ones(100000, 1, 'single', 'gpuArray'); \
         for s = 1:120, S = S .* exp(0.001 + 0.01 * randn(100000, 1, 'single', 'gpuArray')); end; \
         st = gpuStats;",
    );
    let submitted = matfuse::gpu::device::submits() - before;
    let out = run(
        &mut i,
        "rng(3); h = ones(100000, 1, 'single'); \
         for s = 1:120, h = h .* exp(0.001 + 0.01 * randn(100000, 1, 'single')); end; \
         fprintf('%d %d\\n', st.Session.Kernels, max(abs(gather(S) - h) ./ h) < 1e-4);",
    );
    let kernels: u64 = out
        .split_whitespace()
        .next()
        .and_then(|k| k.parse().ok())
        .unwrap_or(0);
    assert!(kernels >= 3, "{out}");
    assert!(
        submitted >= kernels,
        "{submitted} submits for {kernels} kernels"
    );
    assert!(out.ends_with(" 1\n"), "{out}");
}

#[test]
fn a_loop_of_mid_sized_kernels_goes_to_the_device_while_the_host_records_the_rest() {
    let Some((mut i, _turn)) = session() else {
        return;
    };
    // Each step's kernels move less than the early size (1 MB here), a few steps more: the
    // batch goes to the device once they add up to it and the device has finished what it
    // was given, not all at the end of the input.
    let _early = EarlyBytes::set(&mut i, 1_000_000);
    run(
        &mut i,
        "x0 = gpuArray(single(mod((1:200000)' * 7, 13) / 13)); w = gpuArray(single(mod((1:20000)' * 3, 7) / 7)); \
         idx = gpuArray(mod((0:19999)' * 7919, 200000) + 1); x = x0 * 1; v = gather(x(idx(1:3)));",
    );
    let before = matfuse::gpu::device::submits();
    run(&mut i, "for t = 1:20, x(idx) = x(idx) * 0.5 + w; end");
    let submitted = matfuse::gpu::device::submits() - before;
    assert!(submitted >= 2, "{submitted} submits for the loop's input");
    let out = run(
        &mut i,
        "h = double(gather(x0)); ih = double(gather(idx)); wh = double(gather(w)); \
         for t = 1:20, h(ih) = single(single(h(ih)) * 0.5 + wh); end; \
         fprintf('%d\\n', isequal(double(gather(x)), h));",
    );
    assert_eq!(out, "1\n");
}

#[test]
fn a_large_kernel_goes_to_an_idle_device_as_soon_as_it_is_recorded() {
    let Some((mut i, _turn)) = session() else {
        return;
    };
    // Large here is 1 MB and up (the default, 64 MB, would take lavapipe long).
    let _early = EarlyBytes::set(&mut i, 1_000_000);
    run(
        &mut i,
        "x = gpuArray(single(mod((1:300000)' * 7, 13) / 13 - 0.5));",
    );
    let sink = "y = sin(x).*x + 0.5; m = mean(y); v = gather(m); clear y m";
    run(&mut i, sink);
    run(&mut i, sink);
    let writes = matfuse::gpu::batch::param_writes();
    for _ in 0..3 {
        let before = matfuse::gpu::device::submits();
        run(&mut i, sink);
        // The fused map and fold (1.2 MB read) goes at once; the fold of its parts and the
        // copy back follow in a second submit.
        assert_eq!(matfuse::gpu::device::submits() - before, 2);
    }
    assert_eq!(
        matfuse::gpu::batch::param_writes() - writes,
        0,
        "each of the sink's two batches finds its parameters already written"
    );
    let out = run(
        &mut i,
        "h = double(gather(x)); d = abs(double(v) - mean(double(single(sin(single(h)) .* single(h) + 0.5)))); \
         fprintf('%d\\n', d < 1e-6);",
    );
    assert_eq!(out, "1\n");
    // Two large kernels (each image's moments, then the normalised images): the first goes
    // early; the second too when the device has finished the first by the time it is
    // recorded, else with the sink.
    run(
        &mut i,
        "X = gpuArray(single(reshape(mod((1:600000)' * 7919, 10007) / 10007, [], 4)));",
    );
    let sink =
        "mu = mean(X); sd = std(X); Y = (X - mu) ./ sd * 1.5 + 0.25; q = gather(Y(7)); clear mu sd";
    run(&mut i, sink);
    for _ in 0..2 {
        let before = matfuse::gpu::device::submits();
        run(&mut i, sink);
        let submitted = matfuse::gpu::device::submits() - before;
        assert!((2..=3).contains(&submitted), "{submitted} submits");
    }
    let out = run(
        &mut i,
        "H = double(gather(X)); E = (H - mean(H)) ./ std(H) * 1.5 + 0.25; \
         fprintf('%d %d\\n', max(abs(double(gather(Y(:))) - E(:))) < 1e-4, abs(double(q) - E(7)) < 1e-5);",
    );
    assert_eq!(out, "1 1\n");
}

#[test]
fn gpu_array_of_pending_work_computes_it_once() {
    let Some((mut i, _turn)) = session() else {
        return;
    };
    // x is pending device work; gpuArray(...) of more pending work runs it now, once.
    run(
        &mut i,
        "x = gpuArray(1:5000) * 3; gpuStats reset; y = gpuArray(mod(x, 7) + 1); s = gpuStats;",
    );
    let out = run(&mut i, "fprintf('%d\\n', s.Session.Kernels)");
    assert_eq!(out, "1\n");
    // A kernel reading y reads its buffer: y, 2 and the sum are its only operations.
    let out = run(
        &mut i,
        "gpuStats reset; z = gather(y + 2); s = gpuStats; \
         fprintf('%d %d %d\\n', s.Session.Kernels, s.Session.FusedOps, isequal(z, mod((1:5000) * 3, 7) + 3));",
    );
    assert_eq!(out, "1 3 1\n");
    let out = run(
        &mut i,
        "w = whos; r = containers.Map({w.name}, {w.class}); disp(r('y'))",
    );
    assert!(out.contains("gpuArray"), "{out}");
}

/// A large kernel over an array that the sink's previous large kernel streamed (the
/// normalisation after a mean) takes its blocks from the end first, where the cache holds
/// them, and computes the same values; after a read-back the next one runs forward again.
#[test]
fn a_kernel_after_a_pass_over_its_input_starts_from_the_end() {
    let Some((mut i, _turn)) = session() else {
        return;
    };
    // 16.8 MB of doubles (just past the size that turns) and a last block cut short; in
    // fewer than 2^22 elements, so that a CPU device (lavapipe) runs each kernel in one
    // dispatch, not in windows.
    run(
        &mut i,
        "x = gpuArray(mod((1:2100001)' * 7919, 10007) / 10007); h = gather(x);",
    );
    let before = matfuse::gpu::order::reversed_runs();
    let same = run(
        &mut i,
        "mu = mean(x); y = (x - mu) * 3; v = gather(y); \
         fprintf('%d', isequal(v, (h - gather(mu)) * 3));",
    );
    assert_eq!(same, "1");
    assert_eq!(matfuse::gpu::order::reversed_runs() - before, 1);
    // The mean read back in between: the sink's work starts afresh, forward.
    let before = matfuse::gpu::order::reversed_runs();
    let same = run(
        &mut i,
        "mu = mean(x); m = gather(mu); y = (x - mu) * 5; \
         fprintf('%d', isequal(gather(y), (h - m) * 5));",
    );
    assert_eq!(same, "1");
    assert_eq!(matfuse::gpu::order::reversed_runs(), before);
}
