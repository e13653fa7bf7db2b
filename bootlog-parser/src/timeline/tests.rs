use super::assemble::*;
use super::builder::*;
use super::dispatch::*;
use super::recycle::*;
use super::*;
use crate::board::BoardProfile;
use crate::hoststamp::{self, HostScale, Layer};
use crate::model::*;
use crate::{ascii, linux, needles, systemd, uboot};
use std::borrow::Cow;
use std::collections::BTreeMap;

fn parse(s: &str) -> Vec<Boot> {
    parse_bytes(s.as_bytes(), &BoardProfile::generic())
}

#[test]
fn stages_on_the_host_clock() {
    let log = "[0.100000 0.100000] U-Boot SPL 2024.01 (x)\n[0.500000 0.400000] U-Boot 2024.01 (x)\n[2.000000 1.5] Starting kernel ...\n[2.500000 0.5] [    0.000000] Booting Linux on physical CPU 0x0\n[4.000000 1.5] [    1.400000] Run /init as init process\n[5.000000 1.0] qemu login: \n";
    let b = parse(log);
    assert_eq!(b.len(), 1);
    let b = &b[0];
    assert!(b.complete);
    let ids: Vec<_> = b.stages.iter().map(|s| s.id).collect();
    assert_eq!(
        ids,
        [
            StageId::ASpl,
            StageId::Uboot,
            StageId::Kernel,
            StageId::Userspace
        ]
    );
    let u = b.stage(StageId::Uboot).unwrap();
    assert_eq!(
        (u.start_s, u.end_s, u.duration_s),
        (Some(0.5), Some(2.0), Some(1.5))
    );
    assert_eq!(b.stage(StageId::Userspace).unwrap().duration_s, Some(1.0));
    assert_eq!(b.printk_offset_s, Some(2.5));
    assert_eq!(b.kernel.as_ref().unwrap().init_ts_s, Some(1.4));
}

/// After SBL's `Cores present` header, one-word lines are core names: counted as the
/// boot's console output but read by no grammar (not even the ready test), until a line
/// with a blank or a `[` ends the list.
#[test]
fn sbl_cores_list_lines_are_not_read() {
    let log =
        "[BOOTLOADER_PROFILE] Cores present    :\nlogin:\nr5f0-0\nU-Boot SPL 2024.01 (x)\nlogin:\n";
    let b = &parse(log)[0];
    assert_eq!(b.lines, (1, 5));
    assert_eq!(b.mark("ready").map(|m| m.line), Some(5));
    let ids: Vec<_> = b.stages.iter().map(|s| s.id).collect();
    assert_eq!(ids, [StageId::Sbl, StageId::ASpl]);
    // The header and both core names are the SBL stage's bytes (each text and CR LF).
    let header = "[BOOTLOADER_PROFILE] Cores present    :".len() as u64;
    assert_eq!(b.stages[0].console_bytes, Some(header + 2 + 8 + 8));
    // A printk-stamped line ends the list too.
    let log = "[BOOTLOADER_PROFILE] Cores present    :\n[    0.000000] Booting Linux\nlogin:\n";
    assert_eq!(parse(log)[0].mark("ready").map(|m| m.line), Some(3));
}

/// A profile's marker opens its stage (the first that matches), and only on a line that
/// no grammar took.
/// A profile's own ready pattern is tried on texts no grammar takes, whichever way the
/// line came (the splitter's fast path, with or without blanks first, a line that is not
/// plain, the last line without a break): `State::profile_hooks` keeps them off the fast
/// paths that skip it.
#[test]
fn profile_ready_pattern_is_tried_on_every_path() {
    let mut profile = BoardProfile::generic();
    profile.ready = Some("^READY".into());
    let head = "U-Boot 2024.01 (x)\nStarting kernel ...\n[    0.000000] Booting Linux\n";
    for last in [
        "READY\n",
        "READY",
        "    READY now\n",
        "\tREADY\r\n",
        "\x1b[0mREADY\n",
        "READY:\n",
    ] {
        let log = format!("{head}{last}");
        let b = &parse_bytes(log.as_bytes(), &profile)[0];
        assert!(b.complete, "{last:?}");
        assert_eq!(
            b.login_prompt.as_deref().map(|p| p.starts_with("READY")),
            Some(true)
        );
        // Without the profile's pattern, no login prompt: not ready.
        assert!(!parse(&log)[0].complete, "{last:?}");
    }
}

#[test]
fn profile_markers_open_their_stage() {
    let mut profile = BoardProfile::generic();
    profile.markers = vec![
        crate::board::Marker {
            stage: StageId::Sysfw,
            pattern: "^SYSFW up".into(),
        },
        crate::board::Marker {
            stage: StageId::Tfa,
            pattern: "up".into(),
        },
    ];
    let log = "U-Boot SPL 2024.01 (x)\nSYSFW up here\nwoke up\nU-Boot 2024.01 (x)\n";
    let b = &parse_bytes(log.as_bytes(), &profile)[0];
    let ids: Vec<_> = b.stages.iter().map(|s| (s.id, s.line)).collect();
    assert_eq!(
        ids,
        [
            (StageId::ASpl, Some(1)),
            (StageId::Sysfw, Some(2)),
            (StageId::Tfa, Some(3)),
            (StageId::Uboot, Some(4))
        ]
    );
    assert_eq!(b.mark("marker").map(|m| m.line), Some(2));
    // Without markers the same lines open nothing.
    let b = &parse(log)[0];
    assert!(b.stage(StageId::Sysfw).is_none() && b.stage(StageId::Tfa).is_none());
}

#[test]
fn power_on_captures_report_the_pre_console_time_as_rom() {
    let log = "[0.000000 0.000000] \n[0.300000 0.300000] U-Boot 2024.01 (x)\n[1.000000 0.7] Starting kernel ...\n";
    let b = &parse_power_on_capture(log.as_bytes(), &BoardProfile::generic())[0];
    let rom = b.stage(StageId::Rom).unwrap();
    assert_eq!(
        (rom.start_s, rom.end_s, rom.duration_s, rom.line),
        (Some(0.0), Some(0.3), Some(0.3), None)
    );
    // Without the declaration the origin is unknown: no rom stage.
    assert!(parse(log).first().unwrap().stage(StageId::Rom).is_none());
}

#[test]
fn banner_again_splits_boots() {
    let log = "U-Boot 2024.01 (x)\nStarting kernel ...\n[    0.0] Booting Linux\nx login:\nU-Boot 2024.01 (x)\nStarting kernel ...\n";
    let b = parse(log);
    assert_eq!(b.len(), 2);
    assert!(b[0].complete && !b[1].complete);
    assert_eq!(b[1].lines.0, 5);
}

#[test]
fn printk_going_back_splits_boots() {
    let log = "[    0.000000] Booting Linux\n[    5.000000] late\n[    0.000000] Booting Linux\n[    0.100000] x\n";
    let b = parse(log);
    assert_eq!(b.len(), 2);
    assert_eq!(b[0].kernel.as_ref().unwrap().last_ts_s, Some(5.0));
    assert_eq!(b[1].kernel.as_ref().unwrap().last_ts_s, Some(0.1));
}

#[test]
fn no_host_clock_means_absent_not_zero() {
    let b = &parse("U-Boot 2024.01 (x)\nStarting kernel ...\n")[0];
    let u = b.stage(StageId::Uboot).unwrap();
    assert_eq!(
        (u.start_s, u.duration_s, u.clock),
        (None, None, Clock::Target)
    );
}

