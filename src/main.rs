//! Sokoban solver for online judges: one map on stdin, one line of moves on stdout.
//!
//! Exit codes: 0 solved (moves printed), 1 no solution (proven, or not found within the
//! time or memory limit) or the answer could not be written, 2 invalid input or usage, 3
//! internal error (never a wrong answer), 4 with `--optimal` only: moves printed but not
//! proven optimal.

mod bench;
mod blocks;
mod board;
mod bound;
mod box_path;
mod budget;
#[cfg(not(judge))]
mod collection;
mod corral;
mod corral_deadlock;
mod dead_sets;
mod freeze;
mod frozen_goals;
mod hotspot;
mod level;
mod limits;
mod open;
#[cfg(not(judge))]
mod optimal;
mod packing;
mod plan;
mod plan_search;
mod reach;
mod schedule;
mod search;
#[cfg(not(judge))]
mod shorten;
mod solution;
mod solver;
#[cfg(test)]
mod soundness;
mod state;
mod table;
#[cfg(test)]
mod testing;

use std::io::{Read, Write};
use std::process::ExitCode;
use std::time::Instant;

use budget::Budget;
use level::Level;
#[cfg(not(judge))]
use search::{Mode, Priority};
use solver::{Options, Verdict};

/// The single-file build has no Cargo to supply `CARGO_PKG_VERSION`; a test keeps this
/// equal to Cargo.toml's version.
const VERSION: &str = "0.1.0";

/// The judge file's help: it keeps only the options the judge and a comparison need.
#[cfg(judge)]
const USAGE: &str = "\
sokoban - solve one Sokoban map (the judge file: see the full build for every option)

USAGE:
    sokoban [-t SECONDS] [--nodes N] [--memory MB] < MAP
    sokoban bench [--nodes N]
";

#[cfg(not(judge))]
const USAGE: &str = "\
sokoban - solve one Sokoban map

USAGE:
    sokoban [OPTIONS] < MAP        solve the map read from standard input
    sokoban solve FILE... [--jobs N] [--output PATH] [OPTIONS]
                                   solve every level of level collections (.sok,
                                   .xsb, .txt), N at a time, each in a process of
                                   its own with the OPTIONS; the solutions go to
                                   PATH (default: standard output), progress to
                                   standard error
    sokoban bench [--nodes N]      print the deterministic node-count signature

The map uses '#' wall, ' ' floor, '.' goal, '$' box, '*' box on goal, '@' player,
'+' player on goal; title and comment lines before or after it (a letter or ';'
first) are skipped. The answer is one line of moves (U, D, L, R) and a newline.

OPTIONS:
    -t, --time-limit SECONDS   give up after this long, from 0.001 to 1000000
                               (default 10)
        --nodes N              give up after N expansions too, each phase its
                               work in turn (no reserve for the last, unlike
                               --work): the same search on any machine and
                               under any load (for comparing changes; the
                               time limit still holds)
        --work N               give up after N of work too: expansions of a map
                               of 100 floor cells and 10 boxes, fewer on a bigger
                               map as the schedule counts them, shared by the
                               phases as time is (the last keeps a quarter); a
                               stand-in for a time limit on no machine in
                               particular: on the development machine, 450000
                               solves about what -t 4 does, 1200000 what the
                               judge's 11 s do
        --memory MB            memory for the map's tables and the searches
                               (default 700); the process may use 64 MB more
        --lurd                 print LURD: lowercase walks, uppercase pushes
        --stats                print search statistics on standard error, with
                               each goal room's packing order (column,row from
                               0), each side's closest approach to its targets,
                               the map of the forward position with the most
                               boxes on goals and the portfolio's phases (the
                               last one solved it)
        --progress             print a line on standard error as each search
                               starts (each phase, and with --optimal each rise
                               of the bound it has proven), with the time so far
        --search MODE          bidir (default), forward or backward
        --priority ORDER       one order for every phase: greedy (h), astar
                               (g + h), features (nodes in cells by boxes
                               packed, separate floor areas and boxes in
                               doorways, cells taken in turn) or alternate
                               (greedy and features by turns); default: each
                               phase its own
        --no-freeze            turn off freeze-deadlock pruning
        --no-matching          use nearest-goal sums instead of the matching bound
        --no-corral            turn off PI-corral pruning, corral deadlocks and
                               box sets learned dead
        --no-goal-macro        turn off goal-room macros (packing order)
        --no-strict-rooms      let boxes enter goal rooms out of packing order
        --no-tunnel-macro      push boxes through tunnels one step at a time
        --no-packing-macro     never push a box to a room's next goal in one move
        --no-whole-pulls       backward, pull boxes one step at a time only (not
                               also onto start cells in one move)
        --no-advisor-weights   feature cells always serve the best bound first
                               (no phase orders them by FESS advisor weight)
        --no-shorten           print the solution as found, without solving
                               stretches of it again shorter
        --phase N              run only the portfolio's Nth phase (numbered as
                               --stats shows them), with all the time: for
                               measuring one search alone
        --seed N               perturb the order of the forward searches (0,
                               the default: only the phase the schedule seeds);
                               another seed may solve a map the default does
                               not, and runs with a few seeds show how much of
                               a change's gain is noise
        --optimal METRIC       a proven optimal solution: pushes (fewest
                               pushes, then fewest moves), moves (fewest
                               moves, then fewest pushes) or cost (cheapest
                               by --push-costs, then fewest pushes; the cost
                               goes to standard error); without a proof
                               within the limits, the best found (exit 4)
        --push-costs LIST      with --optimal cost: C1,C2,... one whole
                               number from 0 to 1000000 per box, numbered in
                               reading order of the map; a move costs 1, a
                               push of box i costs 1 + Ci (default all 0)
    -h, --help                 print this help
    -V, --version              print the version

