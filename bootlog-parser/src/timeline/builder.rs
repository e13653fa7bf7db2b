//! The boot under construction: its open stages, buffers that outlive it, and its finishing
//! into a [`Boot`] (stage figures on the host clock or the target's, warnings).

use super::recycle::{
    clear_marks, hand_out, rewrite_same_keys, spare, swap_list, Bin, Done, Slots,
};
use crate::fixed::round6;
use crate::hoststamp::HostScale;
use crate::model::*;
use crate::spl_breakdown;
use std::collections::BTreeMap;
use std::fmt::Write as _;

pub(super) struct OpenStage {
    pub(super) id: StageId,
    pub(super) line: u64,
    pub(super) host: Option<f64>,
    pub(super) bytes: u64,
}

#[derive(Default)]
pub(super) struct Builder {
    pub(super) boot: Boot,
    pub(super) started: bool,
    pub(super) stages: Vec<OpenStage>,
    pub(super) scale: Option<HostScale>,
    pub(super) origin: Option<f64>,
    pub(super) last_host: Option<f64>,
    pub(super) ready_host: Option<f64>,
    /// The bootstage report or SBL cores list being read (lines that continue it are read
    /// as its rows, see [`State::bootstage_row`]): one test on every line for both.
    pub(super) bootstage: Option<BootstageMode>,
    /// The SPL stage that printed the bootstage report being read (or the last one read), with
    /// its header's line and host time on this boot's clock; `None` for U-Boot proper's. Its
    /// `Accumulated time:` rows follow it there.
    pub(super) report_spl: Option<(StageId, u64, Option<f64>)>,
    /// Index in `boot.bootstage_reports` of U-Boot proper's last report (the last report no
    /// SPL printed): what [`Builder::finish`] copies into `boot.bootstage`.
    pub(super) proper_report: Option<usize>,
    pub(super) sbl_run: u32,
    pub(super) sbl_run_has_data: bool,
    /// The last `calling` initcall not yet returned (`calling_open`); the buffer is reused,
    /// as initcall_debug prints thousands of them.
    pub(super) calling: String,
    pub(super) calling_open: bool,
    pub(super) printk_offset: Option<f64>,
    pub(super) seen_tfa: bool,
    /// Latest Raspberry Pi firmware stamp (`MESS:`), seconds since the VideoCore started.
    pub(super) fw_s: Option<f64>,
    /// The firmware stamp when the kernel stage opened: the firmware's share of the boot.
    pub(super) fw_at_kernel: Option<f64>,
    /// User space was opened by `Freeing unused kernel memory` and no stage opened since: the
    /// `Run <path> as init process` line that follows moves its start there (see
    /// `State::kernel`).
    pub(super) userspace_at_freeing: bool,
    pub(super) lines: (u64, u64),
    /// Console bytes of the lines touched since the last stage opened, not yet added to its
    /// `bytes`: one add a line instead of a look-up of the last stage
    /// ([`Builder::flush_bytes`] adds them when a stage opens and when the boot ends).
    pub(super) tail_bytes: u64,
    /// systemd blame rows, critical-chain units and failed units of this boot, kept here (not
    /// in `boot.systemd`) so their capacity outlives the boot; [`Builder::finish`] moves them.
    pub(super) sd_blame: Slots<SystemdUnit>,
    pub(super) sd_chain: Slots<SystemdUnit>,
    pub(super) sd_failed: Slots<String>,
    /// This boot's warnings and errors, kept here (not in `boot`) for their slots' strings;
    /// [`Builder::finish`] moves them. [`Builder::reset`] keeps the warnings (those of a boot
    /// that never started go to the next).
    pub(super) warnings: Slots<String>,
    pub(super) errors: Slots<String>,
    /// The rows of the bootstage report being read, reused from report to report.
    pub(super) bootstage_buf: Slots<BootstageRecord>,
    /// This boot's SBL profile points and initcalls, kept here (not in `boot`) so that their
    /// slots keep the strings of earlier boots to rewrite; [`Builder::finish`] moves them.
    pub(super) sbl_points: Slots<SblPoint>,
    pub(super) initcalls: Slots<Initcall>,
    /// This boot's components (`components_len` of them, first value kept, in the order
    /// seen); the strings of the slots past them are left from earlier boots, rewritten in
    /// place. [`Builder::finish`] puts them in the boot's map, a recycled one when it can.
    pub(super) components: Vec<(String, String)>,
    pub(super) components_len: usize,
    /// [`keys_sig`] of this boot's component keys, to find a recycled map with the same.
    pub(super) components_sig: u64,
}

