# Writes the variables tests/data/mat_check_scipy.m checks: argv[1] uncompressed, argv[2] compressed.
import sys
import numpy as np
import scipy.io as sio

c = np.empty((2, 2), dtype=object)
c[0, 0] = 1.0
c[0, 1] = 'two'
c[1, 0] = np.array([[3.0, 4.0]])
inner = np.empty((1, 1), dtype=object)
inner[0, 0] = 5.0
c[1, 1] = inner
sa = np.empty((1, 3), dtype=[('v', object)])
sa[0, 0]['v'] = 1.0
sa[0, 1]['v'] = 'w'
sa[0, 2]['v'] = np.array([[1.0, 2.0]])
data = {
    'd': np.array([[1.5, -2], [3, 4e300]]),
    's1': np.array([[1.25, -2.5]], dtype=np.float32),
    'i8': np.array([[-128, 127]], dtype=np.int8),
    'u16': np.array([[65535]], dtype=np.uint16),
    'i64': np.array([[-9223372036854775803]], dtype=np.int64),
    'u64': np.array([[18446744073709551615]], dtype=np.uint64),
    'lg': np.array([[True, False, True]]),
    'ch': 'hello',
    'uni': 'h\u00e9llo \u20ac',
    'cm': np.array([[1 + 2j, -3.5j]]),
    'e': np.zeros((0, 3)),
    'c': c,
    'st': {'a': 1.0, 'b': 'x', 'c': {'d': np.array([[1.0, 2.0, 3.0]])}},
    'sa': sa,
    'nd': np.arange(1, 25, dtype=float).reshape((2, 3, 4), order='F'),
    'sc': 7.0,
}
sio.savemat(sys.argv[1], data, do_compression=False)
sio.savemat(sys.argv[2], data, do_compression=True)
