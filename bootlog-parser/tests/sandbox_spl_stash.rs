//! The stash case on a real run (`data/sandbox-spl-stash-2025.01.log`, its README says how it
//! was made): an SPL that prints no report of its own and stashes its records for U-Boot
//! proper, whose report then holds them on the same clock.

use bootlog_parser::model::{Clock, StageId};
use bootlog_parser::spl_breakdown;
use bootlog_parser::{parse_bytes, BoardProfile};

const LOG: &[u8] = include_bytes!("data/sandbox-spl-stash-2025.01.log");

#[test]
fn spl_records_in_the_proper_report() {
    let boots = parse_bytes(LOG, &BoardProfile::generic());
    assert_eq!(boots.len(), 1);
    let b = &boots[0];
    let ids: Vec<StageId> = b.stages.iter().map(|s| s.id).collect();
    assert_eq!(ids, [StageId::ASpl, StageId::Uboot]);
    // The SPL printed no report: none is an SPL's, and U-Boot proper's is the boot's.
    assert!(b.spl_bootstage.is_empty());
    assert_eq!(b.bootstage_reports.len(), 1);
    let marks: Vec<(&str, u64)> = b
        .bootstage
        .iter()
        .map(|r| (r.name.as_str(), r.mark_us))
        .collect();
    assert_eq!(
        marks,
        [
            ("reset", 0),
            ("SPL", 453_705),
            ("end phase", 470_185),
            ("board_init_f", 1_532_117),
            ("board_init_r", 1_542_596),
            ("eth_common_init", 1_543_273),
        ]
    );
    let acc: Vec<(&str, u64)> = b
        .bootstage_accumulated
        .iter()
        .map(|a| (a.name.as_str(), a.us))
        .collect();
    assert_eq!(acc, [("dm_spl", 1), ("dm_f", 52), ("dm_r", 83)]);
    // No host stamps: the SPL from `SPL` to `end phase`, U-Boot proper from `board_init_f`
    // to its last mark, both on the one timer.
    let spl = b.stage(StageId::ASpl).unwrap();
    assert_eq!(
        (spl.start_s, spl.end_s, spl.duration_s, spl.clock),
        (Some(0.453705), Some(0.470185), Some(0.01648), Clock::Target)
    );
    let u = b.stage(StageId::Uboot).unwrap();
    assert_eq!(u.duration_s, Some(0.011156));
    // The SPL's part of the report; this SPL marks no DDR and loads no FIT: no steps.
    let part = spl_breakdown::proper_spl_records(&b.bootstage);
    assert_eq!(part.len(), 2);
    assert!(spl_breakdown::a_spl_steps(b).is_empty());
    assert!(!b.warnings.iter().any(|w| w.contains("bootstage")));
}
