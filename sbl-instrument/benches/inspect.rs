//! `inspect` on a 300 MiB ELF: must stay well under 0.5 s (memory-mapped, no full copy).
//!
//! The ELF is built here with the aarch64 cross toolchain (`aarch64-linux-gnu-ld -r -b
//! binary` wraps a 300 MiB blob into an object, linked as loadable data into a small
//! AArch64 image). Run `sbl-instrument/tests/setup-fixtures-deps.sh` first.
//! `SBL_BENCH_MIB` changes the size.

#[path = "../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{run, tool, A53_FLAGS};
use criterion::{criterion_group, criterion_main, Criterion};

fn build_big_elf(dir: &Path, mib: usize) -> PathBuf {
    let blob = dir.join("blob.bin");
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(std::fs::File::create(&blob).unwrap());
        let mut chunk = vec![0u8; 1 << 20];
        for i in 0..mib {
            for (j, b) in chunk.iter_mut().enumerate() {
                *b = (i * 31 + j * 7) as u8;
            }
            f.write_all(&chunk).unwrap();
        }
    }
    run(Command::new(tool("aarch64-linux-gnu-ld"))
        .current_dir(dir)
        .args(["-r", "-b", "binary", "-o", "blob.o", "blob.bin"]));
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/a53.c");
    let out = dir.join("big.elf");
    run(Command::new(tool("aarch64-linux-gnu-gcc"))
        .current_dir(dir)
        .args(A53_FLAGS)
        .args(["-o", "big.elf", src, "blob.o"]));
    std::fs::remove_file(&blob).ok();
    out
}

fn bench(c: &mut Criterion) {
    let mib: usize = std::env::var("SBL_BENCH_MIB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let dir = tempfile::tempdir().unwrap();
    let elf = build_big_elf(dir.path(), mib);
    let size = std::fs::metadata(&elf).unwrap().len();
    // One timed run outside criterion, for the README figure (first access after the build).
    let t = Instant::now();
    let img = sbl_instrument::inspect_path(&elf).unwrap();
    let first = t.elapsed();
    let covered: u64 = img.root.components.iter().map(|c| c.size).sum();
    eprintln!(
        "inspect {} ({size} bytes, {} LOAD bytes): first run {:.3} ms",
        elf.display(),
        covered,
        first.as_secs_f64() * 1e3
    );
    assert!(
        covered >= (mib as u64) << 20,
        "the blob is a loaded segment"
    );
    let mut g = c.benchmark_group("inspect");
    g.sample_size(20).measurement_time(Duration::from_secs(5));
    g.bench_function(format!("elf_{mib}MiB"), |b| {
        b.iter(|| sbl_instrument::inspect_path(&elf).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
