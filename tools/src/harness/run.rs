//! Running a solver on one map: spawn, feed stdin, enforce the wall-clock
//! limit, collect exit status and rusage, classify the answer.
//!
//! `std::process::Child::wait` cannot report resource usage, so children are
//! reaped with `wait4` directly (declared here; std links libc anyway). The
//! layouts below are Linux on 64-bit targets (x86_64, aarch64 share them).

use crate::sim;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
compile_error!("the harness declares Linux 64-bit wait4/rusage layouts by hand");

#[repr(C)]
#[derive(Default)]
struct Timeval {
    tv_sec: i64,
    tv_usec: i64,
}

/// `struct rusage` from <sys/resource.h> (Linux, 64-bit longs).
#[repr(C)]
#[derive(Default)]
struct Rusage {
    ru_utime: Timeval,
    ru_stime: Timeval,
    ru_maxrss: i64, // kilobytes on Linux
    ru_ixrss: i64,
    ru_idrss: i64,
    ru_isrss: i64,
    ru_minflt: i64,
    ru_majflt: i64,
    ru_nswap: i64,
    ru_inblock: i64,
    ru_oublock: i64,
    ru_msgsnd: i64,
    ru_msgrcv: i64,
    ru_nsignals: i64,
    ru_nvcsw: i64,
    ru_nivcsw: i64,
}

extern "C" {
    fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut Rusage) -> i32;
    fn kill(pid: i32, sig: i32) -> i32;
    fn signal(signum: i32, handler: extern "C" fn(i32)) -> usize;
    fn _exit(code: i32) -> !;
}

const WNOHANG: i32 = 1;
const SIGINT: i32 = 2;
const SIGKILL: i32 = 9;
const EINTR: i32 = 4;

/// How often a running child is checked; small enough that the measured time
/// of fast maps is not dominated by the polling interval.
const POLL: Duration = Duration::from_millis(2);

/// Set by Ctrl-C: workers kill their child and stop taking new maps, so a
/// long run can be cut short and still print the summary of what finished.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_sigint(_: i32) {
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        // Second Ctrl-C: the user wants out now. _exit is async-signal-safe.
        unsafe { _exit(130) }
    }
}

pub fn install_sigint_handler() {
    unsafe {
        signal(SIGINT, on_sigint);
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    Solved,
    Wrong,
    Unsolved,
    Timeout,
    Crash,
    BadExit,
}

impl Status {
    pub const ALL: [Status; 6] =
        [Status::Solved, Status::Wrong, Status::Unsolved, Status::Timeout, Status::Crash, Status::BadExit];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Wrong => "wrong",
            Status::Unsolved => "unsolved",
            Status::Timeout => "timeout",
            Status::Crash => "crash",
            Status::BadExit => "bad-exit",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        Status::ALL.iter().copied().find(|st| st.as_str() == s)
    }

    /// Statuses that mean the solver misbehaved (as opposed to merely not
    /// finding a solution); they make the harness exit non-zero.
    pub fn is_failure(self) -> bool {
        matches!(self, Status::Wrong | Status::Crash | Status::BadExit)
    }
}

/// How the child process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
    TimedOut,
}

#[derive(Debug, Clone)]
pub struct Outcome {
    pub status: Status,
    pub wall_s: f64,
    pub peak_kb: u64,
    pub moves: Option<usize>,
    pub pushes: Option<usize>,
    /// Why a run is not "solved" (simulator message, stderr tail, signal).
    pub detail: String,
    /// How the run ended, for `harness one`, which reports exit codes the status lumps
    /// together (2 and 101 are both `bad-exit`).
    pub exit: Exit,
}

#[derive(Debug)]
pub enum RunError {
    /// Ctrl-C arrived while the child ran; the result is meaningless.
    Interrupted,
    /// The harness itself failed (could not spawn `sh`, wait4 error).
    Harness(String),
}

