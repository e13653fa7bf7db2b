//! Every parser on the fixtures of tools without a corpus sample (and on
//! formats the corpus lacks), figures checked by hand against each file.

mod common;

use bench_parser::model::unit;
use bench_parser::tools::{
    coremark, coremark_pro, cyclictest, dhrystone, fio, iperf2, iperf3, linpack, lmbench, mbw,
    netperf, openssl, sevenzip, stress_ng, sysbench, whetstone,
};
use common::{expect_close, figures, fixture, get};

#[test]
fn lmbench_single_tools() {
    let p = lmbench::parse(&fixture("lmbench-single-tools.txt")).unwrap();
    // bw_mem prints `<MB> <MB/s>`: the op and size come from the command line.
    figures(
        &p,
        &[
            "lmbench/bw_mem-rd-1mb | bw_mem-rd-1mb | 5273.84 | MB/s | higher | 2",
            "lmbench/bw_mem-wr-8mb | bw_mem-wr-8mb | 3105.67 | MB/s | higher | 4",
            "lmbench/bw_file_rd-io-1mb | bw_file_rd-io-1mb | 2211.35 | MB/s | higher | 6",
            "lmbench/bw_mmap_rd-mo-1mb | bw_mmap_rd-mo-1mb | 6689.02 | MB/s | higher | 8",
            "lmbench/bw_unix | bw_unix | 1203.56 | MB/s | higher | 10",
            "lmbench/lat_sig-install | lat_sig-install | 0.4412 | us | lower | 12",
            "lmbench/lat_sig-catch | lat_sig-catch | 2.7011 | us | lower | 14",
            "lmbench/lat_proc-fork | lat_proc-fork | 285.3333 | us | lower | 16",
            "lmbench/lat_proc-exec | lat_proc-exec | 902.5 | us | lower | 18",
            "lmbench/lat_pipe | lat_pipe | 14.1856 | us | lower | 20",
            "lmbench/lat_unix | lat_unix | 17.5520 | us | lower | 22",
            "lmbench/lat_tcp | lat_tcp | 38.3914 | us | lower | 24",
            "lmbench/lat_select-100 | lat_select-100 | 4.8021 | us | lower | 26",
            "lmbench/lat_mmap-1m | lat_mmap-1m | 39.0 | us | lower | 28",
        ],
    );
    figures(
        &p,
        &[
            "lmbench/lat_mem_rd-stride128 | lat_mem_rd-stride128-0.5k | 1.669 | ns | lower | 31",
            "lmbench/lat_mem_rd-stride128 | lat_mem_rd-stride128-32k | 6.678 | ns | lower | 34",
            "lmbench/lat_mem_rd-stride128 | lat_mem_rd-stride128-1024k | 95.142 | ns | lower | 36",
            "lmbench/lat_fs | lat_fs-create-0k | 40779.0 | files/s | higher | 39",
            "lmbench/lat_fs | lat_fs-delete-10k | 48127.0 | files/s | higher | 42",
            "lmbench/lat_ops | lat_ops-integer-add | 0.21 | ns | lower | 45",
            "lmbench/lat_ops | lat_ops-double-mul | 1.67 | ns | lower | 46",
        ],
    );
    assert_eq!(p.metrics.len(), 31);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
}

