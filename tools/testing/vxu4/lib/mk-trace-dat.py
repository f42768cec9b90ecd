#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mk-trace-dat.py OUT: write a small trace-cmd trace.dat (file version 6,
as 'trace-cmd extract' writes it) with known events, for the host tests of
build/trace-events: no kernel, tracefs or trace-cmd needed.

The file (see trace-cmd.dat.v6(5)) is little endian with 8-byte longs and
4096-byte pages: the header (header_page, header_event, one event format
"vxu4:vxu4_test", saved_cmdlines, two CPUs, no option), then one ring
buffer page per CPU, page aligned: 12288 bytes. Each page holds three
events of vxu4:vxu4_test; the events, in time order, are

  ts       cpu  pid  f
  1000100    0  100  {"value": -1, "util": 100, "comm": "small0"}
  1000150    1  101  {"value": 0, "util": 1024, "comm": "big1"}
  1000300    0  100  {"value": 1, "util": 200, "comm": "small0"}
  1000450    1  101  {"value": 2, "util": 900, "comm": "big1"}
  1000600    0  100  {"value": 3, "util": 300, "comm": "small0"}
  1000750    1  101  {"value": 4, "util": 800, "comm": "big1"}
"""

import struct
import sys

PAGE = 4096
EVENT_ID = 1000

HEADER_PAGE = (
    b"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
    b"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
    b"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
    b"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n")

HEADER_EVENT = (
    b"# compressed entry header\n"
    b"\ttype_len    :    5 bits\n"
    b"\ttime_delta  :   27 bits\n"
    b"\tarray       :   32 bits\n"
    b"\n"
    b"\tpadding     : type == 29\n"
    b"\ttime_extend : type == 30\n"
    b"\ttime_stamp : type == 31\n"
    b"\tdata max type_len  == 28\n")

FORMAT = (
    b"name: vxu4_test\n"
    b"ID: %d\n"
    b"format:\n"
    b"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    b"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    b"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    b"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    b"\n"
    b"\tfield:int value;\toffset:8;\tsize:4;\tsigned:1;\n"
    b"\tfield:unsigned int util;\toffset:12;\tsize:4;\tsigned:0;\n"
    b"\tfield:char comm[16];\toffset:16;\tsize:16;\tsigned:0;\n"
    b"\n"
    b"print fmt: \"value=%%d util=%%u comm=%%s\", REC->value, REC->util, REC->comm\n"
    % EVENT_ID)

CMDLINES = b"100 small0\n101 big1\n"

# per CPU: the page's time stamp, then (delta, pid, value, util, comm)
CPUS = [
    (1000000, [(100, 100, -1, 100, b"small0"), (200, 100, 1, 200, b"small0"),
               (300, 100, 3, 300, b"small0")]),
    (1000050, [(100, 101, 0, 1024, b"big1"), (300, 101, 2, 900, b"big1"),
               (300, 101, 4, 800, b"big1")]),
]


def sized(data, width):
    return struct.pack("<Q" if width == 8 else "<I", len(data)) + data


def page(ts, events):
    data = b""
    for delta, pid, value, util, comm in events:
        rec = struct.pack("<HBBiiI16s", EVENT_ID, 0, 0, pid, value, util, comm)
        # type_len: the record's length in 4-byte words (1 to 28)
        data += struct.pack("<I", len(rec) // 4 | delta << 5) + rec
    body = struct.pack("<QQ", ts, len(data)) + data
    return body + bytes(PAGE - len(body))


def trace_dat():
    head = b"\x17\x08\x44tracing6\0" + bytes([0, 8]) + struct.pack("<I", PAGE)
    head += b"header_page\0" + sized(HEADER_PAGE, 8)
    head += b"header_event\0" + sized(HEADER_EVENT, 8)
    head += struct.pack("<I", 0)                     # ftrace formats
    head += struct.pack("<I", 1) + b"vxu4\0"         # one system,
    head += struct.pack("<I", 1) + sized(FORMAT, 8)  # one event
    head += sized(b"", 4)                            # kallsyms
    head += sized(b"", 4)                            # printk formats
    head += sized(CMDLINES, 8)
    head += struct.pack("<I", len(CPUS))
    head += b"options  \0" + struct.pack("<H", 0)
    head += b"flyrecord\0"
    start = (len(head) + 16 * len(CPUS) + PAGE - 1) // PAGE * PAGE
    for cpu in range(len(CPUS)):
        head += struct.pack("<QQ", start + cpu * PAGE, PAGE)
    head += bytes(start - len(head))
    return head + b"".join(page(ts, ev) for ts, ev in CPUS)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: mk-trace-dat.py OUT")
    with open(sys.argv[1], "wb") as f:
        f.write(trace_dat())
