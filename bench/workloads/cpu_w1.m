% Workload 1 on the CPU, for matfuse's CPU path (MATFUSE_DEVICE=cpu) and GNU Octave alike:
% y = sin(x).*x + 0.5; m = mean(y) over BENCH_N (1e7) values of BENCH_CLASS.
n = str2double(getenv('BENCH_N')); if isnan(n), n = 1e7; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
cls = getenv('BENCH_CLASS'); if isempty(cls), cls = 'single'; end
x = cast(mod((1:n)' * 7919, 10007) / 10007 * 4 - 2, cls);
t = zeros(1, runs);
for k = 1:runs + 2
  tic; y = sin(x).*x + 0.5; m = mean(y); v = double(m); e = toc;
  if k > 2, t(k - 2) = e; end
  clear y m
end
fprintf('RESULT cpu_w1 %s ms_median=%.4f ms_min=%.4f value=%.12g\n', cls, median(t) * 1e3, min(t) * 1e3, v);
