//! Every parser on the fixtures of tools without a corpus sample (and on
//! formats the corpus lacks), figures checked by hand against each file.

mod common;

use bench_parser::model::unit;
use bench_parser::tools::{
    coremark, coremark_pro, cyclictest, fio, iperf2, iperf3, linpack, lmbench, mbw, netperf,
    openssl, sevenzip, stress_ng, sysbench, whetstone,
};
use bench_parser::Better::{Higher, Lower};
use common::{expect, expect_close, fixture, get};

#[test]
fn lmbench_single_tools() {
    let p = lmbench::parse(&fixture("lmbench-single-tools.txt")).unwrap();
    // bw_mem prints `<MB> <MB/s>`: the op and size come from the command line.
    expect(
        &p,
        "lmbench/bw_mem-rd-1mb",
        "bw_mem-rd-1mb",
        5273.84,
        unit::MB_S,
        Higher,
        2,
    );
    expect(
        &p,
        "lmbench/bw_mem-wr-8mb",
        "bw_mem-wr-8mb",
        3105.67,
        unit::MB_S,
        Higher,
        4,
    );
    expect(
        &p,
        "lmbench/bw_file_rd-io-1mb",
        "bw_file_rd-io-1mb",
        2211.35,
        unit::MB_S,
        Higher,
        6,
    );
    expect(
        &p,
        "lmbench/bw_mmap_rd-mo-1mb",
        "bw_mmap_rd-mo-1mb",
        6689.02,
        unit::MB_S,
        Higher,
        8,
    );
    expect(
        &p,
        "lmbench/bw_unix",
        "bw_unix",
        1203.56,
        unit::MB_S,
        Higher,
        10,
    );
    expect(
        &p,
        "lmbench/lat_sig-install",
        "lat_sig-install",
        0.4412,
        unit::US,
        Lower,
        12,
    );
    expect(
        &p,
        "lmbench/lat_sig-catch",
        "lat_sig-catch",
        2.7011,
        unit::US,
        Lower,
        14,
    );
    expect(
        &p,
        "lmbench/lat_proc-fork",
        "lat_proc-fork",
        285.3333,
        unit::US,
        Lower,
        16,
    );
    expect(
        &p,
        "lmbench/lat_proc-exec",
        "lat_proc-exec",
        902.5,
        unit::US,
        Lower,
        18,
    );
    expect(
        &p,
        "lmbench/lat_pipe",
        "lat_pipe",
        14.1856,
        unit::US,
        Lower,
        20,
    );
    expect(
        &p,
        "lmbench/lat_unix",
        "lat_unix",
        17.5520,
        unit::US,
        Lower,
        22,
    );
    expect(
        &p,
        "lmbench/lat_tcp",
        "lat_tcp",
        38.3914,
        unit::US,
        Lower,
        24,
    );
    expect(
        &p,
        "lmbench/lat_select-100",
        "lat_select-100",
        4.8021,
        unit::US,
        Lower,
        26,
    );
    expect(
        &p,
        "lmbench/lat_mmap-1m",
        "lat_mmap-1m",
        39.0,
        unit::US,
        Lower,
        28,
    );
    let b = "lmbench/lat_mem_rd-stride128";
    expect(
        &p,
        b,
        "lat_mem_rd-stride128-0.5k",
        1.669,
        unit::NS,
        Lower,
        31,
    );
    expect(
        &p,
        b,
        "lat_mem_rd-stride128-32k",
        6.678,
        unit::NS,
        Lower,
        34,
    );
    expect(
        &p,
        b,
        "lat_mem_rd-stride128-1024k",
        95.142,
        unit::NS,
        Lower,
        36,
    );
    expect(
        &p,
        "lmbench/lat_fs",
        "lat_fs-create-0k",
        40779.0,
        unit::FILES_S,
        Higher,
        39,
    );
    expect(
        &p,
        "lmbench/lat_fs",
        "lat_fs-delete-10k",
        48127.0,
        unit::FILES_S,
        Higher,
        42,
    );
    expect(
        &p,
        "lmbench/lat_ops",
        "lat_ops-integer-add",
        0.21,
        unit::NS,
        Lower,
        45,
    );
    expect(
        &p,
        "lmbench/lat_ops",
        "lat_ops-double-mul",
        1.67,
        unit::NS,
        Lower,
        46,
    );
    assert_eq!(p.metrics.len(), 31);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
}

