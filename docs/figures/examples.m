% Makes the example figures shown in the README: matfuse docs/figures/examples.m
% (run from the repository root).
rng(1);
x = linspace(0, 2*pi, 200);
figure(1)
plot(x, sin(x), x, cos(x), '--', 'LineWidth', 1.5)
hold on
plot(x(1:10:end), sin(2*x(1:10:end)) / 2, 'ko', 'MarkerFaceColor', 'y')
title('Lines, markers and a legend')
xlabel('x (rad)'); ylabel('y')
legend('sin', 'cos', 'sin(2x)/2', 'Location', 'southwest')
grid on
print -dpng -r96 docs/figures/lines.png

figure(2)
subplot(2, 2, 1); bar([3 5 2 4; 2 3 4 1]'); title('bar (grouped)')
subplot(2, 2, 2); histogram(randn(1, 2000)); title('histogram')
subplot(2, 2, 3); scatter(rand(1, 60), rand(1, 60), 40, rand(1, 60), 'filled'); title('scatter')
subplot(2, 2, 4); errorbar(1:6, [2 3 2.5 4 3.5 5], 0.4 * ones(1, 6), 's'); title('errorbar')
print -dpng -r96 docs/figures/charts.png

figure(3)
[X, Y] = meshgrid(linspace(-3, 3, 60));
Z = peaks(60);
subplot(2, 2, 1); imagesc(Z); colorbar; title('imagesc + colorbar')
subplot(2, 2, 2); contourf(X, Y, Z, 12); title('contourf')
subplot(2, 2, 3); semilogy(1:20, exp(1:20)); grid on; title('semilogy')
subplot(2, 2, 4); area(1:10, cumsum(rand(1, 10))); title('area')
print -dpng -r96 docs/figures/grids.png

figure(4)
surf(peaks(30)); title('surf(peaks(30))'); xlabel('x'); ylabel('y'); zlabel('z')
colormap(turbo)
print -dpng -r96 docs/figures/surface.png

figure(5)
subplot(2, 2, 1); pie([3 2 4 1]); title('pie')
subplot(2, 2, 2); [X, Y] = meshgrid(-2:0.5:2); quiver(X, Y, -Y, X); title('quiver')
subplot(2, 2, 3); th = linspace(0, 2*pi, 300); polarplot(th, 1 + cos(3*th), 'LineWidth', 1.5)
subplot(2, 2, 4); heatmap(magic(4)); title('heatmap')
sgtitle('pie, quiver, polarplot, heatmap')
print -dpng -r96 docs/figures/more_charts.png

figure(6)
t = tiledlayout(2, 3);
nexttile([1 2]); x = linspace(0, 4*pi, 400); plot(x, sin(x) .* exp(-x/6), 'LineWidth', 1.5); grid on; grid minor; title('grid minor')
nexttile; loglog(logspace(0, 3, 50), logspace(0, 3, 50).^-1.5); grid on; title('loglog')
nexttile; stairs(0:8, [1 3 2 5 4 6 5 7 6]); title('stairs')
nexttile; stem(1:8, sin(1:8), 'filled'); title('stem')
nexttile; [M, c] = contour(peaks(40), 8); axis equal tight; title('contour')
title(t, 'tiledlayout(2, 3) with a span')
xlabel(t, 'shared x label'); ylabel(t, 'shared y label')
print -dpng -r96 docs/figures/layout.png
