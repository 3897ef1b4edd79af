% Slices 2: a row-wise update loop: A(i, :) = A(i, :) * 0.5 + i for the first BENCH_STEPS (64)
% rows of a BENCH_N x BENCH_N (2048) single matrix, then one element read back.
n = str2double(getenv('BENCH_N')); if isnan(n), n = 2048; end
steps = str2double(getenv('BENCH_STEPS')); if isnan(steps), steps = 64; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
A0 = gpuArray(single(reshape(mod((1:n*n)' * 31, 97), n, n)));
tm = zeros(1, runs);
for j = 1:runs + 2
  A = A0;
  t0 = tic;
  for i = 1:steps
    A(i, :) = A(i, :) * 0.5 + i;
  end
  v = gather(A(steps, n));
  if j > 2, tm(j - 2) = toc(t0); end
  if j == 2, gpuStats reset; end
end
st = gpuStats;
fprintf('RESULT s2 rows ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g value=%.10g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, st.Session.Kernels / (runs + 1), ...
  st.Session.BytesUploaded / (runs + 1), st.Session.BytesDownloaded / (runs + 1), double(v));
