//! `sokoban solve FILE...`: every level of level collections, with one solutions file.
//!
//! Each level is solved by a child process: this very executable in its one-map mode,
//! the map on standard input, the options passed on. A level that crashes, aborts or
//! runs over its time is then contained: the parent kills it at the time limit plus a
//! margin (`deadline`), reports it, and every other level keeps its solution. `--jobs N`
//! runs N children at once (each with the whole `--memory` to itself).
//!
//! The solutions file is a level file in the SOK format (version 0.17, Sokoban YASC's),
//! where a level's saved games and solutions follow its map as sections, each a title
//! line and the moves: for each level its title line, the map, a blank line, the title
//! line `Solution` and the moves in LURD (lowercase walks, uppercase pushes):
//!
//! ```text
//! Microban 1
//! ####
//! # .#
//! #  ###
//! #*@  #
//! #  $ #
//! #  ###
//! ####
//!
//! Solution
//! dlUrrrdLullddrUluRuulDrddrruLdlUU
//! ```
//!
//! A level not solved keeps its title and map, with a note `Unsolved: why` in place of
//! the solution; a level that is not a valid map is left out (it is reported on standard
//! error with its file, title and line). Entries are written in the collections' order
//! as soon as every level before them is done, so an interrupted run keeps what it has.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use crate::level::{self, Level};

/// What `sokoban solve` was asked to do.
#[derive(Debug)]
struct Plan {
    files: Vec<String>,
    output: Option<PathBuf>,
    jobs: usize,
    /// The options every child gets (the solve options as given, and `--lurd`).
    child_args: Vec<String>,
    time_limit: f64,
}

/// Split `solve`'s arguments: `--jobs` and `--output` are its own; the rest are file
/// names and the one-map options, checked by the one-map parser (`crate::parse_args`)
/// so that a bad option is refused once, before any level runs.
fn plan(args: &[String]) -> Result<Plan, String> {
    let mut output = None;
    let mut jobs = 1;
    let mut rest = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "--output" | "--jobs" => {
                let v = args.get(i + 1).ok_or_else(|| format!("{} needs a value", a))?;
                if a == "--output" {
                    output = Some(PathBuf::from(v));
                } else {
                    let n = v.parse::<usize>().ok().filter(|&n| n > 0);
                    jobs = n.ok_or_else(|| format!("--jobs wants a positive whole number, not {:?}", v))?;
                }
                i += 2;
            }
            _ => {
                rest.push(args[i].clone());
                i += 1;
            }
        }
    }
    let cli = crate::parse_args(&rest)?;
    if cli.stats {
        return Err("--stats is for one map at a time (sokoban --stats < MAP)".into());
    }
    if cli.files.is_empty() {
        return Err("solve needs at least one collection file (see --help)".into());
    }
    let files = cli.files.iter().map(|&k| rest[k].clone()).collect();
    let mut child_args: Vec<String> =
        rest.iter().enumerate().filter(|(k, _)| !cli.files.contains(k)).map(|(_, a)| a.clone()).collect();
    child_args.push("--lurd".into());
    Ok(Plan { files, output, jobs, child_args, time_limit: cli.time_limit })
}

/// When the parent kills a child that has not ended: its own time limit plus a margin
/// for starting up, reading the map and handing back its tables. A child that keeps its
/// limit never meets this; one that hangs or is stopped does.
fn deadline(time_limit: f64) -> Duration {
    Duration::from_secs_f64(time_limit * 1.1 + 1.0)
}

/// A level to solve: where it came from and its map.
struct Job {
    title: String,
    map: String,
}

/// How one level ended.
enum Outcome {
    Solved {
        moves: String,
        seconds: f64,
    },
    /// The child's own verdict (exit 1: no solution, or none found within the limits).
    Unsolved {
        why: String,
        seconds: f64,
    },
    /// Killed at the deadline, crashed, or an internal error: the child failed.
    Failed {
        why: String,
    },
}

impl Outcome {
    /// The exit code this level would have had alone (a child that failed counts as an
    /// internal error).
    fn code(&self) -> u8 {
        match self {
            Outcome::Solved { .. } => 0,
            Outcome::Unsolved { .. } => 1,
            Outcome::Failed { .. } => 3,
        }
    }
}

