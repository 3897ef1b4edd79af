% FFT 1: low-pass filter of BENCH_COLS (16) signals of BENCH_N (2^18) singles as columns of a
% gpuArray: y = real(ifft(fft(X) .* H)) with a 0/1 mask H, then the sum. The transforms run
% on the device (gpu::fft) on complex gpuArrays kept as two real parts; only the sum comes back.
n = str2double(getenv('BENCH_N')); if isnan(n), n = 2^18; end
cols = str2double(getenv('BENCH_COLS')); if isnan(cols), cols = 16; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
t = (0:n-1)' / n;
X0 = single(sin(2*pi*50*t) + 0.5*sin(2*pi*3000*t) + 0.01*(1:cols));
X = gpuArray(X0);
f = [0:n/2, -n/2+1:-1]';
H = gpuArray(single(abs(f) <= 200));
tm = zeros(1, runs);
for j = 1:runs + 2
  t0 = tic;
  Y = real(ifft(fft(X) .* H));
  v = gather(sum(Y(:)));
  if j > 2, tm(j - 2) = toc(t0); end
  if j == 2, gpuStats reset; end
end
st = gpuStats;
fprintf('RESULT f1 lowpass ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g value=%.10g\n', ...
  median(tm) * 1e3, min(tm) * 1e3, st.Session.Kernels / (runs + 1), ...
  st.Session.BytesUploaded / (runs + 1), st.Session.BytesDownloaded / (runs + 1), double(v));