#[test]
fn streaming_gives_the_same_boots_as_whole_input() {
    let log = "U-Boot 2024.01 (x)\r\nStarting kernel ...\r\n[    0.0] Booting Linux\r\nx login:\r\nU-Boot 2024.01 (x)\r\n";
    let whole = parse(log);
    let mut p = Parser::new(&BoardProfile::generic());
    let mut got = Vec::new();
    for b in log.as_bytes().chunks(3) {
        p.feed(b);
        got.extend(p.take_boots());
    }
    got.extend(p.finish());
    assert_eq!(got, whole);
}

/// Every `.log` under `dir`, sorted.
fn logs(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("corpus dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            logs(&p, out);
        } else if p.extension().is_some_and(|x| x == "log") {
            out.push(p);
        }
    }
    out.sort();
}

/// The texts of the corpus logs (`tests/corpus`, sorted by path), at least 11 of them.
fn corpus_texts() -> Vec<Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus");
    let mut files = Vec::new();
    logs(&dir, &mut files);
    assert!(files.len() > 10, "corpus logs under {}", dir.display());
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

/// The texts given, each followed by a line break, as one log.
fn joined<'a>(texts: impl IntoIterator<Item = &'a Vec<u8>>) -> Vec<u8> {
    let mut log = Vec::new();
    for t in texts {
        log.extend_from_slice(t);
        log.push(b'\n');
    }
    log
}

#[test]
fn recycled_boots_leak_nothing_into_later_boots() {
    // The corpus logs, then again in reverse order and once more: each boot is built
    // from the vectors and strings of different boots before it.
    let texts = corpus_texts();
    let log = joined(texts.iter().chain(texts.iter().rev()).chain(&texts));
    let profile = BoardProfile::generic();
    let whole = parse_bytes(&log, &profile);
    assert!(whole.len() > 30, "{} boots", whole.len());
    // Boots handed back one by one as they come, or a few at a time (several spares).
    for (chunk, hold) in [(4096, 0), (64 << 10, 3), (1 << 20, 1000)] {
        let mut p = Parser::new(&profile);
        let mut got = 0;
        let mut held = Vec::new();
        for c in log.chunks(chunk) {
            p.feed(c);
            while let Some(b) = p.next_boot() {
                assert_eq!(b, whole[got], "boot {got} (chunk {chunk}, hold {hold})");
                got += 1;
                held.push(b);
                if held.len() > hold {
                    held.drain(..).for_each(|b| p.recycle(b));
                }
            }
        }
        held.drain(..).for_each(|b| p.recycle(b));
        assert!(p.state.bin.strings.classes.iter().any(|c| !c.is_empty()));
        assert!(!p.state.bin.marks.is_empty());
        for b in p.finish() {
            assert_eq!(b, whole[got], "boot {got} (chunk {chunk}, hold {hold})");
            got += 1;
        }
        assert_eq!(got, whole.len());
    }
    // Boots lent in place and handed back as they come (the `perfguide parse` way).
    let mut p = Parser::new(&profile);
    let mut got = 0;
    for c in log.chunks(4096) {
        p.feed(c);
        while let Some(b) = p.next_boot_mut() {
            assert_eq!(*b, whole[got], "boot {got} (lent)");
            got += 1;
            p.recycle_front();
        }
    }
    // Lent boots stay in their slots, to be built in again: a few slots serve them all.
    let slots = p.state.done.boots.len();
    assert!((1..=8).contains(&slots), "{slots} slots");
    for b in p.finish() {
        assert_eq!(b, whole[got], "boot {got} (lent)");
        got += 1;
    }
    assert_eq!(got, whole.len());
}

/// The boots of `log` with every line handed to [`State::line`] (a closure as the sink,
/// so the splitter's plain lines take `LineSink::plain_line`'s default: `line`), not to
/// the fast path ([`State::plain_line`]) [`Parser::feed`] takes.
fn parse_by_line(log: &[u8], chunk: usize) -> Vec<Boot> {
    let mut p = Parser::new(&BoardProfile::generic());
    for c in log.chunks(chunk.max(1)) {
        let Parser { splitter, state } = &mut p;
        splitter.feed(c, &mut |n, b, f| state.line(n, b, f));
    }
    p.finish()
}

/// The fast path of whole plain lines ([`State::plain_line`]: its first byte read with no
/// length test, its lead after blanks found by a 16-byte compare) gives the corpus the
/// boots [`State::line`] gives.
#[test]
fn lines_fast_path_is_line_text_on_the_corpus() {
    let log = joined(&corpus_texts());
    let profile = BoardProfile::generic();
    for chunk in [log.len(), 4096, 61] {
        let mut p = Parser::new(&profile);
        for c in log.chunks(chunk) {
            p.feed(c);
        }
        assert_eq!(p.finish(), parse_by_line(&log, chunk), "chunk {chunk}");
    }
}

proptest::proptest! {
    /// The fast path of whole plain lines ([`State::plain_line`]) gives the boots
    /// [`State::line`] gives, on lines of blanks (up to 16 and more, tabs among them),
    /// empty lines, words the records and grammars look at, and bytes that are not plain,
    /// however chunked (lines near a chunk's end have fewer than 16 bytes after them).
    #[test]
    fn lines_fast_path_is_line_text(
        lines in proptest::collection::vec((
            proptest::sample::select(vec!["", " ", "  ", "\t", " \t ", "        ", "               ", "                ", "                 ", "                                "]),
            proptest::collection::vec(proptest::sample::select(vec![
                "", "x", " ", "\t", "U-Boot 2024.01 (x)", "Starting kernel ...", "[    0.000000] Booting Linux",
                "[    1.5] Run /init", "login:", "x login: ", "-", "- x", "MESS:00:00:01.000000: x", "<6>x",
                "0.001 x", "Mark", "[  OK  ] Started x.", "Welcome to x!", "\x1b[0m", "\u{e9}", "@",
                "[2024-01-01 00:00:00.000] x", "autoboot", "NOTICE:  BL31: v2.8", "1",
            ]), 0..4),
            proptest::sample::select(vec!["\n", "\r\n", "\r", "\n\r"]),
        ), 0..40),
        chunk in 1usize..300,
    ) {
        let mut log = String::new();
        for (blanks, words, brk) in &lines {
            log.push_str(blanks);
            log.push_str(&words.concat());
            log.push_str(brk);
        }
        let mut p = Parser::new(&BoardProfile::generic());
        for c in log.as_bytes().chunks(chunk) {
            p.feed(c);
        }
        proptest::prop_assert_eq!(p.finish(), parse_by_line(log.as_bytes(), chunk));
    }
}

