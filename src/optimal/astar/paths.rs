//! The solutions of the fewest pushes, all of them, and the fewest moves among them.
//!
//! Once a fewest-pushes search over areas has expanded every node that could lie on a
//! best solution (`Search::complete_layer`), those solutions form a graph layered by
//! pushes: marked backward from the solution nodes (`solution_paths`). The fewest moves
//! among them is then a dynamic program over its layers (`fewest_moves_on_paths`): a
//! position is a node of the graph with the player's cell, and every position of one
//! layer is final before the next layer starts, so each is settled once, by one walk.

use std::collections::HashMap;

use super::{add, hash, pack, unpack, Search};
use crate::board::{Cell, NONE};
use crate::budget::Budget;
use crate::state::move_box;
use crate::state::Push;
use crate::table::Table;

/// The solutions of the fewest pushes: their nodes (keys of the area search, `stride`
/// cells each, numbered afresh; the start is 0) and the pushes between them.
pub struct Paths {
    keys: Vec<Cell>,
    stride: usize,
    edges: Vec<PathEdge>,
}

impl Paths {
    fn key(&self, node: u32) -> &[Cell] {
        &self.keys[node as usize * self.stride..(node as usize + 1) * self.stride]
    }
}

/// A push on a solution of the fewest pushes: from node `parent` to node `child`, the
/// player on `stand` pushes the box on `from` in direction `dir`.
#[derive(Clone, Copy, Debug)]
struct PathEdge {
    parent: u32,
    child: u32,
    stand: Cell,
    from: Cell,
    dir: u8,
}

/// How the fewest moves among the solutions of the fewest pushes came out.
pub enum FewestMoves {
    /// The pushes of such a solution (root first) and its moves.
    Found(Vec<Push>, u64),
    /// The budget ran out; every such solution takes at least this many moves.
    OutOfTime(u64),
    OutOfMemory(u64),
}

/// A node of the graph with the player on `cell`, reached in `moves` at the fewest, last
/// by edge `via` from position `back` (`u32::MAX` at the start).
struct Position {
    node: u32,
    cell: Cell,
    moves: u64,
    back: u32,
    via: u32,
}

/// Bytes a position takes, with its entry in the layer's index.
const POSITION_BYTES: usize = std::mem::size_of::<Position>() + 24;

