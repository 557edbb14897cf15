//! Solving a level: the portfolio of `schedule` run under one shared budget; then the
//! plan becomes moves and is replayed before it is returned.

use crate::board::{Board, Cell, NotAnalysed};
use crate::budget::Budget;
use crate::level::Level;
use crate::packing::Packing;
use crate::schedule::{self, Phase};
use crate::search::{self, Context, Mode, Outcome, Priority, Ranking, Side, Stats, Switches};
use crate::solution::{self, Move};
use crate::state::Push;
use crate::state::Zobrist;

#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub mode: Mode,
    /// `None`: each phase of the portfolio takes its own order.
    pub priority: Option<Priority>,
    pub switches: Switches,
    /// Some phases order their feature cells by advisor weight (see `schedule`).
    pub advisor_weights: bool,
    /// Run only this phase of the portfolio (1 = the first), with the whole budget, for
    /// measuring what one search does alone. A phase that starts from an earlier one's
    /// nodes starts from the start instead.
    pub only_phase: Option<usize>,
    /// Each phase's work is the table's divided by this: `bench` runs the whole portfolio
    /// in a few thousand expansions.
    pub work_divisor: u64,
    /// Stretches of the solution are solved again, shorter where they can be (`shorten`).
    #[cfg(not(judge))]
    pub shorten: bool,
    /// A line on standard error as each phase starts, and as `--optimal`'s proven bound
    /// rises (`--progress`): a long run is not silent until its end.
    #[cfg(not(judge))]
    pub progress: bool,
    /// Give up after this much work (`schedule::expansion_cost`'s reference expansions),
    /// shared by the phases as the time is (`--work`): a stand-in for a time limit that no
    /// machine's speed changes.
    pub work: Option<u64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            mode: Mode::Bidirectional,
            priority: None,
            switches: Switches::default(),
            advisor_weights: true,
            only_phase: None,
            work_divisor: 1,
            #[cfg(not(judge))]
            shorten: true,
            #[cfg(not(judge))]
            progress: false,
            work: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Solved(Vec<Move>),
    /// Proven: the search space was exhausted (or the map is unsolvable as given).
    NoSolution(String),
    OutOfTime,
    OutOfMemory,
    /// Every search stopped under incomplete pruning without a solution.
    Exhausted,
    /// A plan failed its replay: a bug, never printed as an answer.
    Internal(String),
    /// The options ask for what this level does not have (a phase beyond its portfolio).
    InvalidOptions(String),
}

