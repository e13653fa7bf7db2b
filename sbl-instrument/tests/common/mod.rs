//! Test fixtures built during the test run from real tools (cross compilers, openssl,
//! mkimage, dtc) and from the documented layouts. Nothing here is a checked-in binary.
//!
//! A missing tool fails the test that needs it with a message naming the tool, the Debian
//! package, and `sbl-instrument/tests/setup-fixtures-deps.sh`.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
pub const R5_BASE: u64 = 0x41C0_0000;
/// Compiler flags of the bare-metal AArch64 image built from `a53.c` (the `a53.elf` fixture
/// and the benchmark's big ELF).
pub const A53_FLAGS: &[&str] = &[
    "-O2",
    "-ffreestanding",
    "-nostdlib",
    "-static",
    "-Wl,--build-id=sha1",
    "-Wl,-Ttext=0x80080000",
    "-Wl,-e,_start",
];

fn package_of(tool: &str) -> &'static str {
    match tool {
        "arm-none-eabi-gcc"
        | "arm-none-eabi-objcopy"
        | "arm-none-eabi-nm"
        | "arm-none-eabi-readelf" => "gcc-arm-none-eabi",
        t if t.starts_with("aarch64-linux-gnu-") => "gcc-aarch64-linux-gnu",
        "mkimage" => "u-boot-tools",
        "dtc" => "device-tree-compiler",
        "openssl" => "openssl",
        "cmp" => "diffutils",
        _ => "?",
    }
}

/// Path of a required tool, or a panic that says how to get it.
pub fn tool(name: &str) -> PathBuf {
    for dir in std::env::var("PATH").unwrap_or_default().split(':') {
        let p = Path::new(dir).join(name);
        if p.is_file() {
            return p;
        }
    }
    panic!(
        "required tool `{name}` not found (Debian package {}): run sbl-instrument/tests/setup-fixtures-deps.sh",
        package_of(name)
    );
}

/// Run a command, panicking with its output on failure.
pub fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    if !out.status.success() {
        panic!(
            "{cmd:?} failed: {}\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Deterministic pseudo-random bytes (xorshift64*).
pub fn prng_bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8
        })
        .collect()
}

pub fn sha512_hex(data: &[u8]) -> String {
    use sha2::{Digest, Sha512};
    sbl_instrument::hex(&Sha512::digest(data))
}

/// `v` as 4 little-endian bytes.
pub fn le(v: u32) -> [u8; 4] {
    v.to_le_bytes()
}

/// A TI remoteproc image: `RPRC` header, then `{addr, rsvd_addr, size, crc, rsvd}` and the
/// data of each section.
pub fn rprc(entry: u32, sections: &[(u32, Vec<u8>)]) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(b"RPRC");
    b.extend_from_slice(&le(entry));
    b.extend_from_slice(&le(0));
    b.extend_from_slice(&le(sections.len() as u32));
    b.extend_from_slice(&le(0));
    for (addr, data) in sections {
        b.extend_from_slice(&le(*addr));
        b.extend_from_slice(&le(0));
        b.extend_from_slice(&le(data.len() as u32));
        b.extend_from_slice(&le(0));
        b.extend_from_slice(&le(0));
        b.extend_from_slice(data);
    }
    b
}

/// A PDK multicore appimage (`MSTR` meta header, one image per core, `MEND` footer).
pub fn appimage(images: &[(u32, Vec<u8>)]) -> Vec<u8> {
    let n = images.len() as u32;
    let mut b = Vec::new();
    b.extend_from_slice(b"MSTR");
    b.extend_from_slice(&le(n));
    b.extend_from_slice(&le(0x55)); // dev_id
    b.extend_from_slice(&le(0));
    let mut off = 16 + 8 * n + 8;
    for (core, img) in images {
        b.extend_from_slice(&le(*core));
        b.extend_from_slice(&le(off));
        off += img.len() as u32;
    }
    b.extend_from_slice(&le(0));
    b.extend_from_slice(b"MEND");
    for (_, img) in images {
        b.extend_from_slice(img);
    }
    b
}

