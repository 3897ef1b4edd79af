% Coverage 1: Black-Scholes call prices over BENCH_N (2e7) singles with log, sqrt, exp and
% erfc (the issue's option-pricing chain), then the mean.
n = str2double(getenv('BENCH_N')); if isnan(n), n = 2e7; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
S = gpuArray(single(80 + 40 * mod((1:n)' * 7919, 1000003) / 1000003));
K = single(100); r = single(0.03); sig = single(0.25); T = single(1.5);
tm = zeros(1, runs);
for j = 1:runs + 2
  t0 = tic;
  d1 = (log(S / K) + (r + sig^2 / 2) * T) / (sig * sqrt(T));
  d2 = d1 - sig * sqrt(T);
  C = S .* 0.5 .* erfc(-d1 / sqrt(2)) - K * exp(-r * T) .* 0.5 .* erfc(-d2 / sqrt(2));
  v = gather(mean(C));
  if j > 2, tm(j - 2) = toc(t0); end
  if j == 2, gpuStats reset; end
end
st = gpuStats;
fprintf('RESULT v1 options ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g value=%.10g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, st.Session.Kernels / (runs + 1), ...
  st.Session.BytesUploaded / (runs + 1), st.Session.BytesDownloaded / (runs + 1), double(v));
