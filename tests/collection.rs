//! `sokoban solve FILE...` end to end: a collection in, a solutions file out, every
//! solution replayed by the independent simulator `tools/src/harness/sim.rs` and by
//! `harness verify`, never by the solver's own code.
//!
//! The tests take one lock in turn: they run levels under short time limits, and a
//! neighbour competing for the CPU would make those limits a matter of luck.

// sim.rs carries its own `#![allow(dead_code)]` (only `replay` is used here).
#[path = "../tools/src/harness/sim.rs"]
mod sim;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_sokoban");
const HARNESS: &str = env!("CARGO_BIN_EXE_harness");

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn sample(path: &str) -> String {
    let p = repo().join("samples").join(path);
    fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

/// A scratch folder of this test's own, emptied first.
fn scratch(tag: &str) -> PathBuf {
    let dir = repo().join("target").join("collection-test").join(tag);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).stdin(Stdio::null()).output().unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A level of a test collection: its title and map.
struct Level {
    title: &'static str,
    map: String,
}

fn level(title: &'static str, map: impl Into<String>) -> Level {
    Level { title, map: map.into() }
}

const INVALID: &str = "#######\n#@ $x.#\n#######\n";
const UNSOLVABLE: &str = "#####\n#$  #\n#@ .#\n#####\n";

/// Six levels: four solvable, an invalid one in the middle, an unsolvable one.
fn six_levels() -> Vec<Level> {
    vec![
        level("Microban 1", sample("microban155/microban001.txt")),
        level("KTH sample 0", sample("kth-samples/00_sample.txt")),
        level("A typo", INVALID),
        level("Microban 2", sample("microban155/microban002.txt")),
        level("Stuck in a corner", UNSOLVABLE),
        level("KTH sample 1", sample("kth-samples/01_sample.txt")),
    ]
}

/// The levels as a collection file with a header and titles and notes in the usual
/// forms: `; title` lines before the maps, a `Title:` note after one, comments.
fn write_collection(dir: &Path, levels: &[Level]) -> PathBuf {
    let mut out = String::from("; A test collection\nCollection: tests\nAuthor: various\n\n");
    for (i, l) in levels.iter().enumerate() {
        if i == 3 {
            // SOK style: the title in a note after the map.
            out += &format!("{}Title: {}\nComment: after the map\n\n", l.map, l.title);
        } else {
            out += &format!("; {}\n{}\n", l.title, l.map);
        }
    }
    let path = dir.join("levels.sok");
    fs::write(&path, out).unwrap();
    path
}

/// One entry of a solutions file: its title, map and moves (`None`: the note instead).
#[derive(Debug, PartialEq)]
struct Entry {
    title: String,
    map: String,
    moves: Option<String>,
    note: Option<String>,
}

/// The solutions file as the README documents it, read strictly: per level its title
/// line, the map rows, then either a blank line, `Solution` and one line of moves, or an
/// `Unsolved: why` line; a blank line after each entry.
fn parse_solutions(out: &str) -> Vec<Entry> {
    let lines: Vec<&str> = out.lines().collect();
    let is_row = |l: &str| !l.is_empty() && l.chars().all(|c| "#@+$*. -_".contains(c));
    let mut entries = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let title = lines[i].to_string();
        assert!(!title.is_empty() && !is_row(&title), "line {}: expected a title: {out}", i + 1);
        i += 1;
        let mut map = String::new();
        while i < lines.len() && is_row(lines[i]) {
            map += lines[i];
            map.push('\n');
            i += 1;
        }
        assert!(!map.is_empty(), "{title}: no map rows: {out}");
        let (moves, note) = if let Some(why) = lines.get(i).and_then(|l| l.strip_prefix("Unsolved: ")) {
            i += 1;
            (None, Some(why.to_string()))
        } else {
            assert_eq!(lines.get(i..i + 2), Some(&["", "Solution"][..]), "{title}: expected a Solution section");
            let moves = lines.get(i + 2).unwrap_or_else(|| panic!("{title}: no moves line"));
            i += 3;
            (Some(moves.to_string()), None)
        };
        assert_eq!(lines.get(i).copied().unwrap_or(""), "", "{title}: expected a blank line after the entry");
        i += 1;
        entries.push(Entry { title, map, moves, note });
    }
    entries
}