#[test]
fn lmbench_results_file() {
    let p = lmbench::parse(&fixture("lmbench3-results-file.txt")).unwrap();
    expect(
        &p,
        "lmbench/lat_syscall-null",
        "lat_syscall-null",
        0.3086,
        unit::US,
        Lower,
        37,
    );
    expect(
        &p,
        "lmbench/lat_syscall-open",
        "lat_syscall-open",
        7.7418,
        unit::US,
        Lower,
        42,
    );
    expect(
        &p,
        "lmbench/lat_select-10",
        "lat_select-10",
        1.0117,
        unit::US,
        Lower,
        43,
    );
    expect(
        &p,
        "lmbench/lat_sig-prot",
        "lat_sig-prot",
        0.8148,
        unit::US,
        Lower,
        47,
    );
    expect(
        &p,
        "lmbench/lat_proc-shell",
        "lat_proc-shell",
        2813.0,
        unit::US,
        Lower,
        52,
    );
    expect(
        &p,
        "lmbench/lat_pagefault",
        "lat_pagefault",
        0.5861,
        unit::US,
        Lower,
        54,
    );
    expect(
        &p,
        "lmbench/lat_mmap-512k",
        "lat_mmap-512k",
        21.0,
        unit::US,
        Lower,
        57,
    );
    expect(
        &p,
        "lmbench/lat_udp",
        "lat_udp",
        31.9102,
        unit::US,
        Lower,
        65,
    );
    expect(
        &p,
        "lmbench/lat_connect",
        "lat_connect",
        81.3906,
        unit::US,
        Lower,
        67,
    );
    expect(
        &p,
        "lmbench/bw_tcp-64b",
        "bw_tcp-64b",
        6.89,
        unit::MB_S,
        Higher,
        71,
    );
    expect(
        &p,
        "lmbench/bw_pipe",
        "bw_pipe",
        823.90,
        unit::MB_S,
        Higher,
        74,
    );
    expect(
        &p,
        "lmbench/bw_file_rd-io-1mb",
        "bw_file_rd-io-1mb",
        2213.60,
        unit::MB_S,
        Higher,
        79,
    );
    expect(
        &p,
        "lmbench/bw_file_rd-o2c-512b",
        "bw_file_rd-o2c-512b",
        81.60,
        unit::MB_S,
        Higher,
        82,
    );
    expect(
        &p,
        "lmbench/bw_mmap_rd-o2c-1mb",
        "bw_mmap_rd-o2c-1mb",
        1177.27,
        unit::MB_S,
        Higher,
        91,
    );
    expect(
        &p,
        "lmbench/bw_mem-bcopy-1mb",
        "bw_mem-bcopy-1mb",
        2903.11,
        unit::MB_S,
        Higher,
        95,
    );
    expect(
        &p,
        "lmbench/bw_mem-frd-1mb",
        "bw_mem-frd-1mb",
        5263.33,
        unit::MB_S,
        Higher,
        103,
    );
    expect(
        &p,
        "lmbench/bw_mem-fwr-512b",
        "bw_mem-fwr-512b",
        11738.07,
        unit::MB_S,
        Higher,
        106,
    );
    expect(
        &p,
        "lmbench/lat_ctx-2-0k",
        "lat_ctx-2-0k",
        6.71,
        unit::US,
        Lower,
        110,
    );
    expect(
        &p,
        "lmbench/lat_ctx-4-16k",
        "lat_ctx-4-16k",
        8.01,
        unit::US,
        Lower,
        116,
    );
    expect(
        &p,
        "lmbench/lat_mem_rd-stride16",
        "lat_mem_rd-stride16-1024k",
        4.113,
        unit::NS,
        Lower,
        122,
    );
    expect(
        &p,
        "lmbench/lat_mem_rd-stride32",
        "lat_mem_rd-stride32-0.5k",
        2.146,
        unit::NS,
        Lower,
        125,
    );
    assert_eq!(p.metrics.len(), 58);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
}

#[test]
fn coremark_k_ticks_and_abbreviated_report() {
    let p = coremark::parse(&fixture("coremark-k-ticks-abbreviated.txt")).unwrap();
    expect(
        &p,
        "coremark/coremark",
        "total_ticks",
        12000.0,
        unit::TICKS,
        Lower,
        3,
    );
    expect(
        &p,
        "coremark/coremark",
        "iterations_per_sec",
        2500.0,
        unit::ITERATIONS_S,
        Higher,
        5,
    );
    // A second, abbreviated report: only its `CoreMark 1.0 :` line.
    let second = p
        .metrics
        .iter()
        .filter(|m| m.metric == "iterations_per_sec")
        .nth(1)
        .unwrap();
    assert_eq!((second.value, second.line), (2493.765586, 18));
    assert_eq!(p.metrics.len(), 4);
}

