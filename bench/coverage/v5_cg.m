% Coverage 5: BENCH_STEPS (50) conjugate-gradient iterations on a dense symmetric positive
% definite BENCH_N (4096) square single matrix: one mat-vec A*p and two dot products a step,
% the step sizes kept on the device.
n = str2double(getenv('BENCH_N')); if isnan(n), n = 4096; end
steps = str2double(getenv('BENCH_STEPS')); if isnan(steps), steps = 50; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
B = single(reshape(mod((1:n*n)' * 7919, 1000003) / 1000003 - 0.5, n, n));
A = gpuArray(B' * B / n + eye(n, 'single'));
b = gpuArray(single(mod((1:n)', 7) / 7));
tm = zeros(1, runs);
for j = 1:runs + 2
  t0 = tic;
  x = zeros(n, 1, 'single', 'gpuArray');
  r = b; p = r; rr = r' * r;
  for k = 1:steps
    Ap = A * p;
    alpha = rr / (p' * Ap);
    x = x + alpha * p;
    r = r - alpha * Ap;
    rr1 = r' * r;
    p = r + (rr1 / rr) * p;
    rr = rr1;
  end
  v = gather(sum(x));
  if j > 2, tm(j - 2) = toc(t0); end
  if j == 2, gpuStats reset; end
end
st = gpuStats;
fprintf('RESULT v5 cg ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g value=%.10g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, st.Session.Kernels / (runs + 1), ...
  st.Session.BytesUploaded / (runs + 1), st.Session.BytesDownloaded / (runs + 1), double(v));
