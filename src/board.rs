//! Everything computed once per map and read-only during search.
//!
//! Floor cells the player can ever reach are re-indexed compactly (`u16`), so no search
//! loop ever looks at a wall. Push distances, dead squares and both directions' analogues
//! are tables over these compact cells.

use crate::level::Level;

pub type Cell = u16;
/// Marks "no cell": a wall or the outside.
pub const NONE: Cell = u16::MAX;
/// An unreachable distance.
pub const FAR: u16 = u16::MAX;
/// Above this many cells the side-connectivity pass (quadratic) is skipped.
const PLAYER_AWARE_MAX_CELLS: usize = 4000;

/// Directions in the order U, D, L, R; `d ^ 1` is the opposite direction.
pub const DIRS: [char; 4] = ['U', 'D', 'L', 'R'];
const DX: [isize; 4] = [0, 0, -1, 1];
const DY: [isize; 4] = [-1, 1, 0, 0];

#[derive(Clone, Debug)]
pub struct Board {
    /// Grid width of the level, for turning cells back into columns and rows.
    #[cfg_attr(not(test), allow(dead_code))]
    pub width: usize,
    /// Number of compact floor cells.
    pub n: usize,
    /// Compact cell -> grid index of the level.
    #[cfg_attr(not(test), allow(dead_code))]
    pub grid_of: Vec<usize>,
    /// Neighbour in each direction, or `NONE`.
    pub nbr: Vec<[Cell; 4]>,
    pub is_goal: Vec<bool>,
    pub goals: Vec<Cell>,
    /// Box cells at the start, sorted ascending.
    pub start_boxes: Vec<Cell>,
    pub start_player: Cell,
    /// `to_goal[g * n + c]`: fewest pushes moving a lone box from `c` onto goal `g`.
    pub to_goal: Vec<u16>,
    /// `from_start[s * n + c]`: fewest pushes moving the lone box from start cell `s` to `c`.
    pub from_start: Vec<u16>,
    /// A box here can never reach any goal (forward search prunes it).
    pub dead_fwd: Vec<bool>,
    /// A box here can never have come from any start cell (backward search prunes it).
    pub dead_bwd: Vec<bool>,
}

impl Board {
    /// Analyse a level. `Err` means the map is provably unsolvable as given (a box or goal
    /// lies where the player can never go and is not already paired).
    pub fn analyse(level: &Level) -> Result<Board, String> {
        let (w, h) = (level.width, level.height);
        let step = |g: usize, d: usize| -> Option<usize> {
            let x = (g % w) as isize + DX[d];
            let y = (g / w) as isize + DY[d];
            if x < 0 || y < 0 || x >= w as isize || y >= h as isize {
                None
            } else {
                Some(y as usize * w + x as usize)
            }
        };
        // The player's region ignoring boxes: every cell a box or the player can ever use.
        let mut cell_of = vec![NONE; w * h];
        let mut grid_of = Vec::new();
        let mut stack = vec![level.player];
        cell_of[level.player] = 0;
        grid_of.push(level.player);
        while let Some(g) = stack.pop() {
            for d in 0..4 {
                if let Some(t) = step(g, d) {
                    if !level.walls[t] && cell_of[t] == NONE {
                        if grid_of.len() >= NONE as usize {
                            return Err("the player's area has more than 65534 cells".into());
                        }
                        cell_of[t] = grid_of.len() as Cell;
                        grid_of.push(t);
                        stack.push(t);
                    }
                }
            }
        }
        // Renumber in reading order so that cell order is stable and readable.
        grid_of.sort_unstable();
        for (i, &g) in grid_of.iter().enumerate() {
            cell_of[g] = i as Cell;
        }
        let n = grid_of.len();
        let nbr: Vec<[Cell; 4]> = grid_of
            .iter()
            .map(|&g| {
                let mut a = [NONE; 4];
                for (d, slot) in a.iter_mut().enumerate() {
                    if let Some(t) = step(g, d) {
                        *slot = cell_of[t];
                    }
                }
                a
            })
            .collect();

        // Boxes and goals outside the region can never change; they must pair up there.
        for g in 0..w * h {
            if cell_of[g] == NONE && !level.walls[g] && level.boxes[g] != level.goals[g] {
                let what = if level.boxes[g] { "a box" } else { "a goal" };
                return Err(format!(
                    "{} at line {}, column {} lies outside the player's reach",
                    what,
                    g / w + 1,
                    g % w + 1
                ));
            }
        }
        let is_goal: Vec<bool> = grid_of.iter().map(|&g| level.goals[g]).collect();
        let goals: Vec<Cell> = (0..n).filter(|&c| is_goal[c]).map(|c| c as Cell).collect();
        let start_boxes: Vec<Cell> =
            (0..n).filter(|&c| level.boxes[grid_of[c]]).map(|c| c as Cell).collect();

        let mut board = Board {
            width: w,
            n,
            grid_of,
            nbr,
            is_goal,
            goals,
            start_boxes,
            start_player: cell_of[level.player],
            to_goal: Vec::new(),
            from_start: Vec::new(),
            dead_fwd: Vec::new(),
            dead_bwd: Vec::new(),
        };
        board.to_goal = board.distance_tables(&board.goals, true);
        board.from_start = board.distance_tables(&board.start_boxes, false);
        board.dead_fwd = (0..n)
            .map(|c| (0..board.goals.len()).all(|g| board.to_goal[g * n + c] == FAR))
            .collect();
        board.dead_bwd = (0..n)
            .map(|c| (0..board.start_boxes.len()).all(|s| board.from_start[s * n + c] == FAR))
            .collect();
        Ok(board)
    }