#[test]
fn coremark_pro_workload_reports() {
    let p = coremark_pro::parse(&fixture("coremark-pro-workloads.txt")).unwrap();
    let w = "cjpeg-rose7-preset";
    expect(
        &p,
        &format!("coremark-pro/{w}"),
        w,
        82.6515,
        unit::WORKLOADS_S,
        Higher,
        8,
    );
    let w = "linear_alg-mid-100x100-sp";
    expect(
        &p,
        &format!("coremark-pro/{w}"),
        w,
        16.301,
        unit::WORKLOADS_S,
        Higher,
        17,
    );
    assert_eq!(p.metrics.len(), 2);
    assert!(p.warnings.is_empty());
}

#[test]
fn coremark_pro_certify_all_tables() {
    let p = coremark_pro::parse(&fixture("coremark-pro-certify-all.txt")).unwrap();
    let b = "coremark-pro/CoreMark-PRO";
    expect(
        &p,
        b,
        "CoreMark-PRO-multicore",
        3093.01,
        unit::SCORE,
        Higher,
        20,
    );
    expect(
        &p,
        b,
        "CoreMark-PRO-singlecore",
        865.78,
        unit::SCORE,
        Higher,
        20,
    );
    expect(&p, b, "CoreMark-PRO-scaling", 3.57, unit::RATIO, Higher, 20);
    expect(
        &p,
        "coremark-pro/zip-test",
        "zip-test-multicore",
        153.85,
        unit::ITERATIONS_S,
        Higher,
        14,
    );
    expect(
        &p,
        "coremark-pro/core",
        "core-singlecore",
        0.69,
        unit::ITERATIONS_S,
        Higher,
        7,
    );
    assert_eq!(p.metrics.len(), 10 * 3);
    assert!(p.warnings.is_empty());
}

#[test]
fn whetstone_fractional_and_millisecond_durations() {
    let p = whetstone::parse(&fixture("whetstone-fractional.txt")).unwrap();
    expect(
        &p,
        "whetstone/whetstone",
        "duration",
        4.25,
        unit::S,
        Lower,
        2,
    );
    expect(
        &p,
        "whetstone/whetstone",
        "whetstone",
        2352.9,
        unit::MIPS,
        Higher,
        3,
    );
    let p = whetstone::parse(&fixture("whetstone-msec.txt")).unwrap();
    expect(
        &p,
        "whetstone/whetstone",
        "duration",
        1.25,
        unit::S,
        Lower,
        1,
    );
    expect(
        &p,
        "whetstone/whetstone",
        "whetstone",
        800.0,
        unit::MIPS,
        Higher,
        2,
    );
}

#[test]
fn linpack_netlib_kflops() {
    let p = linpack::parse(&fixture("linpack-netlib.txt")).unwrap();
    // The last (longest) row of the table.
    expect(
        &p,
        "linpack/double",
        "linpack",
        732541.120,
        unit::KFLOPS,
        Higher,
        15,
    );
    assert_eq!(p.metrics.len(), 1);
}

#[test]
fn openssl_1_1_table_and_signatures() {
    let p = openssl::parse(&fixture("openssl1.1.1-speed.txt")).unwrap();
    expect(
        &p,
        "openssl/md5",
        "md5-16",
        27963.85,
        unit::KB_S,
        Higher,
        21,
    );
    expect(
        &p,
        "openssl/md5",
        "md5-16384",
        223466.84,
        unit::KB_S,
        Higher,
        21,
    );
    // 1.x writes `aes-128 cbc` with a space.
    expect(
        &p,
        "openssl/aes-128-cbc",
        "aes-128-cbc-256",
        37574.10,
        unit::KB_S,
        Higher,
        22,
    );
    expect(
        &p,
        "openssl/rsa2048",
        "rsa2048-sign",
        120.2,
        unit::SIGN_S,
        Higher,
        24,
    );
    expect(
        &p,
        "openssl/rsa2048",
        "rsa2048-verify",
        4071.2,
        unit::VERIFY_S,
        Higher,
        24,
    );
    assert_eq!(p.metrics.len(), 2 * 6 + 2);
    assert!(p.warnings.is_empty());
}

