//! The grammars' reading of a line's record: classify it, open and close stages, one handler
//! per grammar, and ready detection.

use super::builder::{BootstageMode, Builder, OpenStage};
use super::clock::HostClock;
use super::recycle::{key_sig, put_text, Bin, Done};
use crate::board::BoardProfile;
use crate::fixed::push_fixed6;
use crate::hoststamp::HostScale;
use crate::model::*;
use crate::{ascii, gate, linux, needles, optee, rpi, sbl, sysfw, systemd, tfa, uboot};
use regex::Regex;
use std::borrow::Cow;
use std::fmt::Write as _;

/// The parser's state between lines: the boot under construction, the boots done, the host
/// clock, and what the profile asks of every line.
pub(super) struct State {
    pub(super) first_spl: StageId,
    pub(super) ready: Option<Regex>,
    pub(super) markers: Vec<(StageId, Regex)>,
    pub(super) cur: Builder,
    pub(super) done: Done,
    pub(super) next_index: usize,
    pub(super) clock: HostClock,
    /// The words the current line may hold (see [`needles`]), as the splitter found them.
    pub(super) hints: u8,
    /// The profile has markers or a ready pattern of its own, which every text must be tried
    /// with: `!markers.is_empty() || ready.is_some()`, fixed when the parser is made, so that
    /// the paths that skip them test one byte, not a vector's length and an option.
    pub(super) profile_hooks: bool,
    /// [`linux::StampMemo`] of the last printk stamp the dispatch read.
    pub(super) stamp_memo: linux::StampMemo,
    /// The number of the line after the last usual printk line (`u64::MAX`: none yet, a
    /// number no line reaches): see `State::printk_usual`.
    pub(super) usual_next: u64,
    /// Vectors and strings of boots handed back by [`super::Parser::recycle`], for the next
    /// boots.
    pub(super) bin: Bin,
    /// What LAVA typed last (a `log.yaml` `input` line, its final newline removed) and when,
    /// until the next console line (see `State::layered`).
    pub(super) lava_typed: Option<(Option<f64>, String)>,
}

impl State {
    /// The state of a parser for the board `profile`, before any line.
    pub(super) fn new(profile: &BoardProfile) -> Self {
        let ready = match profile.ready.as_deref() {
            None | Some(crate::console::DEFAULT_READY) => None,
            Some(p) => Regex::new(p).ok(),
        };
        let markers: Vec<_> = profile
            .markers
            .iter()
            .filter_map(|m| Regex::new(&m.pattern).ok().map(|r| (m.stage, r)))
            .collect();
        let profile_hooks = !markers.is_empty() || ready.is_some();
        State {
            first_spl: profile.first_spl,
            ready,
            markers,
            cur: Builder::default(),
            done: Done::default(),
            next_index: 0,
            clock: HostClock::default(),
            hints: needles::ALL,
            profile_hooks,
            stamp_memo: linux::StampMemo::default(),
            usual_next: u64::MAX,
            bin: Bin::default(),
            lava_typed: None,
        }
    }

    /// [`HostClock::host`] of this state's boot under construction.
    #[inline(always)]
    pub(super) fn host(&mut self, n: u64, raw: Option<f64>, scale: HostScale) -> Option<f64> {
        let first_boot = self.next_index == 0;
        self.clock.host(
            n,
            raw,
            scale,
            &mut self.cur,
            first_boot,
            &mut self.bin.strings,
        )
    }

    /// [`HostClock::note`] of this state's boot under construction.
    #[inline]
    pub(super) fn note_host(&mut self, abs: f64, scale: HostScale) {
        let first_boot = self.next_index == 0;
        self.clock.note(abs, scale, first_boot, &mut self.cur);
    }
}

/// `r.is_match(t)`, kept out of the per-line path (a profile's own ready regex is rare).
#[inline(never)]
pub(super) fn is_match_out_of_line(r: &Regex, t: &str) -> bool {
    r.is_match(t)
}

/// Whether a line is a bootstage report's `Mark Elapsed Stage` header, as [`uboot::line`]
/// tells. Only a line starting `Mark` can be (the grammar's own first test for it): the
/// others, such as the line that ends a report, skip the grammar and its `autoboot` search.
pub(super) fn is_columns_line(t: &str) -> bool {
    t.starts_with("Mark") && matches!(uboot::line(t), Some(uboot::UbootLine::BootstageColumns))
}

/// Whether `t` matches [`DEFAULT_READY`] (a `login:` prompt, blanks after it allowed).
/// Inlined: most lines end in neither `:` nor a blank, and are ruled out with no trim and
/// no call.
#[inline(always)]
pub(super) fn is_default_ready(t: &str) -> bool {
    may_be_default_ready(t.as_bytes()) && is_default_ready_tail(t)
}

/// Whether a text `b` ends in `:` or a blank, as every match of [`DEFAULT_READY`] does: the
/// inlined first test of [`is_default_ready`].
#[inline(always)]
pub(super) fn may_be_default_ready(b: &[u8]) -> bool {
    match b.last() {
        Some(b':') => true,
        Some(c) => c.is_ascii_whitespace(),
        None => false,
    }
}

