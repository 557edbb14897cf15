//! The search's fingerprint: `sokoban bench` counts the nodes of a fixed set of searches
//! under a node limit, the same on any machine. A change that alters the search changes
//! it; such a change records the new number in `bench/signature` in the same commit, so
//! that no change of the search slips in by accident.

use std::path::Path;
use std::process::Command;

#[test]
fn bench_prints_the_recorded_signature() {
    let recorded_file = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench").join("signature");
    let recorded = std::fs::read_to_string(&recorded_file).expect("bench/signature");
    let out = Command::new(env!("CARGO_BIN_EXE_sokoban")).arg("bench").output().expect("run sokoban bench");
    assert!(out.status.success(), "sokoban bench failed: {}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let printed = stdout.lines().find_map(|l| l.strip_prefix("signature ")).expect("a signature line");
    assert_eq!(
        printed.trim(),
        recorded.trim(),
        "sokoban bench prints signature {} but bench/signature records {}: if the search was meant to \
         change, record the new signature there (and in BENCHMARKS.md) in the same commit\n{stdout}",
        printed.trim(),
        recorded.trim()
    );
}
