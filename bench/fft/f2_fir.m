% FFT 2: a 31-tap FIR filter of BENCH_N (1e7) singles on a gpuArray, as conv(x, b, 'same')
% and as filter(b, 1, x), then the sums. Both run on the device (gpu::conv).
n = str2double(getenv('BENCH_N')); if isnan(n), n = 1e7; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
x = gpuArray(single(sin((1:n)' * 0.001) + 0.1 * mod((1:n)' * 7919, 1000) / 1000));
b = gpuArray(single(hann_taps(31)));
tm = zeros(1, runs);
for j = 1:runs + 2
  t0 = tic;
  y1 = conv(x, b, 'same');
  y2 = filter(b, 1, x);
  v = gather(sum(y1) + sum(y2));
  if j > 2, tm(j - 2) = toc(t0); end
  if j == 2, gpuStats reset; end
end
st = gpuStats;
fprintf('RESULT f2 fir ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g value=%.10g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, st.Session.Kernels / (runs + 1), ...
  st.Session.BytesUploaded / (runs + 1), st.Session.BytesDownloaded / (runs + 1), double(v));

function w = hann_taps(m)
  w = 0.5 - 0.5 * cos(2 * pi * (1:m)' / (m + 1));
  w = w / sum(w);
end
