0, 7, 1_000_000, 0x_FF, 0o17, 0b1010, 123456789012345678901234567890
1.5, 1e-3, .5, 1_0.0, 1., 1E5, 0.0
1j, 2.5J, 1e3j
True, False, None, ...
'single', "double", '''triple''', """triple
line"""
'a' "b" 'c'
r'\d\w', R"\n", u'x'
b'bytes', rb'\x00', B'\x41\101\n'
'\x41\u0042\U00000043\101\n\t\\\'\"\a\b\f\v\0'
'\d\q'
'line \
continued'
