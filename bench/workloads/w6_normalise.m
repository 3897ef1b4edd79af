% Workload 6: image normalisation, BENCH_IMAGES (16) images of BENCH_H x BENCH_W (1080 x
% 1920) singles on the device: each image's mean and standard deviation, then gain and bias.
% The result is materialised (a sink reads one element).
h = str2double(getenv('BENCH_H')); if isnan(h), h = 1080; end
w = str2double(getenv('BENCH_W')); if isnan(w), w = 1920; end
m = str2double(getenv('BENCH_IMAGES')); if isnan(m), m = 16; end
runs = str2double(getenv('BENCH_RUNS')); if isnan(runs), runs = 10; end
n = h * w * m;
X = gpuArray(single(reshape(mod((1:n)' * 7919, 10007) / 10007, h, w, m)));
gain = 1.5; bias = 0.25;
tw = tic;
while toc(tw) < 1.5
  Xr = reshape(X, [], m); mu = mean(Xr); sd = std(Xr); Y = (Xr - mu) ./ sd * gain + bias;
  q = gather(Y(1)); clear Xr mu sd Y
end
t = zeros(1, runs);
gpuStats reset
for j = 1:runs
  tic;
  Xr = reshape(X, [], m);
  mu = mean(Xr);
  sd = std(Xr);
  Y = (Xr - mu) ./ sd * gain + bias;
  q = gather(Y(1)); t(j) = toc;
  if j < runs, clear Xr mu sd Y, end
end
s = gpuStats;
v = gather(sum(double(Y(:)) .* mod((1:n)', 7)));
fprintf('RESULT w6 single ms_median=%.4f ms_min=%.4f kernels=%g up=%g down=%g gpu_ms=%.4f value=%.12g\n', ...
  median(t) * 1e3, min(t) * 1e3, s.Session.Kernels / runs, s.Session.BytesUploaded / runs, ...
  s.Session.BytesDownloaded / runs, s.Session.GPUTime / runs * 1e3, v);
