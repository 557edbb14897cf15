//! The judge file: what we submit must fit the judge's code limit, build with plain
//! rustc, and do what the full build does.
//!
//! 1. Run the `bundle` tool on `src/main.rs`, writing the judge file
//!    `target/submission-test/sokoban.rs` (tests, comments and people-only code left out).
//! 2. Check that it declares no out-of-line module (`mod x;`) and is within the code limit.
//! 3. Build it exactly like the judge: plain `rustc -O --crate-type bin --edition=2021`,
//!    no Cargo, no crates (`$RUSTC` or `rustc` on the PATH).
//! 4. Run it on every map in `samples/kth-samples/*.txt` and check each answer with the
//!    independent simulator `tools/src/harness/sim.rs`; then check that it prints the
//!    full build's `bench` signature and, under a node limit, its very answers on a
//!    sample of every set.

// sim.rs carries its own `#![allow(dead_code)]` (only `replay` is used here).
#[path = "../tools/src/harness/sim.rs"]
mod sim;

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

const TIME_LIMIT: Duration = Duration::from_secs(20);

/// The judge's code limit: Kattis's default of 128 kilobytes, read as 128,000 bytes.
const CODE_LIMIT: usize = 128_000;

/// Expansions per map when the two builds' answers are compared (a node limit makes
/// the search the same on any machine and under any load).
const COMPARE_NODES: &str = "30000";

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn work_dir() -> PathBuf {
    repo().join("target").join("submission-test")
}

/// Is `line` (trimmed) an out-of-line module declaration `[pub[(..)]] mod IDENT;`?
fn is_mod_decl(line: &str) -> bool {
    let mut s = line.trim();
    if let Some(rest) = s.strip_prefix("pub") {
        s = match rest.strip_prefix('(') {
            Some(r) => match r.find(')') {
                Some(i) => &r[i + 1..],
                None => return false,
            },
            None => rest,
        };
        s = s.trim_start();
    }
    let Some(rest) = s.strip_prefix("mod ") else { return false };
    let Some(name) = rest.trim().strip_suffix(';') else { return false };
    let name = name.trim_end();
    let name = name.strip_prefix("r#").unwrap_or(name);
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c == '_' || c.is_alphanumeric())
}

/// Bundle and compile once per test process; all tests share the result: the binary and
/// what rustc printed.
fn submission() -> &'static (PathBuf, String) {
    static BUILT: OnceLock<Result<(PathBuf, String), String>> = OnceLock::new();
    match BUILT.get_or_init(bundle_and_compile) {
        Ok(built) => built,
        Err(e) => panic!("{e}"),
    }
}

fn submission_binary() -> &'static Path {
    &submission().0
}

fn bundle_and_compile() -> Result<(PathBuf, String), String> {
    let dir = work_dir();
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let file = dir.join("sokoban.rs");
    let exe = dir.join(format!("sokoban{}", std::env::consts::EXE_SUFFIX));
    let _ = fs::remove_file(&file);
    let _ = fs::remove_file(&exe);

    // 1. Bundle.
    let out = Command::new(env!("CARGO_BIN_EXE_bundle"))
        .arg(repo().join("src").join("main.rs"))
        .arg(&file)
        .output()
        .map_err(|e| format!("cannot run the bundle tool: {e}"))?;
    if !out.status.success() {
        return Err(format!("bundle failed ({}):\n{}", out.status, String::from_utf8_lossy(&out.stderr)));
    }
    let text = fs::read_to_string(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;

    // 2. No module declaration may be left over: the judge has only this file.
    let leftovers: Vec<String> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| is_mod_decl(l))
        .map(|(i, l)| format!("  {}:{}: {}", file.display(), i + 1, l.trim()))
        .collect();
    if !leftovers.is_empty() {
        return Err(format!("the bundled file still declares out-of-line modules:\n{}", leftovers.join("\n")));
    }

    // 3. Compile like the judge.
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let mut cmd = Command::new(&rustc);
    // The judge has no Cargo: its CARGO_* variables would let env!() pass here only.
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("CARGO") {
            cmd.env_remove(&key);
        }
    }
    let out = cmd
        .args(["-O", "--crate-type", "bin", "--edition=2021", "-o"])
        .arg(&exe)
        .arg(&file)
        .output()
        .map_err(|e| format!("cannot run {rustc}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "`{rustc} -O --crate-type bin --edition=2021 {}` failed ({}):\n{}",
            file.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok((exe, String::from_utf8_lossy(&out.stderr).into_owned()))
}

/// Outcome of one run of the submission binary.
struct Run {
    status: Option<std::process::ExitStatus>, // None = killed on timeout
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

/// Run `exe` with `input` on stdin, killing it after `limit`.
fn run_with_limit(exe: &Path, input: &str, limit: Duration) -> Run {
    let start = Instant::now();
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", exe.display()));

    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    // A broken pipe just means the program stopped reading early.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut out_pipe = child.stdout.take().unwrap();
    let reader_out = thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out_pipe.read_to_end(&mut v);
        v
    });
    let mut err_pipe = child.stderr.take().unwrap();
    let reader_err = thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err_pipe.read_to_end(&mut v);
        v
    });

    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break Some(st),
            Ok(None) if start.elapsed() >= limit => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => thread::sleep(Duration::from_millis(5)),
            Err(e) => panic!("waiting for {}: {e}", exe.display()),
        }
    };
    let elapsed = start.elapsed();
    let _ = writer.join();
    let stdout = String::from_utf8_lossy(&reader_out.join().unwrap()).into_owned();
    let stderr = String::from_utf8_lossy(&reader_err.join().unwrap()).into_owned();
    Run { status, stdout, stderr, elapsed }
}