EXIT CODES:
    0  solved: the moves are on standard output
    1  no solution: none exists, or none was found within the time or memory
       limit; or standard output could not take the answer
    2  invalid input or invalid options (the reason is on standard error)
    3  internal error (a plan failed its own replay; nothing is printed)
    4  --optimal: a solution is on standard output, but the time or memory
       ran out before it was proven optimal (the reason is on standard error)
    sokoban solve: the worst code of its levels, a level whose process was killed
    or crashed counting as 3, and a file it cannot read as 2
";

struct Cli {
    options: Options,
    time_limit: f64,
    nodes: Option<u64>,
    memory_mb: usize,
    lurd: bool,
    #[cfg(not(judge))]
    stats: bool,
    /// Where in the arguments the file names are (`sokoban solve`); a map on standard
    /// input takes none.
    #[cfg(not(judge))]
    files: Vec<usize>,
    #[cfg(not(judge))]
    optimal: Option<optimal::Metric>,
    #[cfg(not(judge))]
    push_costs: Option<Vec<u64>>,
}

/// The time limits accepted, in seconds: below a millisecond nothing can be done, and
/// above a million seconds (11.6 days) the limit is a typo. Within them, messages print
/// the limit as given ("1e-300" printed 300 digits).
const TIME_LIMITS: std::ops::RangeInclusive<f64> = 0.001..=1e6;

/// `n` and the noun in the number it agrees with ("1 box", "2 boxes").
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", n, if n == 1 { one } else { many })
}

/// A whole number above zero (no sign), or `None`.
fn positive_whole(v: &str) -> Option<u64> {
    v.parse::<u64>().ok().filter(|&n| n > 0)
}

fn parse_args(args: &[String]) -> Result<Cli, String> {
    let mut cli = Cli {
        options: Options::default(),
        time_limit: 10.0,
        nodes: None,
        memory_mb: 700,
        lurd: false,
        #[cfg(not(judge))]
        stats: false,
        #[cfg(not(judge))]
        files: Vec::new(),
        #[cfg(not(judge))]
        optimal: None,
        #[cfg(not(judge))]
        push_costs: None,
    };
    let mut i = 0;
    let value = |i: &mut usize, name: &str| -> Result<String, String> {
        *i += 1;
        args.get(*i).cloned().ok_or_else(|| format!("{} needs a value", name))
    };
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "-t" | "--time-limit" => {
                let v = value(&mut i, a)?;
                cli.time_limit = v.parse::<f64>().ok().filter(|s| TIME_LIMITS.contains(s)).ok_or_else(|| {
                    let (low, high) = (TIME_LIMITS.start(), TIME_LIMITS.end());
                    format!("--time-limit wants seconds from {} to {}, not {:?}", low, high, v)
                })?;
            }
            "--nodes" => {
                let v = value(&mut i, a)?;
                let why = || format!("--nodes wants a positive whole number, not {:?}", v);
                cli.nodes = Some(positive_whole(&v).ok_or_else(why)?);
            }
            "--memory" => {
                let v = value(&mut i, a)?;
                cli.memory_mb = v
                    .parse::<usize>()
                    .ok()
                    .filter(|m| (16..=16384).contains(m))
                    .ok_or_else(|| format!("--memory wants megabytes between 16 and 16384, not {:?}", v))?;
            }
            _ if people_option(&mut cli, a, &mut || value(&mut i, a))? => {}
            #[cfg(not(judge))]
            _ if !a.starts_with('-') => cli.files.push(i),
            _ => return Err(format!("unknown option {:?} (see --help)", a)),
        }
        i += 1;
    }
    Ok(cli)
}