/// A little-endian ARM `zImage` of `len` bytes whose header declares all of it.
pub fn zimage(len: u32) -> Vec<u8> {
    let mut z = vec![0u8; len as usize];
    z[0x24..0x28].copy_from_slice(&le(0x016F2818));
    z[0x28..0x2C].copy_from_slice(&le(0));
    z[0x2C..0x30].copy_from_slice(&le(len));
    z[0x30..0x34].copy_from_slice(&le(0x04030201));
    z
}

/// Board configuration blobs written from the U-Boot YAML layouts (J721E board/pm/sec,
/// a small rm), as binman's ti-board-config would.
pub fn board_cfg() -> Vec<u8> {
    let mut b = vec![0x00, 0x01]; // ABI 0.1
    b.extend_from_slice(&0xC1D3u16.to_le_bytes());
    b.extend_from_slice(&7u16.to_le_bytes());
    b.extend_from_slice(&[0x5A, 0x00, 0x00]);
    b.extend_from_slice(&0x1207u16.to_le_bytes());
    b.extend_from_slice(&7u16.to_le_bytes());
    b.extend_from_slice(&[0, 0, 0]);
    b.extend_from_slice(&0xA5C3u16.to_le_bytes());
    b.extend_from_slice(&5u16.to_le_bytes());
    b.push(0x10);
    b.extend_from_slice(&0x020Cu16.to_le_bytes());
    b.extend_from_slice(&8u16.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes()); // trace_dst_enables
    b.extend_from_slice(&0x7u16.to_le_bytes()); // trace_src_enables
    b
}

pub fn pm_cfg() -> Vec<u8> {
    vec![0x00, 0x01]
}

pub fn rm_cfg(entries: u16) -> Vec<u8> {
    let mut b = vec![0x00, 0x01];
    b.extend_from_slice(&0x4C41u16.to_le_bytes());
    b.extend_from_slice(&356u16.to_le_bytes());
    b.extend_from_slice(&[0u8; 352]);
    b.extend_from_slice(&0x7B25u16.to_le_bytes());
    b.extend_from_slice(&8u16.to_le_bytes());
    b.extend_from_slice(&(entries * 8).to_le_bytes());
    b.extend_from_slice(&0u16.to_le_bytes());
    for i in 0..entries {
        b.extend_from_slice(&i.to_le_bytes());
        b.extend_from_slice(&4u16.to_le_bytes());
        b.extend_from_slice(&0x1E40u16.to_le_bytes());
        b.extend_from_slice(&[3, 0]);
    }
    b
}

pub fn sec_cfg() -> Vec<u8> {
    let mut b = vec![0x00, 0x01];
    for (magic, size, body) in [
        (0xF1EAu16, 164u16, 160usize),
        (0x8D27, 68, 64),
        (0x4081, 69, 65),
        (0x5170, 12, 8),
        (0x23BE, 0, 4), // sa2ul_cfg: U-Boot's YAML declares size 0 for an 8-byte block
        (0x42AF, 16, 12),
        (0x608F, 10, 6),
    ] {
        b.extend_from_slice(&magic.to_le_bytes());
        b.extend_from_slice(&size.to_le_bytes());
        b.resize(b.len() + body, 0u8);
    }
    b
}

/// A combined board config: `{num_elems, sw_rev=1}`, descriptors, blobs.
pub fn combined_cfg(parts: &[(u16, Vec<u8>)]) -> Vec<u8> {
    let n = parts.len();
    let mut out = vec![n as u8, 1];
    let mut off = 2 + 8 * n;
    let mut body = Vec::new();
    for (t, blob) in parts {
        out.extend_from_slice(&t.to_le_bytes());
        out.extend_from_slice(&(off as u16).to_le_bytes());
        out.extend_from_slice(&(blob.len() as u16).to_le_bytes());
        out.extend_from_slice(&[0, 0]);
        off += blob.len();
        body.extend_from_slice(blob);
    }
    out.extend(body);
    out
}

