//! The lab notebook's index (`docs/experiments/README.md`) lists every notes file in
//! `docs/experiments/`, and every file it links to exists: notes nobody can find from the
//! index are as good as lost.

use std::path::Path;

#[test]
fn the_experiments_index_lists_every_notes_file() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs").join("experiments");
    let index = std::fs::read_to_string(dir.join("README.md")).expect("docs/experiments/README.md");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("docs/experiments")
        .map(|e| e.expect("a directory entry").file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".md") && f != "README.md")
        .collect();
    files.sort();
    assert!(files.len() > 10, "only {} notes files", files.len());
    let missing: Vec<&String> = files.iter().filter(|f| !index.contains(&format!("]({f})"))).collect();
    assert!(missing.is_empty(), "not in docs/experiments/README.md: {missing:?}");
    // Each link of the list points at a file that is there.
    for link in index.lines().filter_map(|l| l.strip_prefix("- [")).filter_map(|l| l.split("](").nth(1)) {
        let target = link.split(')').next().unwrap_or_default();
        assert!(dir.join(target).is_file(), "docs/experiments/README.md links to {target}, which is missing");
    }
}