/// Whether a text `b` may match [`DEFAULT_READY`] by its last two bytes: it ends in `:`, or
/// in a blank after a `:` or a blank. [`may_be_default_ready`] with one more byte looked
/// at: a text ending in one blank after another byte (`foo `, most texts that end in a
/// blank) is ruled out with no call, as [`login_tail`] would rule it out (the byte before the
/// blank ends the text it looks at, and must be the `:`). `may_end_login_is_needed_by_login`
/// checks it.
#[inline(always)]
pub(super) fn may_end_login(b: &[u8]) -> bool {
    // The last byte first, as `may_be_default_ready` tests it (most texts end in neither):
    // the byte before it is read only for a text that ends in a blank.
    match b.last() {
        Some(b':') => true,
        Some(c) if c.is_ascii_whitespace() => match b.len().checked_sub(2) {
            Some(i) => b[i] == b':' || b[i].is_ascii_whitespace(),
            None => false,
        },
        _ => false,
    }
}

/// [`is_default_ready`] of a text that ends in `:` or a blank (out of line). The text's end
/// before its trailing blanks is found with no trim when it ends in `:` or in one blank after
/// a non-blank (most of these lines), and `login:` is compared a word at a time (letters
/// folded by setting bit 5, exact for them). The reference, `is_default_ready_tail_ref`, is
/// in the tests, with a proptest that they agree.
#[inline(never)]
pub(super) fn is_default_ready_tail(t: &str) -> bool {
    login_tail(t)
}

/// The body of [`is_default_ready_tail`], inlined into [`State::ready_if_login`] too (which
/// then calls nothing on most lines, and needs no frame).
#[inline(always)]
pub(super) fn login_tail(t: &str) -> bool {
    let b = t.as_bytes();
    let n = b.len();
    let end = if n >= 2 && b[n - 1] != b':' && !b[n - 2].is_ascii_whitespace() {
        // One blank (the caller saw a `:` or a blank last), after a byte that is no blank.
        n - 1
    } else if b.last() == Some(&b':') {
        n
    } else {
        ascii::trim_end(t).len()
    };
    if end < 6 || b[end - 1] != b':' {
        return false;
    }
    let w = &b[end - 6..end - 1];
    let logi = u32::from_le_bytes([w[0], w[1], w[2], w[3]]) | 0x2020_2020;
    if logi != u32::from_le_bytes(*b"logi") || w[4] | 0x20 != b'n' {
        return false;
    }
    // `\b` before `login`.
    end == 6 || !b[end - 7].is_ascii_alphanumeric() && b[end - 7] != b'_'
}

impl State {
    /// The words the current line may hold (see [`needles`]).
    #[inline]
    pub(super) fn hints(&mut self) -> u8 {
        self.hints
    }

    #[inline]
    pub(super) fn touch(&mut self, n: u64, len: usize) {
        let b = &mut self.cur;
        if !b.started {
            b.started = true;
            b.lines.0 = n;
        }
        b.lines.1 = n;
        // The running stage's, added to it by `flush_bytes` (lost if no stage runs).
        b.tail_bytes += len as u64 + 2;
    }

    /// Whether `t` is the profile's ready marker (by default a login prompt). Inlined with
    /// the default's last-byte test; what follows it, and a profile's regex, out of line.
    #[inline(always)]
    pub(super) fn is_ready(&self, t: &str) -> bool {
        match &self.ready {
            None => is_default_ready(t),
            Some(r) => is_match_out_of_line(r, t),
        }
    }

    /// Whether `t` may open user space in [`State::classify`] (after no grammar took it):
    /// the first byte first, then the running stage, then the four openings.
    #[inline(always)]
    pub(super) fn may_open_userspace(&self, t: &str) -> bool {
        matches!(t.as_bytes().first(), Some(b'i' | b'I' | b'S' | b'W'))
            && self.current() == Some(StageId::Kernel)
            && (t.starts_with("init started: BusyBox")
                || t.starts_with("INIT: version")
                || t.starts_with("Starting ")
                || t.starts_with("Welcome to "))
    }