pub struct Fixtures {
    pub dir: PathBuf,
    _keep: Option<tempfile::TempDir>,
}

impl Fixtures {
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
    pub fn read(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.path(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    }
}

/// Build (once per test process) the fixtures that need tools. `SBL_FIXTURE_DIR` keeps
/// them in a directory of your choice (e.g. to seed the fuzzers).
pub fn fixtures() -> &'static Fixtures {
    static F: OnceLock<Fixtures> = OnceLock::new();
    F.get_or_init(build)
}

fn write(dir: &Path, name: &str, data: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, data).unwrap();
    p
}

fn build() -> Fixtures {
    let (dir, keep) = match std::env::var_os("SBL_FIXTURE_DIR") {
        Some(d) => {
            std::fs::create_dir_all(&d).unwrap();
            (PathBuf::from(d), None)
        }
        None => {
            let t = tempfile::tempdir().unwrap();
            (t.path().to_path_buf(), Some(t))
        }
    };
    let d = dir.as_path();
    let arm = tool("arm-none-eabi-gcc");
    let a64 = tool("aarch64-linux-gnu-gcc");
    let ld = format!("-Wl,-T,{DATA}/r5.ld");

    // R5F SBLs (PDK and MCU+ layouts).
    for (src, out) in [
        ("sbl_pdk.c", "sbl_pdk.xer5f"),
        ("sbl_mcu.c", "sbl_mcu.xer5f"),
    ] {
        run(Command::new(&arm)
            .args([
                "-mcpu=cortex-r5",
                "-marm",
                "-mfloat-abi=hard",
                "-mfpu=vfpv3-d16",
                "-O1",
                "-g",
            ])
            .args([
                "-ffreestanding",
                "-nostdlib",
                "-fno-common",
                "-Wl,--build-id=sha1",
                &ld,
                "-o",
            ])
            .arg(d.join(out))
            .arg(format!("{DATA}/{src}")));
    }
    run(Command::new(tool("arm-none-eabi-objcopy"))
        .args(["-O", "binary"])
        .arg(d.join("sbl_pdk.xer5f"))
        .arg(d.join("u-boot-spl.bin")));

    // AArch64 bare-metal image.
    run(Command::new(&a64)
        .args(A53_FLAGS)
        .arg("-o")
        .arg(d.join("a53.elf"))
        .arg(format!("{DATA}/a53.c")));

    // TIFS stand-in and board configs.
    write(d, "tifs.bin", &prng_bytes(42, 3000));
    write(d, "board-cfg.bin", &board_cfg());
    write(d, "pm-cfg.bin", &pm_cfg());
    write(d, "rm-cfg.bin", &rm_cfg(5));
    write(d, "sec-cfg.bin", &sec_cfg());
    write(
        d,
        "combined-tifs-cfg.bin",
        &combined_cfg(&[
            (0xB, board_cfg()),
            (0xC, rm_cfg(3)),
            (0xD, sec_cfg()),
            (0xE, pm_cfg()),
        ]),
    );
    write(
        d,
        "combined-dm-cfg.bin",
        &combined_cfg(&[(0xC, rm_cfg(2)), (0xE, pm_cfg())]),
    );

    // X.509 ROM images with openssl, as binman's ti_secure_rom builds them.
    let openssl = tool("openssl");
    run(Command::new(&openssl)
        .args(["genrsa", "-out"])
        .arg(d.join("key.pem"))
        .arg("2048"));
    let spl = std::fs::read(d.join("u-boot-spl.bin")).unwrap();
    legacy_cert(
        d,
        &openssl,
        &spl,
        "tiboot3-legacy.bin",
        1,
        16,
        0,
        0x41c00000,
    );
    let tifs = std::fs::read(d.join("tifs.bin")).unwrap();
    legacy_cert(d, &openssl, &tifs, "sysfw.bin", 2, 0, 32, 0x40000);
    combined_cert(d, &openssl);

    // FIT images with mkimage (embedded and external data), and sysfw.itb.
    run(Command::new(tool("dtc"))
        .args(["-I", "dts", "-O", "dtb", "-o"])
        .arg(d.join("board.dtb"))
        .arg(format!("{DATA}/board.dts")));
    write(d, "bl31.bin", &prng_bytes(7, 4096 + 13));
    write(d, "tee.bin", &prng_bytes(8, 2048 + 5));
    let mkimage = tool("mkimage");
    let its = std::fs::read_to_string(format!("{DATA}/tispl.its")).unwrap();
    std::fs::write(d.join("tispl.its"), its).unwrap();
    run(Command::new(&mkimage)
        .current_dir(d)
        .args(["-f", "tispl.its", "tispl.bin"]));
    run(Command::new(&mkimage).current_dir(d).args([
        "-E",
        "-B",
        "0x8",
        "-f",
        "tispl.its",
        "tispl-ext.bin",
    ]));
    let its = std::fs::read_to_string(format!("{DATA}/sysfw.its")).unwrap();
    std::fs::write(d.join("sysfw.its"), its).unwrap();
    run(Command::new(&mkimage)
        .current_dir(d)
        .args(["-f", "sysfw.its", "sysfw.itb"]));

    // Legacy uImages and the AM335x MLO.
    run(Command::new(&mkimage).current_dir(d).args([
        "-A",
        "arm64",
        "-O",
        "linux",
        "-T",
        "kernel",
        "-C",
        "none",
        "-a",
        "0x80080000",
        "-e",
        "0x80080000",
        "-n",
        "perfguide test",
        "-d",
        "a53.elf",
        "uImage",
    ]));
    run(Command::new(&mkimage).current_dir(d).args([
        "-A",
        "arm",
        "-O",
        "linux",
        "-T",
        "multi",
        "-C",
        "none",
        "-a",
        "0x80008000",
        "-e",
        "0x80008000",
        "-n",
        "multi",
        "-d",
        "bl31.bin:board.dtb",
        "uImage.multi",
    ]));
    run(Command::new(&mkimage).current_dir(d).args([
        "-T",
        "omapimage",
        "-a",
        "0x402F0400",
        "-d",
        "u-boot-spl.bin",
        "MLO",
    ]));
    run(Command::new(&mkimage).current_dir(d).args([
        "-T",
        "gpimage",
        "-a",
        "0x402F0400",
        "-d",
        "u-boot-spl.bin",
        "MLO.gp",
    ]));

    Fixtures { dir, _keep: keep }
}

