//! Hostile boot images: inputs found by fuzzing (and hand-made ones) whose header fields make
//! offset, size or address arithmetic overflow. Each file in `tests/hostile/` is named after
//! what it breaks; inspecting it must fail with a clear error naming the structure, the offset
//! and the overflow (also when the hostile header is in a nested part), never a panic and never
//! a wrapped offset. Runs in debug and release builds alike (overflow checks are on in both).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use sbl_instrument::{inspect_path, Error};

/// Each hostile input and a piece of the message it must produce.
const EXPECTED: &[(&str, &str)] = &[
    // Found by fuzzing `inspect`: an ELF in a combined board config, e_phoff near 2^64.
    (
        "elf-phoff-overflow.bin",
        "ELF header e_phoff at offset 0x13: 0x13 + 0x",
    ),
    // Hand-made: a PT_LOAD whose p_offset + p_filesz passes 2^64.
    (
        "elf-segment-end-overflow.bin",
        "ELF segment LOAD[0] at offset 0xfffffffffffffff0: 0xfffffffffffffff0 + 0x100",
    ),
    // Hand-made from tests/data/fit-data-offset-overflow.dts (dtc): a FIT image node whose
    // external data-offset passes 2^64.
    (
        "fit-data-offset-overflow.bin",
        "FIT image node /images/atf data-offset at offset 0x0: 0x100 + 0xfffffffffffffff0",
    ),
];

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile")
}

#[test]
fn every_hostile_input_is_rejected_with_a_clear_error() {
    for (name, want) in EXPECTED {
        let path = dir().join(name);
        let got = catch_unwind(AssertUnwindSafe(|| inspect_path(&path)))
            .unwrap_or_else(|_| panic!("{name}: inspect panicked"));
        let err = match got {
            Err(e) => e,
            Ok(img) => panic!("{name}: accepted: {img:#?}"),
        };
        let Error::InFile { source, .. } = &err else {
            panic!("{name}: error without the file name: {err}");
        };
        assert!(
            matches!(**source, Error::Overflow { .. }),
            "{name}: not an overflow error: {err}"
        );
        let msg = err.to_string();
        assert!(
            msg.contains(want) && msg.contains("overflows 64 bits"),
            "{name}: expected an error containing {want:?}, got {msg}"
        );
    }
}

#[test]
fn every_file_in_the_hostile_directory_is_listed() {
    let mut files: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut listed: Vec<String> = EXPECTED.iter().map(|(n, _)| n.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed);
}