    /// The grammars' reading of a text that has no printk stamp, and what it opens or marks.
    /// True when the text is one the default ready test ([`is_default_ready`]) turns away,
    /// so the caller need not ask it: a systemd blame row, as told below.
    pub(super) fn classify(&mut self, n: u64, host: Option<f64>, fw: Option<f64>, t: &str) -> bool {
        if fw.is_some() {
            self.cur.fw_s = fw;
        }
        // Only the grammars the first byte and the line's words allow (see `gate`), in order.
        // (This also fixes `self.hints` for the handlers below that read it.)
        let hints = self.hints();
        let g = gate::grammars(t.as_bytes().first().copied().unwrap_or(0), hints);
        // Most lines may match no grammar at all: one test skips the whole chain.
        if g != 0 {
            // The grammars in two groups of four, each skipped by one test when the gate lets
            // none of them in (most lines it lets in are for one or two grammars).
            if g & (gate::UBOOT | gate::SBL | gate::OPTEE | gate::SYSFW) != 0 {
                if g & gate::UBOOT != 0 {
                    if let Some(l) = uboot::line_hinted(t, hints) {
                        self.uboot(n, host, l);
                        return false;
                    }
                }
                if g & gate::SBL != 0 {
                    if let Some(l) = sbl::line(t) {
                        self.sbl(n, host, l);
                        return false;
                    }
                }
                if g & gate::OPTEE != 0 {
                    if let Some(l) = optee::line(t) {
                        self.optee(n, host, l);
                        return false;
                    }
                }
                if g & gate::SYSFW != 0 {
                    if let Some(l) = sysfw::line_hinted(t, hints) {
                        self.sysfw(n, host, l);
                        return false;
                    }
                }
            }
            if g & (gate::TFA | gate::OPENSBI | gate::RPI | gate::LINUX) != 0 {
                if g & gate::TFA != 0 {
                    if let Some(l) = tfa::line(t) {
                        self.tfa(n, host, l);
                        return false;
                    }
                }
                if g & gate::OPENSBI != 0 {
                    if let Some(v) = tfa::opensbi(t) {
                        self.open(StageId::Tfa, n, host, None, "opensbi");
                        self.component("opensbi", v);
                        return false;
                    }
                }
                if g & gate::RPI != 0 {
                    if let Some(l) = rpi::line(t) {
                        self.rpi(n, host, l);
                        return false;
                    }
                }
                if g & gate::LINUX != 0 {
                    if let Some(l) = linux::line(t) {
                        self.kernel(n, host, None, l);
                        return false;
                    }
                }
            }
            if g & gate::SYSTEMD != 0 {
                if let Some(l) = systemd::line_hinted(t, hints) {
                    // A blame row's text ends in its unit's suffix (a letter), then blanks:
                    // its ASCII trim (the login test's) ends there or, where a Unicode blank
                    // is left, on a byte of that blank; no `:`, so no `login:` prompt. Most
                    // rows end in a padding of blanks, so the test would trim and compare.
                    let no_prompt = matches!(l, systemd::SystemdLine::Blame(..));
                    self.systemd(n, host, l);
                    return no_prompt;
                }
            }
        }
        // The first byte first: most lines are ruled out by it alone.
        if self.may_open_userspace(t) {
            self.open(StageId::Userspace, n, host, None, "init");
        }
        // A profile's markers are rare: one length test here, the loop out of line.
        if !self.markers.is_empty() {
            self.match_markers(n, host, t);
        }
        false
    }

    /// Opens the stage of the first of the profile's markers that matches `t`, if any (out of
    /// line: see [`State::classify`]).
    #[inline(never)]
    pub(super) fn match_markers(&mut self, n: u64, host: Option<f64>, t: &str) {
        for i in 0..self.markers.len() {
            if self.markers[i].1.is_match(t) {
                let stage = self.markers[i].0;
                self.open(stage, n, host, None, "marker");
                break;
            }
        }
    }

    pub(super) fn current(&self) -> Option<StageId> {
        self.cur.stages.last().map(|s| s.id)
    }

    pub(super) fn seen(&self, id: StageId) -> bool {
        self.cur.stages.iter().any(|s| s.id == id)
    }

    pub(super) fn mark(
        &mut self,
        kind: &'static str,
        n: u64,
        host: Option<f64>,
        target: Option<f64>,
    ) {
        self.mark_text(Cow::Borrowed(kind), n, host, target);
    }

    /// [`State::mark`] with a kind that may have been made (formatted).
    pub(super) fn mark_text(
        &mut self,
        kind: Cow<'static, str>,
        n: u64,
        host: Option<f64>,
        target: Option<f64>,
    ) {
        let host_s = host.and_then(|h| self.cur.rel(h));
        self.cur.boot.marks.push(Mark {
            kind,
            line: n,
            host_s,
            target_s: target,
        });
    }

    pub(super) fn component(&mut self, key: &str, v: &str) {
        // The first value stays.
        let b = &mut self.cur;
        if b.has_component(key) {
            return;
        }
        match b.components.get_mut(b.components_len) {
            Some((k, val)) => {
                put_text(k, key);
                put_text(val, v);
            }
            None => {
                let pool = &mut self.bin.strings;
                b.components.push((pool.take(key), pool.take(v)));
            }
        }
        b.components_len += 1;
        b.components_sig = b.components_sig.wrapping_add(key_sig(key));
    }

    /// [`State::component`] of a banner's version, none for a banner that printed none.
    pub(super) fn version_component(&mut self, key: &str, version: &str) {
        if !version.is_empty() {
            self.component(key, version);
        }
    }

