//! Timing harness: runs solvers over level sets, verifies every answer with
//! an independent simulator, and reports summaries, CSV, cactus plots and
//! run-to-run comparisons. See `--help`.

mod collection;
mod plot;
mod report;
mod run;
mod sim;
mod verify;

use report::Row;
use run::{Status, Task};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

const USAGE: &str = "\
usage:
  harness SET... [--solver CMD]... [--label NAME]... [--time-limit S] [--jobs N]
                 [--filter SUBSTR] [--limit N] [--csv FILE] [--plot FILE.svg]
                 [--plot-scale log|linear] [--title TEXT] [--markdown FILE]
                 [--within LIST]
  harness --compare A.csv B.csv [--plot FILE.svg] [--plot-scale log|linear]
                 [--time-limit S] [--title TEXT]
  harness within LIST FILE.csv... [--tsv]
  harness one MAP [--solver CMD] [--time-limit S]
  harness splice DOC.md SNIPPET.md [--marker NAME]
  harness verify COLLECTION SOLUTIONS
  harness positions MAP SOLUTION DIR [--every PERCENT]
  harness --help

Runs each solver on every map of every SET, one process per map, map on
stdin, killed (with its whole process group) at the time limit. Answers are
replayed by the harness's own simulator.

  SET               a folder of one-map files (*.txt, *.xsb, *.sok, sorted by
                    name, README* ignored) or a collection file (.xsb, .sok,
                    .txt with ';'/Title: lines or blank-line separated levels,
                    .slc XML). Set name = folder name / file stem.
  --solver CMD      shell command (run with sh -c, a simple command is exec'd);
                    repeat to compare solvers, which then alternate map by
                    map. Default: the sokoban binary next to this harness
                    (the project's release build).
  --label NAME      display name of the i-th solver (default: the command)
  --time-limit S    wall-clock limit per map in seconds (default 11); the
                    solver is not told, put e.g. '--time-limit 10' into CMD
  --jobs N          maps run in parallel (default 1; >1 makes times noisier)
  --filter SUBSTR   only maps whose 'set/map' name contains SUBSTR
  --limit N         only the first N maps of each set (after --filter)
  --csv FILE        write all rows: set,map,solver,status,wall_s,peak_kb,moves,pushes
  --plot FILE.svg   write a cactus plot (maps solved vs time limit)
  --plot-scale X    x axis of the plot: log (default) or linear
  --title TEXT      plot title
  --markdown FILE   write the summary table as markdown
  --within LIST     also count, per set and solver, the maps solved within
                    each of these seconds, e.g. 5,11,15 (summary and markdown)
  --compare A B     compare two CSV files: maps gained/lost, time ratios
  within LIST CSV.. the --within table from CSV files written by --csv (any
                    number of solvers/labels), as markdown on stdout; --tsv
                    prints tab-separated lines for scripts instead
  one MAP           run the solver once on the file MAP given byte for byte (a
                    SET's maps are normalised; this is for inputs at the
                    format's edges, see tools/stress.sh) and print one
                    tab-separated line: status, exit (a code, 'signal N' or
                    'timeout'), wall_s, peak_kb, moves, pushes, detail
  splice DOC SNIP   replace the text between <!-- NAME:begin --> and
                    <!-- NAME:end --> in DOC with the contents of SNIP;
                    NAME is 'bench' unless --marker NAME is given
  verify C S        check the solutions file S (SOK, as `sokoban solve` writes
                    it: after each map a `Solution` line and the moves) against
                    the levels of the collection C (a SET as above): levels and
                    entries are paired by map, then title, and every solution
                    is replayed on C's map; prints ok / WRONG / missing per
                    level and a summary; exit 1 if any solution is wrong
  positions M S D   replay the solution in file S (moves, runs written short
                    allowed, or a solutions file as for verify: the entry of
                    that map) on the one map of file M and write the positions
                    after every PERCENT (default 10) per cent of its pushes to
                    folder D as maps, e.g. D/name-040.txt: a SET to run a
                    solver on, which shows how far from the end of a known
                    solution it stops finding one

Statuses: solved, wrong (illegal moves or boxes left off goals), unsolved
(exit 1, or exit 0 without an answer), timeout, crash (signal), bad-exit.
Progress goes to stderr, the summary to stdout. Exit status: 0 if all runs
behaved, 1 if any answer was wrong or a solver crashed / exited oddly,
2 on usage or input errors, 130 if interrupted (partial results are kept).";

#[derive(Debug, Default)]
struct Options {
    sets: Vec<PathBuf>,
    solvers: Vec<String>,
    labels: Vec<String>,
    time_limit: Option<f64>,
    jobs: usize,
    filter: Option<String>,
    limit: Option<usize>,
    csv: Option<PathBuf>,
    plot: Option<PathBuf>,
    plot_scale: Option<plot::Scale>,
    title: Option<String>,
    markdown: Option<PathBuf>,
    compare: Option<(PathBuf, PathBuf)>,
    within: Option<Vec<f64>>,
}

const DEFAULT_TIME_LIMIT: f64 = 11.0;

fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut o = Options { jobs: 1, ..Options::default() };
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if !arg.starts_with("--") || arg == "--" {
            o.sets.push(PathBuf::from(arg));
            continue;
        }
        // Accept both `--opt value` and `--opt=value`.
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (arg.as_str(), None),
        };
        let mut value = |what: &str| -> Result<String, String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            let v = args.get(i).cloned().ok_or_else(|| format!("{} needs {}", name, what))?;
            i += 1;
            Ok(v)
        };
        match name {
            "--solver" => o.solvers.push(value("a command")?),
            "--label" => o.labels.push(value("a name")?),
            "--time-limit" => {
                let v = value("seconds")?;
                let s: f64 = v.parse().map_err(|_| format!("bad --time-limit {:?}", v))?;
                if !(s > 0.0 && s.is_finite()) {
                    return Err(format!("bad --time-limit {:?}", v));
                }
                o.time_limit = Some(s);
            }
            "--jobs" => {
                let v = value("a number")?;
                o.jobs = v.parse().ok().filter(|&n| n > 0).ok_or_else(|| format!("bad --jobs {:?}", v))?;
            }
            "--filter" => o.filter = Some(value("a substring")?),
            "--limit" => {
                let v = value("a number")?;
                o.limit = Some(v.parse().map_err(|_| format!("bad --limit {:?}", v))?);
            }
            "--csv" => o.csv = Some(value("a file")?.into()),
            "--plot" => o.plot = Some(value("a file")?.into()),
            "--plot-scale" => {
                o.plot_scale = Some(match value("log or linear")?.as_str() {
                    "log" => plot::Scale::Log,
                    "linear" | "lin" => plot::Scale::Linear,
                    other => return Err(format!("bad --plot-scale {:?} (log or linear)", other)),
                })
            }
            "--title" => o.title = Some(value("a title")?),
            "--markdown" => o.markdown = Some(value("a file")?.into()),
            "--within" => o.within = Some(report::parse_limits(&value("a list of seconds")?)?),
            "--compare" => {
                let a = value("two CSV files")?;
                let b = args.get(i).cloned().ok_or("--compare needs two CSV files")?;
                i += 1;
                o.compare = Some((a.into(), b.into()));
            }
            _ => return Err(format!("unknown option {}", arg)),
        }
    }
    if o.compare.is_some() {
        if !o.sets.is_empty() || !o.solvers.is_empty() || o.csv.is_some() || o.markdown.is_some() || o.within.is_some()
        {
            return Err("--compare takes two CSV files and only --plot/--plot-scale/--time-limit/--title".into());
        }
    } else if o.sets.is_empty() {
        return Err("no SET given".into());
    }
    if o.labels.len() > o.solvers.len().max(1) {
        return Err("more --label than --solver options".into());
    }
    Ok(o)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") || args.is_empty() {
        println!("{}", USAGE);
        return if args.is_empty() { ExitCode::from(2) } else { ExitCode::SUCCESS };
    }
    let result = if args[0] == "splice" {
        splice_command(&args[1..])
    } else if args[0] == "within" {
        within_command(&args[1..])
    } else if args[0] == "verify" {
        verify::command(&args[1..])
    } else if args[0] == "one" {
        one_command(&args[1..])
    } else if args[0] == "positions" {
        positions_command(&args[1..])
    } else {
        match parse_args(&args) {
            Ok(o) if o.compare.is_some() => compare_command(&o),
            Ok(o) => run_command(&o),
            Err(e) => Err(format!("{}\n(see --help)", e)),
        }
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("harness: {}", e);
            ExitCode::from(2)
        }
    }
}

