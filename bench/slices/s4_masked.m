% Slices 4: a masked update loop: BENCH_STEPS (20) times, values above a threshold are reset
% and the rest drift: x(x > 0.9) = 0; x = x + 0.05 over BENCH_N (1e7) singles, then the sum.
n = str2double(getenv('BENCH_N')); if isnan(n), n = 1e7; end
steps = str2double(getenv('BENCH_STEPS')); if isnan(steps), steps = 20; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
x0 = gpuArray(single(mod((1:n)' * 7919, 1000) / 1000));
tm = zeros(1, runs);
for j = 1:runs + 2
  x = x0;
  t0 = tic;
  for t = 1:steps
    x(x > 0.9) = 0;
    x = x + 0.05;
  end
  v = gather(sum(x));
  if j > 2, tm(j - 2) = toc(t0); end
  if j == 2, gpuStats reset; end
end
st = gpuStats;
fprintf('RESULT s4 masked ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g value=%.10g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, st.Session.Kernels / (runs + 1), ...
  st.Session.BytesUploaded / (runs + 1), st.Session.BytesDownloaded / (runs + 1), double(v));
