% Slices 8: deletion and growth: BENCH_STEPS (10) times the values above a falling threshold
% are deleted, x(x > t) = [], and BENCH_M (1e5) new values appended, x(end+1:end+m) = w, over
% BENCH_N (1e7) singles, then the sum and the length.
n = str2double(getenv('BENCH_N')); if isnan(n), n = 1e7; end
m = str2double(getenv('BENCH_M')); if isnan(m), m = 1e5; end
steps = str2double(getenv('BENCH_STEPS')); if isnan(steps), steps = 10; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
x0 = gpuArray(single(mod((1:n)' * 7919, 1000) / 1000));
w = gpuArray(single(mod((1:m)' * 31, 97) / 97));
tm = zeros(1, runs);
for j = 1:runs + 2
  x = x0 * 1;
  t0 = tic;
  for k = 1:steps
    x(x > 1 - k / 100) = [];
    x(end+1:end+m) = w;
  end
  v = gather(sum(x)) + numel(x);
  if j > 2, tm(j - 2) = toc(t0); end
  if j == 2, gpuStats reset; end
end
st = gpuStats;
fprintf('RESULT s8 delete_append ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g value=%.10g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, st.Session.Kernels / (runs + 1), ...
  st.Session.BytesUploaded / (runs + 1), st.Session.BytesDownloaded / (runs + 1), double(v));
