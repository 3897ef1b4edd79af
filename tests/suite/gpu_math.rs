//! The log family, general powers, mod/rem and xor in the lazy graph, against the host
//! evaluator: f64 within 2 ulp of Rust's std (log2/log10 of exact powers exact), mod and rem
//! bit for bit (they are exact), singles' log2, log10, log1p, powers and remainders equal to the
//! host's (computed in double, rounded once), single sin, cos, exp and log within 1 ulp. Each must run on the device where an adapter exists (MATFUSE_REQUIRE_GPU=1: it
//! must exist).

use crate::common::{SINGLE_ARGS, has_gpu, out};

/// Runs a check that prints `same worst_ulps fallbacks single_worst`, and asserts on it:
/// specials identical, f64 within 2 ulp, singles within `single_ulps`, no fallback.
fn check(f: &str, code: &str, single_ulps: f64) {
    let gpu = has_gpu();
    let text = out(code);
    let parts: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(parts[0], "1", "{f}: Inf/NaN/zeros differ: {text}");
    let worst: f64 = parts[1].parse().expect("number");
    assert!(worst <= 2.0, "f64 {f} is {worst} ulp from Rust's: {text}");
    let single: f64 = parts[3].parse().expect("number");
    assert!(
        single <= single_ulps,
        "single {f} is {single} ulp off: {text}"
    );
    if gpu {
        assert_eq!(parts[2], "0", "{f} fell back to the host: {text}");
    }
}

/// `R`/`H` device and host results over `X`, `Rs`/`Hs` the same in single: ulps where the
/// host's answer is finite and nonzero, identical elsewhere (zeros with their signs).
const COMPARE: &str = "ok = isfinite(H) & H ~= 0; ulps = [0, abs(R(ok) - H(ok)) ./ eps(H(ok))]; \
    same = isequaln(R(~ok), H(~ok)) && isequal(1 ./ R(H == 0), 1 ./ H(H == 0)); \
    oks = isfinite(Hs) & Hs ~= 0; us = [0, double(abs(Rs(oks) - Hs(oks))) ./ double(eps(Hs(oks)))]; \
    same = same && isequaln(Rs(~oks), Hs(~oks)); \
    s = gpuStats; fprintf('%d %g %d %g\\n', same, max(ulps), s.Session.Fallbacks, max(us))";

#[test]
fn log2_log10_log1p_within_two_ulp() {
    let points = "[linspace(0, 100, 100001), 10.^linspace(-300, 300, 60001), 2.^(-1074:1023), \
                  10.^(-22:22), 1e-300, 5e-324, 0, Inf, NaN, realmax, 1 + eps, 1 - eps/2]";
    for f in ["log2", "log10", "log1p"] {
        check(
            f,
            &format!(
                "X = {points}; R = gather({f}(gpuArray(X))); H = {f}(X); \
                 S = single(X(X < 1e30)); Rs = gather({f}(gpuArray(S))); Hs = {f}(S); {COMPARE}"
            ),
            0.0,
        );
    }
    // Exact powers give whole numbers (floor(log10(x)) relies on it), on both paths.
    let text = out("p = [2.^(-1074:1023), 10.^(0:22)]; \
         k = [-1074:1023, 0:22]; g = gpuArray(p); \
         disp([isequal(gather(log2(g(1:2098))), k(1:2098)), isequal(gather(log10(g(2099:end))), 0:22)])");
    assert_eq!(text.trim(), "1   1");
}

