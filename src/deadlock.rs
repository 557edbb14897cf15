//! Deadlock detection beyond dead squares: freeze deadlocks.
//!
//! A box is frozen when it can move along neither axis: along an axis it is blocked by a
//! wall on either side, by dead squares on both sides, or by a neighbouring box that is
//! itself frozen (with this box counted as a wall while that is decided, which ends the
//! recursion). A frozen box off its goal, or frozen boxes pinning one, can never be
//! solved. Only valid for forward (push) search.

use crate::board::{Board, Cell, NONE};

pub struct Freeze {
    /// Boxes currently assumed to be walls in the recursion.
    as_wall: Vec<bool>,
    off_goal: bool,
}

impl Freeze {
    pub fn new(cells: usize) -> Freeze {
        Freeze { as_wall: vec![false; cells], off_goal: false }
    }

    /// Does the box just pushed to `cell` make the position a freeze deadlock?
    pub fn is_deadlock(&mut self, board: &Board, occupied: &[bool], cell: Cell) -> bool {
        self.off_goal = false;
        let frozen = self.frozen(board, occupied, cell);
        frozen && self.off_goal
    }

    fn frozen(&mut self, board: &Board, occupied: &[bool], c: Cell) -> bool {
        self.as_wall[c as usize] = true;
        let result = self.blocked(board, occupied, c, 0) && self.blocked(board, occupied, c, 2);
        self.as_wall[c as usize] = false;
        if result && !board.is_goal[c as usize] {
            self.off_goal = true;
        }
        result
    }

    /// Blocked along the axis of direction `d` (0: vertical, 2: horizontal)?
    fn blocked(&mut self, board: &Board, occupied: &[bool], c: Cell, d: usize) -> bool {
        let a = board.step(c, d);
        let b = board.step(c, d + 1);
        let wall = |x: Cell, s: &Self| x == NONE || s.as_wall[x as usize];
        if wall(a, self) || wall(b, self) {
            return true;
        }
        if board.dead_fwd[a as usize] && board.dead_fwd[b as usize] {
            return true;
        }
        (occupied[a as usize] && self.frozen(board, occupied, a))
            || (occupied[b as usize] && self.frozen(board, occupied, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str) -> bool {
        let b = Board::from_text(text);
        let mut occ = vec![false; b.n];
        for &c in &b.start_boxes {
            occ[c as usize] = true;
        }
        let mut f = Freeze::new(b.n);
        // The "pushed" box is the first one in reading order.
        f.is_deadlock(&b, &occ, b.start_boxes[0])
    }

    #[test]
    fn two_boxes_against_a_wall_are_frozen() {
        assert!(check("#######\n# $$  #\n#   ..#\n#  @  #\n#######\n"));
    }

    #[test]
    fn a_free_box_is_not_frozen() {
        assert!(!check("#######\n#     #\n# $$ .#\n#  @ .#\n#######\n"));
    }

    #[test]
    fn frozen_boxes_on_goals_are_fine() {
        assert!(!check("#######\n# **  #\n#     #\n#  @  #\n#######\n"));
        // ...but one off goal in the frozen group is a deadlock.
        assert!(check("#######\n# *$ .#\n#     #\n#  @  #\n#######\n"));
    }

    #[test]
    fn square_of_four_boxes_is_frozen() {
        assert!(check("########\n#      #\n# $$   #\n# $$ ..#\n#@   ..#\n########\n"));
    }
}
