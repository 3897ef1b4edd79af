% The variables every MAT-file round trip writes (valid in matfuse and in GNU Octave).
d = [1.5 -2; 3 4e300]; s1 = single([1.25 -2.5]); i8 = int8([-128 127]); u8 = uint8([0 255]);
i16 = int16(-300); u16 = uint16(65535); i32 = int32([-2147483648 5]); u32 = uint32(4294967295);
i64 = intmin('int64') + 5; u64 = intmax('uint64'); lg = [true false true]; ch = ['ab'; 'cd'];
cm = [1+2i, -3.5i]; cs = single(1-1i); e = zeros(0, 3); ce = {}; c = {1, 'two'; [3 4], {5}};
st.a = 1; st.b = 'x'; st.c.d = [1 2 3]; sa = struct('v', {1, 'w', [1 2]});
nd = reshape(1:24, 2, 3, 4); es = struct('a', {}); sc = 7;