/// The judge file has none of the options for people (`people_option`).
#[cfg(judge)]
fn people_option(_: &mut Cli, _: &str, _: &mut dyn FnMut() -> Result<String, String>) -> Result<bool, String> {
    Ok(false)
}

/// Options for people measuring or reading the search; `false` if `a` is none of them.
/// `value` takes the option's argument.
#[cfg(not(judge))]
fn people_option(cli: &mut Cli, a: &str, value: &mut dyn FnMut() -> Result<String, String>) -> Result<bool, String> {
    match a {
        "--lurd" => cli.lurd = true,
        "--stats" => cli.stats = true,
        "--progress" => cli.options.progress = true,
        "--search" => {
            let v = value()?;
            cli.options.mode = match v.as_str() {
                "bidir" | "bidirectional" => Mode::Bidirectional,
                "forward" => Mode::Forward,
                "backward" => Mode::Backward,
                _ => return Err(format!("--search wants bidir, forward or backward, not {:?}", v)),
            };
        }
        "--priority" => {
            let v = value()?;
            cli.options.priority = Some(match v.as_str() {
                "greedy" => Priority::Greedy,
                "astar" => Priority::AStar,
                "features" => Priority::Features,
                "alternate" => Priority::Alternation,
                _ => return Err(format!("--priority wants greedy, astar, features or alternate, not {:?}", v)),
            });
        }
        "--no-freeze" => cli.options.switches.freeze = false,
        "--no-matching" => cli.options.switches.matching = false,
        "--no-corral" => cli.options.switches.corral = false,
        "--no-goal-macro" => cli.options.switches.goal_macro = false,
        "--no-strict-rooms" => cli.options.switches.strict_rooms = false,
        "--no-tunnel-macro" => cli.options.switches.tunnel_macro = false,
        "--no-packing-macro" => cli.options.switches.packing_macro = false,
        "--no-whole-pulls" => cli.options.switches.whole_pulls = false,
        "--no-advisor-weights" => cli.options.advisor_weights = false,
        "--no-shorten" => cli.options.shorten = false,
        "--work" => {
            let v = value()?;
            let why = || format!("--work wants a positive whole number, not {:?}", v);
            cli.options.work = Some(positive_whole(&v).ok_or_else(why)?);
        }
        "--seed" => {
            let v = value()?;
            let why = || format!("--seed wants a whole number, not {:?}", v);
            cli.options.switches.seed = v.parse::<u64>().map_err(|_| why())?;
        }
        "--phase" => {
            let v = value()?;
            let n = positive_whole(&v).and_then(|n| usize::try_from(n).ok());
            let why = || format!("--phase wants a phase number from 1 (see --stats), not {:?}", v);
            cli.options.only_phase = Some(n.ok_or_else(why)?);
        }
        "--optimal" => cli.optimal = Some(optimal::parse_metric(&value()?)?),
        "--push-costs" => cli.push_costs = Some(optimal::parse_costs(&value()?)?),
        _ => return Ok(false),
    }
    Ok(true)
}

fn fail(code: u8, message: &str) -> ExitCode {
    // Not `eprintln!`: it panics when standard error cannot be written, and the exit
    // code must still say what happened.
    let _ = writeln!(std::io::stderr(), "sokoban: {}", message);
    ExitCode::from(code)
}

/// Write `text` (`what` it is) to standard output; when that fails (a full disk, a pipe
/// whose reader is gone), say so on standard error and exit 1, as when no answer is found.
pub fn emit(text: &str, what: &str) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(1, &format!("cannot write {}: {}", what, e)),
    }
}