    /// Opens a stage; a stage earlier than the running one (or any after the ready marker)
    /// means a reset, so the current boot ends and a new one begins.
    pub(super) fn open(
        &mut self,
        id: StageId,
        n: u64,
        host: Option<f64>,
        target: Option<f64>,
        kind: &'static str,
    ) {
        // A stage seen before in this boot (other than the running one), a boot-loader stage
        // after the kernel started, or anything after the ready marker: the board was reset.
        let reset = match self.current() {
            Some(cur) => {
                (id != cur && self.seen(id))
                    || (cur >= StageId::Kernel && id < StageId::Kernel)
                    || (self.cur.boot.complete && id < StageId::Userspace)
            }
            None => false,
        };
        if reset {
            self.end_boot();
            if let Some(h) = host {
                self.note_host(h, self.clock.last_scale);
            }
            self.start_stage(id, n, host);
        } else if self.current() != Some(id) {
            self.start_stage(id, n, host);
        }
        self.mark(kind, n, host, target);
    }

    pub(super) fn start_stage(&mut self, id: StageId, n: u64, host: Option<f64>) {
        if id == StageId::Kernel {
            self.cur.fw_at_kernel = self.cur.fw_s;
        }
        self.cur.started = true;
        self.cur.userspace_at_freeing = false;
        if self.cur.lines.0 == 0 {
            self.cur.lines.0 = n;
        }
        self.cur.flush_bytes();
        self.cur.stages.push(OpenStage {
            id,
            line: n,
            host,
            bytes: 0,
        });
    }

    pub(super) fn uboot(&mut self, n: u64, host: Option<f64>, l: uboot::UbootLine) {
        use uboot::{Phase, UbootLine as U};
        match l {
            U::Banner { phase, version, .. } => match phase {
                Phase::Tpl => {
                    self.open(StageId::ASpl, n, host, None, "tpl_banner");
                    self.version_component("uboot_tpl", version);
                }
                Phase::Spl => {
                    let stage = if self.cur.seen_tfa {
                        StageId::ASpl
                    } else {
                        self.first_spl
                    };
                    // TI K3 flow seen with a profile that did not say so: the SPL that loaded
                    // TF-A ran on the R5, and this one is the A-core SPL.
                    if stage == StageId::ASpl
                        && self.cur.seen_tfa
                        && self.seen(StageId::ASpl)
                        && !self.seen(StageId::R5Spl)
                        && !self.seen(StageId::Uboot)
                        && self
                            .cur
                            .stages
                            .first()
                            .is_some_and(|s| s.id == StageId::ASpl)
                    {
                        self.cur.stages[0].id = StageId::R5Spl;
                        // The reports printed so far were that SPL's.
                        for r in &mut self.cur.boot.spl_bootstage {
                            r.stage = StageId::R5Spl;
                        }
                        if let Some((stage, ..)) = &mut self.cur.report_spl {
                            *stage = StageId::R5Spl;
                        }
                    }
                    // K3: a second SPL banner with no TF-A between is a reset, handled by open().
                    self.open(stage, n, host, None, "spl_banner");
                    if stage == StageId::ASpl
                        && self.cur.has_component("uboot_spl")
                        && self.first_spl == StageId::R5Spl
                    {
                        self.version_component("uboot_spl_a", version);
                    } else {
                        self.version_component("uboot_spl", version);
                    }
                }
                Phase::Proper => {
                    self.open(StageId::Uboot, n, host, None, "uboot_banner");
                    self.version_component("uboot", version);
                }
            },
            U::TryingToBoot(_) => self.mark("trying_to_boot", n, host, None),
            U::Autoboot => self.mark("autoboot", n, host, None),
            U::StartingKernel => self.open(StageId::Kernel, n, host, None, "starting_kernel"),
            U::StartingAtf => self.mark("starting_atf", n, host, None),
            U::BootstageHeader(k) => {
                // Printed while an SPL runs (before U-Boot proper's banner): that SPL's own.
                self.cur.report_spl = match self.current() {
                    Some(id @ (StageId::R5Spl | StageId::ASpl)) => {
                        Some((id, n, host.and_then(|h| self.cur.rel(h))))
                    }
                    _ => None,
                };
                let mut got = std::mem::take(&mut self.cur.bootstage_buf);
                got.len = 0;
                self.cur.bootstage = Some(BootstageMode::Records { expected: k, got })
            }
            U::BootstageColumns => {}
            U::AccumulatedHeader => {
                if self.cur.report_spl.is_none() {
                    self.cur.boot.bootstage_accumulated.clear();
                }
                self.cur.bootstage = Some(BootstageMode::Accumulated)
            }
            U::Error(e) => {
                write_line(
                    self.cur
                        .errors
                        .next_text(&mut self.bin.strings, e.len() + 26),
                    n,
                    e,
                );
                self.mark("error", n, host, None);
            }
        }
    }

    /// Handles a line (number `n`) while a bootstage report or SBL cores list is open; false
    /// ends it. Out of line: few lines are in one, and the others should not pay for it in
    /// `record_text`.
    #[inline(never)]
    pub(super) fn bootstage_row(&mut self, n: u64, t: &str) -> bool {
        self.bootstage_row_inline(n, t)
    }

