#!/usr/bin/env python3
"""First touch of fresh memory on this host, with and without transparent huge pages
(docs/userspace-shift.md): maps MIB MiB, (private, anonymous) advises it MADV_HUGEPAGE or MADV_NOHUGEPAGE,
writes all of it, unmaps it, waits GAP seconds, and again, ROUNDS times per case.
Prints each touch's time. On a virtual machine whose balloon reports free memory to the
hypervisor, huge pages freed more than about 2 s ago cost far more to touch again.

Usage: scripts/host-huge-page-touch.py [MIB [ROUNDS]]   (default 512 4)
"""
import ctypes, mmap, sys, time

mib = int(sys.argv[1]) if len(sys.argv) > 1 else 512
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 4
if mib < 2 or rounds < 1:
    sys.exit('MIB must be at least 2 and ROUNDS at least 1')
size = mib << 20
for advice, name in ((mmap.MADV_HUGEPAGE, 'huge'), (mmap.MADV_NOHUGEPAGE, '4k')):
    for gap in (0.0, 3.0):
        times = []
        for _ in range(rounds):
            m = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
            m.madvise(advice)
            buf = ctypes.c_char.from_buffer(m)
            t = time.perf_counter()
            ctypes.memset(ctypes.addressof(buf), 1, size)
            times.append((time.perf_counter() - t) * 1e3)
            del buf
            m.close()
            time.sleep(gap)
        print(f"{name:4} pages, {gap:.0f} s after the last free: " + ' '.join(f'{x:.0f}' for x in times) + ' ms', flush=True)