/// The bootstage report being read, or an SBL cores list (never both: each begins on a line
/// that the grammars read, which only happens once the other has ended). `repr(u8)`: an
/// explicit tag byte, so that `Option<BootstageMode>::is_some`, tested on every line, is one
/// byte compare (not a test of a niche in a vector's capacity).
#[derive(PartialEq)]
#[repr(u8)]
pub(super) enum BootstageMode {
    Records {
        expected: u32,
        got: Slots<BootstageRecord>,
    },
    Accumulated,
    /// After SBL's `cores present` line: the core names that follow (one word, no `[`).
    Cores,
}

impl Builder {
    /// Back to an empty builder for the next boot, keeping the buffers' capacity (and the
    /// warnings [`Builder::finish`] left, those of a boot that never started).
    pub(super) fn reset(&mut self) {
        // Field by field in place: taking the whole builder (`std::mem::take`) and moving the
        // buffers back copies the large structs twice. Every field is named, so a new one
        // cannot be forgotten; each ends as `Builder::default()` has it, buffers cleared.
        let Builder {
            boot,
            started,
            stages,
            scale,
            origin,
            last_host,
            ready_host,
            bootstage,
            report_spl,
            proper_report,
            sbl_run,
            sbl_run_has_data,
            calling,
            calling_open,
            printk_offset,
            seen_tfa,
            fw_s,
            fw_at_kernel,
            userspace_at_freeing,
            lines,
            tail_bytes,
            sd_blame,
            sd_chain,
            sd_failed,
            bootstage_buf,
            sbl_points,
            initcalls: builder_initcalls,
            warnings: _,
            errors: builder_errors,
            components: _,
            components_len,
            components_sig,
        } = self;
        let Boot {
            index,
            complete,
            lines: boot_lines,
            stages: boot_stages,
            components,
            sbl_profile,
            sbl_total_us,
            bootstage: boot_bootstage,
            bootstage_accumulated,
            bootstage_reports,
            spl_bootstage,
            initcalls,
            probes,
            kernel,
            systemd,
            login_prompt,
            marks,
            errors,
            printk_offset_s,
            system,
            warnings: boot_warnings,
        } = boot;
        *index = 0;
        *complete = false;
        *boot_lines = (0, 0);
        // Not filled by the builder (see `finish`): empty unless a boot never started.
        if !boot_stages.is_empty() {
            *boot_stages = Vec::new();
        }
        if !components.is_empty() {
            *components = Default::default();
        }
        if !boot_bootstage.is_empty() {
            *boot_bootstage = Vec::new();
        }
        sbl_profile.clear();
        sbl_total_us.clear();
        bootstage_accumulated.clear();
        bootstage_reports.clear();
        // Moved out by `finish`: dropped only when a boot never finished.
        if !spl_bootstage.is_empty() {
            *spl_bootstage = Vec::new();
        }
        initcalls.clear();
        probes.clear();
        // Mostly moved out already by `finish`: dropped only when there (the drop of a
        // `SystemdInfo` is a call, made each boot when unguarded).
        if kernel.is_some() {
            *kernel = None;
        }
        if systemd.is_some() {
            *systemd = None;
        }
        if system.is_some() {
            *system = None;
        }
        if login_prompt.is_some() {
            *login_prompt = None;
        }
        marks.clear();
        errors.clear();
        // Gathered in the builder's own `warnings` (kept), never here.
        boot_warnings.clear();
        *printk_offset_s = None;
        *started = false;
        stages.clear();
        *scale = None;
        *origin = None;
        *last_host = None;
        *ready_host = None;
        *bootstage = None;
        *report_spl = None;
        *proper_report = None;
        *sbl_run = 0;
        *sbl_run_has_data = false;
        calling.clear();
        *calling_open = false;
        *printk_offset = None;
        *seen_tfa = false;
        *fw_s = None;
        *fw_at_kernel = None;
        *userspace_at_freeing = false;
        *lines = (0, 0);
        *tail_bytes = 0;
        // The slots keep their items: their strings are rewritten by the next boot.
        sd_blame.len = 0;
        sd_chain.len = 0;
        sd_failed.len = 0;
        builder_errors.len = 0;
        bootstage_buf.len = 0;
        sbl_points.len = 0;
        builder_initcalls.len = 0;
        *components_len = 0;
        *components_sig = 0;
    }

