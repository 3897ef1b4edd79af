% Where c2's time goes: each statement of its loop body timed alone (1e7 singles).
n = 1e7;
x = gpuArray(single(mod((1:n)' * 7919, 1000) / 1000 - 0.5));
c = cumsum(x * 2); w = gather(c(1));
parts = {'c = cumsum(x * 2);', 'r = cumsum(x, ''reverse'');', 'e = c(end);', 's = sum(diff(c));', 'd = diff(c);'};
for p = 1:numel(parts)
  for j = 1:3
    t0 = tic; eval(parts{p}); gpuArray(1); w = gather(sum(x(1:2))); tm = toc(t0);
  end
  fprintf('PART %-28s %.3f ms\n', parts{p}, tm * 1e3);
end
