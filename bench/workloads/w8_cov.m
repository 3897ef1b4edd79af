% Workload 8: covariance of a BENCH_N x BENCH_P (1e6 x 64) single matrix on the device:
% Xc = X - mean(X); C = Xc'*Xc/(n-1).
n = str2double(getenv('BENCH_N')); if isnan(n), n = 1e6; end
p = str2double(getenv('BENCH_P')); if isnan(p), p = 64; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
X = gpuArray(single(reshape(mod((1:n*p)' * 7919, 10007) / 10007, n, p)));
for j = 1:2, Xc = X - mean(X); C = Xc' * Xc / (n - 1); w = gather(C(1)); clear Xc C, end
t = zeros(1, runs);
gpuStats reset
for j = 1:runs
  tic; Xc = X - mean(X); C = Xc' * Xc / (n - 1); w = gather(C(1)); t(j) = toc;
  if j < runs, clear Xc C, end
end
s = gpuStats;
v = gather(sum(double(C(:))));
fprintf('RESULT w8 single ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g gpu_ms=%.4f value=%.12g\n', ...
  median(t) * 1e3, min(t) * 1e3, s.Session.Kernels / runs, s.Session.BytesUploaded / runs, ...
  s.Session.BytesDownloaded / runs, s.Session.GPUTime / runs * 1e3, v);
