//! The disk: an MBR-partitioned raw image with a bootable ext4 partition holding the kernel,
//! the initramfs and `extlinux/extlinux.conf` (U-Boot's distro boot finds it there), and
//! optionally an empty ext4 partition after it for benchmarks that write (`scratch`; not
//! bootable, so distro boot does not scan it).
//! Built without mounting or loop devices: sfdisk on the image file, then `mkfs.ext4` at each
//! partition's offset.

use super::exec::{Cmd, Runner};
use std::path::Path;

/// First partition starts at 1 MiB.
pub const PART_OFFSET: u64 = 1 << 20;
const MIB: u64 = 1 << 20;

/// `extlinux.conf` for the kernel at `/Image` and initramfs at `/initrd.img`.
pub fn extlinux_conf(board: &str, cmdline: &str) -> String {
    format!(
        "# perfguide reference image ({board})\n\
         default perfguide\n\
         label perfguide\n\
         \x20   kernel /Image\n\
         \x20   initrd /initrd.img\n\
         \x20   append {cmdline}\n"
    )
}

/// Size of the partition for `payload` bytes of files: room for metadata and 25 % slack,
/// rounded up to whole MiB.
pub fn partition_size(payload: u64) -> u64 {
    let want = payload + payload / 4 + 8 * MIB;
    want.div_ceil(MIB) * MIB
}

/// The partition table (sfdisk script) of a boot partition of `boot` bytes and a scratch
/// partition of `scratch` bytes after it (none when 0).
pub fn partition_table(boot: u64, scratch: u64) -> String {
    let mut t = format!(
        "label: dos\nlabel-id: 0x70726667\nunit: sectors\nstart={}, size={}, type=83, bootable\n",
        PART_OFFSET / 512,
        boot / 512
    );
    if scratch > 0 {
        t.push_str(&format!(
            "start={}, size={}, type=83\n",
            (PART_OFFSET + boot) / 512,
            scratch / 512
        ));
    }
    t
}

/// Writes `out`: a partition table, an ext4 file system made from the directory `boot`, and
/// an empty ext4 file system of `scratch_mib` MiB after it (label `scratch`) when given.
pub fn build(
    r: &Runner,
    boot: &Path,
    out: &Path,
    epoch: i64,
    scratch_mib: Option<u64>,
) -> anyhow::Result<()> {
    let payload = dir_size(boot)?;
    let part = partition_size(payload);
    let scratch = scratch_mib.unwrap_or(0) * MIB;
    let _ = std::fs::remove_file(out);
    let f = std::fs::File::create(out)?;
    f.set_len(PART_OFFSET + part + scratch)?;
    drop(f);
    r.run(
        Cmd::new("sfdisk")
            .args(["--no-reread", "--no-tell-kernel", "-q"])
            .arg(out)
            .stdin(partition_table(part, scratch).into_bytes()),
    )?;
    // Fixed UUIDs and hash seeds, and the build's epoch as the files' times: the same inputs
    // give the same layout and contents. Not the same bytes: mke2fs 1.47.0 (Debian 12) writes
    // the build's own time in the superblock (mkfs, write and check times) and copies each
    // file's ctime from the host, whatever E2FSPROGS_FAKE_TIME says; image.json's hashes of
    // the files inside (Image, initrd.img, extlinux.conf) are what stays equal.
    let mkfs = |label: &str, id: u8, offset: u64, extra: &str| {
        Cmd::new("mkfs.ext4")
            .args(["-q", "-F", "-L", label])
            .arg("-U")
            .arg(format!("70657266-6775-6964-652d-716d750000{id:02x}"))
            .arg("-E")
            .arg(format!(
                "offset={offset},root_owner=0:0,hash_seed=70657266-6775-6964-652d-716d750000{:02x}{extra}",
                id + 1
            ))
            .env("E2FSPROGS_FAKE_TIME", epoch.to_string())
            .env("SOURCE_DATE_EPOCH", epoch.to_string())
    };
    let kib = |size: u64| format!("{}k", size / 1024);
    r.run(
        mkfs("boot", 1, PART_OFFSET, "")
            .args(["-O", "^has_journal", "-d"])
            .arg(boot)
            .arg(out)
            .arg(kib(part)),
    )?;
    if scratch > 0 {
        // Inode tables and journal written now: the kernel's lazy init would write them in
        // the background while the benchmarks run.
        r.run(
            mkfs(
                "scratch",
                3,
                PART_OFFSET + part,
                ",lazy_itable_init=0,lazy_journal_init=0",
            )
            .arg(out)
            .arg(kib(scratch)),
        )?;
    }
    Ok(())
}

fn dir_size(dir: &Path) -> anyhow::Result<u64> {
    let mut n = 0;
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let m = e.metadata()?;
        n += if m.is_dir() {
            dir_size(&e.path())?
        } else {
            m.len()
        };
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_round_to_mib() {
        assert_eq!(partition_size(0), 8 * MIB);
        assert_eq!(partition_size(MIB) % MIB, 0);
        assert!(partition_size(30 * MIB) >= 30 * MIB + 8 * MIB);
    }

    #[test]
    fn scratch_follows_the_boot_partition() {
        let t = partition_table(40 * MIB, 96 * MIB);
        assert!(
            t.contains("start=2048, size=81920, type=83, bootable\n"),
            "{t}"
        );
        assert!(t.ends_with("start=83968, size=196608, type=83\n"), "{t}");
        assert_eq!(partition_table(40 * MIB, 0).lines().count(), 4);
    }

    #[test]
    fn extlinux_has_append() {
        let c = extlinux_conf("qemu-arm64", "console=ttyAMA0 printk.time=1");
        assert!(c.contains("append console=ttyAMA0 printk.time=1\n"));
        assert!(c.contains("kernel /Image"));
    }
}