    /// [`State::bootstage_row`] inlined, into [`State::record_in_bootstage`], where most rows
    /// come from: one frame a row, not two.
    #[inline(always)]
    pub(super) fn bootstage_row_inline(&mut self, n: u64, t: &str) -> bool {
        let mode = self.cur.bootstage.as_mut().expect("checked by caller");
        match mode {
            BootstageMode::Cores => {
                // A core name: one word, no `[`; it counts as console output of the boot.
                // (The `' '` by the inlined `ascii::find_byte`, not `contains`' `memchr` call.)
                if !t.starts_with('[') && ascii::find_byte(t.as_bytes(), b' ').is_none() {
                    self.touch(n, t.len());
                    return true;
                }
            }
            BootstageMode::Records { got, .. } => {
                if let Some((mark_us, elapsed_us, name)) = uboot::record_row(t) {
                    let unnamed;
                    let name = if name.is_empty() {
                        unnamed = unnamed_record(got.len + 1);
                        unnamed.as_str()
                    } else {
                        name
                    };
                    got.push(name, &mut self.bin.strings, |name| BootstageRecord {
                        name,
                        mark_us,
                        elapsed_us,
                    });
                    return true;
                }
                if is_columns_line(t) {
                    return true;
                }
            }
            BootstageMode::Accumulated => {
                if let Some((us, name)) = uboot::accumulated_row(t) {
                    let a = BootstageAccum {
                        name: self.bin.strings.take(name),
                        us,
                    };
                    let b = &mut self.cur;
                    match b.boot.spl_bootstage.last_mut() {
                        Some(spl) if b.report_spl.is_some() => spl.accumulated.push(a),
                        _ => b.boot.bootstage_accumulated.push(a),
                    }
                    return true;
                }
            }
        }
        self.close_bootstage();
        false
    }

    pub(super) fn close_bootstage(&mut self) {
        if let Some(BootstageMode::Records { expected, mut got }) = self.cur.bootstage.take() {
            // U-Boot counts records it does not print (zero marks), so fewer rows are normal.
            if got.len as u32 > expected || got.len == 0 {
                let w = self.cur.warnings.next_text(&mut self.bin.strings, 64);
                let _ = w.write_fmt(format_args!(
                    "bootstage report announced {expected} records but {} were read",
                    got.len
                ));
            }
            // `boot.bootstage` (U-Boot proper's last report) is copied from the reports once,
            // in `finish`; an SPL's report is kept whole in `spl_bootstage` as well.
            let bin = &mut self.bin;
            let report = got.hand_out(&mut bin.records, &mut bin.held, &mut bin.strings);
            let b = &mut self.cur;
            match b.report_spl {
                Some((stage, line, host_s)) => b.boot.spl_bootstage.push(SplBootstage {
                    stage,
                    line,
                    host_s,
                    records: report.clone(),
                    accumulated: Vec::new(),
                }),
                None => b.proper_report = Some(b.boot.bootstage_reports.len()),
            }
            b.boot.bootstage_reports.push(report);
            b.bootstage_buf = got;
        }
    }

    pub(super) fn sbl(&mut self, n: u64, host: Option<f64>, l: sbl::SblLine) {
        use sbl::SblLine as S;
        let b = &mut self.cur;
        // A profile line after a total begins the next SBL run of a multistage boot.
        let point = matches!(
            l,
            S::Point(..) | S::PdkEntry { .. } | S::Info(..) | S::McuHz(_)
        );
        if point && b.sbl_run_has_data && b.boot.sbl_total_us.len() as u32 > b.sbl_run {
            b.sbl_run += 1;
        }
        if !self.seen(StageId::Sbl) || self.current() < Some(StageId::Sbl) {
            self.open(StageId::Sbl, n, host, None, "sbl");
        }
        let b = &mut self.cur;
        let run = b.sbl_run;
        match l {
            S::Revision(r) => {
                self.component("sbl", r.split_whitespace().next().unwrap_or(r));
            }
            S::McuHz(hz) => {
                let kind = self
                    .bin
                    .strings
                    .take_fmt(32, format_args!("sbl_mcu_hz={hz}"));
                self.mark_text(Cow::Owned(kind), n, host, None)
            }
            S::CyclesPerUsec(_) | S::Info(..) => {}
            S::Overflow => {
                let w = self.cur.warnings.next_text(&mut self.bin.strings, 64);
                let _ = w.write_fmt(format_args!(
                    "line {n}: SBL profile log overflowed; entries may be missing"
                ));
            }
            // (No bootstage report is open: the grammars read this line.)
            S::CoresPresent => self.cur.bootstage = Some(BootstageMode::Cores),
            S::PdkEntry {
                wrapped,
                fxn,
                line,
                cycle,
                timestamp_us,
            } => {
                b.sbl_run_has_data = true;
                if wrapped {
                    let w = b.warnings.next_text(&mut self.bin.strings, 64);
                    let _ = w.write_fmt(format_args!(
                        "line {n}: SBL cycle counter wrapped before {fxn}"
                    ));
                }
                b.sbl_points
                    .push(fxn, &mut self.bin.strings, |name| SblPoint {
                        run,
                        name,
                        duration_us: None,
                        timestamp_us: Some(timestamp_us),
                        src_line: Some(line),
                        cycle: Some(cycle),
                    });
            }
            S::Point(name, us) => {
                b.sbl_run_has_data = true;
                b.sbl_points
                    .push(name, &mut self.bin.strings, |name| SblPoint {
                        run,
                        name,
                        duration_us: Some(us),
                        timestamp_us: None,
                        src_line: None,
                        cycle: None,
                    });
            }
            S::Total(us) => {
                b.sbl_run_has_data = true;
                if b.boot.sbl_total_us.len() as u32 > run {
                    b.sbl_run += 1;
                }
                b.boot.sbl_total_us.push(us);
                self.mark("sbl_total", n, host, None);
            }
            S::Handoff => self.mark("sbl_handoff", n, host, None),
            S::Starting(_) => self.mark("sbl_starting", n, host, None),
        }
    }