    /// Adds [`Builder::tail_bytes`] to the running stage (none: they belong to no stage).
    pub(super) fn flush_bytes(&mut self) {
        if let Some(s) = self.stages.last_mut() {
            s.bytes += self.tail_bytes;
        }
        self.tail_bytes = 0;
    }

    /// Whether this boot has a component `key`.
    pub(super) fn has_component(&self, key: &str) -> bool {
        self.components[..self.components_len]
            .iter()
            .any(|(k, _)| k == key)
    }

    /// This boot's components as a map: a recycled map with the same keys, its values
    /// rewritten in place (no allocation, the common case of a log of like boots), else a
    /// new one.
    pub(super) fn components_map(&self, bin: &mut Bin) -> BTreeMap<String, String> {
        let have = &self.components[..self.components_len];
        if have.is_empty() {
            return BTreeMap::new();
        }
        // The newest candidate first. Keys are distinct on both sides: as many, each found,
        // means the same keys. A mismatch found midway (signatures can collide) leaves some
        // values rewritten, which is harmless: a map is only used once all are rewritten.
        let sig = self.components_sig;
        for i in (0..bin.maps.len()).rev() {
            let (s, m) = &mut bin.maps[i];
            if *s != sig || m.len() != have.len() {
                continue;
            }
            if rewrite_same_keys(m, have) {
                return bin.maps.swap_remove(i).1;
            }
        }
        have.iter()
            .map(|(k, v)| (bin.strings.take(k), bin.strings.take(v)))
            .collect()
    }

    /// Writes this boot's components into `map`, the slot's map (that of a boot handed back
    /// in place, or none): rewritten there when it has the same keys, the common case of a
    /// log of like boots (no signature to sum, no map to look for), else kept in the bin
    /// and replaced by [`Builder::components_map`]'s.
    pub(super) fn components_into(
        &self,
        bin: &mut Bin,
        map: &mut BTreeMap<String, String>,
        sig: &mut u64,
    ) {
        let have = &self.components[..self.components_len];
        if *sig == self.components_sig
            && !map.is_empty()
            && map.len() == have.len()
            && rewrite_same_keys(map, have)
        {
            return;
        }
        bin.keep_map_signed(*sig, std::mem::take(map));
        *map = self.components_map(bin);
        *sig = self.components_sig;
    }

    /// Adds `rom` from power-on (host 0) to the first stage, when the host clock tells.
    pub(super) fn add_pre_console_stage(&mut self) {
        let Some(first) = self.stages.first() else {
            return;
        };
        let first_host = first.host;
        if first.id <= StageId::Rom
            || self.scale != Some(HostScale::Relative)
            || self.origin != Some(0.0)
            || first_host.map_or(true, |h| h <= 0.0)
        {
            return;
        }
        self.stages.insert(
            0,
            OpenStage {
                id: StageId::Rom,
                line: 0,
                host: Some(0.0),
                bytes: 0,
            },
        );
        self.boot.marks.insert(
            0,
            Mark {
                kind: "power_on".into(),
                line: 0,
                host_s: Some(0.0),
                target_s: None,
            },
        );
    }

    /// A host time relative to this boot's origin.
    pub(super) fn rel(&self, abs: f64) -> Option<f64> {
        Some(round6(abs - self.origin?))
    }