/// `harness positions MAP SOLUTION DIR [--every PERCENT]` (see the usage).
fn positions_command(args: &[String]) -> Result<u8, String> {
    const POSITIONS_USAGE: &str = "usage: harness positions MAP SOLUTION DIR [--every PERCENT]";
    let (files, every) = match args {
        [m, s, d] => ([m, s, d], 10),
        [m, s, d, flag, p] if flag == "--every" => {
            let p = p.parse::<usize>().ok().filter(|p| (1..100).contains(p));
            ([m, s, d], p.ok_or("--every takes a whole per cent from 1 to 99")?)
        }
        _ => return Err(POSITIONS_USAGE.into()),
    };
    let [map_path, solution_path, dir] = files;
    let set = collection::load(Path::new(map_path))?;
    let [level] = &set.levels[..] else {
        return Err(format!("{}: {} maps, not one", map_path, set.levels.len()));
    };
    let text = std::fs::read_to_string(solution_path).map_err(|e| format!("{}: {}", solution_path, e))?;
    // A solutions file (`sokoban solve`'s, or a published one) gives the entry of this map.
    let entries = verify::parse_solutions(&text);
    let text = match entries.iter().find(|e| e.map == level.map) {
        Some(e) => e.moves.clone().ok_or_else(|| format!("{}: no solution of the map", solution_path))?,
        None if entries.is_empty() => text,
        None => return Err(format!("{}: no entry of the map of {}", solution_path, map_path)),
    };
    let moves = verify::expand_runs(&text).map_err(|e| format!("{}: {}", solution_path, e))?;
    let total = sim::replay(&level.map, &moves).map_err(|e| format!("{}: {}", solution_path, e))?.pushes;
    let percents: Vec<usize> = (every..100).step_by(every).collect();
    let at: Vec<usize> = percents.iter().map(|p| total * p / 100).collect();
    let drawn = sim::positions(&level.map, &moves, &at)?;
    for ((p, k), map) in percents.iter().zip(&at).zip(&drawn) {
        let path = Path::new(dir).join(format!("{}-{:03}.txt", set.name, p));
        write_file(&path, &format!("; {}: after {} of the solution's {} pushes\n{}", set.name, k, total, map))?;
        println!("{}\t{} pushes", path.display(), k);
    }
    Ok(0)
}

