% Coverage 2: softmax down the columns of a BENCH_ROWS (1000) x BENCH_COLS (20000) single
% matrix (classes x batch), shifted by each column's max, then a checksum.
m = str2double(getenv('BENCH_ROWS')); if isnan(m), m = 1000; end
c = str2double(getenv('BENCH_COLS')); if isnan(c), c = 20000; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
X = gpuArray(single(reshape(mod((1:m*c)' * 7919, 1000003) / 100003, m, c)));
w = gpuArray(single((1:m)' / m));
tm = zeros(1, runs);
for j = 1:runs + 2
  t0 = tic;
  E = exp(X - max(X, [], 1));
  P = E ./ sum(E, 1);
  v = gather(sum(P .* w, 'all'));
  if j > 2, tm(j - 2) = toc(t0); end
  if j == 2, gpuStats reset; end
end
st = gpuStats;
fprintf('RESULT v2 softmax ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g value=%.10g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, st.Session.Kernels / (runs + 1), ...
  st.Session.BytesUploaded / (runs + 1), st.Session.BytesDownloaded / (runs + 1), double(v));
