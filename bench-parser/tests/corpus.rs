//! Every parser on every sample of its tool in `tests/corpus/I_bench/`: the
//! figures `tests/corpus/SOURCES.md` lists, and further figures read off each
//! log by hand.

mod common;

use bench_parser::model::unit;
use bench_parser::tools::{
    coremark, dhrystone, iperf3, linpack, lmbench, openssl, stream, whetstone,
};
use bench_parser::Better::Higher;
use common::{corpus, expect_close, expect_run, figures, get};

#[test]
fn coremark_mcu_full_report() {
    let p = coremark::parse(&corpus("coremark-mcu-gcc5.2-o3-stack.log")).unwrap();
    // SOURCES.md: canonical full report, 190.985485.
    figures(
        &p,
        &[
            "coremark/coremark | iterations_per_sec | 190.985485 | iterations/s | higher | 5",
            "coremark/coremark | total_ticks | 1309.0 | ticks | lower | 3",
            "coremark/coremark | total_time | 13.09 | s | lower | 4",
        ],
    );
    assert_eq!(p.metrics.len(), 3);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
}

#[test]
fn dhrystone_leon3_grmon2() {
    let p = dhrystone::parse(&corpus("dhrystone-leon3-sparc-grmon2-50mhz.log")).unwrap();
    // SOURCES.md: `Dhrystones MIPS : 51.9`, trailing spaces.
    figures(
        &p,
        &[
            "dhrystone/dhrystone | dmips | 51.9 | DMIPS | higher | 14",
            "dhrystone/dhrystone | dhrystone_per_second | 91123.5 | DhrystoneP | higher | 12",
            "dhrystone/dhrystone | us_per_run | 11.0 | us | lower | 11",
        ],
    );
    assert_eq!(p.metrics.len(), 3);
    // The board runs at 50 MHz (the file name): 51.9 / 50 DMIPS/MHz.
    let p = dhrystone::with_clock(p, 50.0);
    expect_close(&p, "dhrystone_per_mhz", 51.9 / 50.0, unit::DMIPS_MHZ);
}

#[test]
fn whetstone_xuantie_bare() {
    let p = whetstone::parse(&corpus("whetstone-xuantie-e907-fpga-bare.log")).unwrap();
    // SOURCES.md: 32.8 MIPS, integer-second duration.
    figures(
        &p,
        &[
            "whetstone/whetstone | whetstone | 32.8 | MIPS | higher | 4",
            "whetstone/whetstone | duration | 30.0 | s | lower | 3",
        ],
    );
    assert!(p.warnings.is_empty());
}

#[test]
fn linpack_rtems_rolled_double() {
    let p = linpack::parse(&corpus("linpack-rtems-rpi4-aarch64-rolled-double.log")).unwrap();
    // SOURCES.md: `Rolled Double  Precision      341.73 Mflops ` (trailing space).
    figures(
        &p,
        &["linpack/rolled-double | linpack | 341.73 | Mflops | higher | 55"],
    );
    // The `Average` line of each leading dimension.
    figures(
        &p,
        &[
            "linpack/rolled-double | linpack-ld201 | 341.73 | Mflops | higher | 40",
            "linpack/rolled-double | linpack-ld200 | 342.63 | Mflops | higher | 53",
        ],
    );
    assert_eq!(p.metrics.len(), 3);
    assert!(p.warnings.is_empty());
}

#[test]
fn stream_epyc_two_runs() {
    let p = stream::parse(&corpus("stream-5.10-oci-epyc9654-nps1-nps4.log")).unwrap();
    // SOURCES.md: two full runs; Triad 718799.1 and 753594.8 MB/s.
    expect_run(
        &p,
        "stream/stream",
        "Triad",
        1,
        718799.1,
        unit::MB_S,
        Higher,
        31,
    );
    expect_run(
        &p,
        "stream/stream",
        "Triad",
        2,
        753594.8,
        unit::MB_S,
        Higher,
        66,
    );
    expect_run(
        &p,
        "stream/stream",
        "Copy",
        1,
        685041.8,
        unit::MB_S,
        Higher,
        28,
    );
    expect_run(
        &p,
        "stream/stream",
        "Scale",
        1,
        690053.6,
        unit::MB_S,
        Higher,
        29,
    );
    expect_run(
        &p,
        "stream/stream",
        "Add",
        1,
        723580.5,
        unit::MB_S,
        Higher,
        30,
    );
    expect_run(
        &p,
        "stream/stream",
        "Copy",
        2,
        720545.7,
        unit::MB_S,
        Higher,
        63,
    );
    expect_run(
        &p,
        "stream/stream",
        "Scale",
        2,
        713615.5,
        unit::MB_S,
        Higher,
        64,
    );
    expect_run(
        &p,
        "stream/stream",
        "Add",
        2,
        751671.5,
        unit::MB_S,
        Higher,
        65,
    );
    assert_eq!(p.metrics.len(), 8);
    assert!(p.warnings.is_empty());
}

