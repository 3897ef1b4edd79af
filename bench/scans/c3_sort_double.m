% Scans 3: sorting doubles: BENCH_STEPS (4) times BENCH_N (1e7) doubles (multiples of 1/8
% below 1e6: three of their eight key bytes are the same in every element, so three radix
% passes are skipped) are sorted with their
% indices, and the median and the first index are accumulated, [s, i] = sort(x + k/8).
n = str2double(getenv('BENCH_N')); if isnan(n), n = 1e7; end
steps = str2double(getenv('BENCH_STEPS')); if isnan(steps), steps = 4; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
x = gpuArray(mod((1:n)' * 7919, 1000003));
tm = zeros(1, runs);
for j = 1:runs + 2
  t0 = tic;
  acc = zeros(1, 'gpuArray');
  for k = 1:steps
    [s, i] = sort(x + k / 8);
    acc = acc + s(floor(n / 2)) + i(1);
  end
  v = gather(acc);
  if j > 2, tm(j - 2) = toc(t0); end
  if j == 2, gpuStats reset; end
end
st = gpuStats;
fprintf('RESULT c3 sort-double ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g value=%.10g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, st.Session.Kernels / (runs + 1), ...
  st.Session.BytesUploaded / (runs + 1), st.Session.BytesDownloaded / (runs + 1), double(v));