/// Decide the status of a finished run. Kept free of process handling so the
/// rules can be unit-tested directly.
pub fn classify(exit: Exit, stdout: &[u8], stderr_tail: &str, map: &str) -> (Status, Option<sim::Replay>, String) {
    match exit {
        Exit::TimedOut => (Status::Timeout, None, String::new()),
        Exit::Signal(sig) => (Status::Crash, None, format!("killed by signal {}{}", sig, tail_note(stderr_tail))),
        // `sh -c` reports a child killed by signal N as exit 128+N when it
        // did not exec the command itself; that is still a crash.
        Exit::Code(code) if (129..=128 + 64).contains(&code) => {
            (Status::Crash, None, format!("exit {} (signal {} via sh){}", code, code - 128, tail_note(stderr_tail)))
        }
        Exit::Code(1) => (Status::Unsolved, None, stderr_tail.to_string()),
        Exit::Code(0) => {
            let answer = String::from_utf8_lossy(stdout);
            if answer.trim().is_empty() {
                // An empty line is the correct answer for an already solved
                // map; otherwise a clean exit without moves is a give-up.
                match sim::replay(map, "") {
                    Ok(r) => (Status::Solved, Some(r), String::new()),
                    Err(_) => (Status::Unsolved, None, "exit 0 without an answer".to_string()),
                }
            } else {
                match sim::replay(map, &answer) {
                    Ok(r) => (Status::Solved, Some(r), String::new()),
                    Err(e) => (Status::Wrong, None, e),
                }
            }
        }
        Exit::Code(code) => (Status::BadExit, None, format!("exit {}{}", code, tail_note(stderr_tail))),
    }
}

fn tail_note(stderr_tail: &str) -> String {
    if stderr_tail.is_empty() {
        String::new()
    } else {
        format!(": {}", stderr_tail)
    }
}

/// Last non-empty line of stderr, shortened; enough to see a panic message.
fn last_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let line = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    let mut short: String = line.chars().take(200).collect();
    if short.len() < line.len() {
        short.push('…');
    }
    short
}

/// Spawn a thread that drains a pipe; the result comes back on a channel so
/// the caller can give up on a pipe held open by an escaped grandchild.
fn drain<R: Read + Send + 'static>(mut pipe: R, cap: usize) -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 8192];
        // Keep reading past the cap so the child never blocks on a full pipe.
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            if kept.len() < cap {
                kept.extend_from_slice(&buf[..n.min(cap - kept.len())]);
            }
        }
        let _ = tx.send(kept);
    });
    rx
}

/// The script given to `sh -c`. A simple command (`target/release/sokoban`,
/// `java -jar x.jar 2>/dev/null`) gets an `exec` prefix so the solver itself
/// is our child: rusage is then the solver's own even when it is killed at
/// the limit (a grandchild killed along with `sh` is reaped by init and its
/// peak memory lost), and the time excludes the shell. Anything that could
/// be a compound command, assignment or keyword is left to `sh` untouched.
pub fn shell_script(cmd: &str) -> String {
    let cmd = cmd.trim();
    let compound = cmd.contains([';', '&', '|', '(', ')', '{', '}', '`', '\n']);
    let first = cmd.split_whitespace().next().unwrap_or("");
    let keyword = matches!(
        first,
        "if" | "for" | "while" | "until" | "case" | "!" | "exec" | "time" | "cd" | "export" | "set" | "ulimit"
    );
    if cmd.is_empty() || compound || keyword || first.contains('=') {
        cmd.to_string()
    } else {
        format!("exec {}", cmd)
    }
}