pub fn solve_main(args: &[String]) -> ExitCode {
    let start = Instant::now();
    let plan = match plan(args) {
        Ok(p) => p,
        Err(e) => return crate::fail(2, &e),
    };
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => return crate::fail(2, &format!("cannot find this program's own file to run levels: {}", e)),
    };
    let mut out: Box<dyn Write> = match &plan.output {
        Some(path) => match File::create(path) {
            Ok(f) => Box::new(f),
            Err(e) => return crate::fail(2, &format!("cannot write {}: {}", path.display(), e)),
        },
        None => Box::new(std::io::stdout()),
    };

    let (jobs, mut code, invalid) = read_collections(&plan.files);
    let n = jobs.len();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Outcome)>();
    let mut done: Vec<Option<Outcome>> = (0..n).map(|_| None).collect();
    let mut written = 0;
    let mut write_error = None;
    let (mut solved, mut unsolved, mut failed) = (0, 0, 0);
    thread::scope(|scope| {
        for _ in 0..plan.jobs.min(n) {
            let tx = tx.clone();
            let (next, jobs, exe, args, time_limit) = (&next, &jobs, &exe, &plan.child_args, plan.time_limit);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(job) = jobs.get(i) else { break };
                if tx.send((i, run_level(exe, args, &job.map, time_limit))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (finished, (i, outcome)) in rx.into_iter().enumerate() {
            let what = match &outcome {
                Outcome::Solved { moves, seconds } => {
                    solved += 1;
                    let pushes = moves.chars().filter(|c| c.is_ascii_uppercase()).count();
                    format!("solved, {} moves, {} pushes, {:.2} s", moves.len(), pushes, seconds)
                }
                Outcome::Unsolved { why, seconds } => {
                    unsolved += 1;
                    format!("{}, {:.2} s", why, seconds)
                }
                Outcome::Failed { why } => {
                    failed += 1;
                    why.clone()
                }
            };
            eprintln!(
                "sokoban: [{}/{}] {}: {} ({} solved, {:.1} s elapsed)",
                finished + 1,
                n,
                jobs[i].title,
                what,
                solved,
                start.elapsed().as_secs_f64()
            );
            code = code.max(outcome.code());
            done[i] = Some(outcome);
            // Write every entry whose turn has come, so that the file grows in order.
            while let Some(Some(o)) = done.get(written) {
                if write_error.is_none() {
                    write_error = write_entry(&mut out, &jobs[written], o).err();
                }
                written += 1;
            }
        }
    });
    if let Some(e) = write_error.or_else(|| out.flush().err()) {
        let to = plan.output.as_ref().map_or("standard output".to_string(), |p| p.display().to_string());
        eprintln!("sokoban: cannot write the solutions to {}: {}", to, e);
        code = code.max(2);
    }

    let total = n + invalid;
    let mut notes = Vec::new();
    for (count, what) in [(invalid, "invalid and skipped"), (unsolved, "not solved"), (failed, "failed")] {
        if count > 0 {
            notes.push(format!("{} {}", count, what));
        }
    }
    let notes = if notes.is_empty() { String::new() } else { format!(" ({})", notes.join(", ")) };
    eprintln!("sokoban: solved {} of {} levels in {:.2} s{}", solved, total, start.elapsed().as_secs_f64(), notes);
    ExitCode::from(code)
}

/// Every valid level of the files, in order; the exit code so far (2 if a file could not
/// be read or a level is invalid) and how many levels were invalid. Invalid levels are
/// reported here, by file, title and line, and skipped.
fn read_collections(files: &[String]) -> (Vec<Job>, u8, usize) {
    let mut jobs = Vec::new();
    let mut code = 0;
    let mut invalid = 0;
    for file in files {
        let text = match std::fs::read(file) {
            // Old collections are often Latin-1 in their notes; map rows are ASCII.
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                eprintln!("sokoban: cannot read {}: {}", file, e);
                code = 2;
                continue;
            }
        };
        let entries = level::split_collection(&text);
        if entries.is_empty() {
            eprintln!("sokoban: {}: no levels found", file);
            code = 2;
        }
        for (k, entry) in entries.into_iter().enumerate() {
            let title = entry.title.clone().unwrap_or_else(|| format!("Level {}", k + 1));
            match Level::parse(&entry.map) {
                Ok(_) => jobs.push(Job { title, map: entry.map }),
                Err(mut e) => {
                    // The parser counts lines from the map's first row; say the file's.
                    e.line = e.line.map(|l| l + entry.line - 1);
                    eprintln!(
                        "sokoban: {}, level {} {:?} (line {}) skipped: invalid map: {}",
                        file,
                        k + 1,
                        title,
                        entry.line,
                        e
                    );
                    code = 2;
                    invalid += 1;
                }
            }
        }
    }
    (jobs, code, invalid)
}