#[test]
fn power_of_nonnegative_bases_within_two_ulp() {
    // Bases from tiny to huge against exponents of both signs, whole and fractional, with
    // IEEE's special pairs (0^-y, 1^NaN, x^0, Inf^y, x^+-Inf); results reaching overflow
    // and the subnormal range included.
    let code = format!(
        "b = [10.^linspace(-300, 300, 301), linspace(0, 4, 101), 0, Inf, NaN, 1, 0.5, 2]; \
         e = [linspace(-30, 30, 241), 0.5, 1/3, -0.5, 2.5, 700.3, -1e3 - 0.5, 0, Inf, -Inf, NaN, 3, -2]; \
         [E, B] = meshgrid(e, b); X = B(:)'; Y = E(:)'; \
         R = gather(gpuArray(X) .^ gpuArray(Y)); H = X .^ Y; \
         S = single(X(X < 1e30)); Sy = single(Y(X < 1e30)); \
         Rs = gather(gpuArray(S) .^ Sy); Hs = S .^ Sy; {COMPARE}"
    );
    check("power", &code, 0.0);
    // A scalar base over an array (2.^x), an array over a scalar fractional exponent, and
    // power() by name, all lazy: one kernel each.
    let text = out(
        "x = gpuArray(linspace(-10, 10, 1001)); p = gpuArray(linspace(0, 9, 1001)); \
         gpuStats reset; a = 2 .^ x; b = p .^ 1.5; c = power(p, x); \
         fprintf('%d %d %d ', isequal(class(a), 'gpuArray'), existsOnGPU(b), existsOnGPU(c)); \
         r = [gather(a); gather(b); gather(c)]; h = [2 .^ gather(x); gather(p) .^ 1.5; gather(p) .^ gather(x)]; \
         fprintf('%d ', max(abs(r(:) - h(:)) ./ abs(h(:))) < 1e-15); s = gpuStats; \
         fprintf('%d', s.Session.Kernels)",
    );
    // Three kernels, and one any(p < 0) on the device: p's data says nothing by itself.
    if has_gpu() {
        assert_eq!(text, "1 1 1 1 4");
    } else {
        assert!(text.starts_with("1 1 1 1 "), "{text}");
    }
    // Whole exponents of any base: exact where the result is representable (2^10, (-2)^3,
    // 0.5^-3), signed zeros and infinities as IEEE says, and results past the normal range
    // (1e103^-3 is 1e-309, not 1/Inf) as the host gives them.
    let text = out(
        "b = [2 -2 3 10 -8 0.5 -0.5 0 -0 Inf -Inf NaN 1e103 -1e103 1e-200]; g = gpuArray(b); ok = []; \
         for k = [0 1 -1 2 -2 3 -3 7 -7 10 1024 -1024] \
           r = gather(g .^ k); h = b .^ k; ok(end+1) = isequaln(r, h) && isequal(1 ./ r(h == 0), 1 ./ h(h == 0)); \
         end; fprintf('%d', ok)",
    );
    assert_eq!(text, "111111111111");
    // A base with negatives and a fractional exponent is complex: the host's answer.
    let text = out(
        "w = gpuArray([-8 4]) .^ (1/3); fprintf('%d %d', isreal(w), abs(abs(gather(w(1))) - 2) < 1e-12)",
    );
    assert_eq!(text, "0 1");
}

#[test]
fn mod_and_rem_are_exact() {
    // Divisors of both signs, fractional and whole, tiny and huge, zero and infinite, with
    // dividends whose quotient is within rounding of a whole number (mod(0.3, 0.1) is 0).
    let code = "rng(11); x = [(rand(1, 4000) - 0.5) * 2e3, 0, -0, Inf, -Inf, NaN, 1e300, -1e300, \
                0.3, -0.3, 5e-324, 2^60 + 2^8, 7, -7, 0.5, 1e-310]; \
                y = [(rand(1, 4000) - 0.5) * 20, 0.1, -0.1, 0, Inf, -Inf, NaN, 3, -3, 1e-300, \
                7, 0.1, 2^-1074, pi, Inf, -Inf]; \
                Y = [y; y * 1e-3; round(y)]; X = [x; x; x]; X = X(:)'; Y = Y(:)'; ok = 1; \
                for f = {@mod, @rem} \
                  ok = ok && isequaln(gather(f{1}(gpuArray(X), gpuArray(Y))), f{1}(X, Y)); \
                  r = gather(f{1}(gpuArray(X), gpuArray(Y))); h = f{1}(X, Y); \
                  ok = ok && isequal(1 ./ r(h == 0), 1 ./ h(h == 0)); \
                  S = single(X(abs(X) < 1e30)); T = single(Y(abs(X) < 1e30)); \
                  ok = ok && isequaln(gather(f{1}(gpuArray(S), gpuArray(T))), f{1}(S, T)); \
                end; \
                s = gpuStats; fprintf('%d %d %d', ok, s.Session.Fallbacks, s.Session.Kernels)";
    let text = out(code);
    let parts: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(parts[0], "1", "mod/rem differ from the host: {text}");
    if has_gpu() {
        assert_eq!(parts[1], "0", "{text}");
        assert!(parts[2].parse::<u32>().expect("count") >= 6, "{text}");
    }
    // mod of a gpuArray by a scalar keeps the class and fuses with what follows.
    let text = out(
        "t = gpuArray(0:0.25:10); gpuStats reset; m = sum(mod(t, 3) == 0.5); \
         fprintf('%s %g ', class(m), gather(m)); s = gpuStats; fprintf('%d', s.Session.Kernels)",
    );
    let expected = if has_gpu() {
        "gpuArray 4 1"
    } else {
        "gpuArray 4 "
    };
    assert!(text.starts_with(expected), "{text}");
}