/// Run `cmd` (through `sh -c`) on one map with a wall-clock limit.
pub fn run_one(cmd: &str, map: &str, limit: Duration) -> Result<Outcome, RunError> {
    let start = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(shell_script(cmd))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Own process group, so a timeout kills the solver and anything it
        // started (a JVM, a wrapper script's children) in one go.
        .process_group(0)
        .spawn()
        .map_err(|e| RunError::Harness(format!("cannot start sh -c {:?}: {}", cmd, e)))?;
    let pid = child.id() as i32;

    // Feed stdin from a thread: a big map could fill the pipe before the
    // solver starts reading. Write errors (solver exited early) are ignored.
    let mut stdin = child.stdin.take().expect("stdin was piped");
    let input = map.as_bytes().to_vec();
    thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out_rx = drain(child.stdout.take().expect("stdout was piped"), 16 << 20);
    let err_rx = drain(child.stderr.take().expect("stderr was piped"), 64 << 10);

    let mut status = 0i32;
    let mut usage = Rusage::default();
    let mut timed_out = false;
    let mut interrupted = false;
    loop {
        let r = unsafe { wait4(pid, &mut status, WNOHANG, &mut usage) };
        if r == pid {
            break;
        }
        if r < 0 {
            let err = std::io::Error::last_os_error();
            if err.raw_os_error() == Some(EINTR) {
                continue;
            }
            kill_group(pid);
            return Err(RunError::Harness(format!("wait4: {}", err)));
        }
        interrupted = INTERRUPTED.load(Ordering::SeqCst);
        if interrupted || start.elapsed() >= limit {
            timed_out = !interrupted;
            kill_group(pid);
            reap_blocking(pid, &mut status, &mut usage)?;
            break;
        }
        thread::sleep(POLL);
    }
    let wall = start.elapsed();
    // Leftover members of the group (background jobs) would keep the pipes
    // open and keep burning CPU during the next map.
    kill_group(pid);
    if interrupted {
        return Err(RunError::Interrupted);
    }

    let grace = Duration::from_secs(2);
    let stdout = out_rx.recv_timeout(grace).unwrap_or_default();
    let stderr = err_rx.recv_timeout(grace).unwrap_or_default();

    let exit = if timed_out {
        Exit::TimedOut
    } else if status & 0x7f == 0 {
        Exit::Code((status >> 8) & 0xff)
    } else {
        Exit::Signal(status & 0x7f)
    };
    let (status, replay, detail) = classify(exit, &stdout, &last_line(&stderr), map);
    Ok(Outcome {
        status,
        wall_s: wall.as_secs_f64(),
        peak_kb: usage.ru_maxrss.max(0) as u64,
        moves: replay.map(|r| r.moves),
        pushes: replay.map(|r| r.pushes),
        detail,
        exit,
    })
}

fn kill_group(pid: i32) {
    unsafe {
        kill(-pid, SIGKILL);
    }
}

fn reap_blocking(pid: i32, status: &mut i32, usage: &mut Rusage) -> Result<(), RunError> {
    loop {
        let r = unsafe { wait4(pid, status, 0, usage) };
        if r == pid {
            return Ok(());
        }
        let err = std::io::Error::last_os_error();
        if r < 0 && err.raw_os_error() != Some(EINTR) {
            return Err(RunError::Harness(format!("wait4: {}", err)));
        }
    }
}

/// One unit of work: a solver on a map. Indices point into the caller's
/// tables so tasks stay cheap to copy around.
#[derive(Debug, Clone)]
pub struct Task {
    pub solver: usize,
    pub set: usize,
    pub level: usize,
}

