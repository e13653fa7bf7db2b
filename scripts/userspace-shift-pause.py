#!/usr/bin/env python3
"""The user-space shift with nothing run (docs/userspace-shift.md): the stock QEMU reference
board started stopped (-S) and continued through QMP at once (A) or after 0.7 s (P), shuffled,
on a disk DISK whose initramfs writes pg-a-dev (first rcS step) and pg-rcs-end to the kernel log
(how it is made: docs/userspace-shift.md). Prints each boot and the P - A differences.
QEMU_EXTRA adds QEMU arguments (split on spaces), e.g. "-rtc clock=vm" to keep the RTC on the
guest clock or "-machine mem-prealloc=on" to fault in the guest's memory before it starts.

Usage: scripts/userspace-shift-pause.py ROUNDS   (DISK=/path/disk.img, default /tmp/ush/img/disk-mod.img)
"""
import os, subprocess, time, random, sys, statistics as st, select, json, re, socket
B = os.path.expanduser('~/.cache/perfguide/images/qemu-arm64')
DISK = os.environ.get('DISK', '/tmp/ush/img/disk-mod.img')
SOCK = f'/tmp/perfguide-qmp-{os.getpid()}.sock'
def args():
    return ["qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a57", "-smp", "1", "-m", "512",
        "-nographic", "-no-reboot", "-monitor", "none", "-serial", "stdio", "-S",
        "-qmp", f"unix:{SOCK},server=on,wait=off",
        "-bios", B+'/u-boot.bin', "-drive", f"if=none,format=raw,file={DISK},id=hd0,snapshot=on",
        "-device", "virtio-blk-device,drive=hd0",
        "-drive", f"if=pflash,unit=1,format=raw,readonly=on,file={B}/env-loud.bin",
        "-netdev", "user,id=net0,restrict=on", "-device", "virtio-net-device,netdev=net0"] + os.environ.get('QEMU_EXTRA', '').split()
marks = ['Starting kernel', 'Run /init', 'pg-a-dev', 'pg-rcs-end']
# PAUSES="A=0,P=0.7" (the default): configurations by name and pause in seconds; each is
# compared with the first.
pauses = {k: float(v) for k, v in (kv.split('=') for kv in os.environ.get('PAUSES', 'A=0,P=0.7').split(','))}
base = next(iter(pauses))
rounds = int(sys.argv[1])
if rounds < 2:
    sys.exit('ROUNDS must be at least 2 (a standard error needs two pairs)')
res = {k: [] for k in pauses}
for r in range(rounds):
    order = list(pauses); random.shuffle(order)
    for k in order:
        try: os.unlink(SOCK)
        except FileNotFoundError: pass
        p = subprocess.Popen(args(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        while not os.path.exists(SOCK): time.sleep(0.005)
        s = socket.socket(socket.AF_UNIX); s.connect(SOCK); f = s.makefile('rw')
        f.readline(); f.write('{"execute":"qmp_capabilities"}\n'); f.flush(); f.readline()
        time.sleep(pauses[k])
        f.write('{"execute":"cont"}\n'); f.flush()
        t0 = time.monotonic(); fd = p.stdout.fileno(); partial = b''; host = {}; pk = {}; login = None
        while login is None:
            rl, _, _ = select.select([fd], [], [], 60)
            if not rl: sys.exit('silent')
            chunk = os.read(fd, 4096); now = time.monotonic() - t0
            if not chunk: sys.exit('eof')
            partial += chunk
            *lines, partial = partial.split(b'\n')
            for l in lines:
                t = l.decode(errors='replace')
                for m in marks:
                    if m in t and m not in host:
                        host[m] = now
                        mm = re.search(r'\[\s*([0-9]+\.[0-9]{6})\]', t)
                        if mm: pk[m] = float(mm.group(1))
            if partial.rstrip().endswith(b'login:'): login = now
        p.kill(); p.wait(); s.close()
        res[k].append({'host': host, 'printk': pk, 'login': login})
        print(k, r, f"sk {host['Starting kernel']:.3f} init {pk['Run /init']:.4f} user {login-host['Run /init']:.4f}", flush=True)
def diffs(name, fn):
    a = [fn(x) for x in res[base]]
    for k in list(pauses)[1:]:
        e = [fn(x) for x in res[k]]; d = [y-x for x, y in zip(a, e)]
        print(f"{name}: {base} {st.mean(a)*1e3:.1f} {k} {st.mean(e)*1e3:.1f} ms, {k}-{base} {st.mean(d)*1e3:+.2f} (se {st.stdev(d)/len(d)**.5*1e3:.2f})")
diffs('U-Boot (host, cont to Starting kernel)', lambda x: x['host']['Starting kernel'])
diffs('printk Run /init', lambda x: x['printk']['Run /init'])
diffs('printk Run /init -> a-dev', lambda x: x['printk']['pg-a-dev']-x['printk']['Run /init'])
diffs('user (host)', lambda x: x['login']-x['host']['Run /init'])
