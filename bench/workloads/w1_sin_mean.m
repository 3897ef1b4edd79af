% Workload 1: y = sin(x).*x + 0.5; m = mean(y) over BENCH_N (1e8) values of BENCH_CLASS
% (single or double) already on the device. Timed from the statements to the value on the
% host, median of BENCH_RUNS (10) after a warm-up.
n = str2double(getenv('BENCH_N')); if isnan(n), n = 1e8; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
cls = getenv('BENCH_CLASS'); if isempty(cls), cls = 'single'; end
% The same values the peers build: whole-number arithmetic, then one rounding to the class.
x = gpuArray(cast(mod((1:n)' * 7919, 10007) / 10007 * 4 - 2, cls));
tw = tic;
while toc(tw) < 1.5
  y = sin(x).*x + 0.5; m = mean(y); v = gather(m); clear y m
end
t = zeros(1, runs);
gpuStats reset
for k = 1:runs
  tic; y = sin(x).*x + 0.5; m = mean(y); v = gather(m); t(k) = toc;
  clear y m   % identical expressions share nodes: clearing makes each run compute anew
end
s = gpuStats;
fprintf('RESULT w1 %s ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g gpu_ms=%.4f value=%.12g\n', ...
  cls, median(t) * 1e3, min(t) * 1e3, s.Session.Kernels / runs, s.Session.BytesUploaded / runs, ...
  s.Session.BytesDownloaded / runs, s.Session.GPUTime / runs * 1e3, double(v));
