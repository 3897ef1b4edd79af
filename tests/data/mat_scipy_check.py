# Checks MAT-files matfuse wrote from tests/data/mat_values.m (plus uni, text past ASCII).
import sys
import numpy as np
import scipy.io as sio

def check(path):
    m = sio.loadmat(path, struct_as_record=False, uint16_codec='utf-16-le')
    def eq(name, dtype, val):
        a = m[name]
        v = np.array(val)
        assert a.dtype == np.dtype(dtype), (name, a.dtype)
        assert a.shape == v.shape, (name, a.shape)
        assert np.array_equal(a, v), (name, a)
    eq('d', 'float64', [[1.5, -2], [3, 4e300]])
    eq('s1', 'float32', [[1.25, -2.5]])
    eq('i8', 'int8', [[-128, 127]])
    eq('u8', 'uint8', [[0, 255]])
    eq('i16', 'int16', [[-300]])
    eq('u16', 'uint16', [[65535]])
    eq('i32', 'int32', [[-2147483648, 5]])
    eq('u32', 'uint32', [[4294967295]])
    eq('i64', 'int64', [[-9223372036854775803]])
    eq('u64', 'uint64', [[18446744073709551615]])
    eq('lg', 'uint8', [[1, 0, 1]])
    assert list(m['ch']) == ['ab', 'cd'], m['ch']
    eq('cm', 'complex128', [[1 + 2j, -3.5j]])
    eq('cs', 'complex64', [[1 - 1j]])
    assert m['e'].shape == (0, 3) and m['e'].dtype == np.float64
    assert m['ce'].shape == (0, 0)
    c = m['c']
    assert c.shape == (2, 2) and c.dtype == object
    assert np.array_equal(c[0, 0], [[1.0]]) and c[0, 1][0] == 'two'
    assert np.array_equal(c[1, 0], [[3.0, 4.0]]) and np.array_equal(c[1, 1][0, 0], [[5.0]])
    st = m['st'][0, 0]
    assert np.array_equal(st.a, [[1.0]]) and st.b[0] == 'x'
    assert np.array_equal(st.c[0, 0].d, [[1.0, 2.0, 3.0]])
    sa = m['sa']
    assert sa.shape == (1, 3) and np.array_equal(sa[0, 0].v, [[1.0]]) and sa[0, 1].v[0] == 'w'
    nd = m['nd']
    assert nd.shape == (2, 3, 4) and nd[1, 2, 3] == 24 and nd[0, 1, 2] == 15
    assert m['es'].shape == (0, 0)
    eq('sc', 'float64', [[7.0]])
    assert m['uni'][0] == 'h\u00e9llo \u20ac', m['uni']

for p in sys.argv[1:]:
    check(p)
print('ALL OK')
