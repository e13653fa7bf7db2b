# Composes k3-j721e-bootstage.log, a TI J721E boot to the login prompt in perfguide's capture
# format (see README.md here): python3 compose-k3-j721e-bootstage.py k3-j721e-bootstage.log
import sys
BYTE = 1e7 / 115200.0  # µs a byte at 115200 8N1

def grouped(v):
    s = "%9d" % v
    # print_grouped_ull(v, 9): groups of three, ',' between digits, ' ' in the padding
    out = ""
    for i in range(0, 9, 3):
        part = s[i:i+3]
        if i:
            out += ',' if s[i-1] != ' ' else ' '
        out += part
    return out

def full_report(recs, acc):
    # U-Boot's bootstage_report() with the full printf (lib/vsprintf.c)
    lines = ["Timer summary in microseconds (%d records):" % (len(recs) + len(acc)),
             "%11s%11s  %s" % ("Mark", "Elapsed", "Stage")]
    prev = 0
    for name, t in recs:
        p = 0 if prev > t else prev
        lines.append(grouped(t) + grouped(t - p) + "  " + name)
        prev = t
    lines.append("")
    lines.append("Accumulated time:")
    for name, t in acc:
        lines.append("%11s" % "" + grouped(t) + "  " + name)
    return lines

def tiny_report(recs, acc):
    # the same with tiny printf (lib/tiny-printf.c: print_grouped_ull prints "%ld ")
    lines = ["Timer summary in microseconds (%d records):" % (len(recs) + len(acc)),
             "%11s%11s  %s" % ("Mark", "Elapsed", "Stage")]
    prev = 0
    for name, t in recs:
        p = 0 if prev > t else prev
        lines.append("%d %d   %s" % (t, t - p, name))
        prev = t
    lines.append("")
    lines.append("Accumulated time:")
    for name, t in acc:
        lines.append("%11s" % "" + "%d   %s" % (t, name))
    return lines

R5 = [("reset", 0), ("SPL", 0), ("sysfw load", 1532), ("sysfw start", 48102),
      ("sysfw running", 53917), ("board cfg", 54250), ("board cfg pm", 55104),
      ("board cfg rm", 55896), ("board cfg security", 58611), ("board cfg done", 59402),
      ("ram init", 71850), ("ram ready", 96410), ("fit header", 104733),
      ("loaded atf", 110218), ("loaded tee", 131602), ("loaded dm", 176945),
      ("loaded spl", 213377), ("loaded k3-j721e-common-proc-board", 216150),
      ("end phase", 216923), ("start atf", 232488)]
R5_ACC = [("dm_spl", 9437)]

PROPER = [("reset", 0), ("SPL", 440912), ("fit header", 492730), ("loaded uboot", 603194),
          ("loaded fdt-0", 611008), ("end phase", 613611), ("board_init_f", 652337),
          ("board_init_r", 914025), ("eth_common_init", 971406), ("eth_initialize", 978211),
          ("main_loop", 1063417), ("bootm_start", 1244562), ("boot_jump_linux", 1309014),
          ("start_kernel", 1310870)]
PROPER_ACC = [("dm_spl", 11208), ("dm_f", 4133), ("dm_r", 38760)]

# (explicit host time in µs or None: right after the previous line on the wire, text)
L = []
def at(t, text): L.append((t, text))
def nxt(text): L.append((None, text))

at(21004, "U-Boot SPL 2025.01-00001-gfa1b2c3d4e (Jan 20 2025 - 10:11:12 +0000)")
at(84210, "SYSFW ABI: 3.1 (firmware rev 0x000a '10.1.8--v10.01.08 (Fiery Fox)')")
at(127000, "Trying to boot from MMC2")
at(262587, None)
for i, l in enumerate(tiny_report(R5, R5_ACC)):
    if i == 0:
        L[-1] = (262587, l)
    else:
        nxt(l)
