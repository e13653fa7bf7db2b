//! Content detection, `NotRecognised` for another tool's output, and the
//! registry's look-ups.

mod common;

use bench_parser::{by_name, detect, parse_auto, Error, TOOLS};
use common::all_samples;

/// The tools whose output a sample holds, from its file name.
fn tools_of(name: &str) -> &'static [&'static str] {
    const TABLE: &[(&str, &[&str])] = &[
        ("forlinx", &["coremark", "dhrystone"]),
        ("coremark-pro", &["coremark-pro"]),
        ("coremark", &["coremark"]),
        ("dhrystone", &["dhrystone"]),
        ("whetstone", &["whetstone"]),
        ("linpack", &["linpack"]),
        ("stream-", &["stream"]),
        ("lmbench", &["lmbench"]),
        ("openssl", &["openssl"]),
        ("iperf3", &["iperf3"]),
        ("iperf2", &["iperf2"]),
        ("netperf", &["netperf"]),
        ("stress-ng", &["stress-ng"]),
        ("sysbench", &["sysbench"]),
        ("mbw", &["mbw"]),
        ("fio", &["fio"]),
        ("cyclictest", &["cyclictest"]),
        ("7z", &["7zip"]),
    ];
    TABLE
        .iter()
        .find(|(p, _)| name.starts_with(p))
        .map(|(_, t)| *t)
        .unwrap_or_else(|| panic!("no tool listed for sample {name}"))
}

#[test]
fn every_sample_is_detected_as_its_tool() {
    for (name, text) in all_samples() {
        let found = detect(&text).map(|t| t.name);
        assert_eq!(found, Some(tools_of(&name)[0]), "{name}");
    }
}

#[test]
fn every_tool_has_a_sample() {
    let samples = all_samples();
    for tool in TOOLS {
        assert!(
            samples
                .iter()
                .any(|(n, _)| tools_of(n).contains(&tool.name)),
            "no sample of {}",
            tool.name
        );
    }
}

#[test]
fn another_tools_output_is_not_recognised() {
    for (name, text) in all_samples() {
        let first = text
            .split('\n')
            .position(|l| !l.trim().is_empty())
            .map_or(1, |i| i as u64 + 1);
        for tool in TOOLS {
            let result = (tool.parse)(&text);
            if tools_of(&name).contains(&tool.name) {
                assert!(result.is_ok(), "{} on {name}: {result:?}", tool.name);
            } else {
                assert_eq!(
                    result.unwrap_err(),
                    Error::NotRecognised {
                        tool: tool.name,
                        line: first
                    },
                    "{} on {name}",
                    tool.name
                );
            }
        }
    }
}

#[test]
fn not_recognised_names_the_first_non_blank_line() {
    let err = (by_name("stream").unwrap().parse)("\n  \nhello\n").unwrap_err();
    assert_eq!(
        err,
        Error::NotRecognised {
            tool: "stream",
            line: 3
        }
    );
    assert_eq!(err.to_string(), "stream: output not recognised (line 3)");
}

#[test]
fn registry_lookups() {
    assert_eq!(by_name("iperf3").unwrap().name, "iperf3");
    assert_eq!(
        by_name("nope").unwrap_err(),
        Error::UnknownTool("nope".into())
    );
    assert!(detect("").is_none());
    assert_eq!(
        parse_auto("\nno benchmark here\n").unwrap_err(),
        Error::Undetected { line: 2 }
    );
    let names: Vec<&str> = TOOLS.iter().map(|t| t.name).collect();
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "tool names are unique");
}

#[test]
fn parse_auto_picks_the_tool() {
    for (name, text) in all_samples() {
        let (tool, parsed) = parse_auto(&text).unwrap();
        assert_eq!(tool.name, tools_of(&name)[0], "{name}");
        assert!(!parsed.metrics.is_empty());
    }
}
