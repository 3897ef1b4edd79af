% Carried reductions (issue 28): workload 5's EMA (1e6 channels x 512 steps, single) with a
% running sum and maximum of the state, `acc = acc + sum(y); m = max(m, max(y))`, each step.
n = 1e6; steps = 512; runs = 7;
X = rand(n, steps, 'single', 'gpuArray'); X = X + 0; a = single(0.05);
tm = zeros(1, runs);
for j = 1:runs + 2
  t0 = tic; y = zeros(n, 1, 'single', 'gpuArray'); acc = 0; m = -Inf;
  for t = 1:steps, y = a * X(:, t) + (1 - a) * y; acc = acc + sum(y); m = max(m, max(y)); end
  v = gather(acc); w = gather(m);
  if j > 2, tm(j - 2) = toc(t0); end
  if j == 2, gpuStats reset; end
end
s = gpuStats;
fprintf('RESULT carried ema_sum_max ms_median=%.3f ms_min=%.3f kernels=%g acc=%.6g max=%.6g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, s.Session.Kernels / (runs + 1), v, w);