/// Boots lent in place, taken out and handed back, and taken out and kept, in turn: slots
/// rebuilt in place, emptied by a take, and filled from the bin's spares all give the
/// boots a whole parse gives.
#[test]
fn lent_taken_and_kept_boots_mix() {
    let texts = corpus_texts();
    let log = joined(texts.iter().chain(texts.iter().rev()));
    let profile = BoardProfile::generic();
    let whole = parse_bytes(&log, &profile);
    assert!(whole.len() > 30, "{} boots", whole.len());
    for chunk in [512, 4096, 64 << 10] {
        let mut p = Parser::new(&profile);
        let mut got = 0;
        let mut kept = Vec::new();
        for c in log.chunks(chunk) {
            p.feed(c);
            loop {
                match got % 3 {
                    0 => {
                        let Some(b) = p.next_boot_mut() else { break };
                        assert_eq!(*b, whole[got], "boot {got} (chunk {chunk}, lent)");
                        // A lent boot changed by its borrower is still rebuilt right.
                        b.components.insert("borrower".into(), "was here".into());
                        b.marks.push(Mark {
                            kind: Cow::Owned("borrowed".into()),
                            line: 0,
                            host_s: None,
                            target_s: None,
                        });
                        p.recycle_front();
                    }
                    1 => {
                        let Some(b) = p.next_boot() else { break };
                        assert_eq!(b, whole[got], "boot {got} (chunk {chunk}, recycled)");
                        p.recycle(b);
                    }
                    _ => {
                        let Some(b) = p.next_boot() else { break };
                        assert_eq!(b, whole[got], "boot {got} (chunk {chunk}, kept)");
                        kept.push(b);
                    }
                }
                got += 1;
            }
        }
        for b in p.finish() {
            assert_eq!(b, whole[got], "boot {got} (chunk {chunk}, last)");
            got += 1;
        }
        assert_eq!(got, whole.len());
        assert!(kept.iter().all(|b| whole[b.index] == *b));
    }
}

#[test]
fn recycled_slots_keep_no_stale_items_and_whole_texts() {
    // A boot of three initcalls and bootstage records with short names, then one of one
    // each with names longer than any recycled string, then the first again: built from
    // each other's recycled items, each is as parsed alone.
    let one = concat!(
        "U-Boot SPL 2021.01 (Jan 01 2021 - 00:00:00 +0000)\n",
        "U-Boot 2021.01 (Jan 01 2021 - 00:00:00 +0000)\n",
        "Timer summary in microseconds (3 records):\n",
        "       Mark    Elapsed  Stage\n",
        "          0          0  reset\n",
        "      1,000      1,000  board_init_f_with_a_long_enough_name\n",
        "      2,000      1,000  board_init_r\n",
        "Starting kernel ...\n",
        "[    0.000000] Booting Linux on physical CPU 0x0\n",
        "[    0.100000] initcall aaa+0x0/0x90 returned 0 after 5 usecs\n",
        "[    0.200000] initcall bbb+0x0/0x90 returned 0 after 6 usecs\n",
        "[    0.300000] initcall ccc+0x0/0x90 returned 0 after 7 usecs\n",
        "U-Boot SPL 2021.01 (Jan 01 2021 - 00:00:00 +0000)\n",
        "U-Boot 2021.01 (Jan 01 2021 - 00:00:00 +0000)\n",
        "Timer summary in microseconds (0 records):\n",
        "       Mark    Elapsed  Stage\n",
        "          0          0  a_reset_record_named_well_past_the_thirty_two_bytes_of_its_slot\n",
        "Starting kernel ...\n",
        "[    0.000000] Booting Linux on physical CPU 0x0\n",
        "[    0.100000] initcall an_initcall_named_well_past_the_sixteen_bytes_of_the_first+0x0/0x90 returned 0 after 5 usecs\n",
    );
    let log = one.repeat(3);
    let profile = BoardProfile::generic();
    let whole = parse_bytes(log.as_bytes(), &profile);
    assert_eq!(whole.len(), 6);
    let mut p = Parser::new(&profile);
    let mut got = Vec::new();
    for l in log.split_inclusive('\n') {
        p.feed(l.as_bytes());
        while let Some(b) = p.next_boot() {
            got.push(b.clone());
            p.recycle(b);
        }
    }
    got.extend(p.finish());
    assert_eq!(got, whole);
    let short = &got[3];
    assert_eq!(short.initcalls.len(), 1);
    assert_eq!(
        short.initcalls[0].name,
        "an_initcall_named_well_past_the_sixteen_bytes_of_the_first"
    );
    let long_record = "a_reset_record_named_well_past_the_thirty_two_bytes_of_its_slot";
    assert_eq!(short.bootstage.len(), 1);
    assert_eq!(short.bootstage[0].name, long_record);
    assert_eq!(short.bootstage_reports.len(), 1);
    // The warnings written in the builder's slots reach the boot.
    let w = "bootstage report announced 0 records but 1 were read";
    assert!(
        short.warnings.iter().any(|x| x == w),
        "{:?}",
        short.warnings
    );
    assert_eq!(short.bootstage_reports[0], short.bootstage);
    let names: Vec<&str> = got[4].initcalls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["aaa", "bbb", "ccc"]);
    assert_eq!(got[4].bootstage.len(), 3);
}

#[test]
fn slots_rewrite_in_place_and_cut_the_rest() {
    let mut pool = StringPool::default();
    let unit = |name: String| SystemdUnit {
        name,
        duration_s: Some(1.0),
        at_s: None,
    };
    let mut s = Slots::default();
    for t in ["a", "b", "c"] {
        s.push(t, &mut pool, unit);
    }
    let v = s.hand_out(&mut Vec::new(), &mut 0, &mut pool);
    assert_eq!(v.len(), 3);
    // The spare (with its items) takes the slots' place; fewer and longer items follow.
    let mut s = Slots { v, len: 0 };
    let long = "x".repeat(100);
    s.push(&long, &mut pool, unit);
    assert_eq!(s.v.len(), 3);
    let v = s.hand_out(&mut Vec::new(), &mut 0, &mut pool);
    assert_eq!(v, [unit(long)]);
    // A boot with none hands out nothing and keeps the slots.
    assert!(s.hand_out(&mut Vec::new(), &mut 0, &mut pool).is_empty());
}

proptest::proptest! {
    /// [`Slots::push_initcall`] leaves the slots (and the pool) as [`Slots::push`] does,
    /// over boots of initcalls handed out and rewritten in place.
    #[test]
    fn push_initcall_is_push(boots in proptest::collection::vec(proptest::collection::vec(
        (proptest::sample::select(vec!["", "a", "pci_init", "initcall_name_longer_than_the_smallest_class_of_strings"]),
         proptest::num::u64::ANY, proptest::num::i64::ANY, proptest::option::of(proptest::num::f64::NORMAL)),
        0..6), 0..5)) {
        let (mut pa, mut pb) = (StringPool::default(), StringPool::default());
        let (mut a, mut b) = (Slots::default(), Slots::<Initcall>::default());
        for calls in &boots {
            for &(name, duration_us, ret, ts_s) in calls {
                a.push(name, &mut pa, |name| Initcall { name, duration_us, ret, ts_s });
                b.push_initcall(name, &mut pb, duration_us, ret, ts_s);
            }
            proptest::prop_assert_eq!(a.len, b.len);
            proptest::prop_assert_eq!(&a.v[..a.len], &b.v[..b.len]);
            let va = a.hand_out(&mut Vec::new(), &mut 0, &mut pa);
            let vb = b.hand_out(&mut Vec::new(), &mut 0, &mut pb);
            proptest::prop_assert_eq!(&va, &vb);
            a = Slots { v: va, len: 0 };
            b = Slots { v: vb, len: 0 };
        }
        let caps = |p: &StringPool| -> Vec<Vec<usize>> {
            p.classes.iter().map(|c| c.iter().map(String::capacity).collect()).collect()
        };
        proptest::prop_assert_eq!(caps(&pa), caps(&pb));
    }
}

/// [`strip_prefixes_slow`] as it was before its shortcut: every stripper in turn.
fn strip_prefixes_reference(lead: &str) -> (Option<f64>, &str) {
    let (fw, text) = match hoststamp::strip_rpi(lead) {
        Some((fw, rest)) => (Some(fw), rest),
        None => (None, lead),
    };
    let t = strip_junk(ascii::trim_start(hoststamp::strip_syslog(
        ascii::trim_start(text),
    )));
    (fw, t)
}

