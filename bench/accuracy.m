% Accuracy of the device's elementwise functions on this machine's GPU, against the host
% evaluator (Rust's std): worst and mean distance in ulps for f64 (our WGSL functions) and f32
% (the driver's), over wide ranges. Run on the GPU machine beside the headline measurement.
w = 10.^linspace(-8, 300, 20001);
cases = {'exp', linspace(-745, 709, 200001); 'expm1', linspace(-40, 700, 200001); ...
         'sin', [linspace(-20, 20, 100001), w, -w]; 'cos', [linspace(-20, 20, 100001), w, -w]; ...
         'tan', [linspace(-20, 20, 100001), w, -w]; 'atan', [linspace(-50, 50, 100001), w, -w]; ...
         'sinh', linspace(-709, 709, 200001); 'cosh', linspace(-709, 709, 200001); ...
         'tanh', linspace(-25, 25, 200001)};
for k = 1:size(cases, 1)
  f = str2func(cases{k, 1}); X = cases{k, 2};
  R = gather(f(gpuArray(X))); H = f(X);
  ok = isfinite(H) & H ~= 0; u = abs(R(ok) - H(ok)) ./ eps(H(ok));
  Xs = single(X(abs(X) < 1e4)); Rs = gather(f(gpuArray(Xs))); Hs = f(Xs);
  oks = isfinite(Hs) & Hs ~= 0; us = abs(double(Rs(oks)) - double(Hs(oks))) ./ double(eps(Hs(oks)));
  fprintf('%-6s f64: max %g ulp, mean %.3f, special values equal %d | f32 (|x| < 1e4): max %g ulp, mean %.3f\n', ...
          cases{k, 1}, max(u), mean(u), isequaln(R(~ok), H(~ok)), max(us), mean(us));
end
rng(7); a = rand(1e6, 1, 'single', 'gpuArray'); rng(7); b = rand(1e6, 1, 'single');
rng(7); c = randn(1e6, 1, 'gpuArray'); rng(7); d = randn(1e6, 1);
fprintf('rand single identical to the host stream: %d; randn double max difference %g\n', ...
        isequal(gather(a), b), max(abs(gather(c) - d)));