    #[inline]
    pub fn step(&self, c: Cell, d: usize) -> Cell {
        self.nbr[c as usize][d]
    }

    /// One distance row per source cell. `towards`: distances of boxes *to* the source
    /// (found by pulling from it); otherwise distances *from* the source (by pushing).
    /// A lone box is assumed; on maps small enough the player must walk around it.
    pub fn distance_tables(&self, sources: &[Cell], towards: bool) -> Vec<u16> {
        if self.n <= PLAYER_AWARE_MAX_CELLS {
            let sides = self.side_links();
            let mut out = Vec::with_capacity(sources.len() * self.n);
            for &src in sources {
                out.extend(self.player_aware_row(&sides, src, towards));
            }
            return out;
        }
        let n = self.n;
        let mut out = vec![FAR; sources.len() * n];
        let mut queue: Vec<Cell> = Vec::with_capacity(n);
        for (s, &src) in sources.iter().enumerate() {
            let row = &mut out[s * n..(s + 1) * n];
            queue.clear();
            row[src as usize] = 0;
            queue.push(src);
            let mut head = 0;
            while head < queue.len() {
                let x = queue[head];
                head += 1;
                for d in 0..4 {
                    let y = self.step(x, d);
                    if y == NONE || row[y as usize] != FAR {
                        continue;
                    }
                    // Pulling x -> y needs the player beyond y; pushing x -> y needs him behind x.
                    let player = if towards { self.step(y, d) } else { self.step(x, d ^ 1) };
                    if player == NONE {
                        continue;
                    }
                    row[y as usize] = row[x as usize] + 1;
                    queue.push(y);
                }
            }
        }
        out
    }

    /// For every cell, which of its four sides the player can walk between when a box
    /// stands on it: `links[c][s]` is a bit set of the sides connected to side `s`.
    fn side_links(&self) -> Vec<[u8; 4]> {
        let n = self.n;
        let mut mark = vec![u32::MAX; n];
        let mut stack = Vec::new();
        let mut links = vec![[0u8; 4]; n];
        let mut stamp = 0u32;
        for c in 0..n {
            for s in 0..4 {
                let start = self.nbr[c][s];
                if start == NONE || links[c][s] != 0 {
                    continue;
                }
                stamp += 1;
                mark[c] = stamp; // the box is a wall during this fill
                mark[start as usize] = stamp;
                stack.push(start);
                while let Some(x) = stack.pop() {
                    for &t in &self.nbr[x as usize] {
                        if t != NONE && mark[t as usize] != stamp {
                            mark[t as usize] = stamp;
                            stack.push(t);
                        }
                    }
                }
                let mut set = 0u8;
                for s2 in 0..4 {
                    let t = self.nbr[c][s2];
                    if t != NONE && mark[t as usize] == stamp {
                        set |= 1 << s2;
                    }
                }
                for s2 in 0..4 {
                    if set & (1 << s2) != 0 {
                        links[c][s2] = set;
                    }
                }
            }
        }
        links
    }

