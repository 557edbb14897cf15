//! PI-corral pruning and the corral deadlocks it finds (forward search only).
//!
//! A corral is a connected area of free floor the player cannot reach; its barrier is the
//! boxes next to it. While no barrier box moves, the corral stays closed, and pushes
//! elsewhere cannot touch it. If every barrier box can only ever go into the corral (I)
//! and every such push is possible now or never (P), then any solution can be reordered
//! to start with one of those pushes. So when such a corral still has work in it (an
//! empty goal, or a barrier box off its goal), only its pushes need be generated; and if
//! it has none, the position is dead.
//!
//! The checks are conservative: a push blocked only by a box that might move counts as a
//! possible push, which simply disqualifies the corral.

use crate::board::{Board, Cell, NONE};
use crate::reach::{Areas, Reach};

pub enum Corral {
    /// No PI-corral: generate every push.
    None,
    /// Generate only pushes of boxes marked by `Corrals::allowed`.
    Only,
    /// A PI-corral needs work and has no push: the position is a deadlock.
    Deadlock,
}

pub struct Corrals {
    /// Component number per cell for free, unreachable floor; 0 = none.
    label: Vec<u32>,
    /// Per corral of the last analysed position (from 1): its barrier boxes, in the
    /// order of `boxes`; and the barrier of the best corral found.
    barriers: Vec<Vec<Cell>>,
    best: Vec<Cell>,
    allowed: Vec<bool>,
    goal_in: Vec<bool>,
    /// Corrals labelled by the last `analyse`.
    count: u32,
}

impl Corrals {
    pub fn new(cells: usize) -> Corrals {
        Corrals {
            label: vec![0; cells],
            barriers: Vec::new(),
            best: Vec::new(),
            allowed: vec![false; cells],
            goal_in: Vec::new(),
            count: 0,
        }
    }

    /// The corrals of the last analysed position are labelled 1..=count.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// The corral a free cell lies in (0: reachable, or a box).
    #[inline]
    pub fn label(&self, c: Cell) -> u32 {
        self.label[c as usize]
    }

    /// The boxes next to corral `k` (1..=count) of the last analysed position.
    pub fn barrier(&self, k: u32) -> &[Cell] {
        &self.barriers[k as usize]
    }

    #[inline]
    pub fn allowed(&self, b: Cell) -> bool {
        self.allowed[b as usize]
    }

    /// Find the PI-corral with the fewest pushes in the position given by `occupied`
    /// (boxes), `boxes`, and the player's area in `reach`; `areas` holds the position's
    /// areas as `Areas::label_with_reach` labelled them (the player's first), so the
    /// corrals are the other areas and need no flood of their own.
    pub fn analyse(
        &mut self,
        board: &Board,
        occupied: &[bool],
        boxes: &[Cell],
        reach: &Reach,
        areas: &Areas,
    ) -> Corral {
        for &b in &self.best {
            self.allowed[b as usize] = false;
        }
        self.best.clear();
        let count = (areas.count() as u32).saturating_sub(1);
        self.count = count;
        if count == 0 {
            // The labels of an earlier position stay: nothing reads them without a corral.
            return Corral::None;
        }
        self.goal_in.clear();
        self.goal_in.resize(count as usize + 1, false);
        // In one pass without branches; the goals after.
        areas.write_areas_or_zero(&mut self.label[..board.n]);
        for &g in &board.goals {
            self.goal_in[self.label[g as usize] as usize] = true;
        }
        debug_assert!((0..board.n).all(|c| (self.label[c] == 0) == (occupied[c] || reach.reached(c as Cell))));
        // Every barrier in one pass over the boxes, not one pass per corral.
        if self.barriers.len() <= count as usize {
            self.barriers.resize_with(count as usize + 1, Vec::new);
        }
        self.barriers[..=count as usize].iter_mut().for_each(Vec::clear);
        for &b in boxes {
            let mut beside = [0u32; 4];
            for (i, &t) in board.nbr[b as usize].iter().enumerate() {
                let k = if t == NONE { 0 } else { self.label[t as usize] };
                if k != 0 && !beside[..i].contains(&k) {
                    self.barriers[k as usize].push(b);
                }
                beside[i] = k;
            }
        }
        let mut best_pushes = usize::MAX;
        for k in 1..=count {
            let barrier = &self.barriers[k as usize];
            let needs_work = self.goal_in[k as usize] || barrier.iter().any(|&b| !board.is_goal[b as usize]);
            if !needs_work {
                continue;
            }
            if let Some(pushes) = self.pi_pushes(board, occupied, reach, k, barrier) {
                if pushes < best_pushes {
                    best_pushes = pushes;
                    self.best.clear();
                    self.best.extend_from_slice(barrier);
                    if pushes == 0 {
                        break;
                    }
                }
            }
        }
        if best_pushes == usize::MAX {
            return Corral::None;
        }
        if best_pushes == 0 {
            return Corral::Deadlock;
        }
        for &b in &self.best {
            self.allowed[b as usize] = true;
        }
        Corral::Only
    }