fn write_file(path: &Path, contents: &str) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {}", dir.display(), e))?;
    }
    std::fs::write(path, contents).map_err(|e| format!("{}: {}", path.display(), e))
}

fn splice_command(args: &[String]) -> Result<u8, String> {
    const SPLICE_USAGE: &str = "usage: harness splice DOC.md SNIPPET.md [--marker NAME]";
    let (files, marker) = match args {
        [doc, snippet] => ([doc, snippet], report::DEFAULT_MARKER),
        [doc, snippet, flag, name] if flag == "--marker" => ([doc, snippet], name.as_str()),
        [doc, snippet, flag] if flag.starts_with("--marker=") => ([doc, snippet], &flag["--marker=".len()..]),
        _ => return Err(SPLICE_USAGE.into()),
    };
    let [doc, snippet] = files;
    let text = std::fs::read_to_string(doc).map_err(|e| format!("{}: {}", doc, e))?;
    let snip = std::fs::read_to_string(snippet).map_err(|e| format!("{}: {}", snippet, e))?;
    let out = report::splice(&text, &snip, marker).map_err(|e| format!("{}: {}", doc, e))?;
    write_file(Path::new(doc), &out)?;
    Ok(0)
}

/// `harness within LIST FILE.csv... [--tsv]`: unlike `--compare`, the files
/// may hold several solvers each (one run with four `--solver`s), or one
/// solver per file; the rows are pooled and grouped by set and label.
fn within_command(args: &[String]) -> Result<u8, String> {
    const WITHIN_USAGE: &str = "usage: harness within LIST FILE.csv... [--tsv]   (LIST like 5,11,15)";
    let tsv = args.iter().any(|a| a == "--tsv");
    let rest: Vec<&String> = args.iter().filter(|a| *a != "--tsv").collect();
    if let Some(bad) = rest.iter().find(|a| a.starts_with("--")) {
        return Err(format!("unknown option {}\n{}", bad, WITHIN_USAGE));
    }
    let [list, files @ ..] = rest.as_slice() else {
        return Err(WITHIN_USAGE.into());
    };
    if files.is_empty() {
        return Err(format!("no CSV file given\n{}", WITHIN_USAGE));
    }
    let limits = report::parse_limits(list)?;
    let mut rows = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {}", file, e))?;
        rows.extend(report::parse_csv(&text).map_err(|e| format!("{}: {}", file, e))?);
    }
    report::check_unique(&rows)?;
    if rows.is_empty() {
        return Err("the CSV files hold no rows".into());
    }
    let ws = report::within(&rows, &limits);
    if tsv {
        print!("{}", report::within_tsv(&ws, &limits));
    } else {
        print!("{}", report::within_markdown(&ws, &limits));
    }
    Ok(0)
}