#[test]
fn lmbench_individual_commands() {
    let p = lmbench::parse(&corpus(
        "lmbench3-individual-cmds-bw_tcp-lat_syscall-lat_ctx.log",
    ))
    .unwrap();
    // SOURCES.md: `1073.741824 5434.25 MB/sec` (bw_tcp without label).
    figures(
        &p,
        &[
            "lmbench/bw_tcp | bw_tcp | 5434.25 | MB/s | higher | 3",
            "lmbench/bw_pipe | bw_pipe | 3704.20 | MB/s | higher | 5",
            "lmbench/lat_syscall-null | lat_syscall-null | 0.1328 | us | lower | 7",
            "lmbench/lat_syscall-read | lat_syscall-read | 0.2191 | us | lower | 9",
            "lmbench/lat_syscall-write | lat_syscall-write | 0.2009 | us | lower | 11",
            "lmbench/lat_syscall-stat | lat_syscall-stat | 1.0037 | us | lower | 13",
            "lmbench/lat_syscall-fstat | lat_syscall-fstat | 0.3176 | us | lower | 15",
            "lmbench/lat_syscall-open | lat_syscall-open | 2.1441 | us | lower | 17",
        ],
    );
    // `"size=1k ovr=0.67` then `<processes> <us>`.
    figures(
        &p,
        &[
            "lmbench/lat_ctx-2-1k | lat_ctx-2-1k | 3.37 | us | lower | 21",
            "lmbench/lat_ctx-4-1k | lat_ctx-4-1k | 3.80 | us | lower | 22",
            "lmbench/lat_ctx-8-1k | lat_ctx-8-1k | 3.89 | us | lower | 23",
            "lmbench/lat_ctx-16-1k | lat_ctx-16-1k | 4.25 | us | lower | 24",
        ],
    );
    assert_eq!(p.metrics.len(), 12);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
}

#[test]
fn openssl3_speed_elapsed_evp() {
    let p = openssl::parse(&corpus(
        "openssl3.0.11-speed-elapsed-evp-rk3328-eaidk310.log",
    ))
    .unwrap();
    // SOURCES.md: 3.x header, 6 block sizes incl. 16384, `k` suffixes.
    assert_eq!(p.metrics.len(), 3 * 6);
    figures(
        &p,
        &[
            "openssl/sha256 | sha256-16 | 9222.94 | kB/s | higher | 27",
            "openssl/sha256 | sha256-16384 | 538334.55 | kB/s | higher | 27",
            "openssl/aes-128-cbc | aes-128-cbc-16 | 98293.01 | kB/s | higher | 28",
            "openssl/aes-128-cbc | aes-128-cbc-1024 | 856342.87 | kB/s | higher | 28",
            "openssl/aes-128-cbc | aes-128-cbc-16384 | 970855.77 | kB/s | higher | 28",
            "openssl/aes-128-gcm | aes-128-gcm-64 | 166592.96 | kB/s | higher | 29",
            "openssl/aes-128-gcm | aes-128-gcm-16384 | 620948.14 | kB/s | higher | 29",
        ],
    );
    // The table agrees with its `Doing` line: 1729302 sha256's of 16 bytes in 3.00s.
    assert!((get(&p, "sha256-16", 1).value - 1729302.0 * 16.0 / 3.0 / 1000.0).abs() < 0.01);
    assert!(p.warnings.is_empty());
}

#[test]
fn iperf3_gbe_client() {
    let p = iperf3::parse(&corpus("iperf3-gbe-client-complete-sender-receiver.log")).unwrap();
    // SOURCES.md: complete: sender 938 / receiver 937 Mbits/sec.
    figures(
        &p,
        &[
            "iperf3/tcp-tx | sender | 938.0 | Mbits/sec | higher | 17",
            "iperf3/tcp-tx | receiver | 937.0 | Mbits/sec | higher | 18",
            "iperf3/tcp-tx | retransmits | 0.0 | count | lower | 17",
        ],
    );
    assert_eq!(p.metrics.len(), 3);
    assert!(p.warnings.is_empty());
}

#[test]
fn forlinx_coremark_and_dhrystone() {
    let text = corpus("forlinx-ok527-t527-a55-coremark-and-dhrystone.log");
    // SOURCES.md: 6715.916723 and 6090134.0 Dhrystones/s.
    let c = coremark::parse(&text).unwrap();
    figures(
        &c,
        &[
            "coremark/coremark | iterations_per_sec | 6715.916723 | iterations/s | higher | 8",
            "coremark/coremark | total_ticks | 16379.0 | ticks | lower | 6",
            "coremark/coremark | total_time | 16.379 | s | lower | 7",
        ],
    );
    assert_eq!(c.metrics.len(), 3);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    let d = dhrystone::parse(&text).unwrap();
    figures(
        &d,
        &[
            "dhrystone/dhrystone | dhrystone_per_second | 6090134.0 | DhrystoneP | higher | 84",
            "dhrystone/dhrystone | us_per_run | 0.2 | us | lower | 83",
        ],
    );
    // No MIPS line in this port: DMIPS = Dhrystones per second / 1757.
    expect_close(&d, "dmips", 6090134.0 / 1757.0, unit::DMIPS);
    assert_eq!(d.metrics.len(), 3);
    assert!(d.warnings.is_empty(), "{:?}", d.warnings);
}