nxt("Starting ATF on ARM64 core...")
nxt("")
at(336000, "NOTICE:  BL31: v2.12.0(release):v2.12.0")
nxt("NOTICE:  BL31: Built : 10:11:12, Jan 20 2025")
at(348430, "I/TC: ")
nxt("I/TC: OP-TEE version: 4.4.0 (gcc version 13.3.0 (GCC)) #1 Mon Jan 20 10:11:12 UTC 2025 aarch64")
nxt("I/TC: WARNING: This OP-TEE configuration might be insecure!")
nxt("I/TC: WARNING: Please check https://optee.readthedocs.io/en/latest/architecture/porting_guidelines.html")
nxt("I/TC: Primary CPU initializing")
at(380105, "I/TC: SYSFW ABI: 3.1 (firmware rev 0x000a '10.1.8--v10.01.08 (Fiery Fox)')")
nxt("I/TC: HUK Initialized")
at(392660, "I/TC: Primary CPU switching to normal world boot")
nxt("")
at(441200, "U-Boot SPL 2025.01-00001-gfa1b2c3d4e (Jan 20 2025 - 10:11:12 +0000)")
at(449516, "SYSFW ABI: 3.1 (firmware rev 0x000a '10.1.8--v10.01.08 (Fiery Fox)')")
at(488720, "Trying to boot from MMC2")
at(615002, "")
nxt("")
at(655400, "U-Boot 2025.01-00001-gfa1b2c3d4e (Jan 20 2025 - 10:11:12 +0000)")
nxt("")
at(662130, "SoC:   J721E SR2.0 GP")
nxt("Model: Texas Instruments K3 J721E SoC")
at(681800, "Board: J721EX-PM2-SOM rev E7")
at(689350, "DRAM:  4 GiB")
at(929117, "Core:  121 devices, 33 uclasses, devicetree: separate")
at(945200, "MMC:   mmc@4f80000: 0, mmc@4fb0000: 1")
nxt("Loading Environment from nowhere... OK")
nxt("In:    serial@2800000")
nxt("Out:   serial@2800000")
nxt("Err:   serial@2800000")
at(979020, "Net:   eth0: ethernet@46000000port@1")
at(1063900, "Hit any key to stop autoboot:  0 ")
at(1070115, "switch to partitions #0, OK")
nxt("mmc1 is current device")
nxt("SD/MMC found on device 1")
at(1222407, "20843008 bytes read in 912 ms (21.8 MiB/s)")
at(1238633, "91015 bytes read in 8 ms (10.8 MiB/s)")
at(1245020, "## Flattened Device Tree blob at 88000000")
nxt("   Booting using the fdt blob at 0x88000000")
nxt("Working FDT set to 88000000")
at(1301307, "   Loading Device Tree to 000000008fee8000, end 000000008fffff86 ... OK")
nxt("Working FDT set to 8fee8000")
at(1311075, None)
for i, l in enumerate(full_report(PROPER, PROPER_ACC)):
    if i == 0:
        L[-1] = (1311075, l)
    else:
        nxt(l)
nxt("")
nxt("Starting kernel ...")
nxt("")
at(1512224, "[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x411fd080]")
nxt("[    0.000000] Linux version 6.6.58-ti-00497-g31b9a4a2b1d4 (oe-user@oe-host) (aarch64-oe-linux-gcc (GCC) 13.3.0, GNU ld (GNU Binutils) 2.42.0) #1 SMP PREEMPT Mon Jan 20 10:11:12 UTC 2025")
nxt("[    0.000000] KASLR disabled due to lack of seed")
nxt("[    0.000000] Machine model: Texas Instruments J721E EVM")
at(2988415, "[    1.470511] Freeing unused kernel memory: 2368K")
nxt("[    1.478230] Run /sbin/init as init process")
at(4711006, "j721e-evm login: ")

out = []
last = 0.0
t = None
for i, (ex, text) in enumerate(L):
    free = None if i == 0 else t + (len(L[i - 1][1] or "") + 2) * BYTE
    if ex is not None:
        assert free is None or ex >= free, (ex, free, text)
        t = float(ex)
    else:
        t = free
    tu = int(round(t))
    out.append("[%d.%06d %d.%06d] %s" % (tu // 10**6, tu % 10**6, (tu - last) // 10**6, (tu - last) % 10**6, text) if text else "[%d.%06d %d.%06d]" % (tu // 10**6, tu % 10**6, (tu - last) // 10**6, (tu - last) % 10**6))
    last = tu
    t = float(tu)
open(sys.argv[1], "w").write("\n".join(out) + "\n")
