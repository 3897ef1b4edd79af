% Complex gpuArrays on the device (not in run.sh): a complex single product, a mat-vec and
% sqrt + log, each timed after a warm-up; PyTorch beside it in bench/coverage/RESULTS.md (stop 34).
n = 2048;
Z = gpuArray(complex(rand(n, 'single'), rand(n, 'single')));
v = gpuArray(complex(rand(n, 1, 'single'), rand(n, 1, 'single')));
W = Z * Z; s = gather(sum(W(:)));
t = tic; for k = 1:5, W = Z * Z; end; s = gather(sum(W(:))); fprintf('CPLX matmul %.2f ms\n', toc(t) / 5 * 1e3);
u = Z * v; s = gather(sum(u));
t = tic; for k = 1:20, u = Z * v; end; s = gather(sum(u)); fprintf('CPLX matvec %.3f ms\n', toc(t) / 20 * 1e3);
y = sqrt(Z) + log(Z); s = gather(sum(y(:)));
t = tic; for k = 1:20, y = sqrt(Z) + log(Z); end; s = gather(sum(y(:))); fprintf('CPLX sqrt+log %.3f ms\n', toc(t) / 20 * 1e3);