/// `harness one MAP [--solver CMD] [--time-limit S]`: one run, on the map file's own
/// bytes, with the exit code the statuses lump together.
fn one_command(args: &[String]) -> Result<u8, String> {
    const ONE_USAGE: &str = "usage: harness one MAP [--solver CMD] [--time-limit S]";
    let (mut map, mut solver, mut limit) = (None, None, DEFAULT_TIME_LIMIT);
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).ok_or(ONE_USAGE);
        match args[i].as_str() {
            "--solver" => solver = Some(value?.clone()),
            "--time-limit" => {
                let v = value?;
                let s = v.parse::<f64>().ok().filter(|s| *s > 0.0 && s.is_finite());
                limit = s.ok_or_else(|| format!("bad --time-limit {:?}", v))?;
            }
            a if !a.starts_with("--") && map.is_none() => {
                map = Some(a.to_string());
                i += 1;
                continue;
            }
            _ => return Err(ONE_USAGE.into()),
        }
        i += 2;
    }
    let path = map.ok_or(ONE_USAGE)?;
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {}", path, e))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", path))?;
    let cmd = match solver {
        Some(s) => s,
        None => default_solver()?,
    };
    let out = match run::run_one(&cmd, &text, Duration::from_secs_f64(limit)) {
        Ok(out) => out,
        Err(run::RunError::Interrupted) => return Err("interrupted".into()),
        Err(run::RunError::Harness(e)) => return Err(e),
    };
    let exit = match out.exit {
        run::Exit::Code(c) => c.to_string(),
        run::Exit::Signal(s) => format!("signal {}", s),
        run::Exit::TimedOut => "timeout".to_string(),
    };
    let opt = |v: Option<usize>| v.map(|n| n.to_string()).unwrap_or_default();
    let detail = out.detail.replace(['\t', '\n'], " ");
    let (status, wall, peak) = (out.status.as_str(), out.wall_s, out.peak_kb);
    println!("{}\t{}\t{:.4}\t{}\t{}\t{}\t{}", status, exit, wall, peak, opt(out.moves), opt(out.pushes), detail);
    Ok(0)
}

/// The project's solver is built next to the harness (same target dir), so
/// this works from any cwd and with CARGO_TARGET_DIR.
fn default_solver() -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate harness binary: {}", e))?;
    let solver = exe.with_file_name("sokoban");
    if !solver.is_file() {
        return Err(format!("{} not found; run cargo build --release or pass --solver", solver.display()));
    }
    // Quoted for sh -c in case the path has spaces.
    Ok(format!("'{}'", solver.display().to_string().replace('\'', "'\\''")))
}

