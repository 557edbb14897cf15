//! The node store and transposition table of one search direction.
//!
//! Nodes live in flat arrays (key, parent link, the push that made them, depth); an
//! open-addressing index over them finds a key in about one probe. Each index slot holds
//! the node number and 32 more bits of its hash, so a probe that misses never touches the
//! key array (the costly cache miss). Capacity is fixed up front from the memory budget:
//! when it is full the search stops growing instead of allocating. The index starts small
//! and doubles as nodes arrive, so that a short search keeps it in the caches and never
//! touches most of its budget. Keys are compared in full, so a hash collision can never
//! merge two states.

use crate::board::Cell;
use crate::state::Push;

pub const NO_PARENT: u32 = u32::MAX;

pub struct Table {
    stride: usize,
    capacity: usize,
    keys: Vec<Cell>,
    count: usize,
    parents: Vec<u32>,
    pushes: Vec<Push>,
    depths: Vec<u16>,
    /// 0 = empty, otherwise `(hash >> 32) << 32 | (node index + 1)`. A key's first slot
    /// comes from those same high bits, so the index can grow without the keys.
    slots: Vec<u64>,
    mask: usize,
    /// The index grows up to this many slots.
    max_slots: usize,
}

/// Index slots to start with.
const FIRST_SLOTS: usize = 1 << 12;
const TAG: u64 = 0xFFFF_FFFF_0000_0000;

/// Where a key is, or where it would go.
pub enum Probe {
    Found(u32),
    Vacant(usize),
}

impl Table {
    /// Bytes one node costs: key, parent, push, depth, two index slots, and an open-list
    /// entry (charged here so the caller's budget covers the whole search).
    pub fn bytes_per_node(stride: usize) -> usize {
        stride * 2 + 4 + 8 + 2 + 2 * 8 + 8
    }

