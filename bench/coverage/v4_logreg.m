% Coverage 4: BENCH_STEPS (20) steps of logistic-regression gradient descent, X BENCH_ROWS
% (1e6) x 32 single: p = 1 ./ (1 + exp(-X*w)); w = w - lr * X' * (p - y) / n.
n = str2double(getenv('BENCH_ROWS')); if isnan(n), n = 1e6; end
d = 32;
steps = str2double(getenv('BENCH_STEPS')); if isnan(steps), steps = 20; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
X = gpuArray(single(reshape(mod((1:n*d)' * 7919, 1000003) / 1000003 - 0.5, n, d)));
y = gpuArray(single(mod((1:n)', 3) == 0));
tm = zeros(1, runs);
for j = 1:runs + 2
  t0 = tic;
  w = zeros(d, 1, 'single', 'gpuArray');
  for k = 1:steps
    p = 1 ./ (1 + exp(-(X * w)));
    w = w - 0.5 * (X' * (p - y)) / n;
  end
  v = gather(sum(w));
  if j > 2, tm(j - 2) = toc(t0); end
  if j == 2, gpuStats reset; end
end
st = gpuStats;
fprintf('RESULT v4 logreg ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g value=%.10g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, st.Session.Kernels / (runs + 1), ...
  st.Session.BytesUploaded / (runs + 1), st.Session.BytesDownloaded / (runs + 1), double(v));