    pub(super) fn sysfw(&mut self, n: u64, host: Option<f64>, l: sysfw::SysfwLine) {
        use sysfw::SysfwLine as F;
        match l {
            F::Abi(abi, fw) => {
                self.component("sysfw_abi", abi);
                if let Some(fw) = fw {
                    self.component("sysfw", fw);
                }
            }
            F::Version(v) => {
                if !self.seen(StageId::Sbl) && !self.seen(StageId::R5Spl) {
                    self.open(StageId::Sbl, n, host, None, "sbl");
                }
                self.component("sysfw", v)
            }
            F::DmscAbi(v) => self.component("sysfw_abi", v),
            F::BoardConfig(_) => self.mark("sysfw_board_config", n, host, None),
        }
    }

    pub(super) fn tfa(&mut self, n: u64, host: Option<f64>, l: tfa::TfaLine) {
        match l {
            tfa::TfaLine::Version(bl, v) => {
                if bl == "BL31" {
                    self.cur.seen_tfa = true;
                    self.open(StageId::Tfa, n, host, None, "bl31");
                    self.component("tfa", v);
                } else {
                    self.component(&format!("tfa_{}", bl.to_ascii_lowercase()), v);
                }
            }
            tfa::TfaLine::OpenSbi(v) => {
                self.open(StageId::Tfa, n, host, None, "opensbi");
                self.component("opensbi", v);
            }
            tfa::TfaLine::Other => {}
        }
    }

    pub(super) fn optee(&mut self, n: u64, host: Option<f64>, l: optee::OpteeLine) {
        match l {
            optee::OpteeLine::Version(v) => {
                self.cur.seen_tfa = true;
                self.open(StageId::Optee, n, host, None, "optee");
                self.component("optee", v);
            }
            optee::OpteeLine::NormalWorld => self.mark("optee_done", n, host, None),
            optee::OpteeLine::Secondary => {}
            optee::OpteeLine::Other(rest) => {
                if let Some(l) = sysfw::line_hinted(rest, self.hints) {
                    self.sysfw(n, host, l);
                }
            }
        }
    }

    #[inline(never)]
    pub(super) fn rpi(&mut self, n: u64, host: Option<f64>, l: rpi::RpiLine) {
        match l {
            rpi::RpiLine::Bootloader(v, date) => {
                self.open(StageId::Rom, n, host, None, "rpi_bootloader");
                // `{v} ({d})` by hand, not by `format!`.
                match date {
                    Some(d) => {
                        let mut s = String::with_capacity(v.len() + d.len() + 3);
                        s.push_str(v);
                        s.push_str(" (");
                        s.push_str(d);
                        s.push(')');
                        self.component("rpi_bootloader", &s);
                    }
                    None => self.component("rpi_bootloader", v),
                }
            }
            rpi::RpiLine::Firmware(v) => self.component("rpi_firmware", v),
            rpi::RpiLine::StartingFirmware(f) => {
                if self.current().is_none() {
                    self.open(StageId::Rom, n, host, None, "rpi_firmware");
                }
                let kind = self
                    .bin
                    .strings
                    .take_fmt(32, format_args!("starting_{}", f.trim_end_matches(".elf")));
                self.mark_text(Cow::Owned(kind), n, host, None)
            }
            rpi::RpiLine::LoadedKernel(_) => self.mark("kernel_loaded", n, host, None),
        }
    }

