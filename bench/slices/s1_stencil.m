% Slices 1: explicit 1-D heat equation, BENCH_STEPS (20) steps over BENCH_N (1e7) singles:
% u(2:end-1) = u(2:end-1) + r*(u(1:end-2) - 2*u(2:end-1) + u(3:end)). Views of u and a
% range assignment; nothing should move to the host but the checked value.
n = str2double(getenv('BENCH_N')); if isnan(n), n = 1e7; end
steps = str2double(getenv('BENCH_STEPS')); if isnan(steps), steps = 20; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
r = single(0.25);
u0 = gpuArray(single(mod((1:n)' * 7919, 1000) / 1000));
tm = zeros(1, runs);
for j = 1:runs + 2
  u = u0;
  t0 = tic;
  for t = 1:steps
    u(2:end-1) = u(2:end-1) + r*(u(1:end-2) - 2*u(2:end-1) + u(3:end));
  end
  v = gather(sum(u));
  if j > 2, tm(j - 2) = toc(t0); end
  if j == 2, gpuStats reset; end
end
st = gpuStats;
fprintf('RESULT s1 stencil ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g value=%.10g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, st.Session.Kernels / (runs + 1), ...
  st.Session.BytesUploaded / (runs + 1), st.Session.BytesDownloaded / (runs + 1), double(v));
