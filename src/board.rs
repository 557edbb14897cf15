//! Everything computed once per map and read-only during search.
//!
//! Floor cells the player can ever reach are re-indexed compactly (`u16`), so no search
//! loop ever looks at a wall. Push distances, dead squares and both directions' analogues
//! are tables over these compact cells.

use std::time::Instant;

use crate::level::Level;
use crate::limits::PLAYER_AWARE_MAX_CELLS;

pub type Cell = u16;
/// Marks "no cell": a wall or the outside.
pub const NONE: Cell = u16::MAX;
/// An unreachable distance.
pub const FAR: u16 = u16::MAX;
/// A doorway cuts off parts of at least this many cells: a box closing a smaller pocket
/// only fills a nook, it does not split the level into rooms.
const DOORWAY_MIN_PART: u32 = 3;

/// Directions in the order U, D, L, R; `d ^ 1` is the opposite direction.
pub const DIRS: [char; 4] = ['U', 'D', 'L', 'R'];
const DX: [isize; 4] = [0, 0, -1, 1];
const DY: [isize; 4] = [-1, 1, 0, 0];

/// What `Board::analysed` may not go past.
#[derive(Clone, Copy)]
struct Limits {
    deadline: Option<Instant>,
    memory_bytes: usize,
}

impl Limits {
    const NONE: Limits = Limits { deadline: None, memory_bytes: usize::MAX };
}

/// Why `Board::analyse_until` gave no board.
#[derive(Debug)]
pub enum NotAnalysed {
    /// Proven unsolvable as given (a box or goal outside the player's reach, unpaired).
    Unsolvable(String),
    /// The deadline came first.
    OutOfTime,
    /// The distance tables alone would take more than the memory given.
    OutOfMemory,
}

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
    /// `links[c][s]`: the sides of `c` the player can walk between, side `s` included,
    /// when a box stands on `c` (bit set); empty on maps too big for the pass.
    links: Vec<[u8; 4]>,
    /// `side_of[c * n + p]`: the lowest side of `c` the player on `p` can walk to when a
    /// box stands on `c`; empty on maps too big for the pass.
    side_of: Vec<u8>,
    /// Per cell, bit `s` set: a box here with the player on side `s` (see
    /// `side_towards`) can never reach any goal. Finer than `dead_fwd`: the player may
    /// be shut out from the sides the box needs him on.
    pub dead_fwd_sides: Vec<u8>,
    /// The same for a box that must have come from a start cell (backward search).
    pub dead_bwd_sides: Vec<u8>,
    /// A box here would split the floor into separate parts (FESS's links between
    /// rooms); only on the full board (`analyse`), empty on walled ones.
    pub doorway: Vec<bool>,
}

impl Board {
    /// The bytes its tables hold, to be paid out of the memory budget.
    pub fn heap_bytes(&self) -> usize {
        let n = self.n;
        self.grid_of.capacity() * 8
            + n * (8 + 1 + 1 + 1 + 1 + 1 + 4)
            + (self.to_goal.capacity() + self.from_start.capacity()) * 2
            + self.links.capacity() * 4
            + self.side_of.capacity()
    }

    /// The bytes the distance tables will take at their peak, while they are made: a row
    /// per goal (and per box for a backward search), by side on maps small enough for the
    /// side pass, with its links from each cell to each cell.
    fn table_bytes(&self, backward: bool) -> usize {
        let rows = self.goals.len() + if backward { self.start_boxes.len() } else { 0 };
        let row = self.n * 2;
        if self.n <= PLAYER_AWARE_MAX_CELLS {
            rows * row * 5 + self.n * self.n
        } else {
            rows * row
        }
    }

    /// Analyse a level. `Err` means the map is provably unsolvable as given (a box or goal
    /// lies where the player can never go and is not already paired).
    #[cfg(test)]
    pub fn analyse(level: &Level) -> Result<Board, String> {
        Board::analysed(level, true, Limits::NONE).map(|(board, _)| board).map_err(|e| match e {
            NotAnalysed::Unsolvable(why) => why,
            _ => unreachable!("no limits"),
        })
    }

    /// `analyse`, giving up at `deadline`: on the largest maps the distance tables alone
    /// take most of a second. Refuses before making tables bigger than `memory_bytes`.
    pub fn analyse_until(level: &Level, deadline: Instant, memory_bytes: usize) -> Result<Board, NotAnalysed> {
        let limits = Limits { deadline: Some(deadline), memory_bytes };
        Board::analysed(level, true, limits).map(|(board, _)| board)
    }