#[test]
fn lmbench_results_file() {
    let p = lmbench::parse(&fixture("lmbench3-results-file.txt")).unwrap();
    figures(
        &p,
        &[
            "lmbench/lat_syscall-null | lat_syscall-null | 0.3086 | us | lower | 37",
            "lmbench/lat_syscall-open | lat_syscall-open | 7.7418 | us | lower | 42",
            "lmbench/lat_select-10 | lat_select-10 | 1.0117 | us | lower | 43",
            "lmbench/lat_sig-prot | lat_sig-prot | 0.8148 | us | lower | 47",
            "lmbench/lat_proc-shell | lat_proc-shell | 2813.0 | us | lower | 52",
            "lmbench/lat_pagefault | lat_pagefault | 0.5861 | us | lower | 54",
            "lmbench/lat_mmap-512k | lat_mmap-512k | 21.0 | us | lower | 57",
            "lmbench/lat_udp | lat_udp | 31.9102 | us | lower | 65",
            "lmbench/lat_connect | lat_connect | 81.3906 | us | lower | 67",
            "lmbench/bw_tcp-64b | bw_tcp-64b | 6.89 | MB/s | higher | 71",
            "lmbench/bw_pipe | bw_pipe | 823.90 | MB/s | higher | 74",
            "lmbench/bw_file_rd-io-1mb | bw_file_rd-io-1mb | 2213.60 | MB/s | higher | 79",
            "lmbench/bw_file_rd-o2c-512b | bw_file_rd-o2c-512b | 81.60 | MB/s | higher | 82",
            "lmbench/bw_mmap_rd-o2c-1mb | bw_mmap_rd-o2c-1mb | 1177.27 | MB/s | higher | 91",
            "lmbench/bw_mem-bcopy-1mb | bw_mem-bcopy-1mb | 2903.11 | MB/s | higher | 95",
            "lmbench/bw_mem-frd-1mb | bw_mem-frd-1mb | 5263.33 | MB/s | higher | 103",
            "lmbench/bw_mem-fwr-512b | bw_mem-fwr-512b | 11738.07 | MB/s | higher | 106",
            "lmbench/lat_ctx-2-0k | lat_ctx-2-0k | 6.71 | us | lower | 110",
            "lmbench/lat_ctx-4-16k | lat_ctx-4-16k | 8.01 | us | lower | 116",
            "lmbench/lat_mem_rd-stride16 | lat_mem_rd-stride16-1024k | 4.113 | ns | lower | 122",
            "lmbench/lat_mem_rd-stride32 | lat_mem_rd-stride32-0.5k | 2.146 | ns | lower | 125",
        ],
    );
    assert_eq!(p.metrics.len(), 58);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
}