#[test]
fn xor_of_logical_values_is_lazy() {
    let text = out(
        "a = gpuArray(rand(1, 1000) > 0.5); b = gpuArray(rand(1, 1000) > 0.3); \
         z = xor(a, b); fprintf('%s %s %d', class(z), classUnderlying(z), \
         isequal(gather(z), xor(gather(a), gather(b))))",
    );
    assert_eq!(text, "gpuArray logical 1");
}

/// Single sin, cos, exp and log on the device (f32 arithmetic by default: math_f32_fast.wgsl)
/// within 1 ulp of the host's, their specials, zeros' signs and subnormal sines identical;
/// x.^2 is x.*x and squares are known not negative (sqrt of them stays one kernel; within
/// 1 ulp there, since a GPU may fuse x.*x + 1 into one rounding where the host rounds twice).
#[test]
fn single_sin_cos_exp_log_within_one_ulp_and_squares() {
    let gpu = has_gpu();
    let text = out(&format!(
        "{SINGLE_ARGS} \
         L = [abs(X), abs(E), single([0 -0 1e-40 Inf NaN 1 2 0.5 1.4142135])]; \
         for c = {{{{@sin, X}}, {{@cos, X}}, {{@exp, E}}, {{@log, L}}}} \
           f = c{{1}}{{1}}; A = c{{1}}{{2}}; R = gather(f(gpuArray(A))); H = f(A); \
           ok = isfinite(H) & H ~= 0 & abs(A) > 1e-30; \
           u = max([0, double(abs(R(ok) - H(ok))) ./ double(eps(H(ok)))]); \
           same = isequaln(R(~ok), H(~ok)) && isequal(1 ./ R(H == 0), 1 ./ H(H == 0)); \
           fprintf('%d %d ', u <= 1, same); \
         end; \
         G = gpuArray(X(1:1000)); gpuStats reset; y = sqrt(G .^ 2 + 1); v = gather(y); \
         s = gpuStats; h = sqrt(X(1:1000) .^ 2 + 1); \
         fprintf('%d %d', s.Session.Kernels, all(abs(v - h) <= eps(h)));"
    ));
    let kernels = if gpu { "1" } else { "0" };
    assert_eq!(text, format!("1 1 1 1 1 1 1 1 {kernels} 1"));
    if gpu {
        // The f32 functions are the ones that ran.
        let k = out("G = gpuArray(single(1:8)); explain -wgsl y = sin(G) + exp(G) + log(G)");
        assert!(k.contains("fn f_sin_cos") && k.contains("fn keep32"), "{k}");
        assert!(k.contains("let shifted = ix - 0x3f3504f3u;"), "{k}");
    }
}

/// Single sqrt on the device is the host's, bit for bit: through f64, or where the device
/// passed the start-up check, the driver's corrected with fused multiply-adds. The check
/// itself sees a wrong sqrt: lavapipe splits fma, so a sample of its corrected sqrts
/// disagrees with the f64 route (and a CPU adapter never takes that path).
#[test]
fn single_sqrt_is_correctly_rounded_and_its_fast_path_is_checked() {
    let gpu = has_gpu();
    let text = out(&format!(
        "{SINGLE_ARGS} A = [abs(X), abs(E), single([0 1e-40 Inf NaN 4 2])]; \
         R = gather(sqrt(gpuArray(A))); fprintf('%d', isequaln(R, sqrt(A)));"
    ));
    assert_eq!(text, "1");
    if !gpu {
        return;
    }
    let Some(g) = matfuse::gpu::device::ready() else {
        return;
    };
    let sample = matfuse::gpu::sqrt_check::mismatches(g, 0x3f80_0000, 1 << 20);
    let k = out("G = gpuArray(single(1:8)); explain -wgsl y = sqrt(G) + 1");
    if g.info.fma_sqrt {
        assert_eq!(sample, Some(0));
        assert!(k.contains("fma(-s, up, x)"), "{k}");
    } else {
        assert!(
            !k.contains("fma(-s, up, x)") && k.contains("s_sqrt_wide"),
            "{k}"
        );
    }
    if g.info.device_type == "Cpu" {
        assert!(!g.info.fma_sqrt);
        assert!(sample.is_some_and(|n| n > 0), "{sample:?}");
    }
}