    /// A printk-stamped record: clock checks, the kernel stage, its message's grammars.
    /// Inlined into `record_printk_inline` (so into `bracket_line`): one frame a printk line.
    #[inline(always)]
    pub(super) fn printk(&mut self, n: u64, host: Option<f64>, p: linux::Printk) {
        let b = &mut self.cur;
        // The last printk time of this boot is its kernel's `last_ts_s` (kept there alone).
        if let Some(last) = b.boot.kernel.as_ref().and_then(|k| k.last_ts_s) {
            if p.ts + 1e-3 < last {
                // By hand, not `format!` (one per reset in a log of many boots).
                let w = b.warnings.next_text(&mut self.bin.strings, 128);
                w.push_str("line ");
                ascii::push_decimal(w, n);
                w.push_str(": printk time went back from ");
                push_fixed6(w, last);
                w.push_str(" to ");
                push_fixed6(w, p.ts);
                w.push_str(": the board was reset");
                self.end_boot();
                if let Some(h) = host {
                    self.note_host(h, self.clock.last_scale);
                }
            }
        }
        let b = &mut self.cur;
        let k = b.boot.kernel.get_or_insert_with(KernelInfo::default);
        if k.first_ts_s.is_none() {
            k.first_ts_s = Some(p.ts);
        }
        k.last_ts_s = Some(p.ts);
        if let Some(h) = host {
            let d = h - p.ts;
            if b.printk_offset.map_or(true, |o| d < o) {
                b.printk_offset = Some(d);
            }
        }
        if self.current().map_or(true, |c| c < StageId::Kernel) {
            self.open(StageId::Kernel, n, host, Some(p.ts), "kernel_first_line");
        }
        if let Some(l) = linux::line(p.msg) {
            self.kernel(n, host, Some(p.ts), l);
        } else if let Some(l) = p
            .msg
            .starts_with("systemd")
            .then(|| systemd::line_hinted(p.msg, self.hints()))
            .flatten()
        {
            self.systemd(n, host, l);
        }
    }

    pub(super) fn kernel(
        &mut self,
        n: u64,
        host: Option<f64>,
        ts: Option<f64>,
        l: linux::KernelLine,
    ) {
        use linux::KernelLine as K;
        match l {
            K::Booting => self.open(StageId::Kernel, n, host, ts, "linux_booting"),
            K::Uncompressing => self.open(StageId::Kernel, n, host, ts, "linux_uncompressing"),
            K::Version(v) => {
                self.open(StageId::Kernel, n, host, ts, "linux_version");
                self.component("kernel", v);
                self.cur
                    .boot
                    .kernel
                    .get_or_insert_with(KernelInfo::default)
                    .version = Some(self.bin.strings.take(v));
            }
            K::CmdLine(c) => {
                self.cur
                    .boot
                    .kernel
                    .get_or_insert_with(KernelInfo::default)
                    .cmdline = Some(self.bin.strings.take(c))
            }
            K::Machine(m) => {
                self.cur
                    .boot
                    .kernel
                    .get_or_insert_with(KernelInfo::default)
                    .machine = Some(self.bin.strings.take(m))
            }
            K::FreeingUnused => {
                // The last kernel line before init on every kernel: user space opens here
                // unless a `Run ... as init process` line follows, which then moves its start.
                if self.current() == Some(StageId::Kernel) {
                    let k = self.cur.boot.kernel.get_or_insert_with(KernelInfo::default);
                    if k.init_ts_s.is_none() {
                        k.init_ts_s = ts;
                    }
                    self.open(StageId::Userspace, n, host, ts, "freeing_unused");
                    self.cur.userspace_at_freeing = true;
                }
            }
            K::RunInit(_) => self.run_init(n, host, ts),
            K::Calling(f) => self.calling(f),
            K::Probe { device, ret, usecs } => {
                let device = self.bin.strings.take(device);
                self.cur.boot.probes.push(DeviceProbe {
                    device,
                    duration_us: usecs,
                    ret,
                    ts_s: ts,
                });
            }
            K::Initcall { name, ret, usecs } => self.initcall(name, ret, usecs, ts),
            K::Panic(why) => {
                let e = self.cur.errors.next_text(&mut self.bin.strings, 128);
                let _ = e.write_fmt(format_args!("line {n}: Kernel panic - not syncing: {why}"));
                self.mark("panic", n, host, ts);
            }
        }
    }

    /// `Run <path> as init process`, whatever the path (`/init`, `/sbin/init`, `/bin/sh`, an
    /// `init=`): the kernel hands over to user space here. It opens user space when the
    /// kernel runs; when `Freeing unused kernel memory` opened it just before (no stage since),
    /// its start moves to this line: its line, host time and the console bytes before it go
    /// to the kernel, and `init_ts_s` is this line's stamp. Any later one (an earlier path
    /// failed to execute) is a mark.
    pub(super) fn run_init(&mut self, n: u64, host: Option<f64>, ts: Option<f64>) {
        if self.current() == Some(StageId::Kernel) {
            let k = self.cur.boot.kernel.get_or_insert_with(KernelInfo::default);
            k.init_ts_s = ts.or(k.init_ts_s);
            self.open(StageId::Userspace, n, host, ts, "run_init");
            return;
        }
        let b = &mut self.cur;
        if std::mem::take(&mut b.userspace_at_freeing) && b.stages.len() >= 2 {
            b.flush_bytes();
            let k = b.stages.len() - 1;
            let before = std::mem::take(&mut b.stages[k].bytes);
            b.stages[k - 1].bytes += before;
            let us = &mut b.stages[k];
            us.line = n;
            us.host = host;
            let k = b.boot.kernel.get_or_insert_with(KernelInfo::default);
            k.init_ts_s = ts.or(k.init_ts_s);
        } else {
            let k = b.boot.kernel.get_or_insert_with(KernelInfo::default);
            if k.init_ts_s.is_none() {
                k.init_ts_s = ts;
            }
        }
        self.mark("run_init", n, host, ts);
    }

