% Coverage 3: column z-score of a BENCH_ROWS (2e6) x BENCH_COLS (32) single matrix,
% Z = (X - mean(X)) ./ std(X), then a weighted checksum.
m = str2double(getenv('BENCH_ROWS')); if isnan(m), m = 2e6; end
c = str2double(getenv('BENCH_COLS')); if isnan(c), c = 32; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
X = gpuArray(single(reshape(mod((1:m*c)' * 7919, 1000003) / 1000003, m, c) .* (1:c)));
tm = zeros(1, runs);
for j = 1:runs + 2
  t0 = tic;
  Z = (X - mean(X)) ./ std(X);
  v = gather(sum(abs(Z), 'all'));
  if j > 2, tm(j - 2) = toc(t0); end
  if j == 2, gpuStats reset; end
end
st = gpuStats;
fprintf('RESULT v3 zscore ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g value=%.10g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, st.Session.Kernels / (runs + 1), ...
  st.Session.BytesUploaded / (runs + 1), st.Session.BytesDownloaded / (runs + 1), double(v));
