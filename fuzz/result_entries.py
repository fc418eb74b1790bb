"""Writes each ProfileResult entry of an .ncu-rep read from stdin to PREFIX.<n>.

The container: b"NVR\\0", a u32 length and the file header, then blocks; a block is a u32
length, a BlockHeader message (field 1 num_sources, 2 num_results, 5 payload_size) and a
payload of u32-length-prefixed messages: the sources first, then the results.
"""
import struct
import sys


def varint(b, i):
    shift = value = 0
    while True:
        byte = b[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def header_fields(msg):
    fields, i = {}, 0
    while i < len(msg):
        key, i = varint(msg, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            fields[number], i = varint(msg, i)
        elif wire == 2:
            n, i = varint(msg, i)
            i += n
        elif wire == 1:
            i += 8
        elif wire == 5:
            i += 4
        else:
            raise ValueError(f"wire type {wire}")
    return fields


def main():
    prefix = sys.argv[1]
    data = sys.stdin.buffer.read()
    (hlen,) = struct.unpack_from("<I", data, 4)
    off, n = 8 + hlen, 0
    while off < len(data):
        (blen,) = struct.unpack_from("<I", data, off)
        fields = header_fields(data[off + 4 : off + 4 + blen])
        pos = off + 4 + blen
        end = pos + fields.get(5, 0)
        for k in range(fields.get(1, 0) + fields.get(2, 0)):
            (mlen,) = struct.unpack_from("<I", data, pos)
            if k >= fields.get(1, 0):
                with open(f"{prefix}.{n}", "wb") as out:
                    out.write(data[pos + 4 : pos + 4 + mlen])
                n += 1
            pos += 4 + mlen
        off = end


main()