#[test]
fn netperf_classic_stream_with_cpu() {
    let p = netperf::parse(&fixture("netperf-tcp-stream-classic.txt")).unwrap();
    expect(
        &p,
        "netperf/tcp-stream",
        "throughput",
        941.41,
        unit::MBITS_S,
        Higher,
        7,
    );
    expect(
        &p,
        "netperf/tcp-stream",
        "local_cpu_util",
        23.48,
        unit::PERCENT,
        Lower,
        7,
    );
    // Remote CPU not measured (-1.00): no figure.
    assert_eq!(p.metrics.len(), 2);
}

#[test]
fn netperf_classic_request_response() {
    let p = netperf::parse(&fixture("netperf-tcp-rr-classic.txt")).unwrap();
    expect(
        &p,
        "netperf/tcp-rr",
        "throughput",
        8711.24,
        unit::TRANS_S,
        Higher,
        7,
    );
    assert_eq!(p.metrics.len(), 1);
}

#[test]
fn netperf_keyed_output() {
    let p = netperf::parse(&fixture("netperf-keyed.txt")).unwrap();
    expect(
        &p,
        "netperf/tcp-stream",
        "throughput",
        938.77,
        unit::MBITS_S,
        Higher,
        2,
    );
    expect(
        &p,
        "netperf/tcp-stream",
        "local_cpu_util",
        21.67,
        unit::PERCENT,
        Lower,
        4,
    );
    expect(
        &p,
        "netperf/tcp-stream",
        "mean_latency",
        139.42,
        unit::US,
        Lower,
        7,
    );
    expect(
        &p,
        "netperf/tcp-stream",
        "p99_latency",
        310.0,
        unit::US,
        Lower,
        8,
    );
    assert_eq!(p.metrics.len(), 6);
}

#[test]
fn iperf2_tcp_client() {
    let p = iperf2::parse(&fixture("iperf2-tcp-client.txt")).unwrap();
    // The whole-run interval `0.0- 3.0 sec`, not the per-second ones.
    expect(
        &p,
        "iperf2/tcp-tx",
        "bandwidth",
        939.0,
        unit::MBITS_S,
        Higher,
        10,
    );
    assert_eq!(p.metrics.len(), 1);
    assert!(p.warnings.is_empty());
}

#[test]
fn iperf2_1_udp_client_with_server_report() {
    let p = iperf2::parse(&fixture("iperf2.1-udp-client.txt")).unwrap();
    expect(
        &p,
        "iperf2/udp-tx",
        "bandwidth",
        1.05,
        unit::MBITS_S,
        Higher,
        8,
    );
    expect(&p, "iperf2/udp-tx", "jitter", 0.021, unit::MS, Lower, 12);
    expect(
        &p,
        "iperf2/udp-tx",
        "lost_percent",
        0.0,
        unit::PERCENT,
        Lower,
        12,
    );
}

#[test]
fn iperf3_udp_text() {
    let p = iperf3::parse(&fixture("iperf3-udp-text.txt")).unwrap();
    expect(
        &p,
        "iperf3/udp-tx",
        "sender",
        1.05,
        unit::MBITS_S,
        Higher,
        8,
    );
    expect(
        &p,
        "iperf3/udp-tx",
        "receiver",
        1.03,
        unit::MBITS_S,
        Higher,
        9,
    );
    expect(
        &p,
        "iperf3/udp-tx",
        "jitter-receiver",
        0.034,
        unit::MS,
        Lower,
        9,
    );
    expect(
        &p,
        "iperf3/udp-tx",
        "lost_percent-receiver",
        0.55,
        unit::PERCENT,
        Lower,
        9,
    );
}

#[test]
fn iperf3_tcp_json() {
    let p = iperf3::parse(&fixture("iperf3-tcp-json.txt")).unwrap();
    // bits_per_second / 1e6.
    expect_close(&p, "sender", 940.4847367, unit::MBITS_S);
    expect_close(&p, "receiver", 936.8304457, unit::MBITS_S);
    expect(
        &p,
        "iperf3/tcp-tx",
        "retransmits",
        3.0,
        unit::COUNT,
        Lower,
        93,
    );
    expect(
        &p,
        "iperf3/tcp-tx",
        "cpu_host",
        12.41,
        unit::PERCENT,
        Lower,
        110,
    );
    expect(
        &p,
        "iperf3/tcp-tx",
        "cpu_remote",
        3.87,
        unit::PERCENT,
        Lower,
        110,
    );
    assert_eq!(get(&p, "sender", 1).line, 93);
    assert_eq!(get(&p, "receiver", 1).line, 102);
}

