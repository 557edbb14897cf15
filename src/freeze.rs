//! Deadlock detection beyond dead squares: freeze deadlocks, and goals cut off by a box
//! frozen on a goal.
//!
//! A box is frozen when it can move along neither axis: along an axis it is blocked by a
//! wall on either side, by dead squares on both sides, or by a neighbouring box that is
//! itself frozen (with this box counted as a wall while that is decided, which ends the
//! recursion). A frozen box off its goal, or frozen boxes pinning one, can never be
//! solved. Only valid for forward (push) search.

use crate::board::{Board, Cell, NONE};

/// What a freeze test found for the box just pushed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frozen {
    /// It can still move.
    No,
    /// It can never move again, nor can the boxes pinning it, all on goals.
    OnGoals,
    /// It, or a box pinning it, can never move again off a goal: a deadlock.
    OffGoal,
}

pub struct Freeze {
    /// Boxes currently assumed to be walls in the recursion.
    as_wall: Vec<bool>,
    /// After `assess` found a box frozen: it and the boxes that pin it, all frozen.
    group: Vec<Cell>,
}

impl Freeze {
    pub fn new(cells: usize) -> Freeze {
        Freeze { as_wall: vec![false; cells], group: Vec::new() }
    }

    /// The frozen boxes the last `assess` found (empty if the box could still move).
    pub fn group(&self) -> &[Cell] {
        &self.group
    }

    /// Does the box just pushed to `cell` make the position a freeze deadlock?
    pub fn is_deadlock(&mut self, board: &Board, occupied: &[bool], cell: Cell) -> bool {
        self.assess(board, occupied, cell) == Frozen::OffGoal
    }

    /// Is the box on `cell` frozen, and are the frozen boxes all on goals?
    pub fn assess(&mut self, board: &Board, occupied: &[bool], cell: Cell) -> Frozen {
        self.group.clear();
        if !self.frozen(board, occupied, cell) {
            Frozen::No
        } else if self.group.iter().all(|&b| board.is_goal[b as usize]) {
            Frozen::OnGoals
        } else {
            Frozen::OffGoal
        }
    }

    /// Adds to `walls` every box among `boxes` frozen on a goal with the boxes pinning
    /// it, skipping boxes already there (`walls` may start with a group from `assess`).
    pub fn frozen_on_goals(
        &mut self,
        board: &Board,
        occupied: &[bool],
        boxes: impl Iterator<Item = Cell>,
        walls: &mut Vec<Cell>,
    ) {
        for b in boxes {
            if board.is_goal[b as usize] && !walls.contains(&b) && self.assess(board, occupied, b) == Frozen::OnGoals {
                for &x in &self.group {
                    if !walls.contains(&x) {
                        walls.push(x);
                    }
                }
            }
        }
    }

