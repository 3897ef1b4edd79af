% The host-engine rows of bench/run-cpu.sh, for matfuse and GNU Octave alike. Environment:
% BENCH_N (elements), BENCH_CLASS (single|double), BENCH_RUNS (timed runs after a warm-up),
% BENCH_ROWS (comma-separated row names, or all). Prints "ROW name ms_median checksum".
n = str2double(getenv('BENCH_N')); cls = getenv('BENCH_CLASS'); runs = str2double(getenv('BENCH_RUNS'));
want = getenv('BENCH_ROWS');
x = mod((0:n-1) * 0.6180339887498949, 1); x = cast(x, cls);
m = round(sqrt(n)); c = cast(mod((0:m-1)' * 0.3819660112501051, 1), cls); r = cast(mod((0:m-1) * 0.7548776662466927, 1), cls);
a = int32(mod((0:n-1) * 7919, n)); b = int32(mod((0:n-1) * 104729 + 17, 2 * n));
Am = reshape(x(1:m*floor(n/m)), m, floor(n/m)); bb = x(1:m)';
ix = mod((0:n-1) * 7919, n) + 1;
p = double(x(1:min(n, 16000))); q = [p(1:floor(end/2)) double(mod((0:ceil(numel(p)/2)-1) * 0.123456789, 1))];
rows = {'sum', 'maxi', 'any', 'std', 'sinx', 'chain', 'sumchain', 'expchain', 'stencil', 'bcast', 'diff', 'sort', 'ismember', 'intersect', 'unique', 'grow', 'strcat', 'matmul', 'iadd', 'iscale', 'icmp', 'cumsum', 'cumprod', 'absqrt', 'explog', 'meanrows', 'varrows', 'mask', 'find', 'mincols', 'maxrows', 'matvec', 'pow3', 'modfloor', 'ieq', 'repmat', 'sumcols', 'gather'};
for k = 1:numel(rows)
  name = rows{k};
  if ~strcmp(want, 'all') && isempty(strfind([',' want ','], [',' name ',']))
    continue;
  end
  ts = zeros(1, runs);
  for rep = 0:runs
    t0 = tic;
    switch name
      case 'sum', v = double(sum(x));
      case 'maxi', [mm, ii] = max(x); v = double(mm) + ii;
      case 'any', v = double(any(x > 0.999999));
      case 'std', v = double(std(x));
      case 'sinx', y = sin(x).*x + 0.5; v = double(y(end)) + double(y(1));
      case 'chain', y = ((x .* 2 + 1) .* x - 0.5) ./ (x + 1) .* 3 - x .* x + 0.25; v = double(y(end)) + double(y(1));
      case 'sumchain', v = double(sum(sin(x).*x + 0.5));
      case 'expchain', y = exp(-x .* x) .* cos(3 * x) + log(x + 1); v = double(y(end)) + double(y(1));
      case 'stencil', u = x; for s = 1:5, u(2:end-1) = u(2:end-1) + 0.25 * (u(1:end-2) - 2 * u(2:end-1) + u(3:end)); end, v = double(u(end - 1)) + double(u(2)) + double(u(floor(end/2)));
      case 'bcast', y = c + r; v = double(y(end)) + double(y(1));
      case 'diff', y = x(2:end) - x(1:end-1); v = double(y(end)) + double(y(1));
      case 'sort', y = sort(x); v = double(y(end)) + double(y(1)) + double(y(floor(end/2)));
      case 'ismember', y = ismember(a, b); v = double(nnz(y));
      case 'intersect', y = intersect(p, q); v = numel(y) + sum(y);
      case 'unique', y = unique(a); v = numel(y);
      case 'grow', g = []; for i = 1:n, g(end+1) = i; end, v = sum(g);
      case 'strcat', s = ''; for i = 1:n, s = [s 'ab']; end, v = numel(s);
      case 'iadd', y = a + b; v = double(y(end)) + double(y(1)) + double(y(floor(end/2)));
      case 'iscale', y = a * 3; v = double(y(end)) + double(y(1)) + double(y(floor(end/2)));
      case 'icmp', y = a > 5000; v = double(nnz(y));
      case 'cumsum', y = cumsum(x); v = double(y(end)) + double(y(floor(end/2)));
      case 'cumprod', y = cumprod(1 + x / n); v = double(y(1000)) + double(y(2));
      case 'absqrt', y = sqrt(abs(x - 0.5)) + abs(x); v = double(y(end)) + double(y(1));
      case 'explog', y = log(exp(x) + 1); v = double(y(end)) + double(y(1));
      case 'meanrows', y = mean(Am, 2); v = double(sum(y));
      case 'varrows', y = var(Am, 0, 2); v = double(sum(y));
      case 'mask', y = x(x > 0.5); v = double(numel(y)) + double(y(end));
      case 'find', y = find(x > 0.5); v = numel(y) + y(end);
      case 'mincols', [mm, ii] = min(Am, [], 1); v = double(sum(mm)) + sum(ii);
      case 'maxrows', y = max(Am, [], 2); v = double(sum(y));
      case 'matvec', y = Am' * bb; v = double(sum(y));
      case 'pow3', y = x.^3; v = double(y(end)) + double(y(1));
      case 'modfloor', y = mod(floor(x * 1000), 7); v = sum(y, 'double');
      case 'ieq', y = a == b; v = double(nnz(y));
      case 'repmat', y = repmat(r, m, 1); v = double(y(end)) + double(y(1)) + numel(y);
      case 'sumcols', y = sum(Am, 1); v = double(sum(y));
      case 'gather', y = x(ix); v = double(y(end)) + double(y(1)) + double(y(floor(end/2)));
      case 'matmul', A = cast(reshape(mod((0:m*m-1) * 0.6180339887498949, 1), m, m), cls); B = A'; t0 = tic; C = A * B; v = double(C(end)) + double(C(1));
    end
    if rep > 0
      ts(rep) = toc(t0) * 1e3;
    end
  end
  fprintf('ROW %s %.4f %.10g\n', name, median(ts), v);
end
