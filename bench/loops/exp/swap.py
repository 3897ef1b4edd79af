# Replaces the m_normal function of every dumped kernel that has one with a variant
# (normal_A: the driver's f32 log and cos; normal_B: cut-down double with full division and
# square root; normal_D: no normal, two uniforms; the kept version is m_normal in
# shaders/math_f32_fast.wgsl).
import re, sys, os, glob
src, dst, variant = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
os.makedirs(dst, exist_ok=True)
for f in glob.glob(src + '/*.wgsl'):
    t = open(f).read()
    m = re.search(r'fn m_normal\(w: vec4<u32>\) -> f32 \{.*?\n\}\n', t, re.S)
    if m:
        open(os.path.join(dst, os.path.basename(f)), 'w').write(t[:m.start()] + variant + t[m.end():])
        print('swapped', f)