fn main() -> ExitCode {
    let start = Instant::now();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(|s| s.as_str()) {
        Some("-h") | Some("--help") => return emit(USAGE, "the help"),
        Some("-V") | Some("--version") => return emit(&format!("sokoban {}\n", VERSION), "the version"),
        Some("bench") => return bench::bench_main(&args[1..]),
        #[cfg(not(judge))]
        Some("solve") => return collection::solve_main(&args[1..]),
        _ => {}
    }
    let cli = match parse_args(&args) {
        Ok(c) => c,
        Err(e) => return fail(2, &e),
    };
    // A file name is for `sokoban solve`; here it is an unknown argument.
    #[cfg(not(judge))]
    let cli = match cli.files.first() {
        Some(&i) => return fail(2, &format!("unknown option {:?} (see --help)", args[i])),
        None => cli,
    };
    #[cfg(not(judge))]
    let () = match optimal::check(&cli) {
        Ok(()) => (),
        Err(e) => return fail(2, &e),
    };

    let mut input = Vec::new();
    let limit = level::MAX_INPUT_BYTES as u64 + 1;
    if let Err(e) = std::io::stdin().take(limit).read_to_end(&mut input) {
        return fail(2, &format!("cannot read standard input: {}", e));
    }
    let text = match String::from_utf8(input) {
        Ok(t) => t,
        Err(e) => {
            let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
            let column = good.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
            return fail(2, &format!("invalid map: line {}, column {}: input is not UTF-8 text", line, column));
        }
    };
    let level = match Level::parse(&text) {
        Ok(l) => l,
        Err(e) => return fail(2, &format!("invalid map: {}", e)),
    };

    let mut budget = Budget::new(start, cli.time_limit, cli.memory_mb << 20);
    budget.node_limit = cli.nodes;
    #[cfg(not(judge))]
    let level = match optimal::intercept(&cli, level, &budget) {
        Ok(level) => level,
        Err(code) => return code,
    };
    let report = solver::solve(&level, &cli.options, &budget);
    #[cfg(not(judge))]
    print_stats(cli.stats, &report, &budget);
    match report.verdict {
        Verdict::Solved(moves) => emit(&(solution::format(&moves, cli.lurd) + "\n"), "the answer"),
        Verdict::NoSolution(why) => fail(1, &format!("no solution exists ({})", why)),
        Verdict::OutOfTime => {
            let mut nodes =
                cli.nodes.map_or(String::new(), |n| format!(" or {}", count(n as usize, "expansion", "expansions")));
            if let Some(w) = cli.options.work {
                nodes += &format!(" or {} of work", w);
            }
            fail(1, &format!("no solution found within {} s{}", cli.time_limit, nodes))
        }
        Verdict::OutOfMemory => fail(1, &format!("no solution found within {} MB of memory", cli.memory_mb)),
        Verdict::Exhausted => fail(1, "no solution found (the pruned search space is exhausted)"),
        Verdict::Internal(e) => fail(3, &format!("internal error: {}", e)),
        Verdict::InvalidOptions(e) => fail(2, &e),
    }
}

/// `--stats`: what the search did, on standard error.
#[cfg(not(judge))]
fn print_stats(wanted: bool, r: &solver::Report, budget: &Budget) {
    if !wanted {
        return;
    }
    eprintln!("cells {}  boxes {}  time {:.3} s", r.cells, r.boxes, budget.elapsed());
    for room in &r.rooms {
        eprintln!("{}", room);
    }
    for (name, s) in [("forward", &r.forward), ("backward", &r.backward)] {
        eprintln!(
            concat!(
                "{:<8} expanded {:>9}  generated {:>9}  duplicates {:>9}  dead: freeze {:>8} side {:>8} ",
                "matching {:>8} corral {:>8} corral search {:>8}  corral cuts {:>8}  macros {:>8}  stored {:>9}/{}"
            ),
            name,
            s.expanded,
            s.generated,
            s.duplicates,
            s.dead_freeze,
            s.dead_sides,
            s.dead_matching,
            s.dead_corral,
            s.dead_corral_search,
            s.corral_cuts,
            s.macros,
            s.stored,
            s.capacity
        );
        if s.corral_searches > 0 {
            eprintln!("{:<8} corral searches {}, {} positions", "", s.corral_searches, s.corral_search_nodes);
        }
        if s.dead_set_searches > 0 || s.dead_sets > 0 {
            let (cut, searches, nodes, known) = (s.dead_sets, s.dead_set_searches, s.dead_set_nodes, s.dead_sets_known);
            eprintln!(
                "{:<8} dead by box sets {}, {} searches, {} positions, {} sets known",
                "", cut, searches, nodes, known
            );
        }
        if s.frozen_analyses > 0 {
            let (dead, boards) = (s.dead_frozen, s.frozen_analyses);
            eprintln!("{:<8} dead by boxes frozen on goals {}, {} boards with them walled up", "", dead, boards);
        }
        if s.best_h != i32::MAX {
            eprintln!("{:<8} closest: bound {} pushes, {} of {} boxes on target", "", s.best_h, s.most_packed, r.boxes);
        }
    }
    if let Some(map) = &r.closest {
        eprintln!("closest position, the most boxes on goals a forward search stored:");
        map.lines().for_each(|row| eprintln!("    {}", row));
    }
    for (number, name, ended, expanded) in &r.phases {
        eprintln!("phase {:>2}  {:<40} ended at {:.3} s, {} expansions", number, name, ended, expanded);
    }
    if let Verdict::Solved(m) = &r.verdict {
        eprintln!("solution {} moves, {} pushes", m.len(), m.iter().filter(|x| x.push).count());
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn version_matches_cargo_toml() {
        assert_eq!(super::VERSION, env!("CARGO_PKG_VERSION"));
    }
}