    /// Distances over (box cell, player side) states by 0-1 breadth-first search, reduced
    /// to the best side per cell. Walking around the box costs 0, a push 1.
    fn player_aware_row(&self, links: &[[u8; 4]], src: Cell, towards: bool) -> Vec<u16> {
        let n = self.n;
        let mut dist = vec![FAR; n * 4];
        let mut deque = std::collections::VecDeque::new();
        for s in 0..4 {
            if self.nbr[src as usize][s] != NONE {
                dist[src as usize * 4 + s] = 0;
                deque.push_back((src, s));
            }
        }
        while let Some((x, s)) = deque.pop_front() {
            let dx = dist[x as usize * 4 + s];
            // Walk around the box to another connected side.
            for s2 in 0..4 {
                if links[x as usize][s] & (1 << s2) != 0 && dist[x as usize * 4 + s2] > dx {
                    dist[x as usize * 4 + s2] = dx;
                    deque.push_front((x, s2));
                }
            }
            // One push: backward it undoes a push made from side s, forward it makes one.
            let (y, player) = if towards {
                let y = self.step(x, s);
                (y, if y == NONE { NONE } else { self.step(y, s) })
            } else {
                (self.step(x, s ^ 1), x)
            };
            if y == NONE || player == NONE {
                continue;
            }
            let slot = y as usize * 4 + s;
            if dist[slot] > dx + 1 {
                dist[slot] = dx + 1;
                deque.push_back((y, s));
            }
        }
        (0..n).map(|c| (0..4).map(|s| dist[c * 4 + s]).min().unwrap_or(FAR)).collect()
    }

    /// Grid column and row (0-based) of a compact cell.
    #[cfg(test)]
    pub fn xy(&self, c: Cell) -> (usize, usize) {
        let g = self.grid_of[c as usize];
        (g % self.width, g / self.width)
    }

    /// The board of a valid map text; for tests.
    #[cfg(test)]
    pub fn from_text(text: &str) -> Board {
        Board::analyse(&Level::parse(text).unwrap()).unwrap()
    }

    /// The compact cell at grid column `x`, row `y`; for tests.
    #[cfg(test)]
    pub fn cell_at(&self, x: usize, y: usize) -> Cell {
        self.grid_of.iter().position(|&g| g == y * self.width + x).unwrap() as Cell
    }
}

#[cfg(test)]
mod tests {
    use super::*;


    #[test]
    fn corners_are_dead_and_goals_are_not() {
        let b = Board::from_text("######\n#@   #\n# $$.#\n#   .#\n######\n");
        assert!(b.dead_fwd[b.cell_at(1, 1) as usize]);
        assert!(b.dead_fwd[b.cell_at(4, 1) as usize]); // a corner without a goal
        assert!(b.dead_fwd[b.cell_at(1, 3) as usize]);
        assert!(!b.dead_fwd[b.cell_at(4, 3) as usize]); // a goal in a corner
        assert!(!b.dead_fwd[b.cell_at(2, 2) as usize]);
        assert!(!b.dead_fwd[b.cell_at(2, 3) as usize]); // along the bottom wall to the goal
    }

    #[test]
    fn wall_edges_without_goals_are_dead() {
        let b = Board::from_text("#######\n#@    #\n#  $  #\n#  .  #\n#######\n");
        for x in 1..6 {
            assert!(b.dead_fwd[b.cell_at(x, 1) as usize], "top edge x={}", x);
        }
        assert!(!b.dead_fwd[b.cell_at(3, 2) as usize]);
    }

    #[test]
    fn push_distances_respect_walls() {
        let b = Board::from_text("#######\n#@    #\n# $  .#\n#     #\n#######\n");
        let g = 0;
        assert_eq!(b.to_goal[g * b.n + b.cell_at(2, 2) as usize], 3);
        assert_eq!(b.to_goal[g * b.n + b.cell_at(5, 2) as usize], 0);
        assert_eq!(b.to_goal[g * b.n + b.cell_at(1, 1) as usize], FAR);
        assert_eq!(b.from_start[b.cell_at(5, 2) as usize], 3);
    }

    #[test]
    fn unreachable_boxes_and_goals_are_reported() {
        let l = Level::parse("#####\n#@ .#\n#####\n#$  #\n#####\n").unwrap();
        assert!(Board::analyse(&l).unwrap_err().contains("outside the player's reach"));
        // A box on a goal outside is simply fixed.
        let l = Level::parse("#####\n#@$.#\n#####\n#*  #\n#####\n").unwrap();
        let b = Board::analyse(&l).unwrap();
        assert_eq!(b.goals.len(), 1);
    }
}
