% Workload 4: Monte Carlo geometric Brownian motion, BENCH_N (1e6) paths x BENCH_STEPS (256)
% steps in single, a fresh randn draw on the device each step, then the mean call payoff.
% Checked against Black-Scholes' undiscounted call value (the harness states the tolerance).
n = str2double(getenv('BENCH_N')); if isnan(n), n = 1e6; end
steps = str2double(getenv('BENCH_STEPS')); if isnan(steps), steps = 256; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
S0 = 100; K = 105; mu = 0.05; sigma = 0.2; T = 1; dt = T / steps;
drift = (mu - 0.5 * sigma^2) * dt; vol = sigma * sqrt(dt);
rng(1);
for j = 1:2
  S = S0 * ones(n, 1, 'single', 'gpuArray');
  for s = 1:steps, S = S .* exp(drift + vol * randn(n, 1, 'single', 'gpuArray')); end
  v = gather(mean(max(S - K, 0)));
end
t = zeros(1, runs); vals = zeros(1, runs);
gpuStats reset
for j = 1:runs
  tic;
  S = S0 * ones(n, 1, 'single', 'gpuArray');
  for s = 1:steps
    S = S .* exp(drift + vol * randn(n, 1, 'single', 'gpuArray'));
  end
  v = gather(mean(max(S - K, 0)));
  t(j) = toc; vals(j) = v;
end
st = gpuStats;
fprintf('RESULT w4 single ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g gpu_ms=%.4f value=%.12g\n', ...
  median(t) * 1e3, min(t) * 1e3, st.Session.Kernels / runs, st.Session.BytesUploaded / runs, ...
  st.Session.BytesDownloaded / runs, st.Session.GPUTime / runs * 1e3, mean(vals));
