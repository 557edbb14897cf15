//! Proven optimal solutions and weighted pushes, for people (the judge wants any solution
//! fast; this wants the best one and a proof).
//!
//! `--optimal pushes` finds the fewest pushes, ties broken by the fewest moves;
//! `--optimal moves` the fewest moves, ties broken by the fewest pushes; `--optimal cost`
//! the cheapest solution when a move costs 1 and a push of box `i` costs `1 + C_i`
//! (`--push-costs C1,C2,...`, boxes numbered in reading order of the map), ties broken by
//! the fewest pushes.
//!
//! First the normal solver runs with a tenth of the time, for a solution to print if no
//! proof comes and a cost to beat (the searches store nothing that cannot beat it).
//! Then two A* searches (`astar`):
//!
//! 1. The fewest pushes over positions that name the player's area, not his cell:
//!    few nodes, and the proof of the fewest pushes. For `pushes` it goes on until
//!    every node that could lie on a solution of the fewest pushes is expanded, and then
//!    marks those that do.
//! 2. The metric asked over positions with the player's cell, the walks counted. For
//!    `pushes` it visits only the marked solutions of the fewest pushes, to find the
//!    fewest moves among them; for `moves` and `cost` the first search raises its bound
//!    (a layout reached in `g` pushes needs `P - g` more when no solution has fewer than
//!    `P`), with half the time at most.
//!
//! Either proves the best solution it has optimal or stops at the time or memory limit
//! with the best found so far, printed with exit code 4.

mod astar;
mod weighted;

#[cfg(test)]
mod tests;

use std::io::Write;
use std::process::ExitCode;

use crate::board::{Board, NotAnalysed};
use crate::budget::Budget;
use crate::level::Level;
use crate::solution::{self, Move};
use crate::solver::{self, Options, Verdict};
use crate::state::Push;
use crate::Cli;
use astar::{pack, unpack, End, FewestMoves, Model, Search, Stats};

/// What `--optimal` minimises first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    Pushes,
    Moves,
    Cost,
}

/// The largest push cost accepted: with it, a solution's cost still fits the search's
/// packed costs (`astar::pack`) with room to spare.
pub const MAX_PUSH_COST: u64 = 1_000_000;

/// The exit code of a solution printed without a proof that it is optimal.
const NOT_PROVEN: u8 = 4;

/// The time the normal solver has for a first solution: what it has by default, as
/// levels it solves alone would otherwise get no answer at all within a long limit; but
/// half the time at most and a tenth at least, and what it leaves goes to the proof.
const FIRST_SECONDS: f64 = 10.0;
const FIRST_SHARE: (f64, f64) = (0.1, 0.5);

/// The share of the time left that the fewest-pushes search may take when the metric
/// asked is another: it only guides the search in that metric.
const GUIDE_SHARE: f64 = 0.5;

/// The share of `left` seconds that the first solution gets.
fn first_share(left: f64) -> f64 {
    (FIRST_SECONDS / left.max(f64::MIN_POSITIVE)).clamp(FIRST_SHARE.0, FIRST_SHARE.1)
}

pub fn parse_metric(v: &str) -> Result<Metric, String> {
    match v {
        "pushes" => Ok(Metric::Pushes),
        "moves" => Ok(Metric::Moves),
        "cost" => Ok(Metric::Cost),
        _ => Err(format!("--optimal wants pushes, moves or cost, not {:?}", v)),
    }
}

/// `--push-costs`: whole numbers from 0 to `MAX_PUSH_COST`, separated by commas.
pub fn parse_costs(v: &str) -> Result<Vec<u64>, String> {
    v.split(',')
        .enumerate()
        .map(|(i, c)| {
            let c = c.trim();
            match c.parse::<u64>() {
                Ok(x) if x <= MAX_PUSH_COST && !c.starts_with('+') => Ok(x),
                _ => Err(format!(
                    "--push-costs: cost {} is {:?}; each cost is a whole number from 0 to {}, separated by commas",
                    i + 1,
                    c,
                    MAX_PUSH_COST
                )),
            }
        })
        .collect()
}

