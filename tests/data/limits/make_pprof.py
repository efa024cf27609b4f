# make_pprof.py NAME_LEN DEPTH OUT: a gzip-compressed pprof profile of one sample
# whose stack is DEPTH frames of one function named NAME_LEN bytes of "a"
import gzip, sys
def varint(n):
    out = b''
    while True:
        b = n & 0x7f; n >>= 7
        out += bytes([b | (0x80 if n else 0)])
        if not n: return out
def field(num, wt, payload):
    key = varint(num << 3 | wt)
    return key + (varint(len(payload)) + payload if wt == 2 else payload)
namelen, depth, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
strings = [b'', b'samples', b'count', b'a' * namelen]
p = field(1, 2, field(1, 0, varint(1)) + field(2, 0, varint(2)))
p += field(2, 2, field(1, 2, varint(1) * depth) + field(2, 2, varint(1)))
p += field(4, 2, field(1, 0, varint(1)) + field(4, 2, field(1, 0, varint(1))))
p += field(5, 2, field(1, 0, varint(1)) + field(2, 0, varint(3)))
for s in strings: p += field(6, 2, s)
open(out, 'wb').write(gzip.compress(p, 9))
