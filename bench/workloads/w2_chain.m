% Workload 2: a 12-operation elementwise chain over three BENCH_N (5e7) single inputs on the
% device, in one statement; the result is materialised (a sink reads one element of it).
n = str2double(getenv('BENCH_N')); if isnan(n), n = 5e7; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
k = (1:n)';
a = gpuArray(single(mod(k * 7919, 10007) / 10007 * 4 - 2));
b = gpuArray(single(mod(k * 104729, 10009) / 10009 * 4 - 2));
c = gpuArray(single(mod(k * 1299709, 10037) / 10037 * 4 - 2));
clear k
tw = tic;
while toc(tw) < 1.5
  r = (max(exp(-abs(a)), sqrt(abs(b))) .^ 2 .* cos(c) + a) .* b - c; w = gather(r(1)); clear r
end
t = zeros(1, runs);
gpuStats reset
for j = 1:runs
  tic;
  r = (max(exp(-abs(a)), sqrt(abs(b))) .^ 2 .* cos(c) + a) .* b - c;
  w = gather(r(1)); t(j) = toc;
  if j < runs, clear r, end
end
s = gpuStats;
v = gather(sum(double(r)));
fprintf('RESULT w2 single ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g gpu_ms=%.4f value=%.12g\n', ...
  median(t) * 1e3, min(t) * 1e3, s.Session.Kernels / runs, s.Session.BytesUploaded / runs, ...
  s.Session.BytesDownloaded / runs, s.Session.GPUTime / runs * 1e3, v);
