% Workload 5: exponential moving average over BENCH_N (1e6) channels x BENCH_STEPS (512)
% steps: X is n x steps single on the device, y = a*X(:,t) + (1-a)*y for each t. Checked
% against the same recurrence on the host over the first 64 channels.
n = str2double(getenv('BENCH_N')); if isnan(n), n = 1e6; end
steps = str2double(getenv('BENCH_STEPS')); if isnan(steps), steps = 512; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
a = 0.05;
rng(2);
X = rand(n, steps, 'single', 'gpuArray');
for j = 1:2
  y = zeros(n, 1, 'single', 'gpuArray');
  for t = 1:steps, y = a * X(:, t) + (1 - a) * y; end
  w = gather(y(1));
end
tm = zeros(1, runs);
gpuStats reset
for j = 1:runs
  tic;
  y = zeros(n, 1, 'single', 'gpuArray');
  for t = 1:steps
    y = a * X(:, t) + (1 - a) * y;
  end
  w = gather(y(1)); tm(j) = toc;
end
st = gpuStats;
Xh = gather(X(1:64, :)); yh = zeros(64, 1, 'single');
for t = 1:steps, yh = a * Xh(:, t) + (1 - a) * yh; end
yd = gather(y(1:64));
err = max(abs(double(yd) - double(yh)) ./ max(abs(double(yh)), 1e-30));
fprintf('RESULT w5 single ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g gpu_ms=%.4f value=%.12g check_rel_err=%.3g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, st.Session.Kernels / runs, st.Session.BytesUploaded / runs, ...
  st.Session.BytesDownloaded / runs, st.Session.GPUTime / runs * 1e3, mean(double(yd)), err);
