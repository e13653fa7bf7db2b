//! Fidelity on small logs written from what real boards print: line numbers after lines
//! longer than the splitter keeps.

use bootlog_parser::model::Boot;
use bootlog_parser::{parse_bytes, BoardProfile, Parser, StageId};

fn parse(bytes: &[u8]) -> Vec<Boot> {
    parse_bytes(bytes, &BoardProfile::generic())
}

/// The 1-based number of the line of `log` that holds `needle` (its first occurrence),
/// counted with `\n` as the file has them.
fn line_no(log: &[u8], needle: &str) -> u64 {
    let at = log
        .windows(needle.len())
        .position(|w| w == needle.as_bytes())
        .unwrap_or_else(|| panic!("{needle:?} not in the log"));
    1 + log[..at].iter().filter(|&&c| c == b'\n').count() as u64
}

/// A log with lines of 20 KiB, 70 KiB and 1 MiB (a progress bar of `#` that never broke its
/// line) between its stages: each counts as one line, so every later stage, mark and error
/// points at the file's line, whole or chunked as `perfguide parse` feeds it.
#[test]
fn lines_after_long_lines_keep_the_file_numbers() {
    let mut log = Vec::new();
    log.extend_from_slice(b"U-Boot SPL 2023.04 (Apr 04 2023 - 12:00:00 +0000)\n");
    log.extend_from_slice(b"Trying to boot from MMC1\n");
    log.extend(std::iter::repeat(b'#').take(20 * 1024));
    log.push(b'\n');
    log.extend_from_slice(b"U-Boot 2023.04 (Apr 04 2023 - 12:00:00 +0000)\n");
    log.extend_from_slice(b"Loading Environment from MMC... OK\n");
    log.extend(std::iter::repeat(b'#').take(1 << 20));
    log.extend_from_slice(b"\r\n");
    log.extend_from_slice(b"Hit any key to stop autoboot:  0\n");
    log.extend(std::iter::repeat(b'#').take(70 * 1024));
    log.push(b'\n');
    log.extend_from_slice(b"### ERROR ### Please RESET the board ###\n");
    log.extend_from_slice(b"Starting kernel ...\n\n");
    log.extend_from_slice(b"[    0.000000] Booting Linux on physical CPU 0x0\n");
    log.extend_from_slice(b"[    1.796412] Run /sbin/init as init process\n");
    log.extend_from_slice(b"buildroot login: \n");
    let lines = log.iter().filter(|&&c| c == b'\n').count() as u64;

    let whole = parse(&log);
    assert_eq!(whole.len(), 1);
    let b = &whole[0];
    assert_eq!(b.lines, (1, lines));
    let at = |s: &str| line_no(&log, s);
    let stage_lines: Vec<(StageId, Option<u64>)> =
        b.stages.iter().map(|s| (s.id, s.line)).collect();
    assert_eq!(
        stage_lines,
        [
            (StageId::ASpl, Some(1)),
            (StageId::Uboot, Some(at("U-Boot 2023.04"))),
            (StageId::Kernel, Some(at("Starting kernel"))),
            (StageId::Userspace, Some(at("Run /sbin/init"))),
        ]
    );
    assert_eq!(b.mark("autoboot").map(|m| m.line), Some(at("Hit any key")));
    assert_eq!(
        b.mark("linux_booting").map(|m| m.line),
        Some(at("Booting Linux"))
    );
    assert_eq!(b.mark("ready").map(|m| m.line), Some(lines));
    let error = format!("line {}: ### ERROR ###", at("### ERROR"));
    assert!(
        b.errors.iter().any(|e| e.starts_with(&error)),
        "{:?}",
        b.errors
    );
    // One warning for each line over the limit (1 MiB and 70 KiB), at its own number.
    let cut: Vec<&String> = b
        .warnings
        .iter()
        .filter(|w| w.contains("longer than"))
        .collect();
    assert_eq!(cut.len(), 2, "{cut:?}");
    assert!(
        cut[0].starts_with(&format!("line {} ", at("Loading Environment") + 1)),
        "{cut:?}"
    );
    assert!(
        cut[1].starts_with(&format!("line {} ", at("Hit any key") + 1)),
        "{cut:?}"
    );

    // Fed in pieces, as `perfguide parse` does (64 KiB) and smaller: the same boot.
    for chunk in [4096, 1 << 16, 100_003] {
        let mut p = Parser::new(&BoardProfile::generic());
        let mut got = Vec::new();
        for c in log.chunks(chunk) {
            p.feed(c);
            got.extend(p.take_boots());
        }
        got.extend(p.finish());
        assert_eq!(got, whole, "chunks of {chunk}");
    }
}