    fn frozen(&mut self, board: &Board, occupied: &[bool], c: Cell) -> bool {
        // Boxes found frozen on the assumption that `c` is a wall stay in the group only
        // if `c` turns out frozen.
        let mark = self.group.len();
        self.as_wall[c as usize] = true;
        let result = self.blocked(board, occupied, c, 0) && self.blocked(board, occupied, c, 2);
        self.as_wall[c as usize] = false;
        if result {
            self.group.push(c);
        } else {
            self.group.truncate(mark);
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

/// Boxes frozen on goals are walls from then on, and may close the way to other goals:
/// one at the mouth of a one-wide goal corridor, or a row of them filled in the wrong
/// order, leaves the goals behind for ever empty, which neither freeze tests nor the
/// bound (distances on the empty board) see.
pub struct GoalCut {
    stamp: Vec<u32>,
    generation: u32,
    queue: Vec<Cell>,
    is_wall: Vec<bool>,
}

impl GoalCut {
    pub fn new(cells: usize) -> GoalCut {
        GoalCut { stamp: vec![0; cells], generation: 0, queue: Vec::with_capacity(cells), is_wall: vec![false; cells] }
    }

    /// With the boxes on `walls` fixed for good, is some empty goal among `goals` out of
    /// reach of every other box? Pulls from the goal, other boxes ignored (which only
    /// makes reaching easier), must come to a cell holding a box.
    pub fn cuts_off(&mut self, board: &Board, occupied: &[bool], walls: &[Cell], goals: &[Cell]) -> bool {
        walls.iter().for_each(|&w| self.is_wall[w as usize] = true);
        let cut = goals.iter().any(|&g| !occupied[g as usize] && !self.reaches_a_box(board, occupied, g));
        walls.iter().for_each(|&w| self.is_wall[w as usize] = false);
        cut
    }

    fn reaches_a_box(&mut self, board: &Board, occupied: &[bool], goal: Cell) -> bool {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        let g = self.generation;
        let is_wall = &self.is_wall;
        let free = |c: Cell| c != NONE && !is_wall[c as usize];
        self.queue.clear();
        self.queue.push(goal);
        self.stamp[goal as usize] = g;
        let mut head = 0;
        while head < self.queue.len() {
            let x = self.queue[head];
            head += 1;
            for d in 0..4 {
                // Pull x -> y: the player steps from y on to the cell beyond.
                let y = board.step(x, d);
                if !free(y) || self.stamp[y as usize] == g || !free(board.step(y, d)) {
                    continue;
                }
                if occupied[y as usize] {
                    return true;
                }
                self.stamp[y as usize] = g;
                self.queue.push(y);
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board of `text` and its boxes as an occupancy map.
    fn board_and_boxes(text: &str) -> (Board, Vec<bool>) {
        let b = Board::from_text(text);
        let mut occ = vec![false; b.n];
        b.start_boxes.iter().for_each(|&c| occ[c as usize] = true);
        (b, occ)
    }

    fn check(text: &str) -> bool {
        let (b, occ) = board_and_boxes(text);
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
    fn a_box_frozen_at_the_mouth_of_a_goal_corridor_cuts_off_the_goals_behind() {
        // The goal corridor on the left is filled from below: a box on the bottom goal
        // is frozen there, and no box can ever be pushed up past it.
        let (b, occ) = board_and_boxes("#######\n#.#   #\n#.# $ #\n#. $$ #\n#*  @ #\n#######\n");
        let corner = b.cell_at(1, 4);
        let mut f = Freeze::new(b.n);
        assert_eq!(f.assess(&b, &occ, corner), Frozen::OnGoals);
        let mut cut = GoalCut::new(b.n);
        assert!(cut.cuts_off(&b, &occ, f.group(), &b.goals));
        // The same corridor with the box on the top goal instead cuts nothing off.
        let (b, occ) = board_and_boxes("#######\n#*#   #\n#.# $ #\n#. $$ #\n#.  @ #\n#######\n");
        let top = b.cell_at(1, 1);
        let mut cut = GoalCut::new(b.n);
        assert!(!cut.cuts_off(&b, &occ, &[top], &b.goals));
    }

    #[test]
    fn a_goal_row_filled_out_of_order_is_cut_off_by_all_its_frozen_boxes() {
        // The first goal of the bottom row can only be reached along the row, and the
        // two boxes next to it pin each other there. The box pushed last (on the right
        // goal) is frozen alone: its own group does not show the cut.
        let (b, occ) = board_and_boxes("#######\n#  $@ #\n##### #\n#.** *#\n#######\n");
        let last = b.cell_at(5, 3);
        let mut f = Freeze::new(b.n);
        assert_eq!(f.assess(&b, &occ, last), Frozen::OnGoals);
        let mut walls = f.group().to_vec();
        let mut cut = GoalCut::new(b.n);
        assert!(!cut.cuts_off(&b, &occ, &walls, &b.goals), "the last push's group alone cuts nothing");
        f.frozen_on_goals(&b, &occ, b.start_boxes.iter().copied(), &mut walls);
        assert!(cut.cuts_off(&b, &occ, &walls, &b.goals));
    }

    /// Small random rooms: whenever the boxes frozen on goals cut a goal off, the
    /// position has no solution; and such cuts do come up.
    #[test]
    fn every_goal_cut_off_by_frozen_boxes_is_unsolvable() {
        use crate::testing::{for_random_positions, solvable, Draw};
        let mut cuts = 0;
        // A 6x4 room with inner walls, four boxes (three on goals more often than not).
        let draw = Draw::rooms(6, 4, 6, 9, b"***.$@");
        for_random_positions(0x0fed_cba9_8765_4321, 4000, draw, |p| {
            let board = p.board;
            let occ = p.occupied();
            let (mut f, mut walls) = (Freeze::new(board.n), Vec::new());
            f.frozen_on_goals(board, &occ, p.boxes.iter().copied(), &mut walls);
            if GoalCut::new(board.n).cuts_off(board, &occ, &walls, &board.goals) {
                cuts += 1;
                assert!(!solvable(board, &p.boxes, p.player), "cut but solvable:\n{}", p.text);
            }
        });
        assert!(cuts >= 20, "only {} cuts found", cuts);
    }

    #[test]
    fn square_of_four_boxes_is_frozen() {
        assert!(check("########\n#      #\n# $$   #\n# $$ ..#\n#@   ..#\n########\n"));
    }
}