/// Replay a solution on the level's own map; the letters' case must say what pushes.
fn check_solution(level: &Level, moves: &str) -> Result<(), String> {
    let r = sim::replay(&level.map, moves).map_err(|e| format!("{}: {e}", level.title))?;
    let upper = moves.chars().filter(|c| c.is_ascii_uppercase()).count();
    if upper != r.pushes {
        return Err(format!("{}: {upper} uppercase letters for {} pushes", level.title, r.pushes));
    }
    Ok(())
}

/// The collection's levels that the solutions file must solve, checked against it.
fn check_solved(levels: &[Level], entries: &[Entry], want: &[&str]) {
    for title in want {
        let level = levels.iter().find(|l| l.title == *title).expect("a test level");
        let entry = entries.iter().find(|e| e.title == *title).unwrap_or_else(|| panic!("{title}: no entry"));
        assert_eq!(entry.map, level.map, "{title}: the entry's map is not the level's");
        let moves = entry.moves.as_deref().unwrap_or_else(|| panic!("{title}: not solved: {:?}", entry.note));
        check_solution(level, moves).unwrap();
    }
}

fn harness_verify(collection: &Path, solutions: &Path) -> Output {
    Command::new(HARNESS)
        .arg("verify")
        .args([collection, solutions])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {HARNESS}: {e}"))
}

fn harness_positions(map: &Path, solution: &Path, out: &Path, extra: &[&str]) -> Output {
    Command::new(HARNESS)
        .arg("positions")
        .args([map, solution, out])
        .args(extra)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {HARNESS}: {e}"))
}

#[test]
fn a_collection_is_solved_the_invalid_level_skipped_and_the_unsolvable_one_reported() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("six");
    let levels = six_levels();
    let file = write_collection(&dir, &levels);
    let o = run(&["solve", file.to_str().unwrap(), "--nodes", "200000"]);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    // An invalid level makes the exit code 2, as it would alone; the rest still ran.
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");

    let entries = parse_solutions(&out);
    let titles: Vec<&str> = entries.iter().map(|e| e.title.as_str()).collect();
    assert_eq!(titles, ["Microban 1", "KTH sample 0", "Microban 2", "Stuck in a corner", "KTH sample 1"]);
    check_solved(&levels, &entries, &["Microban 1", "KTH sample 0", "Microban 2", "KTH sample 1"]);
    let stuck = &entries[3];
    assert!(stuck.note.as_deref().is_some_and(|n| n.starts_with("no solution exists")), "{stuck:?}");

    // The invalid level: named by title and line (the map's first row is line 23), the
    // fault by its own line and column in the file.
    let bad = err.lines().find(|l| l.contains("A typo")).unwrap_or_else(|| panic!("not reported: {err}"));
    for word in ["level 3", "line 23", "skipped", "line 24, column 5", "unexpected character 'x'"] {
        assert!(bad.contains(word), "{word:?} missing from {bad:?}");
    }
    assert!(bad.starts_with("sokoban: "), "{bad}");
    // One progress line per level run, and the summary.
    let progress: Vec<&str> = err.lines().filter(|l| l.starts_with("sokoban: [")).collect();
    assert_eq!(progress.len(), 5, "{err}");
    assert!(progress.iter().any(|l| l.contains("/5] Stuck in a corner: no solution exists")), "{err}");
    assert!(progress.last().unwrap().contains("(4 solved, "), "{err}");
    let summary = err.lines().last().unwrap_or("");
    assert!(summary.starts_with("sokoban: solved 4 of 6 levels in "), "{summary}");
    assert!(summary.contains("1 invalid and skipped") && summary.contains("1 not solved"), "{summary}");

    // The harness's own reader and simulator agree.
    let solutions = dir.join("solutions.sok");
    fs::write(&solutions, &out).unwrap();
    let v = harness_verify(&file, &solutions);
    let report = text(&v.stdout);
    assert_eq!(v.status.code(), Some(0), "{report}{}", text(&v.stderr));
    assert!(report.contains("verify: 4 ok, 0 wrong, 1 missing of 5 levels"), "{report}");
}

