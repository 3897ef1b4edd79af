% Accuracy of the device's elementwise functions on this machine's GPU, against the host
% evaluator (Rust's std): worst and mean distance in ulps for f64 and f32 (our WGSL functions),
% over wide ranges. Run on the GPU machine beside the headline measurement. The host's values
% are computed 4096 elements at a time: a calibrated session would send whole host arrays to
% the GPU, and compare the device with itself.
w = 10.^linspace(-8, 300, 20001);
cases = {'exp', linspace(-745, 709, 200001); 'expm1', linspace(-40, 700, 200001); ...
         'sin', [linspace(-20, 20, 100001), w, -w]; 'cos', [linspace(-20, 20, 100001), w, -w]; ...
         'tan', [linspace(-20, 20, 100001), w, -w]; 'atan', [linspace(-50, 50, 100001), w, -w]; ...
         'sinh', linspace(-709, 709, 200001); 'cosh', linspace(-709, 709, 200001); ...
         'tanh', linspace(-25, 25, 200001); 'log', [0, w, 1 ./ w, linspace(0.5, 2, 100001)]; ...
         'sqrt', [0, w, 1 ./ w, linspace(0, 4, 100001)]; ...
         'log2', [0, w, 1 ./ w, linspace(0.5, 2, 100001)]; ...
         'log10', [0, w, 1 ./ w, linspace(0.5, 2, 100001)]; ...
         'log1p', [0, w, 1 ./ w, linspace(0, 2, 100001)]};
for k = 1:size(cases, 1)
  f = str2func(cases{k, 1}); X = cases{k, 2};
  R = gather(f(gpuArray(X))); H = zeros(size(X));
  for j = 1:4096:numel(X), J = j:min(j + 4095, numel(X)); H(J) = f(X(J)); end
  ok = isfinite(H) & H ~= 0; u = abs(R(ok) - H(ok)) ./ eps(H(ok));
  Xs = single(X(abs(X) < 1e4)); Rs = gather(f(gpuArray(Xs))); Hs = zeros(size(Xs), 'single');
  for j = 1:4096:numel(Xs), J = j:min(j + 4095, numel(Xs)); Hs(J) = f(Xs(J)); end
  oks = isfinite(Hs) & Hs ~= 0; us = abs(double(Rs(oks)) - double(Hs(oks))) ./ double(eps(Hs(oks)));
  fprintf('%-6s f64: max %g ulp, mean %.3f, special values equal %d | f32 (|x| < 1e4): max %g ulp, mean %.3f\n', ...
          cases{k, 1}, max(u), mean(u), isequaln(R(~ok), H(~ok)), max(us), mean(us));
end
% x.^y over bases from 1e-300 to 1e300 against exponents of both signs (fractional ones
% go through exp(y log x) in double-double); mod and rem are exact, so must be equal.
b = [10.^linspace(-300, 300, 601), linspace(0, 4, 401)]; e = [linspace(-30, 30, 241), 0.5, 1/3, 700.3];
[E, B] = meshgrid(e, b); X = B(:)'; Y = E(:)';
R = gather(gpuArray(X) .^ gpuArray(Y)); H = zeros(size(X));
for j = 1:4096:numel(X), J = j:min(j + 4095, numel(X)); H(J) = X(J) .^ Y(J); end
ok = isfinite(H) & H ~= 0; u = abs(R(ok) - H(ok)) ./ eps(H(ok));
fprintf('power  f64: max %g ulp, mean %.3f, special values equal %d\n', max(u), mean(u), isequaln(R(~ok), H(~ok)));
rng(3); x = (rand(1, 1e6) - 0.5) * 2e4; y = (rand(1, 1e6) - 0.5) * 20;
Hm = zeros(size(x)); Hr = Hm;
for j = 1:4096:numel(x), J = j:min(j + 4095, numel(x)); Hm(J) = mod(x(J), y(J)); Hr(J) = rem(x(J), y(J)); end
fprintf('mod, rem f64 identical to the host: %d %d\n', ...
        isequal(gather(mod(gpuArray(x), gpuArray(y))), Hm), isequal(gather(rem(gpuArray(x), gpuArray(y))), Hr));
rng(7); a = rand(1e6, 1, 'single', 'gpuArray'); rng(7); b = rand(1e6, 1, 'single');
rng(7); c = randn(1e6, 1, 'gpuArray'); rng(7); d = randn(1e6, 1);
fprintf('rand single identical to the host stream: %d; randn double max difference %g\n', ...
        isequal(gather(a), b), max(abs(gather(c) - d)));
