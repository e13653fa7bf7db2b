//! The disk: an MBR-partitioned raw image with one bootable ext4 partition holding the kernel,
//! the initramfs and `extlinux/extlinux.conf` (U-Boot's distro boot finds it there).
//! Built without mounting or loop devices: sfdisk on the image file, then `mkfs.ext4 -d` at the
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

/// Writes `out`: a partition table and an ext4 file system made from the directory `boot`.
pub fn build(r: &Runner, boot: &Path, out: &Path, epoch: i64) -> anyhow::Result<()> {
    let payload = dir_size(boot)?;
    let part = partition_size(payload);
    let _ = std::fs::remove_file(out);
    let f = std::fs::File::create(out)?;
    f.set_len(PART_OFFSET + part)?;
    drop(f);
    let table = format!(
        "label: dos\nlabel-id: 0x70726667\nunit: sectors\nstart={}, size={}, type=83, bootable\n",
        PART_OFFSET / 512,
        part / 512
    );
    r.run(
        Cmd::new("sfdisk")
            .args(["--no-reread", "--no-tell-kernel", "-q"])
            .arg(out)
            .stdin(table.into_bytes()),
    )?;
    r.run(
        Cmd::new("mkfs.ext4")
            .args(["-q", "-F", "-L", "boot", "-O", "^has_journal"])
            .args(["-U", "70657266-6775-6964-652d-716d75000001"])
            .arg("-E")
            .arg(format!(
                "offset={PART_OFFSET},root_owner=0:0,hash_seed=70657266-6775-6964-652d-716d75000002"
            ))
            .arg("-d")
            .arg(boot)
            .arg(out)
            .arg(format!("{}k", part / 1024))
            .env("E2FSPROGS_FAKE_TIME", epoch.to_string())
            .env("SOURCE_DATE_EPOCH", epoch.to_string()),
    )?;
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
    fn extlinux_has_append() {
        let c = extlinux_conf("qemu-arm64", "console=ttyAMA0 printk.time=1");
        assert!(c.contains("append console=ttyAMA0 printk.time=1\n"));
        assert!(c.contains("kernel /Image"));
    }
}