/// Run all tasks on `jobs` worker threads, in order of the task list (the
/// caller interleaves solvers map by map). `on_done` is called on the calling
/// thread as results arrive (with the task's index, as completion order
/// differs from task order when jobs > 1), so progress needs no locking.
/// Returns Err(Interrupted) if Ctrl-C cut the run short (finished results
/// have been delivered by then).
pub fn run_tasks(
    tasks: &[Task],
    jobs: usize,
    limit: Duration,
    command: &(dyn Fn(&Task) -> (String, String) + Sync),
    mut on_done: impl FnMut(usize, &Task, Outcome),
) -> Result<(), RunError> {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Result<Outcome, RunError>)>();
    thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || loop {
                if INTERRUPTED.load(Ordering::SeqCst) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(task) = tasks.get(i) else { break };
                let (cmd, map) = command(task);
                let result = run_one(&cmd, &map, limit);
                let stop = result.is_err();
                if tx.send((i, result)).is_err() || stop {
                    break;
                }
            });
        }
        drop(tx);
        let mut error = None;
        for (i, result) in rx {
            match result {
                Ok(outcome) => on_done(i, &tasks[i], outcome),
                Err(RunError::Interrupted) => {}
                Err(e) => {
                    // Stop the other workers too; a broken harness should not
                    // grind through hundreds of maps.
                    INTERRUPTED.store(true, Ordering::SeqCst);
                    error.get_or_insert(e);
                }
            }
        }
        match error {
            Some(e) => Err(e),
            None if INTERRUPTED.load(Ordering::SeqCst) => Err(RunError::Interrupted),
            None => Ok(()),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::path::PathBuf;

    const MAP: &str = "#######\n#     #\n# @$ .#\n#     #\n#######\n";

    /// A temp dir with executable fake solvers, removed on drop.
    struct Fakes(PathBuf);

    impl Fakes {
        fn new(tag: &str) -> Fakes {
            let dir = std::env::temp_dir().join(format!("harness-run-{}-{}", std::process::id(), tag));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            Fakes(dir)
        }

        /// Write a shell script and return the command that runs it.
        fn script(&self, name: &str, body: &str) -> String {
            let path = self.0.join(name);
            fs::write(&path, format!("#!/bin/sh\n{}\n", body)).unwrap();
            format!("sh {}", path.display())
        }
    }

    impl Drop for Fakes {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn run(cmd: &str, limit_ms: u64) -> Outcome {
        run_one(cmd, MAP, Duration::from_millis(limit_ms)).expect("harness error")
    }

    #[test]
    fn correct_answer_is_solved_with_counts_and_memory() {
        let f = Fakes::new("solved");
        // Reads the whole map first, like a real solver, then answers.
        let out = run(&f.script("ok.sh", "cat >/dev/null\necho ULDRRR"), 5000);
        assert_eq!(out.status, Status::Solved, "{}", out.detail);
        assert_eq!((out.moves, out.pushes), (Some(6), Some(2)));
        assert!(out.peak_kb > 0);
        assert!(out.wall_s > 0.0 && out.wall_s < 5.0);
    }

    #[test]
    fn the_map_arrives_on_stdin() {
        let f = Fakes::new("stdin");
        // Answers only if the third line of input is the player's row.
        let body = "sed -n 3p | grep -q '# @\\$ .#' && echo RR";
        let out = run(&f.script("grep.sh", body), 5000);
        assert_eq!(out.status, Status::Solved, "{}", out.detail);
    }

    #[test]
    fn illegal_answer_is_wrong_with_reason() {
        let f = Fakes::new("wrong");
        let out = run(&f.script("bad.sh", "echo LLL"), 5000);
        assert_eq!(out.status, Status::Wrong);
        assert_eq!(out.detail, "move 2 'L' walks into a wall");
        assert_eq!(out.moves, None);
    }

    #[test]
    fn slow_solver_is_killed_at_the_limit_with_its_children() {
        let f = Fakes::new("timeout");
        // The background sleep keeps stdout open: unless the whole process
        // group dies, reading the output would hang for 30 s.
        let out = run(&f.script("slow.sh", "sleep 30 &\nsleep 30\necho RR"), 300);
        assert_eq!(out.status, Status::Timeout);
        assert!(out.wall_s >= 0.3 && out.wall_s < 2.0, "took {}", out.wall_s);
    }

    #[test]
    fn exit_codes_map_to_statuses() {
        let f = Fakes::new("exits");
        let out = run(&f.script("giveup.sh", "echo 'no solution' >&2\nexit 1"), 5000);
        assert_eq!(out.status, Status::Unsolved);
        assert_eq!(out.detail, "no solution");
        let out = run(&f.script("silent.sh", "exit 0"), 5000);
        assert_eq!(out.status, Status::Unsolved);
        let out = run(&f.script("panic.sh", "echo 'thread main panicked' >&2\nexit 101"), 5000);
        assert_eq!((out.status, out.exit), (Status::BadExit, Exit::Code(101)));
        assert_eq!(out.detail, "exit 101: thread main panicked");
        let out = run(&f.script("segv.sh", "kill -SEGV $$"), 5000);
        assert_eq!(out.status, Status::Crash);
        assert!(out.detail.contains("signal 11"), "{}", out.detail);
    }

    #[test]
    fn simple_commands_are_execed_compound_ones_left_to_sh() {
        assert_eq!(shell_script("target/release/sokoban"), "exec target/release/sokoban");
        assert_eq!(shell_script(" java -jar 'a b.jar' 2>/dev/null "), "exec java -jar 'a b.jar' 2>/dev/null");
        assert_eq!(shell_script("cat >/dev/null; echo U"), "cat >/dev/null; echo U");
        assert_eq!(shell_script("a | b"), "a | b");
        assert_eq!(shell_script("RUST_LOG=1 ./s"), "RUST_LOG=1 ./s");
        assert_eq!(shell_script("cd x && ./s"), "cd x && ./s");
        assert_eq!(shell_script("exec ./s"), "exec ./s");
        assert_eq!(shell_script("if true; then ./s; fi"), "if true; then ./s; fi");
    }

    #[test]
    fn peak_memory_of_a_killed_solver_is_its_own() {
        let f = Fakes::new("memkill");
        // The script's shell holds a 30 MB string, then hangs. `sh FILE` is a
        // simple command, so it is exec'd and is our direct child: its peak
        // memory survives the kill at the limit.
        let body = "x=$(head -c 30000000 /dev/zero | tr '\\0' x)\nsleep 30";
        let out = run(&f.script("mem.sh", body), 1500);
        assert_eq!(out.status, Status::Timeout);
        assert!(out.peak_kb > 25_000, "peak {} kB", out.peak_kb);
    }

    #[test]
    fn classify_rules() {
        let solved = "#####\n#@* #\n#####\n";
        assert_eq!(classify(Exit::Code(0), b"\n", "", solved).0, Status::Solved);
        assert_eq!(classify(Exit::Code(0), b"\n", "", MAP).0, Status::Unsolved);
        assert_eq!(classify(Exit::Code(0), b"RR\r\n", "", MAP).0, Status::Solved);
        assert_eq!(classify(Exit::Code(0), b"RR\ndebug\n", "", MAP).0, Status::Wrong);
        assert_eq!(classify(Exit::Code(1), b"RR\n", "", MAP).0, Status::Unsolved);
        assert_eq!(classify(Exit::Code(2), b"", "", MAP).0, Status::BadExit);
        assert_eq!(classify(Exit::Code(139), b"", "", MAP).0, Status::Crash);
        assert_eq!(classify(Exit::Signal(6), b"", "", MAP).0, Status::Crash);
        assert_eq!(classify(Exit::TimedOut, b"RR\n", "", MAP).0, Status::Timeout);
    }

    #[test]
    fn status_names_round_trip() {
        for st in Status::ALL {
            assert_eq!(Status::parse(st.as_str()), Some(st));
        }
        assert_eq!(Status::parse("bad-exit"), Some(Status::BadExit));
        assert_eq!(Status::parse("ok"), None);
    }

    #[test]
    fn parallel_workers_deliver_every_task() {
        let f = Fakes::new("pool");
        let cmd = f.script("ok.sh", "echo RR");
        let tasks: Vec<Task> = (0..6).map(|i| Task { solver: 0, set: 0, level: i }).collect();
        let mut seen = Vec::new();
        let command = |_: &Task| (cmd.clone(), MAP.to_string());
        run_tasks(&tasks, 3, Duration::from_secs(5), &command, |i, t, o| {
            assert_eq!(i, t.level);
            assert_eq!(o.status, Status::Solved);
            seen.push(t.level);
        })
        .unwrap();
        seen.sort();
        assert_eq!(seen, [0, 1, 2, 3, 4, 5]);
    }
}
