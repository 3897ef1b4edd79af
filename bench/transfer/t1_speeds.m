% Transfer speeds: upload (gpuArray of a host array, made resident by one kernel that reads it:
% gpuArray itself is lazy, and the sum read back so the kernel has run) and download
% (gather of a resident gpuArray) of BENCH_N (1e8) singles and doubles, medians in ms and GB/s.
n = str2double(getenv('BENCH_N')); if isnan(n), n = 1e8; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 5; end
for cls = {'single', 'double'}
  x = gather(rand(n, 1, cls{1})); % on the host (rand of this size is made on the device)
  up = zeros(1, runs); down = zeros(1, runs);
  for j = 1:runs + 1
    x(1) = j; % a new array each run: an unchanged one is uploaded once
    t0 = tic; g = gpuArray(x); g = g + 1; v = gather(sum(g)); tu = toc(t0);
    t0 = tic; h = gather(g); td = toc(t0);
    if j > 1, up(j - 1) = tu; down(j - 1) = td; end
    clear g h
  end
  bytes = n * (4 + 4 * strcmp(cls{1}, 'double'));
  fprintf('RESULT transfer %s n=%d up_ms=%.2f up_GBs=%.2f down_ms=%.2f down_GBs=%.2f\n', cls{1}, n, ...
    median(up) * 1e3, bytes / median(up) / 1e9, median(down) * 1e3, bytes / median(down) / 1e9);
end