/// The option checks that need the whole command line.
pub fn check(cli: &Cli) -> Result<(), String> {
    if cli.push_costs.is_some() && cli.optimal != Some(Metric::Cost) {
        return Err("--push-costs needs --optimal cost".into());
    }
    if cli.optimal.is_some() && cli.options.work.is_some() {
        return Err("--work measures the portfolio; with --optimal, use --nodes or --time-limit".into());
    }
    Ok(())
}

/// Moves, pushes and the weighted cost of an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    pub moves: u64,
    pub pushes: u64,
    pub cost: u64,
}

impl Tally {
    /// The search's packed cost of this answer.
    fn packed(&self, metric: Metric) -> u64 {
        match metric {
            Metric::Pushes => pack(self.pushes, self.moves),
            Metric::Moves => pack(self.moves, self.pushes),
            Metric::Cost => pack(self.cost, self.pushes),
        }
    }
}

/// Count what `moves` (legal: replayed before) cost on `level`, where pushing box
/// number `i` (reading order) costs `costs[i]` on top of the move (`costs` empty: 0).
pub fn tally(level: &Level, costs: &[u64], moves: &[Move]) -> Tally {
    let w = level.width as isize;
    let mut number: Vec<Option<usize>> = vec![None; level.boxes.len()];
    for (i, g) in (0..level.boxes.len()).filter(|&g| level.boxes[g]).enumerate() {
        number[g] = Some(i);
    }
    let mut at = level.player as isize;
    let mut t = Tally { moves: 0, pushes: 0, cost: 0 };
    for m in moves {
        let step = [-w, w, -1, 1][m.dir as usize];
        at += step;
        t.moves += 1;
        t.cost += 1;
        if let Some(b) = number[at as usize].take() {
            number[(at + step) as usize] = Some(b);
            t.pushes += 1;
            t.cost += costs.get(b).copied().unwrap_or(0);
        }
    }
    t
}

/// Why a search stopped without a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Time,
    Memory,
    /// A cost too large for the search's counters.
    Overflow,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Proven optimal.
    Optimal(Vec<Move>),
    /// The best found, not proven optimal.
    Unproven(Vec<Move>, Limit),
    /// Proven: no solution exists.
    NoSolution(String),
    NotFound(Limit),
    /// The options do not fit the map.
    BadOptions(String),
    /// A plan failed its replay, or its cost is not what the search counted: a bug.
    Internal(String),
}

