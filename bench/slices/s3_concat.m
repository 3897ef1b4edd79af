% Slices 3: concatenation and reversal: Z = [X, flip(X)] of a BENCH_N (1e6) x 4 single matrix,
% shifted with circshift, its columns summed; BENCH_STEPS (8) times.
n = str2double(getenv('BENCH_N')); if isnan(n), n = 1e6; end
steps = str2double(getenv('BENCH_STEPS')); if isnan(steps), steps = 8; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
X = gpuArray(single(reshape(mod((1:4*n)' * 13, 101) / 101, n, 4)));
tm = zeros(1, runs);
for j = 1:runs + 2
  t0 = tic;
  acc = zeros(1, 8, 'single', 'gpuArray');
  for k = 1:steps
    Z = [X, flip(X)];
    acc = acc + sum(circshift(Z, k) .* Z, 1);
  end
  v = gather(acc);
  if j > 2, tm(j - 2) = toc(t0); end
  if j == 2, gpuStats reset; end
end
st = gpuStats;
fprintf('RESULT s3 concat ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g value=%.10g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, st.Session.Kernels / (runs + 1), ...
  st.Session.BytesUploaded / (runs + 1), st.Session.BytesDownloaded / (runs + 1), double(sum(v)));