proptest::proptest! {
    /// The columns line is told as [`uboot::line`] alone tells it.
    #[test]
    fn columns_line_needs_no_hints(parts in proptest::collection::vec(proptest::sample::select(vec![
        "Mark", "Elapsed", "Stage", " ", "\t", "Marks", "Hit any key to stop autoboot", "autoboot",
        "Press SPACE to abort autoboot", "H", "P", "x", "Accumulated time:", "U-Boot 2024.01",
    ]), 0..7)) {
        let t = parts.concat();
        let want = matches!(uboot::line(&t), Some(uboot::UbootLine::BootstageColumns));
        proptest::prop_assert_eq!(is_columns_line(&t), want);
    }
}

/// [`is_default_ready_tail`] as it was first written: the reference for its fast twin.
fn is_default_ready_tail_ref(t: &str) -> bool {
    let t = ascii::trim_end(t);
    let n = t.len();
    if n < 6 || !t.is_char_boundary(n - 6) || !t[n - 6..].eq_ignore_ascii_case("login:") {
        return false;
    }
    // `\b` before `login`.
    n == 6 || !t.as_bytes()[n - 7].is_ascii_alphanumeric() && t.as_bytes()[n - 7] != b'_'
}

proptest::proptest! {
    /// [`is_default_ready_tail`] agrees with its reference on texts glued from the prompt,
    /// its near misses (case, bit-5 twins of its bytes), word bytes and blanks, ending in
    /// `:` or a blank as its caller makes sure.
    #[test]
    fn default_ready_tail_is_the_reference(parts in proptest::collection::vec(proptest::sample::select(vec![
        "login:", "LOGIN:", "LoGiN:", "login", "ogin:", "l", "L", "o", "g", "i", "n", ":",
        "\x0c", "\x1a", "\x0e", ",", "N", "\u{e9}", "\u{2003}", "_", "x", "7", "-", " ",
        "   ", "        ", "\t", "\r", "\x0b", "login: ", "lOgin:\t ",
    ]), 0..8), last in proptest::sample::select(vec![":", " ", "\t", "\r", "\n", "\x0c"])) {
        let t = parts.concat() + last;
        proptest::prop_assert_eq!(is_default_ready_tail(&t), is_default_ready_tail_ref(&t), "{:?}", t);
    }
}

proptest::proptest! {
    /// [`may_end_login`] turns away no login prompt: every text the reference takes for
    /// one passes it (texts glued from the prompt, its near misses and blanks, ending
    /// in anything).
    #[test]
    fn may_end_login_is_needed_by_login(parts in proptest::collection::vec(proptest::sample::select(vec![
        "login:", "LOGIN:", "login", "ogin:", "n", ":", "x", "_", "-", " ", "   ", "\t",
        "\r", "\x0b", "\x0c", "\u{2003}", "\u{e9}", "login: ", "login:\t ", "login :",
    ]), 0..8)) {
        let t = parts.concat();
        // The reference, and the test `record_ungrammatical` made before.
        let before = may_be_default_ready(t.as_bytes()) && is_default_ready_tail(&t);
        if is_default_ready_tail_ref(&t) || before {
            proptest::prop_assert!(may_end_login(t.as_bytes()), "{:?}", t);
        }
        // What `record_ungrammatical` asks `login_tail` about ends as its callers make sure.
        if may_end_login(t.as_bytes()) {
            proptest::prop_assert!(may_be_default_ready(t.as_bytes()), "{:?}", t);
        }
    }
}

proptest::proptest! {
    /// A text systemd's grammar reads as a blame row is never a login prompt, as
    /// `State::classify` tells its caller (which then skips the default ready test): rows
    /// ending in units (or in `login:`-like words, which are no units) and all sorts of
    /// blanks, Unicode ones included, whatever the hints.
    #[test]
    fn blame_rows_are_no_login_prompt(
        span in proptest::sample::select(vec!["16ms", "1.823s", "1min 2.5s", "7", "3us"]),
        sep in proptest::sample::select(vec![" ", "  ", "\t", "\u{a0}"]),
        unit in proptest::sample::select(vec![
            "a.service", "login:.service", "x.target", "login:", "b login:", "y.mount",
            "z.timer", "p.path", "s.swap", "d.device", "\u{e9}.slice",
        ]),
        end in proptest::collection::vec(proptest::sample::select(vec![
            " ", "\t", "\r", "\x0b", "\x0c", "\u{a0}", "\u{2003}", ":", "login:",
        ]), 0..4),
        hints in proptest::sample::select(vec![0u8, needles::ALL]),
    ) {
        // (Padded rows are read as blame rows: the test is not vacuous.)
        let padded = systemd::line_hinted("16ms a.service   ", hints);
        proptest::prop_assert!(matches!(padded, Some(systemd::SystemdLine::Blame(..))));
        let t = format!("{span}{sep}{unit}{}", end.concat());
        if let Some(systemd::SystemdLine::Blame(..)) = systemd::line_hinted(&t, hints) {
            proptest::prop_assert!(!is_default_ready(&t), "{:?}", t);
        }
    }
}

proptest::proptest! {
    /// The shortcut of [`State::bracket_line`]: a `[` followed by neither a digit nor a
    /// blank carries no host stamp, so it goes to `record_text` as `layered` would take it.
    #[test]
    fn bracket_without_digit_or_blank_has_no_host_layer(
        blanks in proptest::sample::select(vec!["", " ", "\t ", "   "]),
        second in proptest::sample::select(vec!["K", "B", "]", "[", "-", "+", ".", "\u{e9}", "x", "", "\x0b"]),
        parts in proptest::collection::vec(proptest::sample::select(vec![
            "1", "12.5", ".", "0.000123", " ", "] ", "2026-11-30 13:00:00.123", "KPI", "]", "[", ":",
            " 1.000000]", "OK",
        ]), 0..6),
    ) {
        let lead = format!("[{second}{}", parts.concat());
        let text = format!("{blanks}{lead}");
        let skips = !matches!(lead.as_bytes().get(1), Some(b'0'..=b'9' | b' ' | b'\t'..=b'\r'));
        proptest::prop_assume!(skips);
        // No printk stamp either: `record_unstamped` may take it.
        proptest::prop_assert!(linux::stamp_len(lead.as_bytes()).is_none());
        proptest::prop_assert!(matches!(hoststamp::bracket(&text, &lead), Layer::None(t) if ascii::trim_start(t) == lead));
    }
}

/// The boots of `lines` fed to a parser's state one by one: each line's hints set by
/// `hints`, then the line handed to `feed` (state, line number, text, text after blanks).
fn boots_fed(
    lines: &[String],
    hints: impl Fn(&str) -> u8,
    feed: impl Fn(&mut State, u64, &str, &str),
) -> Vec<Boot> {
    let mut p = Parser::new(&BoardProfile::generic());
    for (i, l) in lines.iter().enumerate() {
        p.state.hints = hints(l);
        feed(&mut p.state, i as u64 + 1, l, ascii::trim_start(l));
    }
    p.finish()
}

