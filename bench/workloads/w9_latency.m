% Workload 9: statement overhead. BENCH_STATEMENTS (1000) statements on a 1x1 device value
% (g = g + 1, then one gather), and a loop of host scalar statements (s = s + 1).
m = str2double(getenv('BENCH_STATEMENTS')); if isnan(m), m = 1000; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
t = zeros(1, runs);
for j = 1:runs + 2
  g = gpuArray(1);
  tic;
  for k = 1:m
    g = g + 1;
  end
  v = gather(g);
  if j > 2, t(j - 2) = toc; end
end
gpuStats reset
g = gpuArray(1); for k = 1:m, g = g + 1; end; v = gather(g); s = gpuStats;
fprintf('RESULT w9_device double us_per_statement=%.4f ms_median=%.4f ms_min=%.4f kernels=%g value=%.12g\n', ...
  median(t) / m * 1e6, median(t) * 1e3, min(t) * 1e3, s.Session.Kernels, v);
h = zeros(1, runs); n = 1e6;
for j = 1:runs
  s = 0; tic;
  for k = 1:n
    s = s + 1;
  end
  h(j) = toc;
end
fprintf('RESULT w9_host double us_per_statement=%.5f ms_median=%.4f ms_min=%.4f value=%.12g\n', ...
  median(h) / n * 1e6, median(h) * 1e3, min(h) * 1e3, s);