fn tail(s: &str, max_lines: usize) -> String {
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(max_lines)..].join("\n")
}

#[test]
fn bundled_file_builds_with_plain_rustc() {
    let exe = submission_binary();
    assert!(exe.is_file(), "{} was not produced", exe.display());
}

/// A warning of the judge's build is mostly code only the full build uses, left in the
/// judge's file: bytes the code limit could use (mark it `#[cfg(not(judge))]`).
#[test]
fn bundled_file_builds_without_warnings() {
    let diagnostics = &submission().1;
    assert!(diagnostics.trim().is_empty(), "rustc diagnostics for the bundled file:\n{diagnostics}");
}

#[test]
fn bundled_binary_solves_the_kth_samples() {
    let exe = submission_binary();
    let dir = repo().join("samples").join("kth-samples");
    let mut maps: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    maps.sort();
    assert!(!maps.is_empty(), "no maps in {}", dir.display());

    let mut failures = Vec::new();
    for map in &maps {
        let name = map.file_name().unwrap().to_string_lossy().into_owned();
        let text = fs::read_to_string(map).unwrap();
        let run = run_with_limit(exe, &text, TIME_LIMIT);
        let why = match run.status {
            None => Some(format!("no answer within {:?} (killed)", TIME_LIMIT)),
            Some(st) if !st.success() => Some(format!("exited with {st}")),
            Some(_) => {
                let lines: Vec<&str> = run.stdout.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
                // An empty answer is only right for an already solved map;
                // the simulator decides.
                let answer = match lines.as_slice() {
                    [] => Ok(""),
                    [one] => Ok(*one),
                    _ => Err(format!("printed {} non-empty lines; the judge expects one", lines.len())),
                };
                match answer.map(|a| sim::replay(&text, a)) {
                    Ok(Ok(_)) => None,
                    Ok(Err(e)) => Some(format!("answer rejected by the simulator: {e}")),
                    Err(e) => Some(e),
                }
            }
        };
        match why {
            None => eprintln!("{name}: ok ({:.2?})", run.elapsed),
            Some(why) => failures.push(format!(
                "{name}: {why} after {:.2?}\n  stdout (tail): {}\n  stderr (tail): {}",
                run.elapsed,
                tail(&run.stdout, 3),
                tail(&run.stderr, 5)
            )),
        }
    }
    assert!(failures.is_empty(), "{} of {} sample maps failed:\n{}", failures.len(), maps.len(), failures.join("\n"));
}

#[test]
fn judge_file_fits_the_code_limit() {
    submission_binary();
    let size = fs::metadata(work_dir().join("sokoban.rs")).expect("the judge file").len() as usize;
    eprintln!("judge file: {size} bytes of {CODE_LIMIT}, {} bytes of headroom", CODE_LIMIT as i64 - size as i64);
    assert!(size <= CODE_LIMIT, "the judge file is {size} bytes, over the judge's limit of {CODE_LIMIT}");
}

/// What `exe ARGS` prints on standard output and its exit code, the map on stdin.
fn output_of(exe: &Path, args: &[&str], input: &str) -> (Option<i32>, String) {
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", exe.display()));
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("wait for the solver");
    let _ = writer.join();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn judge_file_prints_the_full_builds_bench_signature() {
    let judge = output_of(submission_binary(), &["bench"], "");
    let full = output_of(Path::new(env!("CARGO_BIN_EXE_sokoban")), &["bench"], "");
    assert_eq!(judge.0, Some(0), "judge file's bench: {}", judge.1);
    assert!(judge.1.contains("signature "), "no signature in:\n{}", judge.1);
    assert_eq!(judge, full, "the judge file searches differently from the full build");
}

#[test]
fn judge_file_gives_the_full_builds_answers() {
    let exe = submission_binary();
    let full = Path::new(env!("CARGO_BIN_EXE_sokoban"));
    let mut maps = Vec::new();
    for set in fs::read_dir(repo().join("samples")).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()) {
        let mut files: Vec<PathBuf> = fs::read_dir(&set)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "txt"))
            .collect();
        files.sort();
        // Every map of a small set; one in ten of a large one.
        let step = if files.len() > 20 { 10 } else { 1 };
        maps.extend(files.into_iter().step_by(step));
    }
    assert!(maps.len() > 90, "only {} maps", maps.len());
    let mut solved = 0;
    for map in &maps {
        let text = fs::read_to_string(map).unwrap();
        let args = ["--nodes", COMPARE_NODES, "--time-limit", "60"];
        let (code, answer) = output_of(exe, &args, &text);
        // The judge file leaves out the shortening of answers (README, "The judge file").
        let expected = output_of(full, &[&args[..], &["--no-shorten"]].concat(), &text);
        assert_eq!((code, answer.clone()), expected, "{}: the judge file answers otherwise", map.display());
        if code == Some(0) {
            sim::replay(&text, answer.trim()).unwrap_or_else(|e| panic!("{}: {e}", map.display()));
            solved += 1;
        }
    }
    eprintln!(
        "{} maps, {solved} solved within {COMPARE_NODES} expansions, the same answers from both builds",
        maps.len()
    );
    assert!(solved * 2 > maps.len(), "only {solved} of {} solved: the comparison says little", maps.len());
}

#[test]
fn mod_declaration_detector() {
    for yes in ["mod a;", "  pub mod b_2;", "pub(crate) mod c ;", "mod r#type;"] {
        assert!(is_mod_decl(yes), "{yes:?}");
    }
    for no in ["mod a {", "// mod a;", "let x = 1;", "mod ;", "model a;", "mod a; fn f() {}"] {
        assert!(!is_mod_decl(no), "{no:?}");
    }
}