#[test]
fn two_jobs_give_the_same_solutions_and_output_writes_the_file() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("jobs");
    let file = write_collection(&dir, &six_levels());
    let file = file.to_str().unwrap();
    // A node limit makes each level's search the same on every run.
    let one = run(&["solve", file, "--nodes", "200000"]);
    let path = dir.join("out.sok");
    let two = run(&["solve", "--jobs", "2", file, "--output", path.to_str().unwrap(), "--nodes", "200000"]);
    assert_eq!(two.status.code(), Some(2), "{}", text(&two.stderr));
    assert!(two.stdout.is_empty(), "with --output, nothing goes to standard output: {}", text(&two.stdout));
    let written = fs::read_to_string(&path).unwrap_or_else(|e| panic!("--output wrote no file: {e}"));
    assert!(!one.stdout.is_empty());
    assert_eq!(written, text(&one.stdout), "--jobs 2 gave other solutions or another order");
}

#[test]
fn a_level_out_of_time_costs_the_others_nothing() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("short");
    let levels = vec![
        level("Microban 1", sample("microban155/microban001.txt")),
        level("XSokoban 50", sample("xsokoban90/xsokoban50.txt")),
        level("Microban 2", sample("microban155/microban002.txt")),
    ];
    let file = write_collection(&dir, &levels);
    let o = run(&["solve", file.to_str().unwrap(), "-t", "0.05", "--jobs", "2"]);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "{err}");
    let entries = parse_solutions(&out);
    check_solved(&levels, &entries, &["Microban 1", "Microban 2"]);
    let hard = entries.iter().find(|e| e.title == "XSokoban 50").expect("the hard level keeps its entry");
    assert_eq!(hard.note.as_deref(), Some("no solution found within 0.05 s"), "{err}");
    assert!(err.contains("XSokoban 50: no solution found within 0.05 s"), "{err}");
}

/// Run a collection whose first level is hard under `-t 1`, one job, and send `signal`
/// to that level's process once it has been searching for a while; the other levels
/// must keep their solutions. The standard error and the solutions file's entries.
#[cfg(target_os = "linux")]
fn signal_the_first_level(tag: &str, signal: i32) -> (Option<i32>, String, Vec<Entry>, Duration) {
    extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
    }
    let dir = scratch(tag);
    let levels = vec![
        level("XSokoban 50", sample("xsokoban90/xsokoban50.txt")),
        level("Microban 1", sample("microban155/microban001.txt")),
        level("KTH sample 0", sample("kth-samples/00_sample.txt")),
    ];
    let file = write_collection(&dir, &levels);
    let path = dir.join("out.sok");
    let start = Instant::now();
    let parent = Command::new(BIN)
        .args(["solve", file.to_str().unwrap(), "-t", "1", "--output", path.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sokoban solve");
    // With one job, the first child is the first level's, which runs for a second.
    let mut seen = None;
    while seen.is_none() && start.elapsed() < Duration::from_secs(5) {
        seen = children_of(parent.id()).first().copied();
        std::thread::sleep(Duration::from_millis(1));
    }
    let child = seen.expect("no child process seen");
    // Long enough for the child to be past its exec and searching, well within its second.
    std::thread::sleep(Duration::from_millis(200));
    assert!(children_of(parent.id()).contains(&child), "the first level ended within 0.2 s");
    assert_eq!(unsafe { kill(child as i32, signal) }, 0, "cannot signal the child");
    let o = parent.wait_with_output().expect("wait for sokoban solve");
    let elapsed = start.elapsed();
    let entries = parse_solutions(&fs::read_to_string(&path).expect("the solutions file"));
    check_solved(&levels, &entries, &["Microban 1", "KTH sample 0"]);
    (o.status.code(), text(&o.stderr), entries, elapsed)
}

/// A level whose process hangs (here: stopped with SIGSTOP, so it cannot keep its own
/// time limit) is killed at the deadline, and the levels after it are still solved.
#[cfg(target_os = "linux")]
#[test]
fn a_level_whose_process_hangs_is_killed_and_the_others_keep_their_solutions() {
    const SIGSTOP: i32 = 19;
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (code, err, entries, elapsed) = signal_the_first_level("hang", SIGSTOP);
    // Killed at its time limit times 1.1 plus a second, not left to hang.
    assert!(elapsed < Duration::from_secs(10), "took {elapsed:.2?}: {err}");
    assert_eq!(code, Some(3), "a killed level counts as an internal error: {err}");
    assert!(err.contains("XSokoban 50: killed after "), "{err}");
    let hard = &entries[0];
    assert!(hard.note.as_deref().is_some_and(|n| n.contains("over its time limit of 1 s")), "{hard:?}");
}

/// A level whose process aborts (as on a failed allocation) is reported with its
/// signal; the others are solved.
#[cfg(target_os = "linux")]
#[test]
fn a_level_whose_process_aborts_costs_the_others_nothing() {
    const SIGABRT: i32 = 6;
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (code, err, entries, _) = signal_the_first_level("abort", SIGABRT);
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains("XSokoban 50: the level's process failed (signal: 6"), "{err}");
    assert!(entries[0].note.as_deref().is_some_and(|n| n.contains("signal: 6")), "{:?}", entries[0]);
}