pub struct Report {
    pub answer: Answer,
    /// The answer's moves, pushes and cost (zero without an answer).
    pub tally: Tally,
    /// The first solution's, and when it was found (seconds since the start).
    pub first: Option<(Tally, f64)>,
    /// Each A* run: what it searched, and its counts.
    pub stages: Vec<(&'static str, Stats)>,
    /// The proven lower bound in the metric asked, packed (`astar::pack`).
    pub lower: u64,
    /// The fewest pushes of any solution, if proven.
    pub fewest_pushes: Option<u64>,
    pub cells: usize,
    pub boxes: usize,
}

/// Solve `level` optimally for `metric`. `costs` holds the push cost of each box in
/// reading order (empty: none). `first`: the normal solver's options, to find a first
/// solution with a share of the time; `None` to start the A* at once.
pub fn solve(level: &Level, metric: Metric, costs: &[u64], first: Option<&Options>, budget: &Budget) -> Report {
    let mut report = Report {
        answer: Answer::NotFound(Limit::Time),
        tally: Tally { moves: 0, pushes: 0, cost: 0 },
        first: None,
        stages: Vec::new(),
        lower: 0,
        fewest_pushes: None,
        cells: 0,
        boxes: 0,
    };
    let all_boxes = level.boxes.iter().filter(|&&b| b).count();
    if !costs.is_empty() && costs.len() != all_boxes {
        let why = format!(
            "--push-costs gives {}, but the map has {}",
            crate::count(costs.len(), "cost", "costs"),
            crate::count(all_boxes, "box", "boxes")
        );
        report.answer = Answer::BadOptions(why);
        return report;
    }
    let board = match Board::analyse_until(level, budget.deadline(), budget.memory_bytes) {
        Ok(b) => b,
        Err(NotAnalysed::Unsolvable(why)) => {
            report.answer = Answer::NoSolution(why);
            return report;
        }
        Err(NotAnalysed::OutOfTime) => {
            report.answer = Answer::NotFound(Limit::Time);
            return report;
        }
        Err(NotAnalysed::OutOfMemory) => {
            report.answer = Answer::NotFound(Limit::Memory);
            return report;
        }
    };
    report.cells = board.n;
    report.boxes = board.start_boxes.len();
    // The costs of the boxes the player can reach, by the board's order (reading order).
    let numbers: Vec<usize> = (0..level.boxes.len()).filter(|&g| level.boxes[g]).collect();
    let slot_costs: Vec<u64> = board
        .start_boxes
        .iter()
        .map(|&c| {
            let g = board.grid_of[c as usize];
            numbers.binary_search(&g).ok().and_then(|i| costs.get(i).copied()).unwrap_or(0)
        })
        .collect();

    let mut incumbent: Option<Vec<Move>> = None;
    let mut used = 0;
    if let Some(options) = first {
        let left = budget.deadline().saturating_duration_since(std::time::Instant::now()).as_secs_f64();
        let r = solver::solve(level, options, &budget.share(first_share(left), 0));
        used = r.forward.expanded + r.backward.expanded;
        match r.verdict {
            Verdict::Solved(moves) => {
                report.first = Some((tally(level, costs, &moves), budget.elapsed()));
                incumbent = Some(moves);
            }
            Verdict::NoSolution(why) => {
                report.answer = Answer::NoSolution(why);
                return report;
            }
            Verdict::Internal(e) => {
                report.answer = Answer::Internal(e);
                return report;
            }
            _ => {}
        }
    }
    let packing = crate::packing::Packing::analyse(&board);
    // The moves of a plan, replayed; an error if they fail or cost more than `counted`,
    // what the search counted (`None`: the fewest-pushes search, which counts pushes
    // alone).
    let replayed = |plan: &[Push], counted: u64, metric: Option<Metric>| {
        let moves = solution::assemble(&board, &packing, plan)
            .and_then(|moves| solution::replay(level, &moves).map(|()| moves))
            .map_err(|e| format!("the optimal plan failed its replay: {}", e))?;
        let t = tally(level, costs, &moves);
        if metric.map_or(pack(t.pushes, 0), |metric| t.packed(metric)) > counted {
            return Err("the optimal plan costs more than the search counted".to_string());
        }
        Ok(moves)
    };

    // The fewest pushes first, walks free: in few nodes it proves (or bounds) the pushes
    // any solution needs, and that bounds the search in the metric asked (`Guide`).
    let pushes_model = Model::pushes_only(&board);
    let upper = incumbent.as_ref().map_or(u64::MAX, |m| pack(tally(level, costs, m).pushes, 0));
    // For the fewest pushes this search is the proof, and the next one visits only the
    // solutions of the fewest pushes, which its completed layer knows (`Guide`); for
    // another metric it only guides the next.
    let (share, memory) = match metric {
        Metric::Pushes => (1.0, budget.memory_bytes / 8 * 7),
        _ => (GUIDE_SHARE, budget.memory_bytes / 4),
    };
    let progress = first.is_some_and(|o| o.progress);
    let mut pushes = Search::new(&board, &pushes_model, memory, upper, None);
    pushes.progress = progress;
    if metric == Metric::Pushes {
        pushes.complete_layer();
    }
    let end = pushes.run(&budget.share(share, used));
    used += pushes.stats.expanded;
    report.stages.push(("fewest pushes, player areas", pushes.stats.clone()));
    if let Some(node) = pushes.found {
        match replayed(&pushes.path(node), pushes.upper(), None) {
            Ok(moves) => {
                let better = |old: &Vec<Move>| {
                    tally(level, costs, &moves).packed(metric) < tally(level, costs, old).packed(metric)
                };
                if incumbent.as_ref().map_or(true, better) {
                    incumbent = Some(moves);
                }
            }
            Err(e) => {
                report.answer = Answer::Internal(e);
                return report;
            }
        }
    }
    if end == End::Unsolvable {
        report.answer = Answer::NoSolution("the search space is exhausted".into());
        return report;
    }
    let lower_pushes = unpack(pushes.stats.lower).0;
    if pushes.stats.proven_at.is_some() {
        report.fewest_pushes = Some(unpack(pushes.upper()).0);
    }
    let model = Model::new(&board, metric, &slot_costs);
    report.lower = model.bound_of_pushes(lower_pushes);
    // Only a proof in the metric asked ends the run: the fewest pushes alone is not one
    // (their moves may not be the fewest).
    let layer_done = end == End::Proven;
    let mut end = if end == End::Proven { End::OutOfTime } else { end };
    if metric == Metric::Pushes && layer_done {
        if !budget.expired(used) {
            let fewest = unpack(pushes.upper()).0;
            let paths = pushes.solution_paths();
            let result = pushes.fewest_moves_on_paths(paths, budget, used, budget.memory_bytes);
            report.stages[0].1 = pushes.stats.clone();
            match result {
                FewestMoves::Found(plan, moves) => match replayed(&plan, pack(fewest, moves), Some(metric)) {
                    Ok(answer) => {
                        incumbent = Some(answer);
                        report.lower = pack(fewest, moves);
                        end = End::Proven;
                    }
                    Err(e) => {
                        report.answer = Answer::Internal(e);
                        return report;
                    }
                },
                FewestMoves::OutOfTime(moves) => report.lower = pack(fewest, moves),
                FewestMoves::OutOfMemory(moves) => {
                    report.lower = pack(fewest, moves);
                    end = End::OutOfMemory;
                }
            }
        }
    } else if !budget.expired(used) {
        let guide = pushes.into_guide(lower_pushes);
        let upper = incumbent.as_ref().map_or(u64::MAX, |m| tally(level, costs, m).packed(metric));
        let memory = budget.memory_bytes.saturating_sub(guide.bytes());
        let mut search = Search::new(&board, &model, memory, upper, Some(&guide));
        search.progress = progress;
        end = search.run(&budget.share(1.0, used));
        report.stages.push(("the metric asked, player cells", search.stats.clone()));
        if search.stats.lower != u64::MAX {
            report.lower = report.lower.max(search.stats.lower);
        }
        if let Some(node) = search.found {
            match replayed(&search.path(node), search.upper(), Some(metric)) {
                Ok(moves) => incumbent = Some(moves),
                Err(e) => {
                    report.answer = Answer::Internal(e);
                    return report;
                }
            }
        }
    }
    let limit = match end {
        End::Proven | End::Unsolvable => None,
        End::OutOfTime => Some(Limit::Time),
        End::OutOfMemory => Some(Limit::Memory),
        End::Overflow => Some(Limit::Overflow),
    };
    report.answer = match (incumbent, limit) {
        (Some(moves), None) => Answer::Optimal(moves),
        (Some(moves), Some(limit)) => Answer::Unproven(moves, limit),
        (None, None) => Answer::NoSolution("the search space is exhausted".into()),
        (None, Some(limit)) => Answer::NotFound(limit),
    };
    if let Answer::Optimal(m) | Answer::Unproven(m, _) = &report.answer {
        report.tally = tally(level, costs, m);
    }
    report
}

/// Run `--optimal` if asked: `Err` with the exit code when it ran, else the level back.
pub fn intercept(cli: &Cli, level: Level, budget: &Budget) -> Result<Level, ExitCode> {
    let Some(metric) = cli.optimal else { return Ok(level) };
    let costs = cli.push_costs.clone().unwrap_or_default();
    let report = solve(&level, metric, &costs, Some(&cli.options), budget);
    if cli.stats {
        print_stats(&report, metric, budget);
    }
    let within = || {
        let nodes = cli.nodes.map_or(String::new(), |n| format!(" or {} expansions", n));
        format!("within {} s{}", cli.time_limit, nodes)
    };
    let why = |limit: Limit| match limit {
        Limit::Time => within(),
        Limit::Memory => format!("within {} MB of memory", cli.memory_mb),
        Limit::Overflow => "(costs too large to count)".into(),
    };
    let print = |moves: &[Move]| -> Result<(), ExitCode> {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", solution::format(moves, cli.lurd))
            .and_then(|_| out.flush())
            .map_err(|_| ExitCode::from(1))?;
        if metric == Metric::Cost {
            eprintln!("sokoban: cost {}", report.tally.cost);
        }
        Ok(())
    };
    Err(match &report.answer {
        Answer::Optimal(moves) => print(moves).err().unwrap_or(ExitCode::SUCCESS),
        Answer::Unproven(moves, limit) => {
            print(moves)?;
            let (lower, answer) = (report.lower, report.tally.packed(metric));
            // The tie-break's bound means something only where the metric's is reached.
            let lower = if unpack(lower).0 < unpack(answer).0 {
                describe_metric(metric, unpack(lower).0)
            } else {
                describe(metric, lower)
            };
            let proof = match limit {
                Limit::Overflow => "costs too large to count".into(),
                _ => format!("no proof {}", why(*limit)),
            };
            let proof = match (metric, report.fewest_pushes) {
                (Metric::Pushes, Some(p)) => {
                    format!("{} pushes are proven the fewest, but not the moves among them: {}", p, proof)
                }
                _ => proof,
            };
            crate::fail(
                NOT_PROVEN,
                &format!(
                    "not proven optimal ({}; at least {}, this solution {})",
                    proof,
                    lower,
                    describe(metric, answer)
                ),
            )
        }
        Answer::NoSolution(w) => crate::fail(1, &format!("no solution exists ({})", w)),
        Answer::NotFound(Limit::Overflow) => crate::fail(1, "no solution found (costs too large to count)"),
        Answer::NotFound(limit) => crate::fail(1, &format!("no solution found {}", why(*limit))),
        Answer::BadOptions(e) => crate::fail(2, e),
        Answer::Internal(e) => crate::fail(3, &format!("internal error: {}", e)),
    })
}

/// A packed cost in words: the metric, then the tie-break.
fn describe(metric: Metric, cost: u64) -> String {
    let (a, b) = unpack(cost);
    match metric {
        Metric::Pushes => format!("{} pushes, {} moves", a, b),
        Metric::Moves => format!("{} moves, {} pushes", a, b),
        Metric::Cost => format!("cost {}, {} pushes", a, b),
    }
}

fn describe_metric(metric: Metric, value: u64) -> String {
    match metric {
        Metric::Pushes => format!("{} pushes", value),
        Metric::Moves => format!("{} moves", value),
        Metric::Cost => format!("cost {}", value),
    }
}

/// `--stats` with `--optimal`: the first solution, the A*'s counts, the lower bound it
/// proved and the answer, on standard error.
fn print_stats(r: &Report, metric: Metric, budget: &Budget) {
    eprintln!("cells {}  boxes {}  time {:.3} s", r.cells, r.boxes, budget.elapsed());
    match r.first {
        Some((t, at)) => {
            let packed = t.packed(metric);
            eprintln!("optimal  first solution by the normal solver: {} (at {:.3} s)", describe(metric, packed), at);
        }
        None => eprintln!("optimal  first solution by the normal solver: none"),
    }
    for (name, s) in &r.stages {
        eprintln!(
            "optimal  {}: expanded {}  generated {}  duplicates {}  reopened {}  dead {} (corrals {})  deferred {}  beaten {}  stored {}/{}",
            name,
            s.expanded,
            s.generated,
            s.duplicates,
            s.reopened,
            s.dead,
            s.dead_corrals,
            s.deferred,
            s.beaten,
            s.stored,
            s.capacity
        );
    }
    if let Some(p) = r.fewest_pushes {
        let at = r.stages[0].1.proven_at.unwrap_or(0.0);
        eprintln!("optimal  fewest pushes proven: {} (at {:.3} s)", p, at);
    }
    let s = &r.stages[0].1;
    if s.path_pushes > 0 {
        eprintln!(
            "optimal  their solutions: {} pushes between positions; {} positions with the player's cell settled",
            s.path_pushes, s.path_positions
        );
    }
    match r.answer {
        Answer::NoSolution(_) => eprintln!("optimal  no solution: the search space is exhausted"),
        Answer::Optimal(_) => {
            eprintln!("optimal  lower bound {} (proven: nothing left below it)", describe(metric, r.lower))
        }
        _ => eprintln!(
            "optimal  lower bound {} (the least bound left when the search stopped)",
            describe(metric, r.lower)
        ),
    }
    if let Answer::Optimal(_) | Answer::Unproven(..) = r.answer {
        let t = r.tally;
        eprintln!("solution {} moves, {} pushes, cost {}", t.moves, t.pushes, t.cost);
    }
}