#[test]
fn stress_ng_metrics_brief_info_and_metrc() {
    let p = stress_ng::parse(&fixture("stress-ng-metrics-brief-info.txt")).unwrap();
    expect(
        &p,
        "stress-ng/cpu",
        "bogo_ops",
        4836.0,
        unit::COUNT,
        Higher,
        6,
    );
    expect(
        &p,
        "stress-ng/cpu",
        "bogo_ops_per_sec_real",
        483.58,
        unit::BOGO_OPS_S,
        Higher,
        6,
    );
    expect(
        &p,
        "stress-ng/cpu",
        "bogo_ops_per_sec_usr_sys",
        121.32,
        unit::BOGO_OPS_S,
        Higher,
        6,
    );
    let p = stress_ng::parse(&fixture("stress-ng-metrics-brief-metrc.txt")).unwrap();
    expect(
        &p,
        "stress-ng/cpu",
        "bogo_ops_per_sec_real",
        241.87,
        unit::BOGO_OPS_S,
        Higher,
        5,
    );
    let vm = p
        .metrics
        .iter()
        .find(|m| m.benchmark == "stress-ng/vm" && m.metric == "bogo_ops_per_sec_real");
    assert_eq!(vm.map(|m| (m.value, m.line)), Some((30125.33, 6)));
    assert_eq!(p.metrics.len(), 6);
}

#[test]
fn stress_ng_yaml() {
    let p = stress_ng::parse(&fixture("stress-ng-yaml.txt")).unwrap();
    expect(
        &p,
        "stress-ng/cpu",
        "bogo_ops",
        4836.0,
        unit::COUNT,
        Higher,
        28,
    );
    expect(
        &p,
        "stress-ng/cpu",
        "bogo_ops_per_sec_usr_sys",
        121.324636,
        unit::BOGO_OPS_S,
        Higher,
        29,
    );
    expect(
        &p,
        "stress-ng/cpu",
        "bogo_ops_per_sec_real",
        483.582154,
        unit::BOGO_OPS_S,
        Higher,
        30,
    );
    assert_eq!(p.metrics.len(), 3);
}

#[test]
fn sysbench_cpu_memory_fileio() {
    let p = sysbench::parse(&fixture("sysbench-cpu.txt")).unwrap();
    expect(
        &p,
        "sysbench/cpu",
        "events_per_second",
        3786.42,
        unit::EVENTS_S,
        Higher,
        15,
    );
    expect(&p, "sysbench/cpu", "latency_avg", 1.06, unit::MS, Lower, 23);
    expect(&p, "sysbench/cpu", "latency_p95", 1.08, unit::MS, Lower, 25);
    let p = sysbench::parse(&fixture("sysbench-memory.txt")).unwrap();
    expect(
        &p,
        "sysbench/memory",
        "operations_per_second",
        5241734.48,
        unit::OPS_S,
        Higher,
        18,
    );
    expect(
        &p,
        "sysbench/memory",
        "transfer",
        5118.88,
        unit::MIB_S,
        Higher,
        20,
    );
    let p = sysbench::parse(&fixture("sysbench-fileio.txt")).unwrap();
    expect(
        &p,
        "sysbench/fileio",
        "reads_per_second",
        1234.56,
        unit::OPS_S,
        Higher,
        24,
    );
    expect(
        &p,
        "sysbench/fileio",
        "fsyncs_per_second",
        2634.21,
        unit::OPS_S,
        Higher,
        26,
    );
    expect(
        &p,
        "sysbench/fileio",
        "read",
        19.29,
        unit::MIB_S,
        Higher,
        29,
    );
    expect(
        &p,
        "sysbench/fileio",
        "written",
        12.86,
        unit::MIB_S,
        Higher,
        30,
    );
    expect(
        &p,
        "sysbench/fileio",
        "latency_max",
        27.13,
        unit::MS,
        Lower,
        39,
    );
    assert!(p.warnings.is_empty());
}

#[test]
fn mbw_averages() {
    let p = mbw::parse(&fixture("mbw.txt")).unwrap();
    expect(&p, "mbw/mbw", "memcpy", 2500.000, unit::MIB_S, Higher, 7);
    expect(&p, "mbw/mbw", "dumb", 1165.501, unit::MIB_S, Higher, 11);
    expect(&p, "mbw/mbw", "mcblock", 2564.103, unit::MIB_S, Higher, 15);
    assert_eq!(p.metrics.len(), 3);
    assert!(p.warnings.is_empty());
}