    /// A `calling` line's function (initcall_debug): the initcall now running.
    #[inline(always)]
    pub(super) fn calling(&mut self, f: &str) {
        ascii::replace_text(&mut self.cur.calling, f);
        self.cur.calling_open = true;
    }

    /// An `initcall ... returned` line's parts (initcall_debug), stamped `ts`: one more
    /// initcall of the boot, and none running.
    #[inline(always)]
    pub(super) fn initcall(&mut self, name: &str, ret: i64, usecs: u64, ts: Option<f64>) {
        self.cur.calling_open = false;
        let pool = &mut self.bin.strings;
        self.cur.initcalls.push_initcall(name, pool, usecs, ret, ts)
    }

    pub(super) fn systemd(&mut self, n: u64, host: Option<f64>, l: systemd::SystemdLine) {
        use systemd::SystemdLine as D;
        if let D::Ok = l {
            return self.systemd_ok(n, host);
        }
        let opens = matches!(l, D::Failed(_) | D::Welcome);
        if opens && self.current().is_some_and(|c| c == StageId::Kernel) {
            self.open(StageId::Userspace, n, host, None, "systemd");
        }
        let b = &mut self.cur;
        let pool = &mut self.bin.strings;
        let sd = b.boot.systemd.get_or_insert_with(SystemdInfo::default);
        match l {
            D::Startup(parts, total) => {
                for (label, v) in parts {
                    let slot = match label {
                        "firmware" => &mut sd.firmware_s,
                        "loader" => &mut sd.loader_s,
                        "kernel" => &mut sd.kernel_s,
                        "initrd" => &mut sd.initrd_s,
                        "userspace" => &mut sd.userspace_s,
                        _ => continue,
                    };
                    *slot = Some(v);
                }
                sd.total_s = total;
            }
            D::Reached(unit, v) => sd.target_reached = Some((pool.take(unit), v)),
            // Counted by `systemd_ok`, which took it above.
            D::Ok => {}
            D::Failed(u) => b.sd_failed.push(u, pool, |s| s),
            D::Welcome => {}
            D::Blame(u, d) => b.sd_blame.push(u, pool, |name| SystemdUnit {
                name,
                duration_s: Some(d),
                at_s: None,
            }),
            D::Chain(u, at, plus) => b.sd_chain.push(u, pool, |name| SystemdUnit {
                name,
                duration_s: plus,
                at_s: Some(at),
            }),
        }
    }

    /// [`State::systemd`] of a `[  OK  ]` line: it opens user space when the kernel runs,
    /// and is counted.
    #[inline(always)]
    pub(super) fn systemd_ok(&mut self, n: u64, host: Option<f64>) {
        if self.current() == Some(StageId::Kernel) {
            self.open(StageId::Userspace, n, host, None, "systemd");
        }
        let sd = self
            .cur
            .boot
            .systemd
            .get_or_insert_with(SystemdInfo::default);
        sd.ok_lines += 1;
    }

    pub(super) fn ready(&mut self, n: u64, host: Option<f64>, t: &str) {
        if self.cur.boot.complete {
            return;
        }
        if !self.seen(StageId::Userspace) {
            // Where userspace began is unknown: the last stage seen runs to the ready marker.
            let msg = "ready marker seen but no line told where userspace began; the last stage seen runs to it";
            write_line(
                self.cur
                    .warnings
                    .next_text(&mut self.bin.strings, msg.len() + 26),
                n,
                msg,
            );
        }
        self.cur.boot.complete = true;
        self.cur.ready_host = host;
        self.cur.boot.login_prompt = Some(self.bin.strings.take(t.trim()));
        self.mark("ready", n, host, None);
    }

    pub(super) fn end_boot(&mut self) {
        if self.cur.bootstage.is_some() {
            self.close_bootstage();
        }
        if self.cur.started {
            if self.clock.power_on && self.next_index == 0 {
                self.cur.add_pre_console_stage();
            }
            self.cur
                .finish(self.next_index, &mut self.bin, &mut self.done);
            self.next_index += 1;
        }
        // A boot that never started hands its warnings on to the next.
        self.cur.reset();
    }
}

/// The name of a bootstage record printed with an empty name, the `k`-th row of its report:
/// `(unnamed k)` (its row, counted from 1, stable from boot to boot of the same firmware).
#[cold]
pub(super) fn unnamed_record(k: usize) -> String {
    format!("(unnamed {k})")
}

/// Writes `line {n}: {msg}`, the form of most warnings and errors, without `format!`.
pub(super) fn write_line(s: &mut String, n: u64, msg: &str) {
    s.push_str("line ");
    ascii::push_decimal(s, n);
    s.push_str(": ");
    s.push_str(msg);
}
