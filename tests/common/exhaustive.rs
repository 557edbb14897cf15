//! An exhaustive Sokoban search for tiny maps, written for the tests alone: it shares no
//! code with the solver nor with the simulator, so a "no solution exists" it agrees with
//! is checked independently.
//!
//! A map is read as the solver's input contract says (the caller drops title and comment
//! lines): blank lines around it are framing, `#` is a wall, so is every cell past the
//! end of a short row and outside the grid. Positions are the boxes (sorted) and the
//! smallest cell of the player's area; every push from each is tried, breadth first.

use std::collections::HashSet;

/// The map's cells row by row: open floor, goals, and the start.
struct Map {
    width: usize,
    height: usize,
    floor: Vec<bool>,
    goal: Vec<bool>,
    boxes: Vec<usize>,
    player: usize,
}

fn read(map: &str) -> Option<Map> {
    let mut rows: Vec<&str> = map.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    while rows.last().is_some_and(|r| r.trim().is_empty()) {
        rows.pop();
    }
    let first = rows.iter().position(|r| !r.trim().is_empty())?;
    let rows = &rows[first..];
    let height = rows.len();
    let width = rows.iter().map(|r| r.chars().count()).max()?;
    let mut m = Map {
        width,
        height,
        floor: vec![false; width * height],
        goal: vec![false; width * height],
        boxes: Vec::new(),
        player: usize::MAX,
    };
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let i = y * width + x;
            m.floor[i] = ch != '#';
            m.goal[i] = matches!(ch, '.' | '*' | '+');
            match ch {
                '#' | ' ' | '-' | '_' | '.' => {}
                '$' | '*' => m.boxes.push(i),
                '@' | '+' if m.player == usize::MAX => m.player = i,
                _ => return None,
            }
        }
    }
    let goals = m.goal.iter().filter(|&&g| g).count();
    (m.player != usize::MAX && goals == m.boxes.len()).then_some(m)
}

impl Map {
    /// The floor cell next to `c` in direction `d` (up, down, left, right), if any.
    fn next(&self, c: usize, d: usize) -> Option<usize> {
        let (x, y) = ((c % self.width) as isize, (c / self.width) as isize);
        let (dx, dy) = [(0, -1), (0, 1), (-1, 0), (1, 0)][d];
        let (x, y) = (x + dx, y + dy);
        if x < 0 || y < 0 || x >= self.width as isize || y >= self.height as isize {
            return None;
        }
        let t = y as usize * self.width + x as usize;
        self.floor[t].then_some(t)
    }

    /// The player's area with `occupied` boxes: which cells, and the smallest.
    fn area(&self, occupied: &[bool], from: usize) -> (Vec<bool>, usize) {
        let mut seen = vec![false; self.floor.len()];
        let (mut stack, mut least) = (vec![from], from);
        seen[from] = true;
        while let Some(c) = stack.pop() {
            least = least.min(c);
            for d in 0..4 {
                if let Some(t) = self.next(c, d) {
                    if !occupied[t] && !seen[t] {
                        seen[t] = true;
                        stack.push(t);
                    }
                }
            }
        }
        (seen, least)
    }

    fn key(&self, boxes: &[usize], player: usize) -> Vec<usize> {
        let mut occupied = vec![false; self.floor.len()];
        boxes.iter().for_each(|&b| occupied[b] = true);
        let mut key = boxes.to_vec();
        key.sort_unstable();
        key.push(self.area(&occupied, player).1);
        key
    }
}

/// Can pushes bring every box of `map` onto a goal? `None` if more than `limit`
/// positions would have to be searched, or if `map` is no map with one player and as
/// many boxes as goals.
pub fn solvable(map: &str, limit: usize) -> Option<bool> {
    let m = read(map)?;
    let root = m.key(&m.boxes, m.player);
    let mut seen = HashSet::from([root.clone()]);
    let mut queue = std::collections::VecDeque::from([root]);
    while let Some(state) = queue.pop_front() {
        let (boxes, player) = state.split_at(state.len() - 1);
        if boxes.iter().all(|&b| m.goal[b]) {
            return Some(true);
        }
        let mut occupied = vec![false; m.floor.len()];
        boxes.iter().for_each(|&b| occupied[b] = true);
        let (reached, _) = m.area(&occupied, player[0]);
        for (i, &b) in boxes.iter().enumerate() {
            for d in 0..4 {
                let behind = m.next(b, d ^ 1);
                let ahead = m.next(b, d).filter(|&t| !occupied[t]);
                if let (Some(behind), Some(ahead)) = (behind, ahead) {
                    if reached[behind] {
                        let mut moved = boxes.to_vec();
                        moved[i] = ahead;
                        let key = m.key(&moved, b);
                        if !seen.contains(&key) {
                            if seen.len() >= limit {
                                return None;
                            }
                            seen.insert(key.clone());
                            queue.push_back(key);
                        }
                    }
                }
            }
        }
    }
    Some(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exhaustive_search_tells_solvable_maps_from_unsolvable_ones() {
        assert_eq!(solvable("#####\n#@$.#\n#####\n", 100), Some(true));
        // The player goes round to push the box down, then round a pillar to push it left.
        assert_eq!(solvable("######\n#    #\n#@$# #\n#.   #\n######\n", 1000), Some(true));
        // Along the top wall the same box never comes down.
        assert_eq!(solvable("######\n#@$  #\n# #  #\n#.   #\n######\n", 1000), Some(false));
        assert_eq!(solvable("#####\n#$  #\n#@ .#\n#####\n", 1000), Some(false));
        // CRLF, blank lines around, a short row (past its end: walls).
        assert_eq!(solvable("\r\n#####\r\n#@$.#\r\n###\r\n\r\n", 100), Some(true));
        assert_eq!(solvable("\n#####\n#.$@  \n#####\n", 100), Some(true));
        // Two boxes side by side against a wall, goals below: frozen.
        assert_eq!(solvable("########\n# $$   #\n#      #\n#@  .. #\n########\n", 100_000), Some(false));
        // Too many positions for the limit; not a map of the contract.
        assert_eq!(solvable("#########\n#@      #\n# $ $ $ #\n# . . . #\n#########\n", 10), None);
        assert_eq!(solvable("#####\n#@$ #\n#####\n", 100), None);
    }
}
