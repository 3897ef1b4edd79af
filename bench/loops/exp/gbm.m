n = 1e6; steps = 256; runs = 7; tm = zeros(1, runs);
for j = 1:runs + 1
  rng(1); tic; S = 100 * ones(n, 1, 'single', 'gpuArray');
  for s = 1:steps, S = S .* exp(-0.0001 + 0.0125 * randn(n, 1, 'single', 'gpuArray')); end
  w = gather(S(1)); if j > 1, tm(j - 1) = toc; end
end
fprintf('GBM median %.3f ms  S(1)=%.6f mean=%.6f\n', median(tm) * 1e3, w, gather(mean(S)));
