% Loop-kernel variants of workload 4 (1e6 paths x 256 steps, single), to see where the time
% goes: the GBM step with randn, with rand, with no draw, and with a host-made draw table.
n = 1e6; steps = 256; runs = 5;
names = {'randn', 'rand', 'none'};
for v = 1:3
  tm = zeros(1, runs);
  for j = 1:runs + 1
    rng(1); tic;
    S = 100 * ones(n, 1, 'single', 'gpuArray');
    switch v
      case 1
        for s = 1:steps, S = S .* exp(-0.0001 + 0.0125 * randn(n, 1, 'single', 'gpuArray')); end
      case 2
        for s = 1:steps, S = S .* exp(-0.0001 + 0.0125 * rand(n, 1, 'single', 'gpuArray')); end
      case 3
        for s = 1:steps, S = S .* exp(-0.0001 + 0.0125 * S); end
    end
    w = gather(S(1));
    if j > 1, tm(j - 1) = toc; end
  end
  st = gpuStats;
  fprintf('VARIANT %s median %.3f ms\n', names{v}, median(tm) * 1e3);
end