/// The boots of `lines` fed to a parser's state one by one (every hint set), each
/// `[`-line by [`State::bracket_line`] (`fast`) or by [`State::bracket_other`] alone,
/// which is what `bracket_line` was before its printk paths (`plain`, `marker_printk`).
fn boots_by_bracket_path(lines: &[String], fast: bool) -> Vec<Boot> {
    boots_fed(
        lines,
        |_| needles::ALL,
        |s, n, l, lead| match lead.as_bytes().first() {
            Some(b'[') if fast => s.bracket_line(n, l, lead),
            Some(b'[') => s.bracket_other(n, l, lead),
            _ => s.line_text(n, l),
        },
    )
}

proptest::proptest! {
    /// [`State::bracket_line`]'s printk paths (the usual line, the marker line) record
    /// what [`State::bracket_other`] records, on logs glued from printk lines (stamps in
    /// and out of the fixed layout, times going back, caller ids, markers, ready
    /// prompts, trailing blanks) and the lines that open stages and reports around them.
    #[test]
    fn printk_paths_are_bracket_other(
        lines in proptest::collection::vec((
            proptest::sample::select(vec![
                "[    0.000000]", "[    1.000100]", "[    2.500000]", "[    2.500999]",
                "[    2.498000]", "[12345.000001]", "[    1.5]", "[   10.000000]", "",
                "[0.100000 0.100000]", " [    3.000000]",
            ]),
            proptest::sample::select(vec![" ", "", "  ", "[    T1] ", "\t"]),
            proptest::sample::select(vec![
                "usb 1-1: new device", "calling  pci_init+0x0/0x90 @ 1",
                "initcall pci_init+0x0/0x90 returned 0 after 61 usecs",
                "initcall f returned -19 after 0 usecs", "calling", "in", "ca", "c", "",
                "systemd[1]: Started x.service", "systemd", "sy", "Booting Linux on physical CPU 0x0",
                "Linux version 6.1.0 (x)", "Run /init as init process", "Freeing unused kernel memory: 1K",
                "Kernel panic - not syncing: x", "Machine model: X", "Kernel command line: a=b",
                "qemu login:", "x login: ", "U-Boot 2024.01 (x)", "Starting kernel ...",
                "Mark    Elapsed  Stage", "  0  0  reset", "Accumulated time:", "[  OK  ] Started x",
                "NOTICE:  BL31: v2.10.0", "x:", "x \t",
            ]),
        ), 0..24),
    ) {
        let lines: Vec<String> = lines.iter().map(|(a, b, c)| format!("{a}{b}{c}")).collect();
        proptest::prop_assert_eq!(
            boots_by_bracket_path(&lines, true),
            boots_by_bracket_path(&lines, false),
            "{:?}", lines
        );
    }
}

proptest::proptest! {
    /// [`State::digit_bracket_line`]'s shortcuts (grabserial's and the wall clocks' usual
    /// layouts, `State::host_line`, `[0]crclist` rows) record what the general path,
    /// [`State::layered_line`] (`hoststamp::strip`, then `layered`), records, on logs
    /// glued from host stamps (in and out of the usual layouts, times going back),
    /// printk stamps and texts with glued records, prefixes, blanks and grammar words.
    #[test]
    fn digit_bracket_paths_are_layered(
        lines in proptest::collection::vec((
            proptest::sample::select(vec![
                "[0.216735 0.208341]", "[1.000100 0.000001]", "[12.500000 0.100000]",
                "[2.400000 0.000001]", "[1234567.000001 1.000000]", "[0.5 0.1]",
                "[ 3.000000 0.000001]", "[2024-03-29 11:52:40.318]", "[2024-03-29 11:52:39.9]",
                "[2024-03-29T11:52:41.318 0.5]", "[12:00:01.500000]", "[0]crclist : 0x1",
                "[    1.000000]", "[5.000000]", "[9.000000 0.000001", "",
            ]),
            proptest::sample::select(vec![" ", "", "  ", "\t", " \r"]),
            proptest::sample::select(vec![
                "U-Boot SPL 2017.09", "Trying to boot from MMC1[0.262093 0.038996] Expected",
                "x[0.300000 0.000001]", "a [b] c", "[    0.500000] Booting Linux on physical CPU 0x0",
                "MESS:00:00:05.163105:0: brfs: File read: 1 bytes", "<6>[    1.000000] x",
                "\\x1f\u{fffd}U-Boot 2024.01 (x)", "Starting kernel ...", "x login:", "",
                "123456.789: boot mode", "NOTICE:  BL31: v2.10.0", "Hit any key to stop autoboot",
                "Mark    Elapsed  Stage", "  0  0  reset", "Accumulated time:", "\u{e9}t\u{e9}",
            ]),
        ), 0..24),
    ) {
        let lines: Vec<String> = lines.iter().map(|(a, b, c)| format!("{a}{b}{c}")).collect();
        let by = |fast: bool| boots_fed(&lines, |_| needles::ALL, |s, n, l, lead| {
            match lead.as_bytes() {
                [b'[', b'0'..=b'9', ..] if fast => s.digit_bracket_line(n, lead),
                [b'[', b'0'..=b'9', ..] => s.layered_line(n, l),
                _ => s.line_text(n, l),
            }
        });
        proptest::prop_assert_eq!(by(true), by(false), "{:?}", lines);
    }
}

proptest::proptest! {
    /// [`bracketed_number`]'s texts carry no stamp of either kind: no printk stamp, no
    /// host layer (and it tells them exactly).
    #[test]
    fn bracketed_number_is_no_stamp(
        blanks in "[ \t]{0,3}",
        digits in "[0-9]{0,4}",
        close in proptest::sample::select(vec!["]", "", ".", " ", "-", ":"]),
        tail in "[0-9 .:\\-\\]x]{0,24}",
    ) {
        let t = format!("[{blanks}{digits}{close}{tail}");
        // `[`, spaces, digits, `]`, by `str`'s own searches.
        let r = t[1..].trim_start_matches(' ');
        let nd = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
        let want = nd > 0 && r[nd..].starts_with(']');
        proptest::prop_assert_eq!(bracketed_number(t.as_bytes()), want, "{:?}", t);
        if want {
            proptest::prop_assert_eq!(linux::stamp_len(t.as_bytes()), None);
            proptest::prop_assert!(matches!(hoststamp::bracket(&t, &t), Layer::None(x) if x == t));
            proptest::prop_assert!(matches!(hoststamp::strip(&t), Layer::None(x) if x == t));
        }
    }
}

proptest::proptest! {
    /// [`State::prefixed_line`]'s paths (the number-line gate, `stripped_line` and its
    /// `MESS:` shortcut) record what the general path, `layered` of no layer (every
    /// stripper, then `record_text`), records, on logs glued from firmware stamps (in and
    /// out of the usual layout), numbers, syslog levels, line noise, printk stamps and the
    /// texts after them.
    #[test]
    fn prefixed_paths_are_layered(
        lines in proptest::collection::vec((
            proptest::sample::select(vec![
                "MESS:00:00:05.163105:0:", "MESS:00:00:05.163105:12:", "MESS:00:00:05.16310:0:",
                "MESS:00:00:04.000001:0:", "123456.789:", "<6>", "\\x1f", "\u{fffd}", "12", "",
                "Mark", "MESS", " ",
            ]),
            proptest::sample::select(vec![" ", "", "  ", "\t", " \r"]),
            proptest::sample::select(vec![
                "brfs: File read: 1 bytes", "[    0.500000] Booting Linux on physical CPU 0x0",
                "<6>[    1.000000] x", "\\x1fU-Boot 2024.01 (x)", "Starting kernel ...", "",
                "x login:", "  0  0  reset", "Mark    Elapsed  Stage", "Accumulated time:",
                "[0.100000 0.000001] x", "123456.789: boot mode", "\u{e9}t\u{e9}", "1.5 s",
                "U-Boot SPL 2017.09", "Hit any key to stop autoboot",
                "RPi: BOOTLOADER release VERSION:8ba17717 DATE: 2023/01/11",
                "Starting start4.elf @ 0xfec00200 partition 0", "Firmware: 82f3750a Mar 17 2023",
                "Loaded 'kernel8.img' to 0x80000 size 0x7d6bd0", "Booting Linux on physical CPU 0x0",
            ]),
        ), 0..24),
    ) {
        let lines: Vec<String> = lines.iter().map(|(a, b, c)| format!("{a}{b}{c}")).collect();
        let by = |fast: bool| boots_fed(&lines, |_| needles::ALL, |s, n, l, lead| {
            match lead.as_bytes().first() {
                Some(&c) if PREFIX_START[usize::from(c)] && !fast => s.layered(n, Layer::None(l)),
                _ => s.line_text(n, l),
            }
        });
        proptest::prop_assert_eq!(by(true), by(false), "{:?}", lines);
    }
}