/// Unique display names: explicit labels first, else the command itself.
fn solver_labels(commands: &[String], labels: &[String], default_used: bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, cmd) in commands.iter().enumerate() {
        let base =
            labels.get(i).cloned().unwrap_or_else(|| if default_used { "sokoban".to_string() } else { cmd.clone() });
        let mut label = base.clone();
        let mut n = 2;
        while out.contains(&label) {
            label = format!("{}#{}", base, n);
            n += 1;
        }
        out.push(label);
    }
    out
}

fn run_command(o: &Options) -> Result<u8, String> {
    let limit = o.time_limit.unwrap_or(DEFAULT_TIME_LIMIT);
    // A column beyond the kill limit would silently equal the limit's count.
    if let Some(w) = o.within.iter().flatten().copied().find(|&w| w > limit) {
        eprintln!("harness: warning: --within {} s is above the time limit {} s; that column counts only maps solved within {} s", w, limit, limit);
    }
    let mut sets = Vec::new();
    for path in &o.sets {
        let mut set = collection::load(path)?;
        if sets.iter().any(|s: &collection::LevelSet| s.name == set.name) {
            return Err(format!("two sets are named {:?}; rename one", set.name));
        }
        if let Some(f) = &o.filter {
            set.levels.retain(|l| format!("{}/{}", set.name, l.name).contains(f.as_str()));
        }
        if let Some(n) = o.limit {
            set.levels.truncate(n);
        }
        sets.push(set);
    }
    let maps: usize = sets.iter().map(|s| s.levels.len()).sum();
    if maps == 0 {
        return Err("no maps left after --filter/--limit".into());
    }
    let default_used = o.solvers.is_empty();
    let commands = if default_used { vec![default_solver()?] } else { o.solvers.clone() };
    let labels = solver_labels(&commands, &o.labels, default_used);

    // Solvers alternate map by map, so machine noise (thermal throttling, a
    // backup job) hits every solver alike rather than one whole run.
    let mut tasks = Vec::new();
    for (si, set) in sets.iter().enumerate() {
        for li in 0..set.levels.len() {
            for solver in 0..commands.len() {
                tasks.push(Task { solver, set: si, level: li });
            }
        }
    }
    let total = tasks.len();
    let names: Vec<String> = sets.iter().map(|s| s.name.clone()).collect();
    eprintln!(
        "harness: {} maps in {} set(s) [{}], {} solver(s), limit {} s, {} job(s)",
        maps,
        sets.len(),
        names.join(", "),
        commands.len(),
        limit,
        o.jobs
    );
    run::install_sigint_handler();

    let mut rows: Vec<Option<Row>> = vec![None; total];
    let mut failures: Vec<String> = Vec::new();
    let mut done = 0;
    let command = |t: &Task| (commands[t.solver].clone(), sets[t.set].levels[t.level].map.clone());
    let outcome = run::run_tasks(&tasks, o.jobs, Duration::from_secs_f64(limit), &command, |i, t, out| {
        done += 1;
        let set = &sets[t.set];
        let level = &set.levels[t.level];
        let who = if commands.len() > 1 { format!("  [{}]", labels[t.solver]) } else { String::new() };
        let what = match out.status {
            Status::Solved => format!("solved {:.2}s {} moves", out.wall_s, out.moves.unwrap_or(0)),
            // Loud: a wrong answer would fail on the judge.
            Status::Wrong => format!("WRONG {:.2}s: {}", out.wall_s, out.detail),
            Status::Crash | Status::BadExit => {
                format!("{} {:.2}s: {}", out.status.as_str().to_uppercase(), out.wall_s, out.detail)
            }
            st => format!("{} {:.2}s", st.as_str(), out.wall_s),
        };
        // Collection levels are numbered; their title helps find them again.
        let title = level.title.as_ref().map(|t| format!(" ({})", t)).unwrap_or_default();
        eprintln!("[{}/{}] {}/{}{} {}{}", done, total, set.name, level.name, title, what, who);
        if out.status.is_failure() {
            failures.push(format!(
                "{} {}/{}{}: {}",
                out.status.as_str().to_uppercase(),
                set.name,
                level.name,
                who,
                out.detail
            ));
        }
        rows[i] = Some(Row {
            set: set.name.clone(),
            map: level.name.clone(),
            solver: labels[t.solver].clone(),
            status: out.status,
            wall_s: out.wall_s,
            peak_kb: out.peak_kb,
            moves: out.moves,
            pushes: out.pushes,
        });
    });
    let interrupted = match outcome {
        Ok(()) => false,
        Err(run::RunError::Interrupted) => true,
        Err(run::RunError::Harness(e)) => return Err(e),
    };
    let rows: Vec<Row> = rows.into_iter().flatten().collect();
    if interrupted {
        eprintln!("harness: interrupted; reporting the {} of {} runs that finished", rows.len(), total);
    }

    let summaries = report::summarize(&rows);
    print!("\n{}", report::format_summary(&summaries));
    let within = o.within.as_ref().map(|limits| (limits, report::within(&rows, limits)));
    if let Some((limits, ws)) = &within {
        print!("\nsolved within each limit:\n{}", report::format_within(ws, limits));
    }
    if commands.len() > 1 {
        let base: Vec<Row> = rows.iter().filter(|r| r.solver == labels[0]).cloned().collect();
        for label in &labels[1..] {
            let other: Vec<Row> = rows.iter().filter(|r| &r.solver == label).cloned().collect();
            let c = report::compare(&base, &other);
            print!("\n{}", report::format_comparison(&c, &base, &other, &labels[0], label));
        }
    }
    if !failures.is_empty() {
        // Repeated at the very end, on both streams, so it cannot scroll by unseen.
        let mut msg = format!("\n!!! {} run(s) misbehaved (wrong answer / crash / bad exit):\n", failures.len());
        for f in &failures {
            msg.push_str(&format!("!!!   {}\n", f));
        }
        print!("{}", msg);
        eprint!("{}", msg);
    }

    if let Some(path) = &o.csv {
        write_file(path, &report::to_csv(&rows))?;
        eprintln!("harness: wrote {}", path.display());
    }
    if let Some(path) = &o.markdown {
        let mut md = format!(
            "{}\nTime limit {} s per map, {} job(s) in parallel; times are wall-clock seconds of solved maps, peak = max RSS.\n",
            report::markdown(&summaries),
            limit,
            o.jobs
        );
        if let Some((limits, ws)) = &within {
            md.push('\n');
            md.push_str(&report::within_markdown(ws, limits));
        }
        write_file(path, &md)?;
        eprintln!("harness: wrote {}", path.display());
    }
    if let Some(path) = &o.plot {
        let series: Vec<plot::Series> = labels
            .iter()
            .map(|l| plot::Series {
                label: l.clone(),
                solved_times: rows
                    .iter()
                    .filter(|r| &r.solver == l && r.status == Status::Solved)
                    .map(|r| r.wall_s)
                    .collect(),
            })
            .collect();
        let title =
            o.title.clone().unwrap_or_else(|| format!("{} ({} maps, limit {} s)", names.join(", "), maps, limit));
        let svg = plot::cactus_svg(&series, maps, limit, o.plot_scale.unwrap_or(plot::Scale::Log), &title);
        write_file(path, &svg)?;
        eprintln!("harness: wrote {}", path.display());
    }
    Ok(if interrupted {
        130
    } else if failures.is_empty() {
        0
    } else {
        1
    })
}