const DN: &str = "C = US\nST = TX\nL = Dallas\nO = Texas Instruments Incorporated\nOU = Processors\nCN = TI Support\nemailAddress = support@ti.com\n";

#[allow(clippy::too_many_arguments)]
fn legacy_cert(
    d: &Path,
    openssl: &Path,
    payload: &[u8],
    out: &str,
    cert_type: u32,
    core: u32,
    opts: u32,
    load: u32,
) {
    let cfg = format!(
        "[ req ]\ndistinguished_name = req_distinguished_name\nx509_extensions = v3_ca\nprompt = no\ndirstring_type = nobmp\n\n\
[ req_distinguished_name ]\n{DN}\n\
[ v3_ca ]\nbasicConstraints = CA:true\n\
1.3.6.1.4.1.294.1.1 = ASN1:SEQUENCE:boot_seq\n\
1.3.6.1.4.1.294.1.2 = ASN1:SEQUENCE:image_integrity\n\
1.3.6.1.4.1.294.1.3 = ASN1:SEQUENCE:swrv\n\
1.3.6.1.4.1.294.1.8 = ASN1:SEQUENCE:debug\n\n\
[ boot_seq ]\ncertType = INTEGER:{cert_type}\nbootCore = INTEGER:{core}\nbootCoreOpts = INTEGER:{opts}\n\
destAddr = FORMAT:HEX,OCT:{load:08x}\nimageSize = INTEGER:{}\n\n\
[ image_integrity ]\nshaType = OID:2.16.840.1.101.3.4.2.3\nshaValue = FORMAT:HEX,OCT:{}\n\n\
[ swrv ]\nswrv = INTEGER:1\n\n\
[ debug ]\ndebugUID = FORMAT:HEX,OCT:{}\ndebugType = INTEGER:4\ncoreDbgEn = INTEGER:0\ncoreDbgSecEn = INTEGER:0\n",
        payload.len(),
        sha512_hex(payload),
        "00".repeat(32)
    );
    sign(d, openssl, &cfg, payload, out);
}

