//! The portfolio: which searches run, in what order, under one shared budget; then the
//! plan becomes moves and is replayed before it is returned.

use crate::board::Board;
use crate::budget::Budget;
use crate::level::Level;
use crate::packing::Packing;
use crate::search::{self, Mode, Outcome, Priority, Ranking, Stats, Switches};
use crate::solution::{self, Move};

#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub mode: Mode,
    /// `None`: each phase of the portfolio takes its own order.
    pub priority: Option<Priority>,
    pub switches: Switches,
}

impl Default for Options {
    fn default() -> Self {
        Options { mode: Mode::Bidirectional, priority: None, switches: Switches::default() }
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
}

pub struct Report {
    pub verdict: Verdict,
    pub forward: Stats,
    pub backward: Stats,
    /// The bridge searches' figures (see `bridge`), and how many targets they had.
    pub bridge: Stats,
    pub bridge_targets: u32,
    pub cells: usize,
    pub boxes: usize,
}

pub fn solve(level: &Level, options: &Options, budget: &Budget) -> Report {
    let mut report = Report {
        verdict: Verdict::OutOfTime,
        forward: Stats::default(),
        backward: Stats::default(),
        bridge: Stats::default(),
        bridge_targets: 0,
        cells: 0,
        boxes: 0,
    };
    let board = match Board::analyse(level) {
        Ok(b) => b,
        Err(why) => {
            report.verdict = Verdict::NoSolution(why);
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
    let outcome = portfolio(&board, &packing, options, budget, &mut report);
    report.verdict = match outcome {
        Outcome::Solved(pushes) => match solution::assemble(&board, &packing, &pushes) {
            Ok(moves) => match solution::replay(level, &moves) {
                Ok(()) => Verdict::Solved(moves),
                Err(e) => Verdict::Internal(format!("the plan failed its replay: {}", e)),
            },
            Err(e) => Verdict::Internal(e),
        },
        Outcome::Unsolvable => Verdict::NoSolution("the search space is exhausted".into()),
        Outcome::OutOfTime => Verdict::OutOfTime,
        Outcome::OutOfMemory => Verdict::OutOfMemory,
        Outcome::Exhausted => Verdict::Exhausted,
    };
    report
}

/// One search of the portfolio.
struct Phase {
    strict: bool,
    /// Corral searches take in the boxes touching the barrier.
    cluster: bool,
    /// Boxes may go to a room's next goal in one move (forward).
    packing_macro: bool,
    /// Rankings of the forward and the backward side.
    ranking: (Ranking, Ranking),
    /// Share of the time still left when the phase starts.
    share: f64,
}

/// Most maps fall to a short plain search; goal-room levels need their packing order
/// enforced, which is fast when the order is right but may be wrong for a level; then a
/// plain search with fresh tables gets the rest. The sides take greedy and feature-space
/// turns, which finds different solutions than greedy alone; only the strict forward
/// search stays greedy: with the order enforced, greedy packs rooms best. After the first
/// phase the backward side also counts the boxes not yet back on their start cells:
/// that solves levels the bound alone does not (forward it changed nothing), and the
/// weights differ by phase because each weight solves levels the other misses. Packing
/// macros make the first phase (and room-less levels) much faster and solve more; in the
/// later phases they cost more maps than they won.
///
/// Which short searches succeed is chaotic: a small change in pruning turns a level
/// solved in 0.05 s into one unsolved in 10 s, and back. So a second short search
/// follows the first, its corral searches taking in the boxes around each corral too
/// (each of the two alone solves levels in a second that the other does not), before
/// the long searches start.
const ALT: Priority = Priority::Alternation;
const GREEDY: Priority = Priority::Greedy;
const PHASES: [Phase; 4] = [
    Phase { strict: false, cluster: false, packing_macro: true, ranking: ((ALT, 0), (ALT, 0)), share: 0.1 },
    Phase { strict: false, cluster: true, packing_macro: true, ranking: ((ALT, 0), (ALT, 0)), share: 0.1 },
    Phase { strict: true, cluster: false, packing_macro: false, ranking: ((GREEDY, 0), (ALT, 1)), share: 0.7 },
    Phase { strict: false, cluster: false, packing_macro: false, ranking: ((ALT, 0), (ALT, 2)), share: 1.0 },
];
const PLAIN: [Phase; 3] = [
    Phase { strict: false, cluster: false, packing_macro: true, ranking: ((ALT, 0), (ALT, 1)), share: 0.1 },
    Phase { strict: false, cluster: true, packing_macro: true, ranking: ((ALT, 0), (ALT, 1)), share: 0.1 },
    Phase { strict: false, cluster: false, packing_macro: true, ranking: ((ALT, 0), (ALT, 1)), share: 1.0 },
];

/// Run the phases in order; a proof of unsolvability from any of them is final.
fn portfolio(board: &Board, packing: &Packing, options: &Options, budget: &Budget, report: &mut Report) -> Outcome {
    let strict_useful = options.switches.strict_rooms && packing.strict.iter().any(|&s| s);
    let phases: &[Phase] = if strict_useful { &PHASES } else { &PLAIN };
    let mut outcome = Outcome::OutOfTime;
    for p in phases {
        let used = report.forward.expanded + report.backward.expanded + report.bridge.expanded;
        let switches = Switches {
            strict_rooms: p.strict,
            corral_cluster: p.cluster,
            packing_macro: options.switches.packing_macro && p.packing_macro,
            ..options.switches
        };
        // A forced order is the same plain order for both sides in every phase.
        let ranking = options.priority.map_or(p.ranking, |o| ((o, 0), (o, 0)));
        let run = search::run(board, packing, options.mode, ranking, switches, &budget.share(p.share, used));
        report.forward.add(&run.forward);
        report.backward.add(&run.backward);
        report.bridge.add(&run.bridge);
        report.bridge_targets += run.bridge_targets;
        outcome = run.outcome;
        if matches!(outcome, Outcome::Solved(_) | Outcome::Unsolvable) {
            break;
        }
    }
    outcome
}