    /// The finished boot. Its vectors are the builder's buffers when [`Parser::recycle`] left
    /// spares to put in their place (no allocation), else exact-size copies (one allocation
    /// each); the builder's own keep their capacity for the next boot (see [`Builder::reset`]).
    /// Queued at the back of `done` and completed there: returned, the boot was copied out
    /// of this frame's copy (a `memcpy` of the whole boot, each boot).
    pub(super) fn finish(&mut self, index: usize, bin: &mut Bin, done: &mut Done) {
        self.flush_bytes();
        let hosted = self.scale.is_some() && self.stages.iter().any(|s| s.host.is_some());
        self.closing_warnings(hosted, bin);
        let (boot, sig) = done.next_slot();
        // What the slot held before (a boot handed back in place, or nothing): the parts
        // rebuilt from the bin go back to it, the lists rewritten below stay.
        bin.clear_rare(boot);
        self.components_into(bin, &mut boot.components, sig);
        let b = &mut self.boot;
        let held = &mut bin.held;
        // Moved only when there is one (most boots have none): `clear_rare` left `None`.
        if b.systemd.is_some() {
            boot.systemd = b.systemd.take();
        }
        if let Some(sd) = &mut boot.systemd {
            sd.blame = self
                .sd_blame
                .hand_out(&mut bin.blames, held, &mut bin.strings);
            sd.critical_chain = self
                .sd_chain
                .hand_out(&mut bin.chains, held, &mut bin.strings);
            sd.failed = self
                .sd_failed
                .hand_out(&mut bin.failed, held, &mut bin.strings);
        }
        // U-Boot proper's last report (see `close_bootstage`), copied into a spare whose
        // strings are rewritten in place.
        let proper = self.proper_report.and_then(|i| b.bootstage_reports.get(i));
        boot.bootstage = match proper {
            Some(last) => {
                let v =
                    spare(&mut bin.records, held).unwrap_or_else(|| Vec::with_capacity(last.len()));
                let mut copy = Slots { v, len: 0 };
                for r in last {
                    copy.push(&r.name, &mut bin.strings, |name| BootstageRecord {
                        name,
                        mark_us: r.mark_us,
                        elapsed_us: r.elapsed_us,
                    });
                }
                copy.cut(&mut bin.strings);
                copy.v
            }
            None => Vec::new(),
        };
        boot.index = index;
        boot.complete = b.complete;
        boot.lines = self.lines;
        boot.bootstage_accumulated =
            hand_out(&mut b.bootstage_accumulated, &mut bin.accumulated, held);
        boot.bootstage_reports = hand_out(&mut b.bootstage_reports, &mut bin.reports, held);
        // Only SPLs that print their own report (TI K3's R5 SPL) have any: taken as they are.
        if !b.spl_bootstage.is_empty() || !boot.spl_bootstage.is_empty() {
            boot.spl_bootstage = std::mem::take(&mut b.spl_bootstage);
        }
        // Only initcall_debug logs print probes: taken as they are, with no pool.
        if !b.probes.is_empty() || !boot.probes.is_empty() {
            boot.probes = std::mem::take(&mut b.probes);
        }
        // Moved only when there (`clear_rare` left `None`s): a move of the large
        // `Option<KernelInfo>` and a drop test of the old one, for nothing, in most boots.
        if b.kernel.is_some() {
            boot.kernel = b.kernel.take();
        }
        if b.login_prompt.is_some() {
            boot.login_prompt = b.login_prompt.take();
        }
        boot.printk_offset_s = None;
        // The lists most boots have: swapped with the slot's own (its items the builder's
        // stale slots to rewrite), or taken from the bin's spares when the slot is new.
        let pool = &mut bin.strings;
        self.sbl_points
            .swap_out(&mut boot.sbl_profile, &mut bin.sbl_points, held, pool);
        self.initcalls
            .swap_out(&mut boot.initcalls, &mut bin.initcalls, held, pool);
        self.errors
            .swap_out(&mut boot.errors, &mut bin.errors, held, pool);
        self.warnings
            .swap_out(&mut boot.warnings, &mut bin.warnings, held, pool);
        boot.sbl_total_us.clear();
        swap_list(
            &mut b.sbl_total_us,
            &mut boot.sbl_total_us,
            &mut bin.numbers,
            held,
        );
        clear_marks(&mut boot.marks, pool);
        swap_list(&mut b.marks, &mut boot.marks, &mut bin.marks, held);
        boot.stages.clear();
        if boot.stages.capacity() == 0 && !self.stages.is_empty() {
            boot.stages = spare(&mut bin.stages, held)
                .unwrap_or_else(|| Vec::with_capacity(self.stages.len()));
        }
        let end_host = if boot.complete {
            self.ready_host
        } else {
            self.last_host
        };
        let n = self.stages.len();
        for i in 0..n {
            let s = &self.stages[i];
            let mut st = Stage {
                id: s.id,
                start_s: None,
                end_s: None,
                duration_s: None,
                clock: Clock::Host,
                line: (s.line > 0).then_some(s.line),
                console_bytes: Some(s.bytes),
            };
            if hosted {
                st.start_s = s.host.and_then(|h| self.rel(h));
                st.end_s = if i + 1 < n {
                    self.stages[i + 1].host
                } else {
                    end_host
                }
                .and_then(|h| self.rel(h));
                if let (Some(a), Some(b)) = (st.start_s, st.end_s) {
                    st.duration_s = Some(round6(b - a));
                }
            } else {
                self.target_figures(boot, &mut st);
            }
            boot.stages.push(st);
        }
        if let Some(o) = self.printk_offset {
            boot.printk_offset_s = Some(round6(o - self.origin.unwrap_or(0.0)));
        }
    }