    /// Pushes into corral `k`, whose barrier is `barrier`, if it is a PI-corral, else `None`.
    fn pi_pushes(&self, board: &Board, occupied: &[bool], reach: &Reach, k: u32, barrier: &[Cell]) -> Option<usize> {
        let in_corral = |c: Cell| c != NONE && !occupied[c as usize] && self.label[c as usize] == k;
        let mut pushes = 0;
        for &b in barrier {
            for d in 0..4 {
                let to = board.step(b, d);
                let from = board.step(b, d ^ 1);
                // A wall or dead square ahead, or no room behind: never possible.
                if to == NONE || board.dead_fwd[to as usize] || from == NONE {
                    continue;
                }
                // The player would have to be inside the corral first.
                if in_corral(from) {
                    continue;
                }
                if in_corral(to) {
                    if reach.reached(from) {
                        pushes += 1;
                        continue;
                    }
                    return None; // possible later, once something else moves
                }
                if occupied[to as usize] && barrier.contains(&to) {
                    continue; // a barrier box cannot move before the corral opens
                }
                return None; // an outward push is possible now or may become so
            }
        }
        Some(pushes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyse(text: &str) -> (Board, Corral, Vec<bool>) {
        let b = Board::from_text(text);
        let mut occ = vec![false; b.n];
        for &c in &b.start_boxes {
            occ[c as usize] = true;
        }
        let (mut reach, mut areas) = (Reach::new(b.n), Areas::new(b.n));
        areas.label_with_reach(&b, &occ, b.start_boxes.len(), b.start_player, &mut reach);
        let mut corrals = Corrals::new(b.n);
        let v = corrals.analyse(&b, &occ, &b.start_boxes, &reach, &areas);
        let allowed = (0..b.n).map(|c| corrals.allowed(c as Cell)).collect();
        (b, v, allowed)
    }

    #[test]
    fn a_closed_goal_room_restricts_pushes_to_its_door() {
        // The goal room on the right is closed by the box in the doorway; that box can
        // only go in, so it is the only box worth pushing.
        let (b, v, allowed) = analyse("#########\n#@      #\n#   ##$##\n# $ #  .#\n#   #  .#\n#########\n");
        assert!(matches!(v, Corral::Only));
        let door = b.start_boxes[0];
        assert!(allowed[door as usize]);
        assert!(!allowed[b.start_boxes[1] as usize]);
    }

    #[test]
    fn a_corral_that_can_never_be_entered_is_a_deadlock() {
        // The goal at the right is closed off by a box with a wall behind it on the left:
        // it can never be pushed in, so the goal stays empty forever.
        let (_, v, _) = analyse("########\n#@  #$.#\n#     ##\n########\n");
        assert!(matches!(v, Corral::Deadlock));
    }

    #[test]
    fn no_corral_means_no_restriction() {
        let (_, v, _) = analyse("#######\n#@    #\n# $ . #\n#     #\n#######\n");
        assert!(matches!(v, Corral::None));
        // Behind a box in a corridor lies a corral; the box can only go in: PI.
        let (_, v, _) = analyse("#######\n#@ $ .#\n#######\n");
        assert!(matches!(v, Corral::Only));
    }
}