fn sign(d: &Path, openssl: &Path, cfg: &str, payload: &[u8], out: &str) {
    let cfg_path = write(d, &format!("{out}.cnf"), cfg.as_bytes());
    let cert = d.join(format!("{out}.der"));
    run(Command::new(openssl)
        .args(["req", "-new", "-x509", "-key"])
        .arg(d.join("key.pem"))
        .args(["-nodes", "-outform", "DER", "-out"])
        .arg(&cert)
        .arg("-config")
        .arg(&cfg_path)
        .arg("-sha512"));
    let mut img = std::fs::read(&cert).unwrap();
    img.extend_from_slice(payload);
    write(d, out, &img);
}

/// The combined-flow tiboot3.bin: SBL + TIFS + TIFS board config + DM board config.
fn combined_cert(d: &Path, openssl: &Path) {
    let sbl = std::fs::read(d.join("u-boot-spl.bin")).unwrap();
    let tifs = std::fs::read(d.join("tifs.bin")).unwrap();
    let tcfg = std::fs::read(d.join("combined-tifs-cfg.bin")).unwrap();
    let dcfg = std::fs::read(d.join("combined-dm-cfg.bin")).unwrap();
    let comp = |name: &str, t: u32, core: u32, load: u32, data: &[u8]| {
        format!(
            "[{name}]\ncompType = INTEGER:{t}\nbootCore = INTEGER:{core}\ncompOpts = INTEGER:0\n\
destAddr = FORMAT:HEX,OCT:{load:08x}\ncompSize = INTEGER:{}\nshaType  = OID:2.16.840.1.101.3.4.2.3\n\
shaValue = FORMAT:HEX,OCT:{}\n\n",
            data.len(),
            sha512_hex(data)
        )
    };
    let total = sbl.len() + tifs.len() + tcfg.len() + dcfg.len();
    let cfg = format!(
        "[ req ]\ndistinguished_name = req_distinguished_name\nx509_extensions = v3_ca\nprompt = no\ndirstring_type = nobmp\n\n\
[ req_distinguished_name ]\n{DN}\n\
[ v3_ca ]\nbasicConstraints = CA:true\n\
1.3.6.1.4.1.294.1.3=ASN1:SEQUENCE:swrv\n\
1.3.6.1.4.1.294.1.9=ASN1:SEQUENCE:ext_boot_info\n\n\
[swrv]\nswrv=INTEGER:1\n\n\
[ext_boot_info]\nextImgSize=INTEGER:{total}\nnumComp=INTEGER:4\nsbl=SEQUENCE:sbl\nsysfw=SEQUENCE:sysfw\n\
sysfw_data=SEQUENCE:sysfw_data\ndm_data=SEQUENCE:dm_data\n\n{}{}{}{}",
        comp("sbl", 1, 16, 0x43c00000, &sbl),
        comp("sysfw", 2, 0, 0x40000, &tifs),
        comp("sysfw_data", 18, 0, 0x67000, &tcfg),
        comp("dm_data", 17, 16, 0x43c3a800, &dcfg),
    );
    let mut payload = sbl;
    payload.extend_from_slice(&tifs);
    payload.extend_from_slice(&tcfg);
    payload.extend_from_slice(&dcfg);
    sign(d, openssl, &cfg, &payload, "tiboot3.bin");
}

