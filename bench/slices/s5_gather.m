% Slices 5: gathers by an index vector: BENCH_STEPS (20) times y = x(idx) .* w + y with idx a
% fixed scrambled permutation of BENCH_N (1e7) positions (a device array), then the sum.
n = str2double(getenv('BENCH_N')); if isnan(n), n = 1e7; end
steps = str2double(getenv('BENCH_STEPS')); if isnan(steps), steps = 20; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
x0 = gpuArray(single(mod((1:n)' * 7919, 1000) / 1000));
w = gpuArray(single(mod((1:n)' * 31, 97) / 97));
idx = gpuArray(mod((0:n-1)' * 7919, n) + 1);
tm = zeros(1, runs);
for j = 1:runs + 2
  x = x0;
  t0 = tic;
  y = zeros(n, 1, 'single', 'gpuArray');
  for t = 1:steps
    y = x(idx) .* w + y;
    x = x * 0.999;
  end
  v = gather(sum(y));
  if j > 2, tm(j - 2) = toc(t0); end
  if j == 2, gpuStats reset; end
end
st = gpuStats;
fprintf('RESULT s5 gather ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g value=%.10g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, st.Session.Kernels / (runs + 1), ...
  st.Session.BytesUploaded / (runs + 1), st.Session.BytesDownloaded / (runs + 1), double(v));