    /// The closing warnings (no host stamps, no ready marker, an initcall never returned),
    /// appended before the warnings are copied out. Warnings and errors are gathered in the
    /// builder's slots, never in `boot`.
    #[inline]
    fn closing_warnings(&mut self, hosted: bool, bin: &mut Bin) {
        debug_assert!(self.boot.warnings.is_empty() && self.boot.errors.is_empty());
        let w = &mut self.warnings;
        let pool = &mut bin.strings;
        if !hosted {
            w.push("no host timestamps: stage times come from the target's own clocks where it prints them", pool, |s| s);
        }
        if !self.boot.complete {
            w.push(
                "the log ends before the ready marker (login prompt)",
                pool,
                |s| s,
            );
        }
        if self.calling_open {
            let _ = w.next_text(pool, 128).write_fmt(format_args!(
                "initcall {} was called but never returned in this log",
                self.calling
            ));
        }
    }

    /// Stage figures from target clocks, when the log has no host stamps.
    pub(super) fn target_figures(&self, boot: &Boot, st: &mut Stage) {
        st.clock = Clock::Target;
        match st.id {
            StageId::Rom if self.fw_at_kernel.is_some() => {
                // Raspberry Pi: the firmware stamps time since it started.
                st.start_s = Some(0.0);
                st.end_s = self.fw_at_kernel;
                st.duration_s = self.fw_at_kernel.map(round6);
            }
            StageId::Sbl if !boot.sbl_total_us.is_empty() => {
                st.duration_s = Some(round6(boot.sbl_total_us.iter().sum::<u64>() as f64 / 1e6));
            }
            // The SPLs on their own timers (see `spl_breakdown` for what each span leaves out).
            StageId::R5Spl | StageId::ASpl => {
                let span = if st.id == StageId::R5Spl {
                    spl_breakdown::r5_span_us(boot)
                } else {
                    spl_breakdown::a_spl_span_us(boot)
                };
                if let Some((a, b)) = span {
                    st.start_s = Some(a as f64 / 1e6);
                    st.end_s = Some(b as f64 / 1e6);
                    st.duration_s = Some(round6((b - a) as f64 / 1e6));
                }
            }
            StageId::Uboot if !boot.bootstage.is_empty() => {
                // From `board_init_f` to the last mark printed after it: the SPL's stashed
                // records before it may be on another clock (each sandbox phase starts its
                // own), so they take no part.
                let at = boot.bootstage.iter().position(|r| r.name == "board_init_f");
                let start = at.map(|i| boot.bootstage[i].mark_us);
                let end = at.and_then(|i| boot.bootstage[i..].iter().map(|r| r.mark_us).max());
                if let (Some(a), Some(b)) = (start, end) {
                    st.start_s = Some(a as f64 / 1e6);
                    st.end_s = Some(b as f64 / 1e6);
                    st.duration_s = Some(round6((b - a.min(b)) as f64 / 1e6));
                }
            }
            StageId::Kernel => {
                if let Some(k) = &boot.kernel {
                    // printk time 0 is the kernel's own origin; init is where it hands over.
                    st.start_s = k.init_ts_s.map(|_| 0.0);
                    st.end_s = k.init_ts_s;
                    if let (Some(a), Some(b)) = (st.start_s, st.end_s) {
                        st.duration_s = Some(round6(b - a));
                    }
                }
                if st.duration_s.is_none() {
                    if let Some(v) = boot.systemd.as_ref().and_then(|s| s.kernel_s) {
                        st.duration_s = Some(v);
                    }
                }
            }
            StageId::Userspace => {
                if let Some(v) = boot.systemd.as_ref().and_then(|s| s.userspace_s) {
                    st.duration_s = Some(v);
                }
            }
            _ => {}
        }
    }
}