/// File offset and address of the first `needle` inside a section of an ELF (found with
/// the object crate, independently of sbl-instrument's reader).
pub fn find_in_section(elf: &[u8], section: &str, needle: &[u8]) -> (u64, u64) {
    use object::{Object, ObjectSection};
    let f = object::File::parse(elf).unwrap();
    let s = f
        .section_by_name(section)
        .unwrap_or_else(|| panic!("no section {section}"));
    let (off, _) = s.file_range().unwrap();
    let data = s.data().unwrap();
    let pos = data
        .windows(needle.len())
        .position(|w| w == needle)
        .unwrap_or_else(|| panic!("{:?} not in {section}", String::from_utf8_lossy(needle)));
    (off + pos as u64, s.address() + pos as u64)
}

/// Symbol address and size from the cross toolchain's `nm`.
pub fn nm(nm_tool: &str, elf: &Path, symbol: &str) -> (u64, u64) {
    let out = run(Command::new(tool(nm_tool))
        .args(["-S", "--defined-only"])
        .arg(elf));
    for line in out.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() == 4 && f[3] == symbol {
            return (
                u64::from_str_radix(f[0], 16).unwrap(),
                u64::from_str_radix(f[1], 16).unwrap(),
            );
        }
    }
    panic!("{symbol} not in nm output of {}", elf.display());
}

/// Bytes of R5 MSRAM in the RAM dumps the tests write (from [`R5_BASE`]).
pub const DUMP_LEN: usize = 0x2000;

/// Store `v` little-endian at R5 address `addr` of a dump.
pub fn put32(d: &mut [u8], addr: u64, v: u32) {
    let o = (addr - R5_BASE) as usize;
    d[o..o + 4].copy_from_slice(&v.to_le_bytes());
}

/// Address of a `__func__` / name string in the ELF's .rodata.
pub fn str_addr(elf: &[u8], s: &str) -> u32 {
    let mut needle = s.as_bytes().to_vec();
    needle.push(0);
    find_in_section(elf, ".rodata", &needle).1 as u32
}

/// A PDK RAM dump and the points recorded in it: (function, line, cycle).
pub struct PdkDump {
    pub dump: Vec<u8>,
    pub points: Vec<(String, u32, u32)>,
}

/// A RAM dump of the R5 MSRAM as the PDK SBL leaves it: `n` profile points recorded.
pub fn pdk_dump(elf: &[u8], n: u32) -> PdkDump {
    let p = fixtures().path("sbl_pdk.xer5f");
    let (log, _) = nm("arm-none-eabi-nm", &p, "sblProfileLog");
    let (indx, _) = nm("arm-none-eabi-nm", &p, "sblProfileLogIndx");
    let (ovf, _) = nm("arm-none-eabi-nm", &p, "sblProfileLogOvrFlw");
    let (plog, _) = nm("arm-none-eabi-nm", &p, "sblProfileLogAddr");
    let (pindx, _) = nm("arm-none-eabi-nm", &p, "sblProfileLogIndxAddr");
    let (povf, _) = nm("arm-none-eabi-nm", &p, "sblProfileLogOvrFlwAddr");
    let funcs = [
        "main",
        "System_init",
        "Board_init",
        "SBL_ReadSysfwImage",
        "SBL_BootImage",
    ];
    let mut dump = prng_bytes(99, DUMP_LEN); // RAM is not zero after a run
    let mut points = Vec::new();
    for i in 0..n {
        let name = funcs[(i as usize) % funcs.len()];
        let (line, cycle) = (40 + i, 1_000_000 + i * 250_000 + i * i);
        let e = log + 12 * u64::from(i % 256);
        put32(&mut dump, e, str_addr(elf, name));
        put32(&mut dump, e + 4, line);
        put32(&mut dump, e + 8, cycle);
        points.push((name.to_string(), line, cycle));
    }
    put32(&mut dump, indx, n);
    put32(&mut dump, ovf, u32::from(n > 256));
    put32(&mut dump, plog, log as u32);
    put32(&mut dump, pindx, indx as u32);
    put32(&mut dump, povf, ovf as u32);
    PdkDump { dump, points }
}