pub struct Report {
    pub verdict: Verdict,
    pub forward: Stats,
    pub backward: Stats,
    pub cells: usize,
    pub boxes: usize,
    /// Each phase run: its number in the portfolio (from 1), its name, when it ended
    /// (seconds since the start) and its expansions, for `--stats`; the last one is the
    /// one that solved the map, if any did.
    pub phases: Vec<(usize, &'static str, f64, u64)>,
    /// The goal rooms and their packing orders (`Packing::describe_rooms`), for `--stats`.
    pub rooms: Vec<String>,
    /// The forward position with the most boxes on goals that a phase stored, as a map
    /// (the player on the smallest cell of his area), for `--stats`: where the searches
    /// of a level they do not solve get stuck.
    pub closest: Option<String>,
}

/// Memory the searches use beside their node tables, kept out of the tables' budget.
const BESIDE_TABLES: usize = 32 << 20;

/// The searches' memory when the level's own tables leave less: a few thousand nodes.
const MIN_SEARCH_MEMORY: usize = 8 << 20;

/// Positions the shortening may visit even after a search of a few expansions: enough
/// for a first saving on a short stretch, little against the process's own start, so an
/// easy level's answer does not wait on a pass that finds nothing.
#[cfg(not(judge))]
const SHORTEN_WORK_AT_LEAST: u64 = 100;

/// The moves pass earns this much more work for each move it saves: a level solved in a
/// few expansions would otherwise leave it almost none where it pays most, and where it
/// saves nothing it costs only the floor (docs/experiments/2026-11-26-moves-budget.md,
/// 2026-11-26-cheaper-shortening.md).
#[cfg(not(judge))]
const MOVES_WORK_PER_SAVED_MOVE: usize = 3_000;

/// The plan with stretches solved again for fewer pushes (`shorten`), a box's pushes
/// brought together (`shorten::order`), and stretches solved again for fewer moves
/// (`shorten::moves`), each with as much work as half the search's (the moves pass more
/// as it pays), so that the answer does not wait long; `None` if not asked for.
#[cfg(not(judge))]
fn shortened(
    board: &Board,
    packing: &Packing,
    plan: &[Push],
    options: &Options,
    budget: &Budget,
    searched: u64,
) -> Option<Vec<Push>> {
    let pushes = solution::unfold(board, packing, plan).ok().filter(|_| options.shorten)?;
    let work = (searched / 2).max(SHORTEN_WORK_AT_LEAST) as usize;
    let fewer_pushes = crate::shorten::pushes(board, pushes, budget, work);
    let fewer_pushes = crate::shorten::order::regroup(board, fewer_pushes, budget, work);
    Some(crate::shorten::moves::moves(board, fewer_pushes, budget, work, MOVES_WORK_PER_SAVED_MOVE))
}

/// The judge needs any solution: its file leaves the shortening out.
#[cfg(judge)]
fn shortened(_: &Board, _: &Packing, _: &[Push], _: &Options, _: &Budget, _: u64) -> Option<Vec<Push>> {
    None
}

pub fn solve(level: &Level, options: &Options, budget: &Budget) -> Report {
    let mut report = Report {
        verdict: Verdict::OutOfTime,
        forward: Stats::default(),
        backward: Stats::default(),
        cells: 0,
        boxes: 0,
        phases: Vec::new(),
        rooms: Vec::new(),
        closest: None,
    };
    let board = match Board::analyse_until(level, budget.deadline(), budget.memory_bytes) {
        Ok(b) => b,
        Err(NotAnalysed::Unsolvable(why)) => {
            report.verdict = Verdict::NoSolution(why);
            return report;
        }
        Err(NotAnalysed::OutOfTime) => return report,
        Err(NotAnalysed::OutOfMemory) => {
            report.verdict = Verdict::OutOfMemory;
            return report;
        }
    };
    report.cells = board.n;
    report.boxes = board.start_boxes.len();
    if board.start_boxes.iter().all(|&b| board.is_goal[b as usize]) {
        report.verdict = Verdict::Solved(Vec::new());
        return report;
    }
    let packing = Packing::analyse(&board);
    report.rooms = packing.describe_rooms(&board);
    report.rooms.extend(packing.plan.as_ref().map(|p| p.describe(&board)));
    let phases = level_phases(&packing, options);
    if let Some(n) = options.only_phase.filter(|&n| n > phases.len()) {
        let why =
            format!("--phase {}: this level's portfolio has {}", n, crate::count(phases.len(), "phase", "phases"));
        report.verdict = Verdict::InvalidOptions(why);
        return report;
    }
    let zobrist = Zobrist::new(board.n);
    let cx = Context { board: &board, zobrist: &zobrist, packing: &packing };
    // The level's own tables come out of the memory budget before the searches' do, and
    // so does room for what the searches hold beside their tables (open lists' buckets,
    // matchings, the allocator's slack).
    let fixed = board.heap_bytes() + packing.heap_bytes() + board.n * 16 + BESIDE_TABLES;
    let mut budget = budget.clone();
    budget.memory_bytes = budget.memory_bytes.saturating_sub(fixed).max(MIN_SEARCH_MEMORY);
    if let Some(work) = options.work {
        let nodes = schedule::expansions(work, schedule::expansion_cost(board.n, board.start_boxes.len()), 1);
        budget.node_limit = Some(budget.node_limit.map_or(nodes, |n| n.min(nodes)));
        budget.reserve_nodes = true;
    }
    let budget = &budget;
    let (outcome, closest) = portfolio(cx, phases, options, budget, &mut report);
    report.rooms.extend(packing.other_plans_found().map(|(which, p)| format!("{which} {}", p.describe(&board))));
    report.closest = closest.and_then(|(boxes, player)| picture(level, &board, &boxes, player));
    report.verdict = match outcome {
        Outcome::Solved(plan) => {
            let searched = report.forward.expanded + report.backward.expanded;
            let shorter = shortened(&board, &packing, &plan, options, budget, searched);
            // The plan as found is the answer when the shorter one fails to replay; a test
            // makes sure that never happens.
            let answer = |plan: &[Push]| {
                let moves = solution::assemble(&board, &packing, plan)?;
                solution::replay(level, &moves)
                    .map(|()| moves)
                    .map_err(|e| format!("the plan failed its replay: {}", e))
            };
            match shorter.map(|p| answer(&p)) {
                Some(Ok(moves)) => Verdict::Solved(moves),
                _ => answer(&plan).map_or_else(Verdict::Internal, Verdict::Solved),
            }
        }
        Outcome::Unsolvable => Verdict::NoSolution("the search space is exhausted".into()),
        Outcome::OutOfTime => Verdict::OutOfTime,
        Outcome::OutOfMemory => Verdict::OutOfMemory,
        Outcome::Exhausted => Verdict::Exhausted,
    };
    report
}

/// A position on `board` as a map in `level`'s own rows: its floor, the walls around it,
/// the goals, the boxes and the player.
#[cfg(not(judge))]
fn picture(level: &Level, board: &Board, boxes: &[Cell], player: Cell) -> Option<String> {
    let (w, h) = (level.width.max(1), level.height);
    let mut floor = vec![false; w * h];
    board.grid_of.iter().for_each(|&g| floor[g] = true);
    // A wall cell is drawn where it touches the floor, even at a corner.
    let touches_floor = |i: usize| {
        let (x, y) = (i % w, i / w);
        (y.saturating_sub(1)..=(y + 1).min(h - 1))
            .any(|ny| (x.saturating_sub(1)..=(x + 1).min(w - 1)).any(|nx| floor[ny * w + nx]))
    };
    let mut grid: Vec<u8> = (0..w * h)
        .map(|i| match (floor[i], level.goals[i]) {
            (true, true) => b'.',
            (true, false) => b' ',
            (false, _) if touches_floor(i) => b'#',
            _ => b' ',
        })
        .collect();
    for &b in boxes {
        let g = board.grid_of[b as usize];
        grid[g] = if level.goals[g] { b'*' } else { b'$' };
    }
    let g = board.grid_of[player as usize];
    grid[g] = if level.goals[g] { b'+' } else { b'@' };
    Some(grid.chunks(w).map(|row| String::from_utf8_lossy(row).trim_end().to_string() + "\n").collect())
}

/// The judge reads no statistics: its file leaves the picture out.
#[cfg(judge)]
fn picture(_: &Level, _: &Board, _: &[Cell], _: Cell) -> Option<String> {
    None
}

/// The level's portfolio (`schedule::phases_for`): with the strict phase when the options
/// allow it and some goal room has a packing order to enforce.
fn level_phases(packing: &Packing, options: &Options) -> Vec<Phase> {
    let ordered_rooms = options.switches.strict_rooms && packing.strict.iter().any(|&s| s);
    schedule::phases_for(ordered_rooms, packing.plan.is_some(), options.advisor_weights)
}

/// Run `phases` (see `level_phases`) in order; a proof of unsolvability from any of them is
/// final. Phases whose backward sides would search alike (the same ranking) share one.
/// Each forward side takes over what the last one proved (`search::Lessons`), so the
/// corral searches are not made again; the box sets learned dead prune sooner than the
/// phase would learn them, which changes its course. Some phases run a second backward
/// side beside the shared one (`Phase::second_backward`).
/// Also returns the forward position with the most boxes on goals that a phase stored
/// (boxes, player).
fn portfolio(
    cx: Context,
    phases: Vec<Phase>,
    options: &Options,
    budget: &Budget,
    report: &mut Report,
) -> (Outcome, Option<(Vec<Cell>, Cell)>) {
    let board = cx.board;
    let cost = schedule::expansion_cost(board.n, board.start_boxes.len());
    let mut backward: Option<(Ranking, Side)> = None;
    let mut lessons = search::Lessons::new(board);
    let mut outcome = Outcome::OutOfTime;
    let mut most_packed: Vec<search::Waypoint> = Vec::new();
    let mut second: Option<Side> = None;
    let mut closest: Option<(Vec<Cell>, Cell)> = None;
    let on_goals = |boxes: &[Cell]| boxes.iter().filter(|&&b| board.is_goal[b as usize]).count();
    #[cfg(not(judge))]
    let count = phases.len();
    for (number, mut p) in (1..).zip(phases) {
        if let Some(only) = options.only_phase {
            if number != only {
                continue;
            }
            p.work = None;
        } else if p.from_most_packed && most_packed.is_empty() {
            continue;
        }
        let switches = p.switches.within(&options.switches);
        // A forced order is the same plain order for both sides in every phase.
        let (fwd_ranking, bwd_ranking) = options.priority.map_or((p.forward, p.backward), |o| ((o, 0), (o, 0)));
        if backward.as_ref().is_some_and(|(key, _)| *key != bwd_ranking) {
            retire(&mut backward, report);
        }
        let bwd = &mut backward
            .get_or_insert_with(|| {
                let side = search::backward_side(cx, options.mode, bwd_ranking, switches, budget.memory_bytes);
                (bwd_ranking, side)
            })
            .1;
        let used = report.forward.expanded + report.backward.expanded;
        let work = p.work.map(|w| schedule::expansions(w, cost, options.work_divisor));
        let phase_budget = budget.phase(work, used, schedule::RESERVE);
        if phase_budget.past_deadline() || phase_budget.node_limit == Some(0) {
            continue; // its time (or its work, with `--work`) went to the last phase
        }
        // Only the default rankings have feature cells for its children to wait in.
        let second_useful = p.second_backward && options.mode == Mode::Bidirectional && options.priority.is_none();
        if !second_useful {
            retire_side(second.take(), report);
        } else if second.is_none() {
            let memory = budget.memory_bytes;
            second = Some(search::second_backward_side(cx, bwd_ranking, switches, memory));
        }
        #[cfg(not(judge))]
        announce(options, budget, (number, count, p.name), closest.as_ref().map(|c| (on_goals(&c.0), c.0.len())));
        let (mode, lessons) = (options.mode, &mut lessons);
        let from = if p.from_most_packed { &most_packed[..] } else { &[] };
        let sides = search::Backward { shared: bwd, second: second.as_mut() };
        let run = search::run(cx, mode, fwd_ranking, sides, lessons, switches, &phase_budget, from);
        most_packed = run.most_packed;
        if let Some(w) =
            most_packed.first().filter(|w| closest.as_ref().map_or(true, |c| on_goals(&w.boxes) > on_goals(&c.0)))
        {
            closest = Some((w.boxes.clone(), w.player));
        }
        report.forward.add(&run.forward);
        report.backward.expanded += run.backward_expanded;
        let used_now = report.forward.expanded + report.backward.expanded;
        report.phases.push((number, p.name, budget.elapsed(), used_now - used));
        outcome = run.outcome;
        // Past the deadline or the node limit the phases after this one would only say so.
        if matches!(outcome, Outcome::Solved(_) | Outcome::Unsolvable) || budget.expired(used_now) {
            break;
        }
    }
    retire(&mut backward, report);
    retire_side(second, report);
    (outcome, closest)
}

/// `--progress`: the phase about to start (its number, of how many, and name) and the
/// time so far, then the most boxes on goals so far (of how many) once a phase stored some.
#[cfg(not(judge))]
fn announce(options: &Options, budget: &Budget, phase: (usize, usize, &str), so_far: Option<(usize, usize)>) {
    if options.progress {
        let (number, count, name) = phase;
        let so_far =
            so_far.map_or(String::new(), |(on, of)| format!(" (the most boxes on goals so far: {on} of {of})"));
        eprintln!("sokoban: {:.2} s: phase {number} of {count}, {name}{so_far}", budget.elapsed());
    }
}

/// Drop a shared backward side, keeping its figures (its expansions are counted already).
fn retire(backward: &mut Option<(Ranking, Side)>, report: &mut Report) {
    retire_side(backward.take().map(|(_, side)| side), report);
}

/// Drop a backward side, keeping its figures (its expansions are counted already).
fn retire_side(side: Option<Side>, report: &mut Report) {
    if let Some(side) = side {
        let expanded = report.backward.expanded;
        report.backward.add(&side.stats);
        report.backward.expanded = expanded;
    }
}
