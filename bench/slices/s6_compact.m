% Slices 6: mask compaction: BENCH_STEPS (8) times the values above a moving threshold are
% selected and summed, v = x(x > t); s = s + sum(v), over BENCH_N (1e7) singles.
n = str2double(getenv('BENCH_N')); if isnan(n), n = 1e7; end
steps = str2double(getenv('BENCH_STEPS')); if isnan(steps), steps = 8; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
x = gpuArray(single(mod((1:n)' * 7919, 1000) / 1000));
tm = zeros(1, runs);
for j = 1:runs + 2
  t0 = tic;
  s = zeros(1, 'single', 'gpuArray');
  for k = 1:steps
    v = x(x > k / 10);
    s = s + sum(v);
  end
  v = gather(s);
  if j > 2, tm(j - 2) = toc(t0); end
  if j == 2, gpuStats reset; end
end
st = gpuStats;
fprintf('RESULT s6 compact ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g value=%.10g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, st.Session.Kernels / (runs + 1), ...
  st.Session.BytesUploaded / (runs + 1), st.Session.BytesDownloaded / (runs + 1), double(v));
