//! Output that stops midway gives the figures read so far and a warning
//! naming the line where it stops; output with no figure at all is
//! `Error::NoMetrics` naming that line.

mod common;

use bench_parser::model::unit;
use bench_parser::tools::{
    coremark, coremark_pro, cyclictest, dhrystone, fio, iperf2, iperf3, linpack, lmbench, mbw,
    netperf, openssl, sevenzip, stream, stress_ng, sysbench, whetstone,
};
use bench_parser::Error;
use common::{corpus, expect_close, expect_warning_at, fixture, get, head};

#[test]
fn stream_stops_before_triad() {
    let p = stream::parse(&head(&corpus("stream-5.10-oci-epyc9654-nps1-nps4.log"), 30)).unwrap();
    assert_eq!(p.metrics.len(), 3);
    assert_eq!(get(&p, "Add", 1).value, 723580.5);
    expect_warning_at(&p, 30);
    assert!(p.warnings[0].contains("Triad"), "{:?}", p.warnings);
}

#[test]
fn coremark_stops_before_iterations_per_sec() {
    let p = coremark::parse(&head(&corpus("coremark-mcu-gcc5.2-o3-stack.log"), 4)).unwrap();
    assert_eq!(get(&p, "total_ticks", 1).value, 1309.0);
    assert!(p.metrics.iter().all(|m| m.metric != "iterations_per_sec"));
    expect_warning_at(&p, 4);
    assert!(p.warnings[0].contains("Iterations/Sec"));
}

#[test]
fn iperf3_stops_before_the_summary() {
    let p = iperf3::parse(&head(
        &corpus("iperf3-gbe-client-complete-sender-receiver.log"),
        10,
    ))
    .unwrap();
    let mean = (951.0 + 931.0 + 944.0 + 938.0 + 938.0 + 930.0) / 6.0;
    expect_close(&p, "intervals_mean", mean, unit::MBITS_S);
    expect_warning_at(&p, 10);
}

#[test]
fn iperf3_json_cut_names_the_line() {
    let err = iperf3::parse(&head(&fixture("iperf3-tcp-json.txt"), 50)).unwrap_err();
    assert_eq!(
        err,
        Error::NoMetrics {
            tool: "iperf3",
            line: 50
        }
    );
}

#[test]
fn openssl_stops_before_the_table() {
    let p = openssl::parse(&head(
        &corpus("openssl3.0.11-speed-elapsed-evp-rk3328-eaidk310.log"),
        19,
    ))
    .unwrap();
    // The `Doing` lines: count * block size / seconds, in 1000s of bytes.
    assert_eq!(p.metrics.len(), 18);
    expect_close(&p, "sha256-16", 1729302.0 * 16.0 / 3.0 / 1000.0, unit::KB_S);
    expect_close(
        &p,
        "aes-128-gcm-16384",
        113699.0 * 16384.0 / 3.0 / 1000.0,
        unit::KB_S,
    );
    expect_warning_at(&p, 19);
}

#[test]
fn lmbench_stops_after_a_section_header() {
    let p = lmbench::parse(&head(
        &corpus("lmbench3-individual-cmds-bw_tcp-lat_syscall-lat_ctx.log"),
        20,
    ))
    .unwrap();
    assert_eq!(p.metrics.len(), 8);
    expect_warning_at(&p, 20);
}

#[test]
fn lmbench_label_without_value() {
    let p = lmbench::parse("Simple syscall: 0.1328 microseconds\nSimple read: ").unwrap();
    assert_eq!(p.metrics.len(), 1);
    expect_warning_at(&p, 2);
}

#[test]
fn dhrystone_stops_before_dhrystones_per_second() {
    let p = dhrystone::parse(&head(
        &corpus("forlinx-ok527-t527-a55-coremark-and-dhrystone.log"),
        83,
    ))
    .unwrap();
    assert_eq!(get(&p, "us_per_run", 1).value, 0.2);
    expect_warning_at(&p, 83);
}