/// Reductions of single sines, cosines and exponentials are speculative
/// (src/codegen/vector.rs): a thread folds its vectors with the branch-free forms, and again
/// with the general functions when an argument was out of their range. Sums, means and
/// standard deviations agree with the host's where every argument is in range, where a few
/// are out of it (the thread starts over from its saved state), and where one is infinite
/// or overflows; elementwise results (not speculative) too.
#[test]
fn speculative_sines_start_over_when_an_argument_is_out_of_range() {
    let gpu = has_gpu();
    let text = out(
        "x = single(linspace(-300, 300, 100003)); big = x; big(1:997:end) = 5e4 + (1:101); \
         inf = x; inf(50001) = Inf; \
         for c = {x, big} \
           a = c{1}; g = gpuArray(a); h = double(a); \
           s = [gather(sum(sin(g))), gather(mean(cos(g))), gather(std(sin(g)))]; \
           e = [sum(sin(h)), mean(cos(h)), std(sin(h))]; \
           y = gather(sin(g) .* 2); \
           fprintf('%d %d ', all(abs(double(s) - e) <= [0.02, 1e-6, 1e-6]), \
             all(abs(double(y) - 2 * sin(h)) <= 4 * eps(single(2 * sin(h))))); \
         end; \
         fprintf('%d ', isnan(gather(sum(sin(gpuArray(inf)))))); \
         e = single(linspace(-20, 20, 100003)); ebig = e; ebig(1:997:end) = -100 - (1:101); \
         for c = {e, ebig} \
           g = gpuArray(c{1}); h = exp(double(c{1})); \
           fprintf('%d ', abs(double(gather(sum(exp(g)))) / sum(h) - 1) < 1e-5); \
         end; \
         fprintf('%d', isequal(gather(sum(exp(gpuArray(single([1 2 100 3]))))), single(Inf)));",
    );
    assert_eq!(text, "1 1 1 1 1 1 1 1");
    if gpu {
        let k = out("G = gpuArray(single(1:1e6)); explain -wgsl y = sum(sin(G) .* 2)");
        assert!(
            k.contains("value_vector_fast(first + r)") && k.contains("if (!FAST_OK)"),
            "{k}"
        );
        let k = out("G = gpuArray(1:1e6); explain -wgsl y = sum(sin(G) .* 2)");
        assert!(
            k.contains("value_vector_fast(first + r)") && k.contains("m_sin_fast(v0)"),
            "doubles speculate too: {k}"
        );
    }
}