/// The boots of `lines` fed to a parser's state one by one, each line's hints its words
/// (see [`needles`]), each `[  OK  ]` text by [`State::record_ok`] (`fast`) or by
/// [`State::record_unstamped`], the general path it stands for.
fn boots_by_ok_path(lines: &[String], fast: bool) -> Vec<Boot> {
    let words = [
        ("autoboot", needles::AUTOBOOT),
        ("oard", needles::OARD),
        (" reached after ", needles::REACHED),
        ("@", needles::AT),
    ];
    let hints = |l: &str| {
        words
            .iter()
            .filter(|(w, _)| l.contains(w))
            .fold(0, |h, (_, bit)| h | bit)
    };
    boots_fed(lines, hints, |s, n, l, lead| {
        if !lead.starts_with("[  OK  ]") {
            s.line_text(n, l);
        } else if fast {
            s.record_ok(n, lead);
        } else {
            s.record_unstamped(n, None, None, lead);
        }
    })
}

proptest::proptest! {
    /// [`State::record_ok`] records what the general path does with a `[  OK  ]` line, on
    /// logs glued from such lines (with the words that let U-Boot's and SYSFW's grammars
    /// try them, login prompts) and the lines that open stages, reports and user space.
    #[test]
    fn ok_path_is_record_unstamped(
        lines in proptest::collection::vec((
            proptest::sample::select(vec!["[  OK  ] ", "", " [  OK  ] "]),
            proptest::sample::select(vec![
                "Started x.service.", "Reached target board config.", "autoboot in 3", "",
                "x login:", "Stop autoboot: ", "Found device /dev/ttyS0.", "@ 1", "x ",
                "[    1.000000] Booting Linux on physical CPU 0x0", "U-Boot 2024.01 (x)",
                "Starting kernel ...", "Timer summary in microseconds (2 records):",
                "       Mark    Elapsed  Stage", "         0          0  reset",
                "Accumulated time:", "SYSFW ABI: 3.1 (firmware version 0x0008)",
                "[    2.000000] Run /init as init process", "Welcome to Debian!",
                "qemu login: ",
            ]),
        ), 0..24),
    ) {
        let lines: Vec<String> = lines.iter().map(|(a, b)| format!("{a}{b}")).collect();
        proptest::prop_assert_eq!(
            boots_by_ok_path(&lines, true),
            boots_by_ok_path(&lines, false),
            "{:?}", lines
        );
    }
}

/// The boots of texts with no printk stamp (each with its firmware stamp, if any) fed to
/// a parser's state one by one, each line's hints its words (see [`needles`]), by
/// [`State::record_unstamped`] (`fast`: its pair and word gates) or by
/// [`State::bootstage_row`] and [`State::record_unstamped_classified`], the grammar path
/// they stand in front of.
fn boots_by_unstamped_path(lines: &[(Option<f64>, String)], fast: bool) -> Vec<Boot> {
    let words = [
        ("autoboot", needles::AUTOBOOT),
        ("oard", needles::OARD),
        (" reached after ", needles::REACHED),
        ("@", needles::AT),
    ];
    let mut p = Parser::new(&BoardProfile::generic());
    for (i, (fw, l)) in lines.iter().enumerate() {
        p.state.hints = words
            .iter()
            .filter(|(w, _)| l.contains(w))
            .fold(0, |h, (_, bit)| h | bit);
        let n = i as u64 + 1;
        if fast {
            p.state.record_unstamped(n, None, *fw, l);
        } else {
            // The grammar path as it was: a report's rows first (a text that is none
            // closes it), then the grammars.
            let s = &mut p.state;
            if !l.is_empty() && s.cur.bootstage.is_some() && s.bootstage_row(n, l) {
                continue;
            }
            s.record_unstamped_classified(n, None, *fw, l);
        }
    }
    p.finish()
}

proptest::proptest! {
    /// [`State::record_unstamped`]'s gates (the first two bytes, then the grammars' words)
    /// record what the grammar path does, on logs glued from the lines no grammar takes
    /// (`Starting foo.service` before and after the kernel, `Boot HART`, `SYSFW revision`,
    /// `2nd stage bootloader` anywhere), the lines that open stages, reports and user
    /// space, near misses of the words, login prompts and empty texts, some with a
    /// firmware stamp.
    #[test]
    fn unstamped_gates_are_the_grammar_path(
        lines in proptest::collection::vec((
            proptest::option::of(proptest::sample::select(vec![0.5f64, 1.25, 3.0])),
            proptest::sample::select(vec![
                "Starting foo.service...", "Starting kernel ...", "Starting ATF",
                "Starting linux and RTOS", "Starting start4.elf @ 0x1 partition 0",
                "Starting  start4.elf", "Starting", "Starting x and 2nd stage bootloader",
                "Some 2nd stage bootloader", "Startup finished in 1.0s (kernel) + 2.0s (userspace) = 3.0s",
                "Boot HART ISA Extensions  : none", "Booting Linux on physical CPU 0x0",
                "Booting using the fdt", "SYSFW revision 0x9", "SYSFW ABI: 3.1 (firmware rev 0x9 '9.0')",
                "SBL Revision: 01.00", "SPL initial stack usage", "U-Boot SPL 2024.01 (x)",
                "U-Boot 2024.01 (x)", "Timer summary in microseconds (2 records):",
                "       Mark    Elapsed  Stage", "         0          0  reset",
                "Accumulated time:", "*** Warning - bad CRC", "** fxn:x line:1 cycle:2 timestamp:3us",
                "[  5]   0.00-1.00 sec", "[  OK  ] Started x.service.", "[KPI] x : 12us",
                "root@board:~# ", "x login: ", "board login:", "Welcome to Debian!",
                "init started: BusyBox v1", "INIT: version 2.88", "initcall f+0x0/0x1 returned 0 after 5 usecs",
                "Linux version 6.1.0 (x)", "Run /init as init process", "NOTICE:  BL31: v2.8",
                "WARNING: Cache x", "I/TC: OP-TEE version: 3.19", "I/TC: Primary CPU switching to normal world boot",
                "OpenSBI v1.2", "Firmware: 2021-11-22", "RPi: BOOTLOADER release VERSION:1 DATE: 2",
                "Loaded 'kernel8.img' to 0x80000", "Loaded environment", "systemd[1]: Started x",
                "systemd-analyze blame", "1.234s a.service", "1.234 x", "7", "Board Configuration done",
                "Hit any key to stop autoboot:  0", "a.service @1.2s +3ms", "a.target reached after 1.5s",
                "", "x", "S", "St",
            ]),
        ), 0..32),
    ) {
        let lines: Vec<(Option<f64>, String)> =
            lines.into_iter().map(|(fw, l)| (fw, l.to_string())).collect();
        proptest::prop_assert_eq!(
            boots_by_unstamped_path(&lines, true),
            boots_by_unstamped_path(&lines, false),
            "{:?}", lines
        );
    }
}