#[test]
fn fio_normal_output() {
    let p = fio::parse(&fixture("fio-seq-read.txt")).unwrap();
    let b = "fio/seq-read-1m";
    expect(&p, b, "read_iops", 84.0, unit::IOPS, Higher, 7);
    expect(&p, b, "read_bw", 84.2, unit::MIB_S, Higher, 7);
    expect(&p, b, "read_clat_avg", 11866.20, unit::US, Lower, 8);
    expect(&p, b, "read_lat_avg", 11868.02, unit::US, Lower, 9);
    assert_eq!(p.metrics.len(), 4);
}

#[test]
fn fio_json_output() {
    let p = fio::parse(&fixture("fio-randrw-json.txt")).unwrap();
    expect(
        &p,
        "fio/randrw-4k",
        "read_iops",
        1645.599609,
        unit::IOPS,
        Higher,
        8,
    );
    expect_close(&p, "read_bw", 6582.0 / 1024.0, unit::MIB_S);
    expect_close(&p, "read_clat_avg", 421.337512150, unit::US);
    expect(
        &p,
        "fio/randrw-4k",
        "write_iops",
        1631.199707,
        unit::IOPS,
        Higher,
        8,
    );
    expect_close(&p, "write_lat_avg", 185.190111574, unit::US);
    // trim did no I/O: no figures.
    assert!(p.metrics.iter().all(|m| !m.metric.starts_with("trim")));
    assert_eq!(p.metrics.len(), 8);
}

#[test]
fn cyclictest_per_thread() {
    let p = cyclictest::parse(&fixture("cyclictest.txt")).unwrap();
    let b = "cyclictest/cyclictest";
    expect(&p, b, "T0-min", 7.0, unit::US, Lower, 4);
    expect(&p, b, "T0-avg", 12.0, unit::US, Lower, 4);
    expect(&p, b, "T0-max", 58.0, unit::US, Lower, 4);
    expect(&p, b, "T3-max", 72.0, unit::US, Lower, 7);
    expect(&p, b, "max", 72.0, unit::US, Lower, 7);
    assert_eq!(p.metrics.len(), 4 * 3 + 1);
}

#[test]
fn cyclictest_refreshed_screen_keeps_the_last_report() {
    let text = "T: 0 ( 9) P:99 I:1000 C:   100 Min:  5 Act:  6 Avg:  6 Max:  9\r\x1b[1A\
                T: 0 ( 9) P:99 I:1000 C:   200 Min:  4 Act:  6 Avg:  7 Max: 15\n";
    let p = cyclictest::parse(text).unwrap();
    assert_eq!(get(&p, "T0-min", 1).value, 4.0);
    assert_eq!(get(&p, "T0-max", 1).value, 15.0);
}

#[test]
fn sevenzip_benchmark() {
    let p = sevenzip::parse(&fixture("7z-b.txt")).unwrap();
    let b = "7zip/b";
    expect(&p, b, "compressing_rating", 2480.0, unit::MIPS, Higher, 20);
    expect(
        &p,
        b,
        "decompressing_rating",
        5525.0,
        unit::MIPS,
        Higher,
        20,
    );
    expect(&p, b, "total_rating", 4002.0, unit::MIPS, Higher, 21);
    expect(
        &p,
        b,
        "compressing_rating-22",
        2351.0,
        unit::MIPS,
        Higher,
        15,
    );
    expect(
        &p,
        b,
        "decompressing_rating-25",
        5455.0,
        unit::MIPS,
        Higher,
        18,
    );
    assert_eq!(p.metrics.len(), 4 * 2 + 3);
    assert!(p.warnings.is_empty());
}

#[test]
fn records_serialise_as_the_v1_schema() {
    let p = stress_ng::parse(&fixture("stress-ng-yaml.txt")).unwrap();
    let m = get(&p, "bogo_ops_per_sec_real", 1);
    let json = serde_json::to_value(m.record("bench.log")).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "schema": "perfguide/bench/v1",
            "benchmark": "stress-ng/cpu",
            "metric": "bogo_ops_per_sec_real",
            "value": 483.582154,
            "unit": "bogo ops/s",
            "better": "higher",
            "run": 1,
            "source": "bench.log",
            "line": 30
        })
    );
}
