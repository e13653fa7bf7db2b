//! Output as a serial console delivers it: `\r\n` line ends and kernel
//! messages interleaved with the benchmark's lines. The figures stay the
//! same; their line numbers follow the input.

mod common;

use bench_parser::TOOLS;
use common::all_samples;

const KERNEL: &str = "[   42.123456] usb 1-1: new high-speed USB device number 2 using xhci-hcd";

/// (benchmark, metric, run, value) of every figure, for comparing parses.
fn figures(text: &str, tool: &str) -> Vec<(String, String, u32, f64)> {
    let tool = TOOLS.iter().find(|t| t.name == tool).unwrap();
    (tool.parse)(text)
        .unwrap()
        .metrics
        .into_iter()
        .map(|m| (m.benchmark, m.metric, m.run, m.value))
        .collect()
}

#[test]
fn crlf_line_ends_give_the_same_figures_and_lines() {
    for (name, text) in all_samples() {
        let Some(tool) = bench_parser::detect(&text) else {
            continue;
        };
        let crlf = text.replace('\n', "\r\n");
        let plain = (tool.parse)(&text).unwrap();
        let converted = (tool.parse)(&crlf).unwrap();
        assert_eq!(plain.metrics, converted.metrics, "{name}");
    }
}

#[test]
fn interleaved_kernel_lines_keep_the_figures() {
    // Text formats: a kernel line after every fourth line.
    let samples = [
        ("stream-5.10-oci-epyc9654-nps1-nps4.log", "stream"),
        ("iperf3-gbe-client-complete-sender-receiver.log", "iperf3"),
        ("coremark-mcu-gcc5.2-o3-stack.log", "coremark"),
        ("dhrystone-leon3-sparc-grmon2-50mhz.log", "dhrystone"),
        (
            "openssl3.0.11-speed-elapsed-evp-rk3328-eaidk310.log",
            "openssl",
        ),
        (
            "lmbench3-individual-cmds-bw_tcp-lat_syscall-lat_ctx.log",
            "lmbench",
        ),
        ("linpack-rtems-rpi4-aarch64-rolled-double.log", "linpack"),
    ];
    for (file, tool) in samples {
        let text = common::corpus(file);
        let mut noisy = String::new();
        for (i, line) in text.split_inclusive('\n').enumerate() {
            noisy.push_str(line);
            if i % 4 == 3 {
                noisy.push_str(KERNEL);
                noisy.push('\n');
            }
        }
        assert_eq!(figures(&text, tool), figures(&noisy, tool), "{file}");
    }
}
