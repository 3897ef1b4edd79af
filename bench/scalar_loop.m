% Interpreter scalar speed: s = s + i*0.5 over N iterations (N from the environment, or 1e7).
N = str2double(getenv('N'));
if isnan(N), N = 1e7; end
tic;
s = 0;
for i = 1:N, s = s + i*0.5; end
t = toc;
expected = 0.5 * N * (N + 1) / 2;
if abs(s - expected) > 1e-9 * expected
  error('bench:wrong', 'scalar loop result %.17g differs from %.17g', s, expected);
end
fprintf('%.3f ns/iter (%d iterations, %.3f s)\n', t / N * 1e9, N, t);