proptest::proptest! {
    /// The `[  OK  ]` shortcut of [`State::bracket_line`]: such a text has no printk
    /// stamp and no host layer, whatever follows.
    #[test]
    fn ok_status_has_no_stamp(
        blanks in proptest::sample::select(vec!["", " ", "\t "]),
        parts in proptest::collection::vec(proptest::sample::select(vec![
            "1", "12.5", ".", "0.000123]", " ", "] ", "2026-11-30 13:00:00.123]", "OK", "]", "[",
            ":", " 1.000000]", "  ", "Started x.service", "\u{e9}",
        ]), 0..6),
    ) {
        let lead = format!("[  OK  ]{}", parts.concat());
        let text = format!("{blanks}{lead}");
        proptest::prop_assert!(linux::stamp_len(lead.as_bytes()).is_none());
        proptest::prop_assert!(matches!(hoststamp::bracket(&text, &lead), Layer::None(t) if t == text));
    }
}

proptest::proptest! {
    /// What [`State::bracket_line`] relies on to skip `layered`: a `[`-line without a
    /// host layer comes back whole, so `record_plain` would take `lead` itself.
    #[test]
    fn bracket_without_layer_gives_the_text_back(
        blanks in proptest::sample::select(vec!["", " ", "\t "]),
        parts in proptest::collection::vec(proptest::sample::select(vec![
            "1", "12.5", ".", "0.000123", " ", "] ", "2026-11-30 13:00:00.123", "OK", "]", "[",
            ":", " 1.000000]", "  ", "-", "\u{e9}",
        ]), 0..7),
    ) {
        let lead = format!("[{}", parts.concat());
        let text = format!("{blanks}{lead}");
        if let Layer::None(t) = hoststamp::bracket(&text, &lead) {
            proptest::prop_assert_eq!(t, text.as_str());
            proptest::prop_assert_eq!(ascii::trim_start(t), lead.as_str());
        }
    }
}

proptest::proptest! {
    /// What [`State::digit_bracket_line`] relies on to read the host stamp first: no
    /// `[`-text with a digit after its `[` has both a host stamp and a printk stamp.
    #[test]
    fn host_and_printk_stamps_exclude(
        blanks in proptest::sample::select(vec!["", " ", "\t "]),
        first in proptest::sample::select(vec!["0", "1", "12", "12345", "2024", "9"]),
        parts in proptest::collection::vec(proptest::sample::select(vec![
            "1", "12.5", ".", "0.000123", ".000460", " ", "\t", "] ", "]", "[", ":", "-",
            " 1.000000]", " 0.000460]", "0.217195", "-03-29 11:52:40.318]", ":00:01.500000]",
            "  ", "x", "\u{e9}",
        ]), 0..8),
    ) {
        let lead = format!("[{first}{}", parts.concat());
        let text = format!("{blanks}{lead}");
        let host = !matches!(hoststamp::bracket(&text, &lead), Layer::None(_));
        let printk = linux::stamp_len(lead.as_bytes()).is_some();
        proptest::prop_assert!(!(host && printk), "{:?}", lead);
    }
}

#[test]
fn host_and_printk_stamp_cases() {
    for lead in [
        "[0.217195 0.000460] U-Boot",
        "[2024-03-29 11:52:40.318] x",
        "[12:00:01.500000] x",
    ] {
        assert!(
            !matches!(hoststamp::bracket(lead, lead), Layer::None(_)),
            "{lead}"
        );
        assert!(linux::stamp_len(lead.as_bytes()).is_none(), "{lead}");
    }
    for lead in ["[0.217195] x", "[12345.000001] x", "[1.5]"] {
        assert!(
            matches!(hoststamp::bracket(lead, lead), Layer::None(_)),
            "{lead}"
        );
        assert!(linux::stamp_len(lead.as_bytes()).is_some(), "{lead}");
    }
}

#[test]
fn default_ready_tail_cases() {
    for (t, want) in [
        ("login:", true),
        ("am62xx-evm login: ", true),
        ("x LOGIN:\t  \r", true),
        ("xlogin:", false),
        ("_login: ", false),
        ("-login:", true),
        ("\u{e9}login:", true),
        ("login; ", false),
        ("l\x0cgin:", false),
        ("ogin:", false),
        (" : ", false),
    ] {
        assert_eq!(is_default_ready_tail(t), want, "{t:?}");
        assert_eq!(is_default_ready_tail_ref(t), want, "{t:?}");
    }
}

proptest::proptest! {
    /// The shortcut of [`strip_prefixes_slow`] gives what every stripper in turn gives, on
    /// texts glued from prefixes, their near misses and blanks (starting with no blank).
    #[test]
    fn strip_prefixes_is_every_stripper(parts in proptest::collection::vec(proptest::sample::select(vec![
        "MESS:00:00:05.163105:0: ", "MESS:00:00:05:0:", "MESS:", "M", "Mark", "123456.789: ",
        "MESS:00:00:05.163105:0:", "MESS:00:00:05.163105:12:", "MESS:00:00:05.16310:0: ",
        "MESS:00:00:05.163105;0: ", "[    0.000000] ", "\r", "\x0c", "\x0b",
        "123456.789:", "12345.6789: ", "1", "<6>", "<", "<12345>", ">", "\\x1f", "\\xg1", "\\x",
        "\u{fffd}", "\u{e9}", "\u{20ac}", " ", "\t", "x", "U-Boot", "0x80", "MESS", "MES:",
        "Mxxxxx.xxx: ", "<23456.789: ", "a23456.789: ", "12345a.789: ", "123456.78a: ",
        "123456.789:x", "\u{fffd}123456.789: ",
    ]), 0..6)) {
        let text = parts.concat();
        let lead = ascii::trim_start(&text);
        if let Some((fw, t)) = strip_mess_usual(lead) {
            proptest::prop_assert_eq!((Some(fw), t), strip_prefixes_reference(lead));
        }
        proptest::prop_assert_eq!(strip_prefixes(lead), strip_prefixes_reference(lead));
        proptest::prop_assert_eq!(strip_prefixes_slow(lead), strip_prefixes_reference(lead));
    }
}

proptest::proptest! {
    /// The hand-written `{}` of the warnings gives `format!`'s bytes.
    #[test]
    fn push_decimal_is_format(n in proptest::prelude::any::<u64>()) {
        let mut s = String::new();
        ascii::push_decimal(&mut s, n);
        proptest::prop_assert_eq!(s, n.to_string());
    }
}

