% Slices 7: scatter by an index vector: BENCH_STEPS (20) times x(idx) = x(idx) * 0.5 + w over
% BENCH_N (1e7) singles, idx BENCH_M (1e6) distinct scrambled positions (a device array) and w
% as many values, then the sum. Each step reads the old values where it writes them.
n = str2double(getenv('BENCH_N')); if isnan(n), n = 1e7; end
m = str2double(getenv('BENCH_M')); if isnan(m), m = 1e6; end
steps = str2double(getenv('BENCH_STEPS')); if isnan(steps), steps = 20; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
x0 = gpuArray(single(mod((1:n)' * 7919, 1000) / 1000));
w = gpuArray(single(mod((1:m)' * 31, 97) / 97));
idx = gpuArray(mod((0:m-1)' * 7919, n) + 1);
tm = zeros(1, runs);
for j = 1:runs + 2
  x = x0 * 1;
  t0 = tic;
  for t = 1:steps
    x(idx) = x(idx) * 0.5 + w;
  end
  v = gather(sum(x));
  if j > 2, tm(j - 2) = toc(t0); end
  if j == 2, gpuStats reset; end
end
st = gpuStats;
fprintf('RESULT s7 scatter ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g value=%.10g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, st.Session.Kernels / (runs + 1), ...
  st.Session.BytesUploaded / (runs + 1), st.Session.BytesDownloaded / (runs + 1), double(v));