/// One level's entry in the solutions file (see the module comment).
fn write_entry(out: &mut dyn Write, job: &Job, outcome: &Outcome) -> std::io::Result<()> {
    write!(out, "{}\n{}", job.title, job.map)?;
    match outcome {
        Outcome::Solved { moves, .. } => writeln!(out, "\nSolution\n{}\n", moves),
        Outcome::Unsolved { why, .. } | Outcome::Failed { why } => writeln!(out, "Unsolved: {}\n", why),
    }
}

/// Solve one map in a child process, killing it at the `deadline` of its time limit.
fn run_level(exe: &Path, args: &[String], map: &str, time_limit: f64) -> Outcome {
    let start = Instant::now();
    let spawned =
        Command::new(exe).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn();
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => return Outcome::Failed { why: format!("cannot start {}: {}", exe.display(), e) },
    };
    // Feed and drain the pipes from threads: a child that stops reading or writing must
    // not block the parent, which has a deadline to keep.
    let input = map.as_bytes().to_vec();
    let stdin = child.stdin.take().map(|mut pipe| thread::spawn(move || pipe.write_all(&input)));
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let (status, killed) = wait(&mut child, start, deadline(time_limit));
    let seconds = start.elapsed().as_secs_f64();
    // A write error means the child ended before reading its map; its exit says why.
    let _ = stdin.map(|t| t.join());
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    // The child's last message, without its `sokoban: ` prefix.
    let message = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    let message = message.strip_prefix("sokoban: ").unwrap_or(message).to_string();
    let status = match status {
        Ok(s) => s,
        Err(e) => return Outcome::Failed { why: format!("lost the level's process: {}", e) },
    };
    if killed {
        let why = format!("killed after {:.2} s, over its time limit of {} s", seconds, time_limit);
        return Outcome::Failed { why };
    }
    match status.code() {
        Some(0) => {
            let moves = stdout.trim_end_matches(['\n', '\r']);
            if moves.chars().all(|c| "udlrUDLR".contains(c)) {
                Outcome::Solved { moves: moves.to_string(), seconds }
            } else {
                Outcome::Failed { why: format!("the answer is not one line of moves: {:?}", stdout) }
            }
        }
        Some(1) => Outcome::Unsolved { why: message, seconds },
        _ if message.is_empty() => Outcome::Failed { why: format!("the level's process failed ({})", status) },
        _ => Outcome::Failed { why: format!("the level's process failed ({}): {}", status, message) },
    }
}

/// Wait for `child`, killing it once `limit` has passed since `start`; whether it was
/// killed.
fn wait(child: &mut Child, start: Instant, limit: Duration) -> (std::io::Result<std::process::ExitStatus>, bool) {
    // Poll often at first, so fast levels are not slowed down, then less.
    let mut nap = Duration::from_micros(500);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return (Ok(status), false),
            Ok(None) => {}
            Err(e) => return (Err(e), false),
        }
        if start.elapsed() >= limit {
            let _ = child.kill();
            return (child.wait(), true);
        }
        thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(20));
    }
}

fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|a| a.to_string()).collect()
    }

    #[test]
    fn solve_options_are_split_from_the_options_each_level_gets() {
        let p =
            plan(&args(&["a.sok", "-t", "5", "--jobs", "3", "b.xsb", "--output", "out.sok", "--nodes", "9"])).unwrap();
        assert_eq!(p.files, ["a.sok", "b.xsb"]);
        assert_eq!(p.output, Some(PathBuf::from("out.sok")));
        assert_eq!((p.jobs, p.time_limit), (3, 5.0));
        assert_eq!(p.child_args, ["-t", "5", "--nodes", "9", "--lurd"]);
        // A value that looks like a file name stays with its option.
        let p = plan(&args(&["--memory", "64", "c.txt"])).unwrap();
        assert_eq!((p.files, p.child_args), (args(&["c.txt"]), args(&["--memory", "64", "--lurd"])));
    }

    #[test]
    fn bad_solve_arguments_are_refused() {
        for (a, want) in [
            (&["--jobs", "0", "a.sok"][..], "--jobs"),
            (&["a.sok", "--output"][..], "--output"),
            (&["-t", "x", "a.sok"][..], "--time-limit"),
            (&["--stats", "a.sok"][..], "--stats"),
            (&["--bogus", "a.sok"][..], "--bogus"),
            (&["-t", "5"][..], "collection file"),
        ] {
            let e = plan(&args(a)).unwrap_err();
            assert!(e.contains(want), "{:?}: {}", a, e);
        }
    }

    #[test]
    fn the_deadline_leaves_a_margin_over_the_time_limit() {
        assert!(deadline(0.05) > Duration::from_secs(1));
        assert!(deadline(10.0) > Duration::from_secs(11));
    }
}
