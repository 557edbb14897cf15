//! A side's deadlock rules beyond its bound: dead squares and the player's dead sides of
//! a box both ways; forward, as the switches allow, freeze deadlocks, goals cut off by
//! boxes frozen on goals, the boards such boxes leave, PI-corrals, corrals searched to
//! the end and box sets learned dead. Each check counts what it cut in the side's `Stats`.

use crate::board::{Board, Cell};
use crate::corral::{Corral, Corrals};
use crate::corral_deadlock::CorralDeadlocks;
use crate::dead_sets::DeadSets;
use crate::freeze::{Freeze, Frozen, GoalCut};
use crate::frozen_goals::FrozenWalls;
use crate::reach::{Areas, Reach};

use super::{Direction, Stats, Switches};

/// One side's pruning rules and their state.
pub(super) struct Pruners<'a> {
    board: &'a Board,
    /// Freeze deadlocks and the boards left by boxes frozen on goals apply (forward, with
    /// `Switches::freeze`); PI-corrals and corral searches apply (forward, with
    /// `Switches::corral`).
    freeze_rules: bool,
    corral_rules: bool,
    /// This side's dead squares, and dead by the player's side of the box too
    /// (`Board::dead_fwd_sides`).
    pub dead: &'a [bool],
    pub dead_sides: &'a [u8],
    freeze: Freeze,
    goal_cut: GoalCut,
    /// Boxes frozen on goals in the child being tested (see `GoalCut`).
    frozen_walls: Vec<Cell>,
    /// The expanding node's PI-corral, if any: only its boxes' pushes count.
    pub corrals: Corrals,
    corral_deadlocks: CorralDeadlocks,
    frozen_off: FrozenWalls,
    pub dead_sets: DeadSets,
}

impl<'a> Pruners<'a> {
    pub fn new(board: &'a Board, direction: Direction, switches: &Switches) -> Pruners<'a> {
        let forward = direction == Direction::Forward;
        let (dead, dead_sides) = match direction {
            Direction::Forward => (&board.dead_fwd[..], &board.dead_fwd_sides[..]),
            Direction::Backward => (&board.dead_bwd[..], &board.dead_bwd_sides[..]),
        };
        Pruners {
            board,
            freeze_rules: forward && switches.freeze,
            corral_rules: forward && switches.corral,
            dead,
            dead_sides,
            freeze: Freeze::new(board.n),
            goal_cut: GoalCut::new(board.n),
            frozen_walls: Vec::new(),
            corrals: Corrals::new(board.n),
            corral_deadlocks: CorralDeadlocks::new(board.n),
            frozen_off: FrozenWalls::new(board.n),
            dead_sets: DeadSets::new(board.n),
        }
    }

    /// The PI-corral verdict on the expanding node (`Corral::None` where corrals do not
    /// apply): its boxes in `occupied` and `boxes`, its player's area in `reach`, its
    /// floor areas labelled in `areas`.
    pub fn corral(&mut self, occupied: &[bool], boxes: &[Cell], reach: &Reach, areas: &Areas) -> Corral {
        if !self.corral_rules {
            return Corral::None;
        }
        self.corrals.analyse(self.board, occupied, boxes, reach, areas)
    }

    /// The cuts that look beyond the node's own pushes: its corrals searched to the end,
    /// and the board its boxes frozen on goals leave.
    pub fn proved_dead(&mut self, occupied: &[bool], boxes: &[Cell], player: Cell, stats: &mut Stats) -> bool {
        if self.corral_rules && self.corral_deadlocks.any_dead(self.board, &self.corrals, player) {
            stats.dead_corral_search += 1;
            return true;
        }
        if self.freeze_rules && self.frozen_off.dead(self.board, occupied, boxes, player) {
            stats.dead_frozen += 1;
            return true;
        }
        if self.corral_rules && self.dead_sets.dead(occupied, boxes, player) {
            stats.dead_sets += 1;
            return true;
        }
        false
    }

    /// Is the child that moves the box on `b` to `to`, the player left on `after`, dead by
    /// a rule that looks at the moved box alone? `occupied` and `boxes` hold the parent.
    pub fn dead_child(
        &mut self,
        occupied: &mut [bool],
        boxes: &[Cell],
        b: Cell,
        to: Cell,
        after: Cell,
        stats: &mut Stats,
    ) -> bool {
        let board = self.board;
        // The player ends on one side of the box; from there it may reach nothing.
        if board.dead_from(self.dead_sides, to, after) {
            stats.dead_sides += 1;
            return true;
        }
        if !self.freeze_rules {
            return false;
        }
        occupied[b as usize] = false;
        occupied[to as usize] = true;
        // Counted as freeze deadlocks: a box frozen off its goal, or on a goal that it
        // cuts off from the others.
        let frozen = match self.freeze.assess(board, occupied, to) {
            Frozen::No => false,
            Frozen::OnGoals => {
                // Every box frozen on a goal is a wall, not only this group.
                self.frozen_walls.clear();
                self.frozen_walls.extend_from_slice(self.freeze.group());
                let boxes = boxes.iter().map(|&x| if x == b { to } else { x });
                self.freeze.frozen_on_goals(board, occupied, boxes, &mut self.frozen_walls);
                self.goal_cut.cuts_off(board, occupied, &self.frozen_walls, &board.goals)
            }
            Frozen::OffGoal => true,
        };
        occupied[b as usize] = true;
        occupied[to as usize] = false;
        if frozen {
            stats.dead_freeze += 1;
            return true;
        }
        if self.frozen_off.child_dead(board, to, after) {
            stats.dead_frozen += 1;
            return true;
        }
        false
    }

    /// Take `lessons` in for a run, counting its searches and analyses from zero (the
    /// run's figures); `give_back` returns them.
    pub fn take_lessons(&mut self, lessons: &mut Lessons) {
        self.give_back(lessons);
        self.corral_deadlocks.searches = 0;
        self.corral_deadlocks.nodes = 0;
        self.frozen_off.analyses = 0;
        self.dead_sets.searches = 0;
        self.dead_sets.nodes = 0;
    }

    pub fn give_back(&mut self, lessons: &mut Lessons) {
        std::mem::swap(&mut self.corral_deadlocks, &mut lessons.corral_deadlocks);
        std::mem::swap(&mut self.frozen_off, &mut lessons.frozen_off);
        std::mem::swap(&mut self.dead_sets, &mut lessons.dead_sets);
    }

    /// The corral searches, frozen-goal analyses and box-set searches made, into `stats`.
    pub fn count(&self, stats: &mut Stats) {
        stats.corral_searches = self.corral_deadlocks.searches;
        stats.corral_search_nodes = self.corral_deadlocks.nodes;
        stats.frozen_analyses = self.frozen_off.analyses;
        stats.dead_set_searches = self.dead_sets.searches;
        stats.dead_set_nodes = self.dead_sets.nodes;
        stats.dead_sets_known = self.dead_sets.len() as u64;
    }
}

/// What a forward side learns that holds for every forward search of the level: the
/// corrals proven dead, the boards left by boxes frozen on goals and the box sets proven
/// dead. Runs hand it on, so
/// a later phase does not prove again what an earlier one did.
pub struct Lessons {
    corral_deadlocks: CorralDeadlocks,
    frozen_off: FrozenWalls,
    dead_sets: DeadSets,
}

impl Lessons {
    pub fn new(board: &Board) -> Lessons {
        Lessons {
            corral_deadlocks: CorralDeadlocks::new(board.n),
            frozen_off: FrozenWalls::new(board.n),
            dead_sets: DeadSets::new(board.n),
        }
    }
}
