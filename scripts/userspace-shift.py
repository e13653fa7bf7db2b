#!/usr/bin/env python3
"""The user-space shift of the U-Boot delay variant (docs/userspace-shift.md).

Boots the QEMU reference board with its image's parts (U-Boot, its environment flash, the
disk) taken from the stock image or from the delay variant's, in shuffled order each round,
and stamps on the host `Starting kernel`, `Run /init` and the login prompt. Prints each boot
and per configuration the user-space time (`Run /init` to the prompt); writes the raw stamps
to /tmp/ush/res-CONFIGS-TIME.json.

Usage: scripts/userspace-shift.py [CONFIGS [ROUNDS]]   e.g. AE 40 (default ABCE 10)
Needs both images built: perfguide image build --board qemu-arm64 and
perfguide image build --board-file profiler/tests/data/qemu-arm64-uboot-delay.toml.
Configurations (U-Boot, environment, disk): A stock, stock, stock; B delay, delay, delay;
C stock, stock, delay; E delay, delay, stock; F stock, delay, stock; G delay, stock, stock.
A lower-case letter is the same configuration with QEMU's memory kept off the host's
transparent huge pages (prctl PR_SET_THP_DISABLE, as perfguide starts QEMU); upper case is
QEMU's default (its guest RAM and code buffer madvised MADV_HUGEPAGE). Each configuration is
also compared with the first of its case, pair by pair.
"""
import ctypes, os, subprocess, time, random, sys, statistics, select, json
B = os.path.expanduser('~/.cache/perfguide/images/qemu-arm64')
D = os.path.expanduser('~/.cache/perfguide/images/qemu-arm64-uboot-delay')
def args(ub, env, disk):
    return ["qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a57", "-smp", "1", "-m", "512",
        "-nographic", "-no-reboot", "-monitor", "none", "-serial", "stdio",
        "-bios", ub, "-drive", f"if=none,format=raw,file={disk},id=hd0,snapshot=on",
        "-device", "virtio-blk-device,drive=hd0",
        "-drive", f"if=pflash,unit=1,format=raw,readonly=on,file={env}",
        "-netdev", "user,id=net0,restrict=on", "-device", "virtio-net-device,netdev=net0"]
cfgs = {
 'A': (B+'/u-boot.bin', B+'/env-loud.bin', B+'/disk.img'),
 'B': (D+'/u-boot.bin', D+'/env-loud.bin', D+'/disk.img'),
 'C': (B+'/u-boot.bin', B+'/env-loud.bin', D+'/disk.img'),
 'E': (D+'/u-boot.bin', D+'/env-loud.bin', B+'/disk.img'),
 'F': (B+'/u-boot.bin', D+'/env-loud.bin', B+'/disk.img'),
 'G': (D+'/u-boot.bin', B+'/env-loud.bin', B+'/disk.img'),
}
sel = sys.argv[1] if len(sys.argv) > 1 else 'ABCE'
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
if rounds < 2:
    sys.exit('ROUNDS must be at least 2')
res = {k: [] for k in sel}
for r in range(rounds):
    order = list(sel); random.shuffle(order)
    for k in order:
        pre = None
        if k.islower():
            def pre():
                ctypes.CDLL(None, use_errno=True).prctl(41, 1, 0, 0, 0)  # PR_SET_THP_DISABLE
        p = subprocess.Popen(args(*cfgs[k.upper()]), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, preexec_fn=pre)
        t0 = time.monotonic(); buf = b''; tinit = tstart = tlogin = None; fd = p.stdout.fileno()
        while True:
            rl, _, _ = select.select([fd], [], [], 60)
            if not rl: break
            chunk = os.read(fd, 4096); now = time.monotonic() - t0
            if not chunk: break
            buf += chunk
            if tstart is None and b'Starting kernel' in buf: tstart = now
            if tinit is None and b'Run /init' in buf: tinit = now
            if tinit is not None and buf.rstrip().endswith(b'login:'): tlogin = now; break
        p.kill(); p.wait()
        if None in (tstart, tinit, tlogin):
            sys.exit(f"{k}: boot {r} did not reach the login prompt within 60 s of silence")
        res[k].append((tstart, tinit, tlogin))
        print(k, r, f"uboot {tstart:.3f} kernel {tinit-tstart:.4f} user {tlogin-tinit:.4f}", flush=True)
os.makedirs('/tmp/ush', exist_ok=True)
json.dump(res, open(f'/tmp/ush/res-{sel}-{int(time.time())}.json', 'w'))
for k in sel:
    u = [x[2]-x[1] for x in res[k]]
    print(k, 'user median %.1f ms mean %.1f sd %.1f' % (statistics.median(u)*1e3, statistics.mean(u)*1e3, statistics.stdev(u)*1e3))
figures = {'kernel': lambda x: x[1]-x[0], 'user': lambda x: x[2]-x[1]}
for k in sel:
    first = next(c for c in sel if c.islower() == k.islower())
    if k == first:
        continue
    for name, fn in figures.items():
        d = [fn(y)-fn(x) for x, y in zip(res[first], res[k])]
        print(f"{k}-{first} {name} {statistics.mean(d)*1e3:+.2f} ms (se {statistics.stdev(d)/len(d)**.5*1e3:.2f})")
