//! The portfolio: which searches run, in what order, under one shared budget; then the
//! plan becomes moves and is replayed before it is returned.

use crate::board::Board;
use crate::budget::Budget;
use crate::level::Level;
use crate::packing::Packing;
use crate::search::{self, Mode, Outcome, Priority, Stats, Switches};
use crate::solution::{self, Move};

#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub mode: Mode,
    pub priority: Priority,
    pub switches: Switches,
}

impl Default for Options {
    fn default() -> Self {
        Options { mode: Mode::Bidirectional, priority: Priority::Greedy, switches: Switches::default() }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Solved(Vec<Move>),
    /// Proven: the search space was exhausted (or the map is unsolvable as given).
    NoSolution(String),
    OutOfTime,
    OutOfMemory,
    /// A plan failed its replay: a bug, never printed as an answer.
    Internal(String),
}

pub struct Report {
    pub verdict: Verdict,
    pub forward: Stats,
    pub backward: Stats,
    pub cells: usize,
    pub boxes: usize,
}

pub fn solve(level: &Level, options: &Options, budget: &Budget) -> Report {
    let mut report = Report {
        verdict: Verdict::OutOfTime,
        forward: Stats::default(),
        backward: Stats::default(),
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
    let (outcome, fwd, bwd) = search::run(&board, &packing, options.mode, options.priority, options.switches, budget);
    report.forward = fwd;
    report.backward = bwd;
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
    };
    report
}