/// Reductions of single logarithms, erf and erfc speculate too (math_f32_fast.wgsl,
/// erf_f32.wgsl): with every argument where the f32 code serves alone, and with zeros,
/// subnormals, erfc's arguments past 9.1 and NaN among them (the general functions call the f64 ones there;
/// a fast form alone would give finite or wrong values), sums, maxima and minima agree with
/// the host's, and so do elementwise results (their vector kernels speculate as well).
/// Black-Scholes' chain (log, sqrt, two erfc) folds with the fast forms.
#[test]
fn speculative_single_logs_and_erfc_start_over_where_the_f32_code_does_not_serve() {
    let gpu = has_gpu();
    let text = out(
        "x = single(linspace(0.5, 3, 100003)); sub = x; sub(1:997:end) = 1e-40 * (1:101); \
         z = x; z(50001) = 0; nan = x; nan(777) = NaN; \
         g = gpuArray(sub); fprintf('%d ', abs(double(gather(sum(log(g)))) / sum(log(double(sub))) - 1) < 1e-5); \
         fprintf('%d ', isequal(gather(min(log(gpuArray(sub)))), min(log(sub)))); \
         fprintf('%d ', isequal(gather(sum(log(gpuArray(z)))), single(-Inf))); \
         e = single(linspace(-4, 4, 100003)); big = e; big(1:997:end) = 9 + (1:101) / 50; \
         for c = {e, big} \
           g = gpuArray(c{1}); h = double(c{1}); \
           fprintf('%d %d ', abs(double(gather(sum(erfc(g)))) / sum(erfc(h)) - 1) < 1e-5, \
             abs(double(gather(mean(erf(g)))) - mean(erf(h))) < 1e-6); \
           fprintf('%d ', isequal(gather(min(erfc(g))), min(erfc(c{1})))); \
         end; \
         ne = e; ne(4321) = NaN; \
         fprintf('%d %d ', isnan(gather(sum(erfc(gpuArray(ne))))), isnan(gather(sum(erf(gpuArray(ne)))))); \
         y = gather(erfc(gpuArray(ne)) .* 2); h = 2 * erfc(ne); k = ~isnan(h); \
         fprintf('%d ', isequal(isnan(y), ~k) && all(abs(double(y(k)) - double(h(k))) <= 5 * eps(h(k)))); \
         y = gather(log(gpuArray(sub)) .* 2); h = 2 * log(sub); \
         fprintf('%d', all(abs(double(y) - double(h)) <= 2 * eps(h)));",
    );
    assert_eq!(text, "1 1 1 1 1 1 1 1 1 1 1 1 1");
    if gpu {
        let k = out("S = gpuArray(single(80 + (1:1e6) / 1e4)); \
             explain -wgsl v = mean(S .* erfc(-log(S / 100) / 0.3) - 90 * erfc(log(S / 100)))");
        assert!(
            k.contains("m_erfc_fast(") && k.contains("m_log_fast(") && k.contains("if (!FAST_OK)"),
            "{k}"
        );
        let k = out("S = gpuArray(single(1:1e6)); explain -wgsl y = erfc(S) .* 2");
        assert!(
            k.contains("var r0 = value_vector_fast(j") && k.contains("m_erfc_fast("),
            "single elementwise erfc speculates: {k}"
        );
        let k = out("S = gpuArray(single(1:1e6)); explain -wgsl y = sin(S) .* 2");
        assert!(
            k.contains("let r0 = value_vector(j") && !k.contains("value_vector_fast"),
            "elementwise sines do not: {k}"
        );
        let k = out("G = gpuArray(1:1e6); explain -wgsl y = sum(sin(G) + log(G))");
        assert!(
            k.contains("m_sin_fast(") && !k.contains("m_log_fast("),
            "doubles have no fast log: {k}"
        );
    }
}

/// Doubles' speculative sines, cosines and exponentials (math_f64_fast.wgsl) take over from
/// the general functions only where those would return the same: sums, means and standard
/// deviations agree with the host's with every argument in the fast forms' range, and with
/// some far past 1e5, on multiples of pi/2, zero or tiny (the general functions' other paths),
/// infinite, or (for exp) past 708.
#[test]
fn speculative_double_sines_start_over_where_the_general_functions_would_branch() {
    let text = out(
        "x = linspace(-300, 300, 100003); big = x; big(1:997:end) = 1e12 + (1:101); \
         near = x; near(1:997:end) = (1:101) * pi / 2; \
         tiny = x; tiny(1:997:end) = [0, 1e-12 * (1:100)]; \
         for c = {x, big, near, tiny} \
           a = c{1}; g = gpuArray(a); \
           s = [gather(sum(sin(g))), gather(mean(cos(g))), gather(std(sin(g)))]; \
           e = [sum(sin(a)), mean(cos(a)), std(sin(a))]; \
           fprintf('%d ', all(abs(s - e) <= [1e-8, 1e-13, 1e-13])); \
         end; \
         inf = x; inf(50001) = Inf; \
         fprintf('%d ', isnan(gather(sum(sin(gpuArray(inf)))))); \
         e = linspace(-20, 20, 100003); ebig = e; ebig(1:997:end) = -720 - (1:101); \
         for c = {e, ebig} \
           fprintf('%d ', abs(gather(sum(exp(gpuArray(c{1})))) / sum(exp(c{1})) - 1) < 1e-13); \
         end; \
         fprintf('%d', isequal(gather(sum(exp(gpuArray([1 2 710 3])))), Inf));",
    );
    assert_eq!(text, "1 1 1 1 1 1 1 1");
}
