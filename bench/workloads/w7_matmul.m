% Workload 7: matrix product with an epilogue, C = max(A*B*0.5 + bias, 0), A and B BENCH_N
% (4096) square of BENCH_CLASS on the device, bias a row.
n = str2double(getenv('BENCH_N')); if isnan(n), n = 4096; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
cls = getenv('BENCH_CLASS'); if isempty(cls), cls = 'single'; end
k = (1:n)';
A = gpuArray(cast(reshape(mod((1:n*n)' * 7919, 10007) / 10007 - 0.5, n, n), cls));
B = gpuArray(cast(reshape(mod((1:n*n)' * 104729, 10009) / 10009 - 0.5, n, n), cls));
bias = gpuArray(cast(mod(k' * 31, 101) / 101 - 0.5, cls));
for j = 1:2, C = max(A*B*0.5 + bias, 0); w = gather(C(1)); clear C, end
t = zeros(1, runs);
gpuStats reset
for j = 1:runs
  tic; C = max(A*B*0.5 + bias, 0); w = gather(C(1)); t(j) = toc;
  if j < runs, clear C, end
end
s = gpuStats;
v = gather(sum(double(C(:))));
fprintf('RESULT w7 %s ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g gpu_ms=%.4f value=%.12g\n', ...
  cls, median(t) * 1e3, min(t) * 1e3, s.Session.Kernels / runs, s.Session.BytesUploaded / runs, ...
  s.Session.BytesDownloaded / runs, s.Session.GPUTime / runs * 1e3, v);
