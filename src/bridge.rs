//! The bridge: a forward search aimed at the backward side's closest approach.
//!
//! The backward search often gets within a push or two of the start, every box but one
//! back on its start cell, and then stalls: the last pulls leave the player on the wrong
//! side of a box wall, and its bound (box distances alone) cannot see that. The forward
//! search, heading for the goals, never comes near those states. The bridge does: it is
//! a third search from the start whose bound is the push distance to the box layout of
//! the backward side's nearest node among those whose player area holds the start
//! player's cell (the others are mostly the dead ends above), and which meets the
//! backward table anywhere. When it stays stuck on one target while the backward side
//! found a closer node, it starts again towards that.

use std::borrow::Cow;

use crate::board::{Board, Cell};
use crate::budget::Budget;
use crate::packing::Packing;
use crate::search::{Direction, Priority, Side, Stats, Step, Switches};
use crate::state::Zobrist;
use crate::table::Table;

/// The backward side must be this close (its bound, in pushes) before a bridge is worth
/// building: far targets only repeat what the forward search does.
pub const BRIDGE_NEAR: i32 = 4;
/// Expansions a bridge gets on one target before a newer closest node replaces it.
const PATIENCE: u64 = 20_000;
/// A* order: the bridge must first move boxes away from the target (to let the player
/// through) and then back, which greedy on the bound never tries in a sensible order.
const ORDER: Priority = Priority::AStar;

pub struct Bridge<'a> {
    board: &'a Board,
    zobrist: &'a Zobrist,
    packing: &'a Packing,
    switches: Switches,
    memory_bytes: usize,
    side: Option<Side<'a>>,
    /// The backward node aimed at, and the expansions spent on it.
    target: Option<u32>,
    spent: u64,
    /// Figures of the bridges already dropped, for `--stats`.
    pub stats: Stats,
    pub targets: u32,
}

impl<'a> Bridge<'a> {
    pub fn new(
        board: &'a Board,
        zobrist: &'a Zobrist,
        packing: &'a Packing,
        switches: Switches,
        memory_bytes: usize,
    ) -> Bridge<'a> {
        // A target is one layout, not the goals: room orders and packing macros do not apply.
        let switches = Switches { strict_rooms: false, packing_macro: false, ..switches };
        Bridge {
            board,
            zobrist,
            packing,
            switches,
            memory_bytes,
            side: None,
            target: None,
            spent: 0,
            stats: Stats::default(),
            targets: 0,
        }
    }

    /// Aim at the backward side's closest node if it is near enough and the current
    /// target has had its chance (or there is none).
    pub fn aim(&mut self, backward: &Side) {
        let closest = match backward.closest {
            Some((c, h)) if h <= BRIDGE_NEAR => c,
            _ => return,
        };
        if self.target == Some(closest) || (self.target.is_some() && self.spent < PATIENCE) {
            return;
        }
        let nb = self.board.start_boxes.len();
        let layout: Vec<Cell> = backward.table.key(closest)[..nb].to_vec();
        self.retire();
        let distances = Cow::Owned(self.board.distance_tables(&layout, true));
        let mut side = Side::towards(
            self.board,
            self.zobrist,
            self.packing,
            Direction::Forward,
            (ORDER, 0),
            self.switches,
            self.memory_bytes,
            &layout,
            distances,
        );
        side.corral_cuts = false;
        side.add_root(&self.board.start_boxes, self.board.start_player);
        self.side = Some(side);
        self.target = Some(closest);
        self.spent = 0;
        self.targets += 1;
    }

    /// Fold the current search's figures into `stats` and drop it.
    fn retire(&mut self) {
        if let Some(mut side) = self.side.take() {
            side.finish_stats();
            self.stats.add(&side.stats);
        }
    }

    pub fn active(&self) -> bool {
        self.side.is_some()
    }

    pub fn expanded(&self) -> u64 {
        self.stats.expanded + self.side.as_ref().map_or(0, |s| s.stats.expanded)
    }

    /// One expansion, meeting the backward table. An exhausted or full bridge is dropped
    /// (a dead end proves nothing: the target is one layout of many).
    pub fn expand(&mut self, backward: &Table, budget: &Budget) -> Step {
        let step = match self.side.as_mut() {
            Some(side) => side.expand(backward, budget),
            None => return Step::Exhausted,
        };
        self.spent += 1;
        if matches!(step, Step::Exhausted | Step::Full) {
            self.retire();
            // A new target may come; the old one is not tried again.
            self.spent = PATIENCE;
        }
        step
    }

    /// The bridge's table, for joining a solution found by `expand`.
    pub fn table(&self) -> &Table {
        &self.side.as_ref().expect("a bridge that met is still there").table
    }

    pub fn finish(mut self) -> (Stats, u32) {
        self.retire();
        (self.stats, self.targets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: &str = "#########\n#       #\n#@ $    #\n#      .#\n#########\n";

    /// A backward side holding one node: the box two pushes right of its start, the
    /// player in the start's area, recorded as the closest node with bound `h`.
    fn backward_near_start<'a>(board: &'a Board, zobrist: &'a Zobrist, packing: &'a Packing, h: i32) -> Side<'a> {
        let (ranking, switches) = ((Priority::Greedy, 0), Switches::default());
        let mut bwd = Side::new(board, zobrist, packing, Direction::Backward, ranking, switches, 1 << 20);
        let node = bwd.add_root(&[board.cell_at(5, 2)], board.start_player).unwrap();
        bwd.closest = Some((node, h));
        bwd
    }

    #[test]
    fn a_bridge_meets_the_backward_node_it_aims_at() {
        let board = Board::from_text(MAP);
        let (zobrist, packing) = (Zobrist::new(board.n), Packing::analyse(&board));
        let bwd = backward_near_start(&board, &zobrist, &packing, 2);
        let mut bridge = Bridge::new(&board, &zobrist, &packing, Switches::default(), 1 << 20);
        bridge.aim(&bwd);
        assert!(bridge.active());
        let budget = Budget::nodes(1000, 1 << 20);
        let own = (0..100)
            .find_map(|_| match bridge.expand(&bwd.table, &budget) {
                Step::Met { own, .. } => Some(own),
                _ => None,
            })
            .expect("the bridge meets the node two pushes away");
        // Its pushes carry the box from the start to the node's layout.
        let mut at = board.start_boxes[0];
        for p in bridge.table().path_to(own) {
            assert_eq!(p.from, at);
            at = p.to;
        }
        assert_eq!(at, board.cell_at(5, 2));
    }

    #[test]
    fn no_bridge_is_built_to_a_far_node() {
        let board = Board::from_text(MAP);
        let (zobrist, packing) = (Zobrist::new(board.n), Packing::analyse(&board));
        let bwd = backward_near_start(&board, &zobrist, &packing, BRIDGE_NEAR + 1);
        let mut bridge = Bridge::new(&board, &zobrist, &packing, Switches::default(), 1 << 20);
        bridge.aim(&bwd);
        assert!(!bridge.active());
        assert!(matches!(bridge.expand(&bwd.table, &Budget::nodes(10, 1 << 20)), Step::Exhausted));
    }
}