impl Search<'_> {
    /// The pushes on solutions of cost `upper`, after a completed layer.
    ///
    /// Every node of such a solution has a bound of at most `upper`, so the completed
    /// layer expanded each with its least cost, and the solution's every push is an edge
    /// between two of them whose costs differ by one push. So, backward from the solution
    /// nodes: a node is on such a solution if one push leads from it to a node that is,
    /// at one push more. The pushes into a node are found as pulls: the box on `t` came
    /// from `f`, beside it, where the player then stood (so `f` lies in the node's area),
    /// pushed from the cell beyond `f`.
    ///
    /// The search's own nodes are dropped after: the dynamic program needs the memory.
    pub fn solution_paths(&mut self) -> Paths {
        let (board, m) = (self.board, self.model.start.len());
        let mut on = vec![false; self.table.len()];
        let mut stack: Vec<u32> = Vec::new();
        for &i in &self.goals {
            if self.g[i as usize] == self.upper && !on[i as usize] {
                on[i as usize] = true;
                stack.push(i);
            }
        }
        let mut edges = Vec::new();
        let (mut key, mut before) = (Vec::with_capacity(m + 1), Vec::with_capacity(m + 1));
        while let Some(c) = stack.pop() {
            key.clear();
            key.extend_from_slice(self.table.key(c));
            for &b in &key[..m] {
                self.occupied[b as usize] = true;
            }
            self.walk(key[m]);
            for k in 0..m {
                let t = key[k];
                for d in 0..4 {
                    let f = board.step(t, d ^ 1);
                    if f == NONE || self.walks.to(f).is_none() {
                        continue;
                    }
                    let stand = board.step(f, d ^ 1);
                    if stand == NONE || self.occupied[stand as usize] {
                        continue;
                    }
                    before.clear();
                    before.extend_from_slice(&key);
                    move_box(&mut before[..m], k, f);
                    self.occupied[t as usize] = false;
                    self.occupied[f as usize] = true;
                    before[m] = self.reach.fill(board, &self.occupied, stand);
                    self.occupied[t as usize] = true;
                    self.occupied[f as usize] = false;
                    let Some(i) = self.table.find(&before, hash(&before)) else { continue };
                    if add(self.g[i as usize], pack(1, 0)) != Some(self.g[c as usize]) {
                        continue;
                    }
                    edges.push(PathEdge { parent: i, child: c, stand, from: f, dir: d as u8 });
                    if !on[i as usize] {
                        on[i as usize] = true;
                        stack.push(i);
                    }
                }
            }
            for &b in &key[..m] {
                self.occupied[b as usize] = false;
            }
        }
        self.stats.path_pushes = edges.len() as u64;
        // Number the marked nodes afresh, the start (node 0, marked if anything is) first.
        let stride = m + 1;
        let mut number = vec![u32::MAX; on.len()];
        let mut keys = Vec::new();
        for (i, _) in on.iter().enumerate().filter(|(_, &on)| on) {
            number[i] = (keys.len() / stride) as u32;
            keys.extend_from_slice(self.table.key(i as u32));
        }
        for e in edges.iter_mut() {
            e.parent = number[e.parent as usize];
            e.child = number[e.child as usize];
        }
        self.table = Table::with_budget(stride, 0);
        self.g = Vec::new();
        self.open = std::collections::BinaryHeap::new();
        Paths { keys, stride, edges }
    }

    /// The fewest moves among the solutions of the fewest pushes (`edges`, from
    /// `solution_paths`), within `budget` (`used` expansions spent so far; one position
    /// counts as one) and `memory` bytes.
    ///
    /// Layer by layer from the start: each position of a layer, final since the layer
    /// before is done, walks the player to every push out of its node, which gives the
    /// next layer's positions their fewest moves. A run cut short still proves a bound:
    /// every solution goes through some position of the layer at hand, and needs at
    /// least one move per push left from there.
    pub fn fewest_moves_on_paths(&mut self, paths: Paths, budget: &Budget, used: u64, memory: usize) -> FewestMoves {
        let m = self.model.start.len();
        let pushes = unpack(self.upper).0;
        let Paths { keys, stride, mut edges } = paths;
        let paths = Paths { keys, stride, edges: Vec::new() };
        edges.sort_unstable_by_key(|e| e.parent);
        let root = Position { node: 0, cell: self.board.start_player, moves: 0, back: u32::MAX, via: u32::MAX };
        let mut positions = vec![root];
        let mut layer: Vec<u32> = vec![0];
        let mut next: HashMap<(u32, Cell), u32> = HashMap::new();
        let held = edges.len() * std::mem::size_of::<PathEdge>() + paths.keys.len() * 2;
        let limit = memory.saturating_sub(held) / POSITION_BYTES;
        let mut done = 0;
        for depth in 0..pushes {
            // Positions of one node share its boxes.
            layer.sort_unstable_by_key(|&p| (positions[p as usize].node, p));
            let lower = layer.iter().map(|&p| positions[p as usize].moves).min().unwrap_or(0) + (pushes - depth);
            let mut boxes_of = u32::MAX;
            for &p in &layer {
                if budget.expired(used + done) {
                    self.clear_boxes(&paths, boxes_of, m);
                    return FewestMoves::OutOfTime(lower);
                }
                done += 1;
                self.stats.path_positions = done;
                let (node, cell, moves) = {
                    let at = &positions[p as usize];
                    (at.node, at.cell, at.moves)
                };
                if node != boxes_of {
                    self.clear_boxes(&paths, boxes_of, m);
                    boxes_of = node;
                    for &b in &paths.key(node)[..m] {
                        self.occupied[b as usize] = true;
                    }
                }
                self.walk(cell);
                let first = edges.partition_point(|e| e.parent < node);
                for (i, e) in edges.iter().enumerate().skip(first).take_while(|(_, e)| e.parent == node) {
                    let Some(walk) = self.walks.to(e.stand) else { continue };
                    let reached = moves + walk as u64 + 1;
                    let better = Position { node: e.child, cell: e.from, moves: reached, back: p, via: i as u32 };
                    match next.get(&(e.child, e.from)) {
                        Some(&q) if positions[q as usize].moves <= reached => {}
                        Some(&q) => positions[q as usize] = better,
                        None => {
                            if positions.len() >= limit {
                                self.clear_boxes(&paths, boxes_of, m);
                                return FewestMoves::OutOfMemory(lower);
                            }
                            next.insert((e.child, e.from), positions.len() as u32);
                            positions.push(better);
                        }
                    }
                }
            }
            self.clear_boxes(&paths, boxes_of, m);
            layer.clear();
            layer.extend(next.drain().map(|(_, q)| q));
        }
        // The last layer holds the solution nodes; the fewest moves, the first found of
        // equals (positions are numbered in the order found).
        let Some(&best) = layer.iter().min_by_key(|&&p| (positions[p as usize].moves, p)) else {
            return FewestMoves::OutOfMemory(0);
        };
        let mut plan = Vec::new();
        let mut at = best;
        while positions[at as usize].back != u32::MAX {
            let e = edges[positions[at as usize].via as usize];
            plan.push(Push::step(e.from, e.dir, self.board.step(e.from, e.dir as usize)));
            at = positions[at as usize].back;
        }
        plan.reverse();
        FewestMoves::Found(plan, positions[best as usize].moves)
    }

    /// Take the boxes of node `node` of `paths` (`u32::MAX`: none) off `occupied`.
    fn clear_boxes(&mut self, paths: &Paths, node: u32, m: usize) {
        if node != u32::MAX {
            for &b in &paths.key(node)[..m] {
                self.occupied[b as usize] = false;
            }
        }
    }
}