    /// The forward tables only (nothing for a backward search), and the goals a lone box
    /// can reach from each (cell, player side): bit `j` of word `(c * 4 + s) * words +
    /// j / 64`, `words = (goals.len() + 63) / 64`; empty on maps too big for the side pass.
    pub fn analyse_forward(level: &Level) -> Result<(Board, Vec<u64>), String> {
        Board::analysed(level, false, Limits::NONE).map_err(|e| match e {
            NotAnalysed::Unsolvable(why) => why,
            _ => unreachable!("no limits"),
        })
    }

    fn analysed(level: &Level, backward: bool, limits: Limits) -> Result<(Board, Vec<u64>), NotAnalysed> {
        let late = || limits.deadline.is_some_and(|d| Instant::now() >= d);
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
                        // `Level::parse` refuses maps with more open cells than `NONE`.
                        debug_assert!(grid_of.len() < NONE as usize);
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
                return Err(NotAnalysed::Unsolvable(format!(
                    "{} at line {}, column {} lies outside the player's reach",
                    what,
                    g / w + 1,
                    g % w + 1
                )));
            }
        }
        let is_goal: Vec<bool> = grid_of.iter().map(|&g| level.goals[g]).collect();
        let goals: Vec<Cell> = (0..n).filter(|&c| is_goal[c]).map(|c| c as Cell).collect();
        let start_boxes: Vec<Cell> = (0..n).filter(|&c| level.boxes[grid_of[c]]).map(|c| c as Cell).collect();

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
            links: Vec::new(),
            side_of: Vec::new(),
            dead_fwd_sides: Vec::new(),
            dead_bwd_sides: Vec::new(),
            doorway: Vec::new(),
        };
        if board.table_bytes(backward) > limits.memory_bytes {
            return Err(NotAnalysed::OutOfMemory);
        }
        if backward {
            board.doorway = board.doorways();
        }
        if n <= PLAYER_AWARE_MAX_CELLS {
            (board.links, board.side_of) = board.side_links();
        }
        let m = board.goals.len();
        let mut goal_sets = Vec::new();
        if board.links.is_empty() {
            board.to_goal = board.plain_rows(&board.goals, true, &late).ok_or(NotAnalysed::OutOfTime)?;
            if backward {
                board.from_start = board.plain_rows(&board.start_boxes, false, &late).ok_or(NotAnalysed::OutOfTime)?;
            }
        } else {
            let to_goal_sides = board.side_distances(&board.goals, true);
            board.to_goal = board.fewest_over_sides(&to_goal_sides, m);
            board.dead_fwd_sides = board.dead_sides(&to_goal_sides, m);
            if backward {
                let from_start_sides = board.side_distances(&board.start_boxes, false);
                board.from_start = board.fewest_over_sides(&from_start_sides, m);
                board.dead_bwd_sides = board.dead_sides(&from_start_sides, m);
            } else {
                goal_sets = reachable_sets(&to_goal_sides, m);
            }
        }
        board.dead_fwd = (0..n).map(|c| (0..board.goals.len()).all(|g| board.to_goal[g * n + c] == FAR)).collect();
        if backward {
            board.dead_bwd =
                (0..n).map(|c| (0..board.start_boxes.len()).all(|s| board.from_start[s * n + c] == FAR)).collect();
        }
        if board.links.is_empty() {
            // No sides known: a cell is dead from every side or from none.
            let all_sides = |dead: &[bool]| dead.iter().map(|&d| if d { 0b1111 } else { 0 }).collect();
            board.dead_fwd_sides = all_sides(&board.dead_fwd);
            board.dead_bwd_sides = all_sides(&board.dead_bwd);
        }
        Ok((board, goal_sets))
    }

    /// Cells whose removal cuts the floor into two or more parts of at least
    /// `DOORWAY_MIN_PART` cells each: articulation points by one depth-first pass, each
    /// child subtree that cannot climb above a cell being a part it cuts off.
    fn doorways(&self) -> Vec<bool> {
        let n = self.n;
        const UNSEEN: u32 = u32::MAX;
        let mut order = vec![UNSEEN; n];
        let mut low = vec![0u32; n];
        let mut size = vec![1u32; n];
        let mut parent = vec![NONE; n];
        // Per cell: the parts below it that it cuts off, their cells, the smallest one.
        let mut parts = vec![0u32; n];
        let mut cut_off = vec![0u32; n];
        let mut smallest = vec![u32::MAX; n];
        let mut door = vec![false; n];
        let mut stack: Vec<(Cell, usize)> = Vec::new();
        let mut visited: Vec<Cell> = Vec::new();
        let mut clock = 0;
        for root in 0..n as Cell {
            if order[root as usize] != UNSEEN {
                continue;
            }
            visited.clear();
            order[root as usize] = clock;
            low[root as usize] = clock;
            clock += 1;
            stack.push((root, 0));
            while let Some(top) = stack.last_mut() {
                let (v, d) = (top.0 as usize, top.1);
                if d < 4 {
                    top.1 += 1;
                    let u = self.nbr[v][d];
                    if u == NONE {
                        continue;
                    }
                    if order[u as usize] == UNSEEN {
                        order[u as usize] = clock;
                        low[u as usize] = clock;
                        clock += 1;
                        parent[u as usize] = v as Cell;
                        stack.push((u, 0));
                    } else if u != parent[v] {
                        low[v] = low[v].min(order[u as usize]);
                    }
                    continue;
                }
                stack.pop();
                visited.push(v as Cell);
                let p = parent[v];
                if p != NONE {
                    let p = p as usize;
                    low[p] = low[p].min(low[v]);
                    size[p] += size[v];
                    if low[v] >= order[p] {
                        parts[p] += 1;
                        cut_off[p] += size[v];
                        smallest[p] = smallest[p].min(size[v]);
                    }
                }
            }
            let total = size[root as usize];
            for &v in &visited {
                let v = v as usize;
                // What is left holds the cell's parent side (nothing for the root).
                let rest = total - 1 - cut_off[v];
                let (count, least) =
                    if rest > 0 { (parts[v] + 1, smallest[v].min(rest)) } else { (parts[v], smallest[v]) };
                door[v] = count >= 2 && least >= DOORWAY_MIN_PART;
            }
        }
        door
    }

    /// The board kept only for `dead_from` forward: no distance tables.
    pub fn without_search_tables(mut self) -> Board {
        self.to_goal = Vec::new();
        self.links = Vec::new();
        self
    }

    #[inline]
    pub fn step(&self, c: Cell, d: usize) -> Cell {
        self.nbr[c as usize][d]
    }

    /// Is `c` a corridor cell, walls on both its sides along one axis (up and down, or
    /// left and right)? A box on it bars the way.
    pub fn corridor(&self, c: Cell) -> bool {
        let wall = |d| self.step(c, d) == NONE;
        (wall(0) && wall(1)) || (wall(2) && wall(3))
    }

    /// Is `c` in a corner, a wall beside it along each axis? A box there blocks less.
    pub fn corner(&self, c: Cell) -> bool {
        let wall = |d| self.step(c, d) == NONE;
        (wall(0) || wall(1)) && (wall(2) || wall(3))
    }

    /// The side of a box on `c` that the player on `p` stands on, as far as walking goes:
    /// the lowest of the sides he can walk to. While the box stays there he can never
    /// reach the others, so its push distances from that side bound what it still needs.
    #[inline]
    pub fn side_towards(&self, c: Cell, p: Cell) -> usize {
        if self.side_of.is_empty() {
            0
        } else {
            self.side_of[c as usize * self.n + p as usize] as usize
        }
    }

    /// Push distances of a lone box between each source and every (box cell, player
    /// side) state, `out[(c * 4 + s) * sources.len() + j]`: a box on `c` with the player
    /// on side `s` (see `side_towards`) needs that many pushes to reach source `j`
    /// (`towards`, found by pulls from it) or needed them to come from it (otherwise).
    /// Only on maps small enough for the side pass: four times the plain tables' size.
    fn side_distances(&self, sources: &[Cell], towards: bool) -> Vec<u16> {
        let (n, m) = (self.n, sources.len());
        let mut out = vec![FAR; n * 4 * m];
        for (j, &src) in sources.iter().enumerate() {
            for (state, &d) in self.player_aware_row(src, towards).iter().enumerate() {
                out[state * m + j] = d;
            }
        }
        out
    }

    /// `side_distances` to the goals: the optimal search (`optimal`) bounds each box by
    /// its distance from the side the player is on. Empty on maps too big for the pass.
    #[cfg(not(judge))]
    pub fn goal_distances_by_side(&self) -> Vec<u16> {
        if self.links.is_empty() {
            Vec::new()
        } else {
            self.side_distances(&self.goals, true)
        }
    }

    /// Per cell, the sides from which `side_distances` reaches no source (bit set).
    fn dead_sides(&self, sides: &[u16], m: usize) -> Vec<u8> {
        (0..self.n)
            .map(|c| {
                (0..4)
                    .filter(|&s| sides[(c * 4 + s) * m..(c * 4 + s + 1) * m].iter().all(|&d| d == FAR))
                    .fold(0u8, |set, s| set | 1 << s)
            })
            .collect()
    }

    /// Is a box on `c` with the player on `p` dead, by `dead_sides` (a `dead_*_sides`)?
    #[inline]
    pub fn dead_from(&self, dead_sides: &[u8], c: Cell, p: Cell) -> bool {
        dead_sides[c as usize] & 1 << self.side_towards(c, p) != 0
    }

    /// `side_distances`, as rows per source of the fewest pushes over the sides:
    /// `out[j * n + c]`.
    fn fewest_over_sides(&self, sides: &[u16], m: usize) -> Vec<u16> {
        let n = self.n;
        let mut out = vec![FAR; m * n];
        for c in 0..n {
            for j in 0..m {
                out[j * n + c] = (0..4).map(|s| sides[(c * 4 + s) * m + j]).min().unwrap_or(FAR);
            }
        }
        out
    }

    /// A source's distances by breadth-first search with the player anywhere he needs.
    /// `plain_row` for each source, one after another; `None` once `late()` says so.
    fn plain_rows(&self, sources: &[Cell], towards: bool, late: &dyn Fn() -> bool) -> Option<Vec<u16>> {
        let mut out = Vec::with_capacity(sources.len() * self.n);
        for &src in sources {
            if late() {
                return None;
            }
            out.extend(self.plain_row(src, towards, FAR));
        }
        Some(out)
    }

    /// Pushes of a lone box onto `src` (`towards`) or from it, from or to each cell, the
    /// player anywhere; `FAR` where none leads, and past `within` pushes.
    pub fn plain_row(&self, src: Cell, towards: bool, within: u16) -> Vec<u16> {
        self.plain_row_where(src, towards, within, |_| true)
    }

    /// `plain_row` with neither box nor player ever on a cell where `open` fails.
    pub fn plain_row_where(&self, src: Cell, towards: bool, within: u16, open: impl Fn(Cell) -> bool) -> Vec<u16> {
        let mut row = vec![FAR; self.n];
        let mut queue: Vec<Cell> = Vec::with_capacity(self.n);
        row[src as usize] = 0;
        queue.push(src);
        let mut head = 0;
        while head < queue.len() {
            let x = queue[head];
            head += 1;
            if row[x as usize] >= within {
                break; // the queue holds cells in order of distance: the rest are as far
            }
            for d in 0..4 {
                let y = self.step(x, d);
                if y == NONE || row[y as usize] != FAR || !open(y) {
                    continue;
                }
                // Pulling x -> y needs the player beyond y; pushing x -> y needs him behind x.
                let player = if towards { self.step(y, d) } else { self.step(x, d ^ 1) };
                if player == NONE || !open(player) {
                    continue;
                }
                row[y as usize] = row[x as usize] + 1;
                queue.push(y);
            }
        }
        row
    }

    /// For every cell `c`, which of its four sides the player can walk between when a
    /// box stands on it (`links`), and for every other cell the lowest side it joins
    /// (`side_of`).
    fn side_links(&self) -> (Vec<[u8; 4]>, Vec<u8>) {
        let n = self.n;
        let mut mark = vec![u32::MAX; n];
        let mut stack = Vec::new();
        let mut links = vec![[0u8; 4]; n];
        let mut side_of = vec![0u8; n * n];
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
                side_of[c * n + start as usize] = s as u8;
                stack.push(start);
                while let Some(x) = stack.pop() {
                    for &t in &self.nbr[x as usize] {
                        if t != NONE && mark[t as usize] != stamp {
                            mark[t as usize] = stamp;
                            side_of[c * n + t as usize] = s as u8;
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
        (links, side_of)
    }

    /// Distances over (box cell, player side) states by 0-1 breadth-first search, indexed
    /// `c * 4 + s`. Walking around the box costs 0, a push 1.
    fn player_aware_row(&self, src: Cell, towards: bool) -> Vec<u16> {
        let links = &self.links;
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
        dist
    }

    /// Grid column and row (0-based) of a compact cell.
    pub fn xy(&self, c: Cell) -> (usize, usize) {
        let g = self.grid_of[c as usize];
        (g % self.width, g / self.width)
    }

    /// Steps between two cells on the grid, walls ignored (Manhattan distance).
    pub fn grid_distance(&self, a: Cell, b: Cell) -> usize {
        let ((ax, ay), (bx, by)) = (self.xy(a), self.xy(b));
        ax.abs_diff(bx) + ay.abs_diff(by)
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

/// Per (cell, side) state of `sides` (`side_distances` over `m` sources), the sources it
/// reaches as a bit set of `(m + 63) / 64` words.
fn reachable_sets(sides: &[u16], m: usize) -> Vec<u64> {
    let words = m.div_ceil(64);
    let mut sets = vec![0u64; sides.len() / m.max(1) * words];
    for (state, row) in sides.chunks(m.max(1)).enumerate() {
        for (j, &d) in row.iter().enumerate() {
            if d != FAR {
                sets[state * words + j / 64] |= 1 << (j % 64);
            }
        }
    }
    sets
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doorways_split_the_floor_into_parts_of_three_cells_or_more() {
        // Two rooms joined by a corridor; a nook of one cell and a pocket of two.
        let b = Board::from_text(concat!(
            "##########\n",
            "#@  #   .#\n",
            "# $   $  #\n",
            "#.  #    #\n",
            "## ### ###\n",
            " ##### ##\n",
            "      ###\n",
        ));
        let door = |x, y| b.doorway[b.cell_at(x, y) as usize];
        assert!(door(4, 2), "the corridor between the rooms");
        assert!(!door(2, 2), "inside a room");
        assert!(!door(2, 3), "the cell in front of the nook cuts off one cell only");
        assert!(!door(6, 3), "the way into the pocket cuts off two cells only");
        assert!(!door(6, 4), "inside the pocket");
    }

    /// The one-pass analysis against its definition, cell by cell, on random rooms.
    #[test]
    fn doorways_match_removing_each_cell_in_turn() {
        use crate::testing::{for_random_positions, Draw};
        let mut doors = 0;
        for_random_positions(0x0d00_4a75_1234_5679, 300, Draw::rooms(7, 6, 14, 0, b"@$."), |p| {
            let (b, text) = (p.board, &p.text);
            for x in 0..b.n {
                // The parts the floor falls into without x, from its neighbours.
                let mut part = vec![usize::MAX; b.n];
                let mut sizes = Vec::new();
                for &s in b.nbr[x].iter().filter(|&&t| t != NONE) {
                    if part[s as usize] != usize::MAX {
                        continue;
                    }
                    let (mut stack, mut size) = (vec![s], 0);
                    part[s as usize] = sizes.len();
                    while let Some(c) = stack.pop() {
                        size += 1;
                        for &t in &b.nbr[c as usize] {
                            if t != NONE && t as usize != x && part[t as usize] == usize::MAX {
                                part[t as usize] = sizes.len();
                                stack.push(t);
                            }
                        }
                    }
                    sizes.push(size);
                }
                let expected = sizes.len() >= 2 && sizes.iter().all(|&s| s >= DOORWAY_MIN_PART as usize);
                assert_eq!(b.doorway[x], expected, "cell {}:\n{}", x, text);
                doors += expected as usize;
            }
        });
        assert!(doors >= 50, "only {} doorways seen", doors);
    }

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
    fn a_box_is_dead_from_a_side_the_player_cannot_leave() {
        // A dead-end corridor: with the player between the box and the goal, the box can
        // only go away from it, and he can never get round to its other side.
        let b = Board::from_text("#######\n#. $ @#\n#######\n");
        let (goal_side, far_side, bx) = (b.cell_at(2, 1), b.cell_at(5, 1), b.cell_at(3, 1));
        assert!(!b.dead_fwd[bx as usize]);
        assert!(b.dead_from(&b.dead_fwd_sides, bx, goal_side));
        assert!(!b.dead_from(&b.dead_fwd_sides, bx, far_side));
        // In a room he can walk round the box, so no side is dead.
        let b = Board::from_text("#######\n#. $ @#\n#     #\n#######\n");
        for p in [b.cell_at(2, 1), b.cell_at(5, 1), b.cell_at(3, 2)] {
            assert!(!b.dead_from(&b.dead_fwd_sides, b.cell_at(3, 1), p));
        }
        // Backward: pushed from its start towards the dead end, the box always has the
        // player behind it, never between it and the end.
        let b = Board::from_text("#######\n#  $.@#\n#######\n");
        let (end, bx, exit_side) = (b.cell_at(1, 1), b.cell_at(2, 1), b.cell_at(3, 1));
        assert!(!b.dead_bwd[bx as usize]);
        assert!(b.dead_from(&b.dead_bwd_sides, bx, end));
        assert!(!b.dead_from(&b.dead_bwd_sides, bx, exit_side));
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