    /// A table for keys of `stride` cells that will use at most about `bytes` bytes.
    pub fn with_budget(stride: usize, bytes: usize) -> Table {
        let capacity = (bytes / Self::bytes_per_node(stride)).clamp(16, (u32::MAX / 2) as usize);
        // Load factor at most 3/4; rounding up to a power of two costs at most 5 bytes
        // per node more than budgeted.
        let max_slots = (capacity * 4 / 3 + 1).next_power_of_two();
        let slot_count = max_slots.min(FIRST_SLOTS);
        Table {
            stride,
            capacity,
            // Reserved, not touched: the OS maps pages only as nodes arrive.
            keys: Vec::with_capacity(capacity * stride),
            count: 0,
            parents: Vec::with_capacity(capacity),
            pushes: Vec::with_capacity(capacity),
            depths: Vec::with_capacity(capacity),
            slots: vec![0; slot_count],
            mask: slot_count - 1,
            max_slots,
        }
    }

    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_full(&self) -> bool {
        self.len() >= self.capacity
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    #[inline]
    pub fn key(&self, i: u32) -> &[Cell] {
        let s = i as usize * self.stride;
        &self.keys[s..s + self.stride]
    }

    pub fn parent(&self, i: u32) -> u32 {
        self.parents[i as usize]
    }

    pub fn push_of(&self, i: u32) -> Push {
        self.pushes[i as usize]
    }

    pub fn depth(&self, i: u32) -> u16 {
        self.depths[i as usize]
    }

    pub fn probe(&self, key: &[Cell], hash: u64) -> Probe {
        let tag = hash & TAG;
        let mut s = self.first_slot(tag);
        loop {
            let v = self.slots[s];
            if v == 0 {
                return Probe::Vacant(s);
            }
            if v & TAG == tag {
                let i = (v as u32) - 1;
                if self.key(i) == key {
                    return Probe::Found(i);
                }
            }
            s = (s + 1) & self.mask;
        }
    }

    /// Start loading the first slot of a key whose hash has `box_hash`'s bits 32-55 (the
    /// player's key leaves them alone), so that the probe does not wait on memory.
    #[inline]
    pub fn prefetch(&self, box_hash: u64) {
        let slot = &self.slots[self.first_slot(box_hash)];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint; the address is that of a live slot.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(slot as *const u64 as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }

    pub fn find(&self, key: &[Cell], hash: u64) -> Option<u32> {
        match self.probe(key, hash) {
            Probe::Found(i) => Some(i),
            Probe::Vacant(_) => None,
        }
    }

    /// Store a new node at a slot `probe` returned as vacant. `None` when full.
    pub fn insert_at(
        &mut self,
        slot: usize,
        key: &[Cell],
        hash: u64,
        parent: u32,
        push: Push,
        depth: u16,
    ) -> Option<u32> {
        if self.is_full() {
            return None;
        }
        let i = self.len() as u32;
        self.keys.extend_from_slice(key);
        self.count += 1;
        self.parents.push(parent);
        self.pushes.push(push);
        self.depths.push(depth);
        self.slots[slot] = (hash & TAG) | (i as u64 + 1);
        // Load factor at most 3/4, as at full capacity.
        if self.count * 4 > self.slots.len() * 3 && self.slots.len() < self.max_slots {
            self.grow();
        }
        Some(i)
    }

    /// Node `i` is reached more cheaply through `parent` by `push`. The optimal search
    /// (`optimal`) needs this: its bound need not be consistent, so a node may be found
    /// again at a lower cost after it was stored, and its path must follow.
    #[cfg(not(judge))]
    pub fn relink(&mut self, i: u32, parent: u32, push: Push) {
        self.parents[i as usize] = parent;
        self.pushes[i as usize] = push;
    }

    #[inline]
    fn first_slot(&self, tag: u64) -> usize {
        (tag >> 32) as usize & self.mask
    }

    /// Double the index and put every entry back.
    fn grow(&mut self) {
        let doubled = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        self.mask = self.slots.len() - 1;
        for v in old.into_iter().filter(|&v| v != 0) {
            let mut s = self.first_slot(v & TAG);
            while self.slots[s] != 0 {
                s = (s + 1) & self.mask;
            }
            self.slots[s] = v;
        }
    }

    /// The pushes along parent links from the root down to node `i`, root first.
    pub fn path_to(&self, mut i: u32) -> Vec<Push> {
        let mut out = Vec::new();
        while self.parents[i as usize] != NO_PARENT {
            out.push(self.pushes[i as usize]);
            i = self.parents[i as usize];
        }
        out.reverse();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn add(t: &mut Table, key: &[Cell], hash: u64, parent: u32, from: Cell) -> u32 {
        match t.probe(key, hash) {
            Probe::Vacant(s) => t.insert_at(s, key, hash, parent, Push::step(from, 0, 0), 0).unwrap(),
            Probe::Found(_) => panic!("duplicate"),
        }
    }

    #[test]
    fn colliding_hashes_keep_keys_apart() {
        let mut t = Table::with_budget(3, 1 << 16);
        let a = add(&mut t, &[1, 2, 0], 42, NO_PARENT, 0);
        let b = add(&mut t, &[1, 3, 0], 42, a, 5);
        assert_ne!(a, b);
        assert_eq!(t.find(&[1, 2, 0], 42), Some(a));
        assert_eq!(t.find(&[1, 3, 0], 42), Some(b));
        assert_eq!(t.find(&[1, 4, 0], 42), None);
        assert_eq!(t.path_to(b), vec![Push::step(5, 0, 0)]);
    }

    #[test]
    fn capacity_is_never_exceeded() {
        let mut t = Table::with_budget(2, 16 * Table::bytes_per_node(2));
        let cap = t.capacity();
        for k in 0..cap as u16 {
            add(&mut t, &[k, 0], k as u64 * 7919, NO_PARENT, 0);
        }
        assert!(t.is_full());
        match t.probe(&[9999, 0], 1) {
            Probe::Vacant(s) => assert!(t.insert_at(s, &[9999, 0], 1, 0, Push::step(0, 0, 0), 0).is_none()),
            Probe::Found(_) => panic!(),
        }
    }

    #[test]
    fn the_index_grows_and_finds_every_key_again() {
        let mut t = Table::with_budget(2, 100_000 * Table::bytes_per_node(2));
        let first = t.slots.len();
        let hash = |k: u16| (k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for k in 0..50_000u16 {
            add(&mut t, &[k, 1], hash(k), NO_PARENT, 0);
        }
        assert!(t.slots.len() > first && t.slots.len() <= t.max_slots);
        for k in 0..50_000u16 {
            assert_eq!(t.find(&[k, 1], hash(k)), Some(k as u32));
            assert_eq!(t.find(&[k, 2], hash(k)), None);
        }
    }
}