fn load_csv(path: &Path) -> Result<(Vec<Row>, String), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {}", path.display(), e))?;
    let rows = report::parse_csv(&text).map_err(|e| format!("{}: {}", path.display(), e))?;
    let mut solvers: Vec<&str> = rows.iter().map(|r| r.solver.as_str()).collect();
    solvers.sort();
    solvers.dedup();
    if solvers.len() > 1 {
        return Err(format!(
            "{} holds several solvers ({}); compare files with one solver each",
            path.display(),
            solvers.join(", ")
        ));
    }
    let label = format!("{} ({})", path.display(), solvers.first().copied().unwrap_or("empty"));
    Ok((rows, label))
}

fn compare_command(o: &Options) -> Result<u8, String> {
    let (a_path, b_path) = o.compare.as_ref().expect("compare mode");
    let (a, label_a) = load_csv(a_path)?;
    let (b, label_b) = load_csv(b_path)?;
    let c = report::compare(&a, &b);
    print!("{}", report::format_comparison(&c, &a, &b, &label_a, &label_b));
    if let Some(path) = &o.plot {
        // The runs' limit is not stored; the slowest row (a timeout) is a
        // good stand-in when --time-limit is not given.
        let limit = o.time_limit.unwrap_or_else(|| a.iter().chain(&b).map(|r| r.wall_s).fold(0.001, f64::max));
        let mut keys: Vec<String> = a.iter().chain(&b).map(|r| format!("{}/{}", r.set, r.map)).collect();
        keys.sort();
        keys.dedup();
        let series = [(label_a, &a), (label_b, &b)]
            .into_iter()
            .map(|(label, rows)| plot::Series {
                label,
                solved_times: rows.iter().filter(|r| r.status == Status::Solved).map(|r| r.wall_s).collect(),
            })
            .collect::<Vec<_>>();
        let title = o.title.clone().unwrap_or_else(|| "Cactus plot: comparison".to_string());
        let svg = plot::cactus_svg(&series, keys.len(), limit, o.plot_scale.unwrap_or(plot::Scale::Log), &title);
        write_file(path, &svg)?;
        eprintln!("harness: wrote {}", path.display());
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|a| a.to_string()).collect()
    }

    #[test]
    fn parses_run_options_in_both_forms() {
        let o = parse_args(&args(&[
            "samples/kth100",
            "--solver",
            "a b",
            "--solver=c",
            "--time-limit=2.5",
            "--jobs",
            "3",
            "--limit",
            "5",
            "--filter",
            "test01",
            "--csv",
            "out.csv",
            "--plot",
            "p.svg",
            "--plot-scale",
            "linear",
            "x.xsb",
        ]))
        .unwrap();
        assert_eq!(o.sets, [PathBuf::from("samples/kth100"), PathBuf::from("x.xsb")]);
        assert_eq!(o.solvers, ["a b", "c"]);
        assert_eq!((o.time_limit, o.jobs, o.limit), (Some(2.5), 3, Some(5)));
        assert_eq!(o.filter.as_deref(), Some("test01"));
        assert_eq!(o.plot_scale, Some(plot::Scale::Linear));
        let o = parse_args(&args(&["s", "--within", "5,11,15", "--markdown=t.md"])).unwrap();
        assert_eq!(o.within, Some(vec![5.0, 11.0, 15.0]));
    }

    #[test]
    fn rejects_bad_arguments() {
        assert!(parse_args(&args(&[])).is_err());
        assert!(parse_args(&args(&["s", "--jobs", "0"])).is_err());
        assert!(parse_args(&args(&["s", "--time-limit", "-1"])).is_err());
        assert!(parse_args(&args(&["s", "--bogus"])).is_err());
        assert!(parse_args(&args(&["s", "--solver"])).is_err());
        assert!(parse_args(&args(&["--compare", "a.csv"])).is_err());
        assert!(parse_args(&args(&["--compare", "a.csv", "b.csv", "set"])).is_err());
        assert!(parse_args(&args(&["--compare", "a.csv", "b.csv", "--within", "5"])).is_err());
        assert!(parse_args(&args(&["s", "--within", "5,x"])).is_err());
        let o = parse_args(&args(&["--compare", "a.csv", "b.csv", "--plot", "p.svg"])).unwrap();
        assert_eq!(o.compare, Some((PathBuf::from("a.csv"), PathBuf::from("b.csv"))));
    }

    #[test]
    fn labels_are_unique() {
        let cmds = args(&["./s", "./s", "./t"]);
        assert_eq!(solver_labels(&cmds, &[], false), ["./s", "./s#2", "./t"]);
        assert_eq!(solver_labels(&cmds, &args(&["new", "old"]), false), ["new", "old", "./t"]);
        assert_eq!(solver_labels(&args(&["'/x/sokoban'"]), &[], true), ["sokoban"]);
    }
}