#[test]
fn coremark_k_ticks_and_abbreviated_report() {
    let p = coremark::parse(&fixture("coremark-k-ticks-abbreviated.txt")).unwrap();
    figures(
        &p,
        &[
            "coremark/coremark | total_ticks | 12000.0 | ticks | lower | 3",
            "coremark/coremark | iterations_per_sec | 2500.0 | iterations/s | higher | 5",
        ],
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
    figures(
        &p,
        &[
            "coremark-pro/cjpeg-rose7-preset | cjpeg-rose7-preset | 82.6515 | workloads/s | higher | 8",
        ],
    );
    figures(
        &p,
        &[
            "coremark-pro/linear_alg-mid-100x100-sp | linear_alg-mid-100x100-sp | 16.301 | workloads/s | higher | 17",
        ],
    );
    assert_eq!(p.metrics.len(), 2);
    assert!(p.warnings.is_empty());
}

#[test]
fn coremark_pro_certify_all_tables() {
    let p = coremark_pro::parse(&fixture("coremark-pro-certify-all.txt")).unwrap();
    figures(
        &p,
        &[
            "coremark-pro/CoreMark-PRO | CoreMark-PRO-multicore | 3093.01 | score | higher | 20",
            "coremark-pro/CoreMark-PRO | CoreMark-PRO-singlecore | 865.78 | score | higher | 20",
            "coremark-pro/CoreMark-PRO | CoreMark-PRO-scaling | 3.57 | x | higher | 20",
            "coremark-pro/zip-test | zip-test-multicore | 153.85 | iterations/s | higher | 14",
            "coremark-pro/core | core-singlecore | 0.69 | iterations/s | higher | 7",
        ],
    );
    assert_eq!(p.metrics.len(), 10 * 3);
    assert!(p.warnings.is_empty());
}

#[test]
fn whetstone_fractional_and_millisecond_durations() {
    let p = whetstone::parse(&fixture("whetstone-fractional.txt")).unwrap();
    figures(
        &p,
        &[
            "whetstone/whetstone | duration | 4.25 | s | lower | 2",
            "whetstone/whetstone | whetstone | 2352.9 | MIPS | higher | 3",
        ],
    );
    let p = whetstone::parse(&fixture("whetstone-msec.txt")).unwrap();
    figures(
        &p,
        &[
            "whetstone/whetstone | duration | 1.25 | s | lower | 1",
            "whetstone/whetstone | whetstone | 800.0 | MIPS | higher | 2",
        ],
    );
}

#[test]
fn linpack_netlib_kflops() {
    let p = linpack::parse(&fixture("linpack-netlib.txt")).unwrap();
    // The last (longest) row of the table.
    figures(
        &p,
        &["linpack/double | linpack | 732541.120 | Kflops | higher | 15"],
    );
    assert_eq!(p.metrics.len(), 1);
}

#[test]
fn openssl_1_1_table_and_signatures() {
    let p = openssl::parse(&fixture("openssl1.1.1-speed.txt")).unwrap();
    figures(
        &p,
        &[
            "openssl/md5 | md5-16 | 27963.85 | kB/s | higher | 21",
            "openssl/md5 | md5-16384 | 223466.84 | kB/s | higher | 21",
        ],
    );
    // 1.x writes `aes-128 cbc` with a space.
    figures(
        &p,
        &[
            "openssl/aes-128-cbc | aes-128-cbc-256 | 37574.10 | kB/s | higher | 22",
            "openssl/rsa2048 | rsa2048-sign | 120.2 | sign/s | higher | 24",
            "openssl/rsa2048 | rsa2048-verify | 4071.2 | verify/s | higher | 24",
        ],
    );
    assert_eq!(p.metrics.len(), 2 * 6 + 2);
    assert!(p.warnings.is_empty());
}

#[test]
fn netperf_classic_stream_with_cpu() {
    let p = netperf::parse(&fixture("netperf-tcp-stream-classic.txt")).unwrap();
    figures(
        &p,
        &[
            "netperf/tcp-stream | throughput | 941.41 | Mbits/sec | higher | 7",
            "netperf/tcp-stream | local_cpu_util | 23.48 | % | lower | 7",
        ],
    );
    // Remote CPU not measured (-1.00): no figure.
    assert_eq!(p.metrics.len(), 2);
}

#[test]
fn netperf_classic_request_response() {
    let p = netperf::parse(&fixture("netperf-tcp-rr-classic.txt")).unwrap();
    figures(
        &p,
        &["netperf/tcp-rr | throughput | 8711.24 | trans/s | higher | 7"],
    );
    assert_eq!(p.metrics.len(), 1);
}

#[test]
fn netperf_keyed_output() {
    let p = netperf::parse(&fixture("netperf-keyed.txt")).unwrap();
    figures(
        &p,
        &[
            "netperf/tcp-stream | throughput | 938.77 | Mbits/sec | higher | 2",
            "netperf/tcp-stream | local_cpu_util | 21.67 | % | lower | 4",
            "netperf/tcp-stream | mean_latency | 139.42 | us | lower | 7",
            "netperf/tcp-stream | p99_latency | 310.0 | us | lower | 8",
        ],
    );
    assert_eq!(p.metrics.len(), 6);
}

#[test]
fn iperf2_tcp_client() {
    let p = iperf2::parse(&fixture("iperf2-tcp-client.txt")).unwrap();
    // The whole-run interval `0.0- 3.0 sec`, not the per-second ones.
    figures(
        &p,
        &["iperf2/tcp-tx | bandwidth | 939.0 | Mbits/sec | higher | 10"],
    );
    assert_eq!(p.metrics.len(), 1);
    assert!(p.warnings.is_empty());
}

#[test]
fn iperf2_1_udp_client_with_server_report() {
    let p = iperf2::parse(&fixture("iperf2.1-udp-client.txt")).unwrap();
    figures(
        &p,
        &[
            "iperf2/udp-tx | bandwidth | 1.05 | Mbits/sec | higher | 8",
            "iperf2/udp-tx | jitter | 0.021 | ms | lower | 12",
            "iperf2/udp-tx | lost_percent | 0.0 | % | lower | 12",
        ],
    );
}

#[test]
fn iperf3_udp_text() {
    let p = iperf3::parse(&fixture("iperf3-udp-text.txt")).unwrap();
    figures(
        &p,
        &[
            "iperf3/udp-tx | sender | 1.05 | Mbits/sec | higher | 8",
            "iperf3/udp-tx | receiver | 1.03 | Mbits/sec | higher | 9",
            "iperf3/udp-tx | jitter-receiver | 0.034 | ms | lower | 9",
            "iperf3/udp-tx | lost_percent-receiver | 0.55 | % | lower | 9",
        ],
    );
}

#[test]
fn iperf3_tcp_json() {
    let p = iperf3::parse(&fixture("iperf3-tcp-json.txt")).unwrap();
    // bits_per_second / 1e6.
    expect_close(&p, "sender", 940.4847367, unit::MBITS_S);
    expect_close(&p, "receiver", 936.8304457, unit::MBITS_S);
    figures(
        &p,
        &[
            "iperf3/tcp-tx | retransmits | 3.0 | count | lower | 93",
            "iperf3/tcp-tx | cpu_host | 12.41 | % | lower | 110",
            "iperf3/tcp-tx | cpu_remote | 3.87 | % | lower | 110",
        ],
    );
    assert_eq!(get(&p, "sender", 1).line, 93);
    assert_eq!(get(&p, "receiver", 1).line, 102);
}

#[test]
fn stress_ng_metrics_brief_info_and_metrc() {
    let p = stress_ng::parse(&fixture("stress-ng-metrics-brief-info.txt")).unwrap();
    figures(
        &p,
        &[
            "stress-ng/cpu | bogo_ops | 4836.0 | count | higher | 6",
            "stress-ng/cpu | bogo_ops_per_sec_real | 483.58 | bogo ops/s | higher | 6",
            "stress-ng/cpu | bogo_ops_per_sec_usr_sys | 121.32 | bogo ops/s | higher | 6",
        ],
    );
    let p = stress_ng::parse(&fixture("stress-ng-metrics-brief-metrc.txt")).unwrap();
    figures(
        &p,
        &["stress-ng/cpu | bogo_ops_per_sec_real | 241.87 | bogo ops/s | higher | 5"],
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
    figures(
        &p,
        &[
            "stress-ng/cpu | bogo_ops | 4836.0 | count | higher | 28",
            "stress-ng/cpu | bogo_ops_per_sec_usr_sys | 121.324636 | bogo ops/s | higher | 29",
            "stress-ng/cpu | bogo_ops_per_sec_real | 483.582154 | bogo ops/s | higher | 30",
        ],
    );
    assert_eq!(p.metrics.len(), 3);
}

#[test]
fn sysbench_cpu_memory_fileio() {
    let p = sysbench::parse(&fixture("sysbench-cpu.txt")).unwrap();
    figures(
        &p,
        &[
            "sysbench/cpu | events_per_second | 3786.42 | events/s | higher | 15",
            "sysbench/cpu | latency_avg | 1.06 | ms | lower | 23",
            "sysbench/cpu | latency_p95 | 1.08 | ms | lower | 25",
        ],
    );
    let p = sysbench::parse(&fixture("sysbench-memory.txt")).unwrap();
    figures(
        &p,
        &[
            "sysbench/memory | operations_per_second | 5241734.48 | ops/s | higher | 18",
            "sysbench/memory | transfer | 5118.88 | MiB/s | higher | 20",
        ],
    );
    let p = sysbench::parse(&fixture("sysbench-fileio.txt")).unwrap();
    figures(
        &p,
        &[
            "sysbench/fileio | reads_per_second | 1234.56 | ops/s | higher | 24",
            "sysbench/fileio | fsyncs_per_second | 2634.21 | ops/s | higher | 26",
            "sysbench/fileio | read | 19.29 | MiB/s | higher | 29",
            "sysbench/fileio | written | 12.86 | MiB/s | higher | 30",
            "sysbench/fileio | latency_max | 27.13 | ms | lower | 39",
        ],
    );
    assert!(p.warnings.is_empty());
}

#[test]
fn mbw_averages() {
    let p = mbw::parse(&fixture("mbw.txt")).unwrap();
    figures(
        &p,
        &[
            "mbw/mbw | memcpy | 2500.000 | MiB/s | higher | 7",
            "mbw/mbw | dumb | 1165.501 | MiB/s | higher | 11",
            "mbw/mbw | mcblock | 2564.103 | MiB/s | higher | 15",
        ],
    );
    assert_eq!(p.metrics.len(), 3);
    assert!(p.warnings.is_empty());
}

#[test]
fn fio_normal_output() {
    let p = fio::parse(&fixture("fio-seq-read.txt")).unwrap();
    figures(
        &p,
        &[
            "fio/seq-read-1m | read_iops | 84.0 | IOPS | higher | 7",
            "fio/seq-read-1m | read_bw | 84.2 | MiB/s | higher | 7",
            "fio/seq-read-1m | read_clat_avg | 11866.20 | us | lower | 8",
            "fio/seq-read-1m | read_lat_avg | 11868.02 | us | lower | 9",
        ],
    );
    assert_eq!(p.metrics.len(), 4);
}

#[test]
fn fio_json_output() {
    let p = fio::parse(&fixture("fio-randrw-json.txt")).unwrap();
    figures(
        &p,
        &["fio/randrw-4k | read_iops | 1645.599609 | IOPS | higher | 8"],
    );
    expect_close(&p, "read_bw", 6582.0 / 1024.0, unit::MIB_S);
    expect_close(&p, "read_clat_avg", 421.337512150, unit::US);
    figures(
        &p,
        &["fio/randrw-4k | write_iops | 1631.199707 | IOPS | higher | 8"],
    );
    expect_close(&p, "write_lat_avg", 185.190111574, unit::US);
    // trim did no I/O: no figures.
    assert!(p.metrics.iter().all(|m| !m.metric.starts_with("trim")));
    assert_eq!(p.metrics.len(), 8);
}

#[test]
fn fio_json_output_of_the_qemu_board() {
    // Real fio 3.33 (the image's static build) on the QEMU board's scratch partition:
    // `--rw=randrw --bs=4k --size=16M --ioengine=psync --direct=1 --output-format=json`.
    let p = fio::parse(&fixture("fio-randrw-json-qemu.txt")).unwrap();
    figures(
        &p,
        &[
            "fio/randrw | read_iops | 1440.347072 | IOPS | higher | 8",
            "fio/randrw | write_iops | 1521.330441 | IOPS | higher | 8",
        ],
    );
    // `"bw" : 5761` and `6085` KiB/s; `clat_ns` and `lat_ns` means in ns.
    expect_close(&p, "read_bw", 5761.0 / 1024.0, unit::MIB_S);
    expect_close(&p, "write_bw", 6085.0 / 1024.0, unit::MIB_S);
    expect_close(&p, "read_clat_avg", 308.755433735, unit::US);
    expect_close(&p, "read_lat_avg", 310.834493474, unit::US);
    expect_close(&p, "write_clat_avg", 324.195579373, unit::US);
    expect_close(&p, "write_lat_avg", 326.887850760, unit::US);
    // trim did no I/O; `disk_util` is no job's figure.
    assert_eq!(p.metrics.len(), 8);
}

#[test]
fn cyclictest_per_thread() {
    let p = cyclictest::parse(&fixture("cyclictest.txt")).unwrap();
    figures(
        &p,
        &[
            "cyclictest/cyclictest | T0-min | 7.0 | us | lower | 4",
            "cyclictest/cyclictest | T0-avg | 12.0 | us | lower | 4",
            "cyclictest/cyclictest | T0-max | 58.0 | us | lower | 4",
            "cyclictest/cyclictest | T3-max | 72.0 | us | lower | 7",
            "cyclictest/cyclictest | max | 72.0 | us | lower | 7",
        ],
    );
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
    figures(
        &p,
        &[
            "7zip/b | compressing_rating | 2480.0 | MIPS | higher | 20",
            "7zip/b | decompressing_rating | 5525.0 | MIPS | higher | 20",
            "7zip/b | total_rating | 4002.0 | MIPS | higher | 21",
            "7zip/b | compressing_rating-22 | 2351.0 | MIPS | higher | 15",
            "7zip/b | decompressing_rating-25 | 5455.0 | MIPS | higher | 18",
        ],
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

#[test]
fn whetstone_kips_below_one_mips() {
    let text = "Loops: 100, Iterations: 1, Duration: 2 sec.\n\
                C Converted Double Precision Whetstones: 500.0 KIPS\n";
    let p = whetstone::parse(text).unwrap();
    figures(
        &p,
        &["whetstone/whetstone | whetstone | 0.5 | MIPS | higher | 2"],
    );
}

#[test]
fn iperf3_byte_units() {
    let text = "[ ID] Interval           Transfer     Bandwidth\n\
                [  4]   0.00-10.00  sec  1.10 GBytes   113 MBytes/sec                  sender\n\
                [  4]   0.00-10.00  sec  1.10 GBytes   113 MBytes/sec                  receiver\n";
    let p = iperf3::parse(text).unwrap();
    figures(
        &p,
        &["iperf3/tcp-tx | sender | 904 | Mbits/sec | higher | 2"],
    );
}

#[test]
fn cyclictest_two_digit_thread_and_wide_max() {
    let text = "T:10 ( 1520) P:80 I:1000 C:   1000 Min:      6 Act:    9 Avg:   10 Max:12345678\n";
    let p = cyclictest::parse(text).unwrap();
    figures(
        &p,
        &[
            "cyclictest/cyclictest | T10-min | 6 | us | lower | 1",
            "cyclictest/cyclictest | T10-max | 12345678 | us | lower | 1",
        ],
    );
}

#[test]
fn coremark_per_mhz_line() {
    // As the wm_iot_sdk CoreMark port prints it after the report.
    let text = "Iterations/Sec   : 639.658209\n\
                CoreMark 1.0 : 639.658209 / GCC6.3.0  / STACK\n\
                Score (Coremarks/MHz):   2.67\n";
    let p = coremark::parse(text).unwrap();
    figures(
        &p,
        &[
            "coremark/coremark | iterations_per_sec | 639.658209 | iterations/s | higher | 1",
            "coremark/coremark | coremark_per_mhz | 2.67 | CoreMark/MHz | higher | 3",
        ],
    );
    assert_eq!(p.metrics.len(), 2);
}

#[test]
fn dhrystone_printed_dmips_per_mhz() {
    let text = "Execution starts, 2000000 runs through Dhrystone\n\
                Dhrystones per Second:                      3125000.0\n\
                DMIPS: 1778.6\n\
                DMIPS/MHz: 1.78\n";
    let p = dhrystone::parse(text).unwrap();
    figures(
        &p,
        &[
            "dhrystone/dhrystone | dmips | 1778.6 | DMIPS | higher | 3",
            "dhrystone/dhrystone | dhrystone_per_mhz | 1.78 | DMIPS/MHz | higher | 4",
        ],
    );
    assert_eq!(p.metrics.len(), 3);
    // The printed figure stands; the clock adds nothing.
    assert_eq!(dhrystone::with_clock(p, 1000.0).metrics.len(), 3);
}
