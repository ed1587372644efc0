# Writes glibc's wcwidth for every code point, as ranges (width 1, the
# most common, is left out): python3 gen.py > glibc.txt
import ctypes, locale
locale.setlocale(locale.LC_ALL, 'C.UTF-8')
libc = ctypes.CDLL('libc.so.6')
libc.wcwidth.restype = ctypes.c_int
libc.wcwidth.argtypes = [ctypes.c_wchar]
libc.gnu_get_libc_version.restype = ctypes.c_char_p
print('# glibc %s wcwidth in C.UTF-8, every code point but surrogates; those not' % libc.gnu_get_libc_version().decode())
print("# listed are 1. Written by gen.py in this directory: python3 gen.py > glibc.txt")
out = []
for cp in range(0x110000):
    if 0xD800 <= cp <= 0xDFFF:
        continue
    w = libc.wcwidth(chr(cp))
    if w == 1:
        continue
    if out and out[-1][1] == cp - 1 and out[-1][2] == w:
        out[-1][1] = cp
    else:
        out.append([cp, cp, w])
for a, b, w in out:
    print('%04X..%04X %d' % (a, b, w))
