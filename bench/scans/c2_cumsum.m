% Scans 2: running sums: BENCH_STEPS (8) times a cumulative sum of BENCH_N (1e7) singles,
% forward and reversed, and the differences back, y = diff(cumsum(x * k)) + cumsum(x, 'reverse').
n = str2double(getenv('BENCH_N')); if isnan(n), n = 1e7; end
steps = str2double(getenv('BENCH_STEPS')); if isnan(steps), steps = 8; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
x = gpuArray(single(mod((1:n)' * 7919, 1000) / 1000 - 0.5));
tm = zeros(1, runs);
for j = 1:runs + 2
  t0 = tic;
  acc = zeros(1, 'single', 'gpuArray');
  for k = 1:steps
    c = cumsum(x * k);
    r = cumsum(x, 'reverse');
    acc = acc + c(end) + r(1) + sum(diff(c));
  end
  v = gather(acc);
  if j > 2, tm(j - 2) = toc(t0); end
  if j == 2, gpuStats reset; end
end
st = gpuStats;
fprintf('RESULT c2 cumsum ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g value=%.10g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, st.Session.Kernels / (runs + 1), ...
  st.Session.BytesUploaded / (runs + 1), st.Session.BytesDownloaded / (runs + 1), double(v));