/// Whether a builder is as `Builder::default()` has it, but for its warnings.
fn is_fresh(b: &Builder) -> bool {
    b.boot == Boot::default()
        && !b.started
        && b.stages.is_empty()
        && b.scale.is_none()
        && b.origin.is_none()
        && b.last_host.is_none()
        && b.ready_host.is_none()
        && b.bootstage.is_none()
        && b.report_spl.is_none()
        && b.proper_report.is_none()
        && b.sbl_run == 0
        && !b.sbl_run_has_data
        && b.calling.is_empty()
        && !b.calling_open
        && b.printk_offset.is_none()
        && !b.seen_tfa
        && b.fw_s.is_none()
        && b.fw_at_kernel.is_none()
        && b.lines == (0, 0)
        && b.tail_bytes == 0
        && b.sd_blame.len == 0
        && b.sd_chain.len == 0
        && b.sd_failed.len == 0
        && b.errors.len == 0
        && b.bootstage_buf.len == 0
        && b.sbl_points.len == 0
        && b.initcalls.len == 0
        && b.components_len == 0
        && b.components_sig == 0
}

#[test]
fn reset_gives_a_fresh_builder_keeping_warnings_and_buffers() {
    assert!(is_fresh(&Builder::default()));
    let s = |t: &str| t.to_string();
    let unit = SystemdUnit {
        name: s("u"),
        duration_s: Some(1.0),
        at_s: None,
    };
    let record = BootstageRecord {
        name: s("r"),
        mark_us: 1,
        elapsed_us: 2,
    };
    let mut b = Builder {
        boot: Boot {
            index: 3,
            complete: true,
            lines: (1, 2),
            stages: vec![Stage {
                id: StageId::Uboot,
                start_s: None,
                end_s: None,
                duration_s: None,
                clock: Clock::Host,
                line: None,
                console_bytes: None,
            }],
            components: [(s("k"), s("v"))].into(),
            sbl_profile: vec![SblPoint {
                run: 0,
                name: s("p"),
                duration_us: None,
                timestamp_us: None,
                src_line: None,
                cycle: None,
            }],
            sbl_total_us: vec![1],
            bootstage: vec![record.clone()],
            bootstage_accumulated: vec![BootstageAccum {
                name: s("a"),
                us: 1,
            }],
            bootstage_reports: vec![vec![record.clone()]],
            spl_bootstage: vec![SplBootstage {
                stage: StageId::R5Spl,
                line: 1,
                host_s: Some(0.5),
                records: vec![record.clone()],
                accumulated: vec![],
            }],
            initcalls: vec![Initcall {
                name: s("i"),
                duration_us: 1,
                ret: 0,
                ts_s: None,
            }],
            probes: vec![DeviceProbe {
                device: s("d"),
                duration_us: 1,
                ret: -517,
                ts_s: None,
            }],
            kernel: Some(KernelInfo::default()),
            systemd: Some(SystemdInfo::default()),
            login_prompt: Some(s("login:")),
            marks: vec![Mark {
                kind: "m".into(),
                line: 1,
                host_s: None,
                target_s: None,
            }],
            errors: vec![s("e")],
            printk_offset_s: Some(1.0),
            system: None,
            warnings: vec![s("x")],
        },
        started: true,
        stages: vec![OpenStage {
            id: StageId::Kernel,
            line: 1,
            host: None,
            bytes: 2,
        }],
        scale: Some(HostScale::Wall),
        origin: Some(1.0),
        last_host: Some(1.0),
        ready_host: Some(1.0),
        bootstage: Some(BootstageMode::Accumulated),
        report_spl: Some((StageId::R5Spl, 1, Some(0.5))),
        proper_report: Some(0),
        sbl_run: 2,
        sbl_run_has_data: true,
        calling: s("f"),
        calling_open: true,
        printk_offset: Some(1.0),
        seen_tfa: true,
        fw_s: Some(1.0),
        fw_at_kernel: Some(1.0),
        userspace_at_freeing: true,
        lines: (1, 2),
        tail_bytes: 3,
        sd_blame: Slots {
            v: vec![unit.clone()],
            len: 1,
        },
        sd_chain: Slots {
            v: vec![unit],
            len: 1,
        },
        sd_failed: Slots {
            v: vec![s("f")],
            len: 1,
        },
        warnings: Slots {
            v: vec![s("w")],
            len: 1,
        },
        errors: Slots {
            v: vec![s("e")],
            len: 1,
        },
        bootstage_buf: Slots {
            v: vec![record],
            len: 1,
        },
        sbl_points: Slots {
            v: vec![SblPoint {
                run: 0,
                name: s("q"),
                duration_us: None,
                timestamp_us: None,
                src_line: None,
                cycle: None,
            }],
            len: 1,
        },
        initcalls: Slots {
            v: vec![Initcall {
                name: s("j"),
                duration_us: 1,
                ret: 0,
                ts_s: None,
            }],
            len: 1,
        },
        components: vec![(s("k"), s("v"))],
        components_len: 1,
        components_sig: key_sig("k"),
    };
    assert!(!is_fresh(&b));
    b.reset();
    assert!(is_fresh(&b));
    assert_eq!(
        b.warnings,
        Slots {
            v: vec![s("w")],
            len: 1
        }
    );
    assert!(b.boot.initcalls.capacity() > 0 && b.sd_blame.v.capacity() > 0);
    // The slots keep their items (strings to rewrite), none of them live.
    assert_eq!(b.initcalls.v.len(), 1);
}

#[test]
fn components_maps_are_reused_only_for_the_same_keys() {
    // Keys whose signatures collide (the second byte is not in it): told apart anyway.
    assert_eq!(key_sig("abcde"), key_sig("axcde"));
    let mut p = Parser::new(&BoardProfile::generic());
    let boot = |p: &mut Parser, comps: &[(&str, &str)]| {
        let st = &mut p.state;
        st.cur.started = true;
        for (k, v) in comps {
            st.component(k, v);
        }
        let maps = st.bin.maps.len();
        st.end_boot();
        let b = p.next_boot().expect("a boot");
        let want: BTreeMap<String, String> = comps
            .iter()
            .rev()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(b.components, want);
        let reused = p.state.bin.maps.len() < maps;
        p.recycle(b);
        reused
    };
    // The first value of a key stays (`rev` above keeps the first).
    assert!(!boot(&mut p, &[("k", "v1"), ("abcde", "1"), ("k", "v0")]));
    assert!(!boot(&mut p, &[("axcde", "2"), ("k", "v2")]));
    assert!(boot(&mut p, &[("abcde", "3"), ("k", "v3")]));
    assert!(boot(&mut p, &[("k", "v4"), ("axcde", "4")]));
    assert!(!boot(&mut p, &[("k", "v5")]));
    assert!(!boot(&mut p, &[]));
    assert!(boot(&mut p, &[("k", "v6")]));
    // Bounded: the oldest maps go.
    for i in 0..2 * Bin::MAX_MAPS {
        boot(&mut p, &[(&format!("key{i}"), "v")]);
    }
    assert_eq!(p.state.bin.maps.len(), Bin::MAX_MAPS);
}

#[test]
fn string_pool_classes() {
    assert_eq!(StringPool::class_for(0), 0);
    assert_eq!(StringPool::class_for(16), 0);
    assert_eq!(StringPool::class_for(17), 1);
    assert_eq!(StringPool::class_for(32), 1);
    assert_eq!(StringPool::class_for(33), 2);
    let mut pool = StringPool::default();
    let s = pool.take("a text of twenty-four b");
    assert_eq!((s.as_str(), s.capacity()), ("a text of twenty-four b", 32));
    pool.put(s);
    // A pooled string comes back cleared, and is reused.
    let t = pool.take("short");
    assert_eq!((t.as_str(), t.capacity()), ("short", 32));
    // Tiny and huge strings are not kept.
    pool.put(String::with_capacity(4));
    pool.put(String::with_capacity(1 << 20));
    assert!(pool.classes.iter().all(|c| c.is_empty()));
}