/// The processes whose parent is `pid`, from /proc.
#[cfg(target_os = "linux")]
fn children_of(pid: u32) -> Vec<u32> {
    let Ok(dir) = fs::read_dir("/proc") else { return Vec::new() };
    dir.filter_map(|e| {
        let child: u32 = e.ok()?.file_name().to_str()?.parse().ok()?;
        let stat = fs::read_to_string(format!("/proc/{child}/stat")).ok()?;
        // "pid (name) state ppid ...": the name may hold blanks and parentheses.
        let ppid: u32 = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()?;
        (ppid == pid).then_some(child)
    })
    .collect()
}

#[test]
fn harness_verify_catches_a_wrong_solution() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("wrong");
    let levels = vec![
        level("Microban 1", sample("microban155/microban001.txt")),
        level("Microban 2", sample("microban155/microban002.txt")),
    ];
    let file = write_collection(&dir, &levels);
    let o = run(&["solve", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let good = dir.join("good.sok");
    fs::write(&good, &out).unwrap();
    let v = harness_verify(&file, &good);
    assert_eq!(v.status.code(), Some(0), "{}", text(&v.stdout));
    // Drop the last move of the second solution: a box stays off its goal.
    let entries = parse_solutions(&out);
    let moves = entries[1].moves.clone().unwrap();
    let bad = dir.join("bad.sok");
    fs::write(&bad, out.replace(&format!("\n{moves}\n"), &format!("\n{}\n", &moves[..moves.len() - 1]))).unwrap();
    let v = harness_verify(&file, &bad);
    let report = text(&v.stdout);
    assert_eq!(v.status.code(), Some(1), "{report}");
    assert!(report.contains("(Microban 2): WRONG: boxes not all on goals"), "{report}");
    assert!(report.contains("verify: 1 ok, 1 wrong, 0 missing of 2 levels"), "{report}");
}

#[test]
fn unreadable_files_and_bad_arguments_are_reported() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("args");
    let levels = vec![level("Microban 1", sample("microban155/microban001.txt"))];
    let file = write_collection(&dir, &levels);
    let missing = dir.join("no-such-file.sok");
    let o = run(&["solve", missing.to_str().unwrap(), file.to_str().unwrap()]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot read") && err.contains("no-such-file.sok"), "{err}");
    check_solved(&levels, &parse_solutions(&text(&o.stdout)), &["Microban 1"]);
    for (args, word) in [
        (&["solve"][..], "collection file"),
        (&["solve", "--jobs", "none", "x.sok"][..], "--jobs"),
        (&["solve", "--stats", "x.sok"][..], "--stats"),
        (&["solve", "--bogus", "x.sok"][..], "--bogus"),
    ] {
        let o = run(args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(o.stdout.is_empty() && err.starts_with("sokoban: ") && err.contains(word), "{args:?}: {err}");
    }
}

/// Moves with each run of one letter written short (`rrr` as `3r`), as published
/// solutions often are.
fn runs_short(moves: &str) -> String {
    let chars: Vec<char> = moves.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let run = chars[i..].iter().take_while(|&&c| c == chars[i]).count();
        out += &if run > 1 { format!("{run}{}", chars[i]) } else { chars[i].to_string() };
        i += run;
    }
    out
}

#[test]
fn harness_positions_along_a_solution_are_maps_the_solver_solves() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("positions");
    let map = dir.join("xsokoban01.txt");
    let level = sample("xsokoban90/xsokoban01.txt");
    fs::write(&map, &level).unwrap();
    let o = Command::new(BIN).arg("--lurd").stdin(fs::File::open(&map).unwrap()).output().unwrap();
    let moves = text(&o.stdout).trim().to_string();
    let total = sim::replay(&level, &moves).unwrap().pushes;
    let short = runs_short(&moves);
    assert!(short.len() < moves.len() && short.contains(|c: char| c.is_ascii_digit()), "{short}");
    let solution = dir.join("solution.txt");
    fs::write(&solution, format!("{}\n{}\n", &short[..short.len() / 2], &short[short.len() / 2..])).unwrap();
    let out = dir.join("out");
    let p = harness_positions(&map, &solution, &out, &["--every", "25"]);
    assert_eq!(p.status.code(), Some(0), "{}", text(&p.stderr));
    for (k, percent) in [25, 50, 75].into_iter().enumerate() {
        let file = out.join(format!("xsokoban01-{percent:03}.txt"));
        let position = fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let pushed = total * percent / 100;
        assert!(position.starts_with(&format!("; xsokoban01: after {pushed} of the solution's {total} pushes\n")));
        assert!(text(&p.stdout).lines().nth(k).is_some_and(|l| l.ends_with(&format!("\t{pushed} pushes"))));
        // The solution's moves after its `pushed`-th push (LURD: pushes in capitals)
        // finish from there, and so does the solver.
        let body = position.split_once('\n').unwrap().1;
        let cut = moves.char_indices().filter(|(_, c)| c.is_ascii_uppercase()).nth(pushed - 1).unwrap().0 + 1;
        let rest = sim::replay(body, &moves[cut..]).unwrap_or_else(|e| panic!("{percent}%: {e}"));
        assert_eq!(rest.pushes, total - pushed);
        let o = Command::new(BIN).stdin(fs::File::open(&file).unwrap()).output().unwrap();
        sim::replay(body, text(&o.stdout).trim()).unwrap_or_else(|e| panic!("{percent}%: {e}"));
    }
    assert!(!out.join("xsokoban01-100.txt").exists());
    // A solutions file as `sokoban solve` writes it gives positions too.
    let sok = dir.join("solutions.sok");
    let o = run(&["solve", map.to_str().unwrap(), "--output", sok.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let from_sok = dir.join("from-sok");
    let p = harness_positions(&map, &sok, &from_sok, &[]);
    assert_eq!(p.status.code(), Some(0), "{}", text(&p.stderr));
    let fifty = fs::read_to_string(from_sok.join("xsokoban01-050.txt")).unwrap();
    assert!(fifty.starts_with("; xsokoban01: after "), "{fifty}");
    // ... and none for another map.
    let other = dir.join("xsokoban02.txt");
    fs::write(&other, sample("xsokoban90/xsokoban02.txt")).unwrap();
    let p = harness_positions(&other, &sok, &from_sok, &[]);
    assert_eq!(p.status.code(), Some(2));
    assert!(text(&p.stderr).contains("no entry of the map"), "{}", text(&p.stderr));
    // A solution of another map is refused.
    fs::write(&solution, "LLLL\n").unwrap();
    let p = harness_positions(&map, &solution, &out, &[]);
    assert_eq!(p.status.code(), Some(2));
    assert!(text(&p.stderr).contains("walks into a wall"), "{}", text(&p.stderr));
}