#[test]
fn whetstone_stops_before_the_mips_line() {
    let p = whetstone::parse(&head(&corpus("whetstone-xuantie-e907-fpga-bare.log"), 3)).unwrap();
    assert_eq!(get(&p, "duration", 1).value, 30.0);
    expect_warning_at(&p, 3);
}

#[test]
fn linpack_stops_in_the_second_table() {
    let p = linpack::parse(&head(
        &corpus("linpack-rtems-rpi4-aarch64-rolled-double.log"),
        45,
    ))
    .unwrap();
    assert_eq!(get(&p, "linpack-ld201", 1).value, 341.73);
    assert_eq!(p.metrics.len(), 1);
    expect_warning_at(&p, 45);
}

#[test]
fn sevenzip_stops_before_tot() {
    let p = sevenzip::parse(&head(&fixture("7z-b.txt"), 17)).unwrap();
    assert_eq!(p.metrics.len(), 6);
    expect_warning_at(&p, 17);
}

#[test]
fn sysbench_stops_before_general_statistics() {
    let p = sysbench::parse(&head(&fixture("sysbench-cpu.txt"), 16)).unwrap();
    assert_eq!(get(&p, "events_per_second", 1).value, 3786.42);
    expect_warning_at(&p, 15);
}

#[test]
fn mbw_stops_before_avg() {
    let p = mbw::parse(&head(&fixture("mbw.txt"), 5)).unwrap();
    expect_close(&p, "memcpy", (2487.562 + 2512.563) / 2.0, unit::MIB_S);
    expect_warning_at(&p, 5);
}

#[test]
fn cyclictest_stops_mid_line() {
    let mut text = head(&fixture("cyclictest.txt"), 6);
    text.push_str("T: 3 ( 1512) P:80 I:2500 C:   4000 Min:      8 Act:   13 Av");
    let p = cyclictest::parse(&text).unwrap();
    assert_eq!(p.metrics.len(), 3 * 3 + 1);
    assert_eq!(get(&p, "max", 1).value, 61.0);
    expect_warning_at(&p, 7);
}

#[test]
fn iperf2_stops_before_the_whole_run_interval() {
    let p = iperf2::parse(&head(&fixture("iperf2-tcp-client.txt"), 8)).unwrap();
    expect_close(&p, "intervals_mean", (941.0 + 940.0) / 2.0, unit::MBITS_S);
    expect_warning_at(&p, 8);
}

#[test]
fn coremark_pro_stops_inside_a_workload() {
    let p = coremark_pro::parse(&head(&fixture("coremark-pro-workloads.txt"), 14)).unwrap();
    assert_eq!(p.metrics.len(), 1);
    expect_warning_at(&p, 14);
    assert!(p.warnings[0].contains("linear_alg-mid-100x100-sp"));
    let p = coremark_pro::parse(&head(&fixture("coremark-pro-certify-all.txt"), 14)).unwrap();
    assert_eq!(p.metrics.len(), 9 * 3);
    expect_warning_at(&p, 14);
}

type Parser = fn(&str) -> Result<bench_parser::Parsed, Error>;

#[test]
fn nothing_read_is_no_metrics_naming_the_line() {
    let cases: [(Parser, String, &str, u64); 4] = [
        (
            stress_ng::parse,
            head(&fixture("stress-ng-metrics-brief-metrc.txt"), 4),
            "stress-ng",
            4,
        ),
        (
            fio::parse,
            head(&fixture("fio-randrw-json.txt"), 40),
            "fio",
            40,
        ),
        (fio::parse, head(&fixture("fio-seq-read.txt"), 6), "fio", 6),
        (
            netperf::parse,
            head(&fixture("netperf-tcp-stream-classic.txt"), 5),
            "netperf",
            5,
        ),
    ];
    for (parse, text, tool, line) in cases {
        assert_eq!(parse(&text).unwrap_err(), Error::NoMetrics { tool, line });
    }
}
