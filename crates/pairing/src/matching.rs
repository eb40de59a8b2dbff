//! Maximum weight matching in a general graph, kept up to date as edge weights change.
//!
//! The primal-dual method of Edmonds, in the form of Galil, Micali and Gabow ("An O(EV log V)
//! algorithm for finding a maximal weighted matching in general graphs", 1986): vertex duals
//! `u`, blossom duals `z`, the slack of an edge between top-level blossoms
//! `u_i + u_j - 2 w_ij` (weights are doubled so every dual stays an integer), stages that grow
//! alternating trees from the free vertices whose dual is still positive.
//!
//! The Dutch system (`dutch.rs`) solves one graph many times, each time after changing the
//! weights of the edges of a few vertices. [`Matcher::set_weight`] frees such a vertex: it is
//! unmatched, taken out of its blossoms (their duals given to their vertices, which keeps every
//! slack non-negative), and given the least dual that makes its new edges feasible. The next
//! [`Matcher::solve`] then only has to settle the freed vertices: one stage each, so changing
//! the edges of `k` vertices costs `O(k n^2)` instead of a fresh `O(n^3)`.
//!
//! Edges of weight zero are no edges. Weights must leave their top three bits clear.

use crate::wide::Wide;

const NONE: usize = usize::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Label {
    Free,
    Outer,
    Inner,
}

/// A maximum weight matching of a complete graph on `n` vertices, weights of `L` limbs.
#[derive(Debug, Clone)]
pub struct Matcher<const L: usize> {
    n: usize,
    /// Twice the weight of each edge, row by row.
    weight: Vec<Wide<L>>,
    /// Each vertex's mate, or NONE.
    mate: Vec<usize>,
    /// Duals: vertices 0..n, blossoms n..2n.
    dual: Vec<Wide<L>>,
    /// The top-level blossom of each vertex (itself when alone).
    top: Vec<usize>,
    /// Each blossom's (and vertex's) parent blossom, or NONE.
    parent: Vec<usize>,
    /// Each blossom's children, in cycle order from the one holding its base.
    children: Vec<Vec<usize>>,
    /// `cycle_edges[b][i]` joins `children[b][i]` (first vertex) to `children[b][i + 1]`.
    cycle_edges: Vec<Vec<(usize, usize)>>,
    /// Each blossom's (and vertex's) base vertex.
    base: Vec<usize>,
    /// Blossom ids not in use.
    unused: Vec<usize>,
    /// Vertices whose edges changed since the last solve.
    dirty: Vec<bool>,
    // The stage's search.
    label: Vec<Label>,
    /// The edge (outside vertex, inside vertex) through which a top-level blossom got its
    /// label; for vertices inside an inner blossom, the edge that reached them.
    label_edge: Vec<(usize, usize)>,
    /// For each vertex, the outer vertex (in another top-level blossom) of least slack to it.
    best_from: Vec<usize>,
    queue: Vec<usize>,
}

impl<const L: usize> Matcher<L> {
    /// `n` vertices, no edges.
    pub fn new(n: usize) -> Matcher<L> {
        Matcher {
            n,
            weight: vec![Wide::ZERO; n * n],
            mate: vec![NONE; n],
            dual: vec![Wide::ZERO; 2 * n],
            top: (0..n).collect(),
            parent: vec![NONE; 2 * n],
            children: vec![Vec::new(); 2 * n],
            cycle_edges: vec![Vec::new(); 2 * n],
            base: (0..2 * n).map(|b| if b < n { b } else { NONE }).collect(),
            unused: (n..2 * n).rev().collect(),
            dirty: vec![true; n],
            label: vec![Label::Free; 2 * n],
            label_edge: vec![(NONE, NONE); 2 * n],
            best_from: vec![NONE; n],
            queue: Vec::new(),
        }
    }

    /// Sets the weight of the edge `i`-`j`; `solve` then settles the matching again.
    pub fn set_weight(&mut self, i: usize, j: usize, w: Wide<L>) {
        debug_assert!(i != j && w.bits() + 3 <= 64 * L as u32);
        let w2 = w.shl(1);
        if self.weight[i * self.n + j] == w2 {
            return;
        }
        self.free_vertex(i);
        self.weight[i * self.n + j] = w2;
        self.weight[j * self.n + i] = w2;
    }

    /// The vertex matched to `i`, if any (after [`Matcher::solve`]).
    pub fn mate(&self, i: usize) -> Option<usize> {
        (self.mate[i] != NONE).then_some(self.mate[i])
    }

    fn w2(&self, i: usize, j: usize) -> Wide<L> {
        self.weight[i * self.n + j]
    }

    /// The slack of an edge between two top-level blossoms: `u_i + u_j - 2w`.
    fn slack(&self, i: usize, j: usize) -> Wide<L> {
        self.dual[i].add(&self.dual[j]).sub(&self.w2(i, j))
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &c in &self.children[b] {
                self.leaves(c, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    /// Takes vertex `v` out of the matching and out of every blossom, keeping every slack
    /// non-negative; its dual is set again by the next solve.
    fn free_vertex(&mut self, v: usize) {
        if self.dirty[v] && self.top[v] == v && self.mate[v] == NONE {
            return;
        }
        let b = self.top[v];
        let base = self.base[b];
        if self.mate[base] != NONE {
            let m = self.mate[base];
            self.mate[m] = NONE;
            self.mate[base] = NONE;
        }
        // Make `v` the base of each blossom holding it, then open them from the top down,
        // each one's dual spread over its vertices.
        if b >= self.n {
            self.rotate(b, v);
            self.mate[v] = NONE;
        }
        let mut current = b;
        while current >= self.n {
            let z = self.dual[current];
            let leaves = self.leaves_of(current);
            for &x in &leaves {
                self.dual[x] = self.dual[x].add(&z);
            }
            self.dual[current] = Wide::ZERO;
            current = self.open(current, v);
        }
        debug_assert_eq!(self.top[v], v);
        self.dirty[v] = true;
    }

    /// Opens top-level blossom `b` of dual zero outside a stage: its children become
    /// top-level. Returns the child whose base is `base`.
    fn open(&mut self, b: usize, base: usize) -> usize {
        let children = std::mem::take(&mut self.children[b]);
        self.cycle_edges[b].clear();
        let mut next = NONE;
        for &c in &children {
            self.parent[c] = NONE;
            for x in self.leaves_of(c) {
                self.top[x] = c;
            }
            if self.base[c] == base {
                next = c;
            }
        }
        self.base[b] = NONE;
        self.unused.push(b);
        next
    }

    /// Finds a maximum weight matching, starting from the present one.
    pub fn solve(&mut self) {
        let n = self.n;
        // Freed vertices: the least even dual that makes each of their edges feasible.
        for v in 0..n {
            if !self.dirty[v] {
                continue;
            }
            self.dirty[v] = false;
            let mut need = Wide::ZERO;
            for k in 0..n {
                if k == v || self.w2(v, k).is_zero() {
                    continue;
                }
                let w = self.w2(v, k);
                // Inside no blossom with `k`: the slack is u_v + u_k - 2w.
                if w > self.dual[k] {
                    let d = w.sub(&self.dual[k]);
                    if d > need {
                        need = d;
                    }
                }
            }
            if need.is_odd() {
                need = need.add(&Wide::from_u64(1));
            }
            self.dual[v] = need;
        }
        // Every free base's dual even, so that every outer vertex's is (see `half` below).
        for b in 0..2 * n {
            let is_top = if b < n {
                self.top[b] == b
            } else {
                self.base[b] != NONE && self.parent[b] == NONE
            };
            if is_top && self.mate[self.base[b]] == NONE && self.dual[self.base[b]].is_odd() {
                self.make_base_even(b);
            }
        }
        while self.stage() {}
    }

    /// Raises the dual of the free base of top-level blossom `b` by one, opening blossoms of
    /// zero dual and lowering the first one of positive dual to pay for it.
    fn make_base_even(&mut self, mut b: usize) {
        let base = self.base[b];
        while b >= self.n && self.dual[b].is_zero() {
            b = self.open(b, base);
        }
        if b >= self.n {
            self.dual[b] = self.dual[b].sub(&Wide::from_u64(1));
        }
        for x in self.leaves_of(b) {
            self.dual[x] = self.dual[x].add(&Wide::from_u64(1));
        }
    }

    /// One stage: grows trees from the free vertices of positive dual until an augmenting
    /// path is found or a dual reaches zero. Returns false when there is nothing left to do.
    fn stage(&mut self) -> bool {
        let n = self.n;
        self.label.fill(Label::Free);
        self.label_edge.fill((NONE, NONE));
        self.best_from.fill(NONE);
        self.queue.clear();
        let mut roots = 0;
        for v in 0..n {
            let b = self.top[v];
            if self.base[b] == v && self.mate[v] == NONE && !self.dual[v].is_zero() {
                self.assign_outer(b, (NONE, NONE));
                roots += 1;
            }
        }
        if roots == 0 {
            return false;
        }
        loop {
            while let Some(v) = self.queue.pop() {
                for x in 0..n {
                    if x == v || self.w2(v, x).is_zero() || self.top[x] == self.top[v] {
                        continue;
                    }
                    let slack = self.slack(v, x);
                    if slack.is_zero() {
                        if self.tight(v, x) {
                            self.end_stage();
                            return true;
                        }
                    } else {
                        // Kept for free vertices (delta 2), outer ones (delta 3), and the
                        // vertices of inner blossoms, which may be free once they open.
                        let best = self.best_from[x];
                        if best == NONE
                            || self.top[best] == self.top[x]
                            || slack < self.slack(best, x)
                        {
                            self.best_from[x] = v;
                        }
                    }
                }
            }
            // No tight edge left to follow: change the duals by the largest amount that
            // keeps them feasible.
            let mut delta: Option<(Wide<L>, u8, usize, usize)> = None;
            let mut offer = |d: Wide<L>, kind: u8, a: usize, b: usize| {
                if delta.as_ref().is_none_or(|(best, ..)| d < *best) {
                    delta = Some((d, kind, a, b));
                }
            };
            for v in 0..n {
                let b = self.top[v];
                match self.label[b] {
                    Label::Outer => {
                        offer(self.dual[v], 1, v, NONE);
                        let s = self.best_from[v];
                        if s != NONE && self.top[s] != b && self.label[self.top[s]] == Label::Outer
                        {
                            offer(self.slack(s, v).half(), 3, s, v);
                        }
                    }
                    Label::Free => {
                        let s = self.best_from[v];
                        if s != NONE && self.label[self.top[s]] == Label::Outer {
                            offer(self.slack(s, v), 2, s, v);
                        }
                    }
                    Label::Inner => {}
                }
            }
            for b in n..2 * n {
                if self.base[b] != NONE && self.parent[b] == NONE && self.label[b] == Label::Inner {
                    offer(self.dual[b], 4, b, NONE);
                }
            }
            let (d, kind, a, b) = delta.expect("an outer vertex always offers its dual");
            for v in 0..n {
                match self.label[self.top[v]] {
                    Label::Outer => self.dual[v] = self.dual[v].sub(&d),
                    Label::Inner => self.dual[v] = self.dual[v].add(&d),
                    Label::Free => {}
                }
            }
            for blossom in n..2 * n {
                if self.base[blossom] != NONE && self.parent[blossom] == NONE {
                    match self.label[blossom] {
                        Label::Outer => self.dual[blossom] = self.dual[blossom].add(&d),
                        Label::Inner => self.dual[blossom] = self.dual[blossom].sub(&d),
                        Label::Free => {}
                    }
                }
            }
            match kind {
                1 => {
                    // Outer vertex `a` reached dual zero: make it the free one of its tree.
                    if self.mate[a] != NONE || self.base[self.top[a]] != a {
                        self.augment_side(a, NONE);
                    }
                    self.end_stage();
                    return true;
                }
                2 | 3 => {
                    debug_assert!(kind == 2 || !self.slack(a, b).is_odd());
                    if self.tight(a, b) {
                        self.end_stage();
                        return true;
                    }
                }
                _ => self.expand(a, false),
            }
        }
    }

    /// Follows the tight edge from outer vertex `v` to `x` (in another top-level blossom).
    /// Returns true when the matching changed (a new stage must start).
    fn tight(&mut self, v: usize, x: usize) -> bool {
        let bx = self.top[x];
        match self.label[bx] {
            Label::Free => {
                let base = self.base[bx];
                if self.mate[base] == NONE {
                    // A free blossom of dual zero: an augmenting path ends here.
                    self.augment_side(v, x);
                    if bx >= self.n {
                        self.rotate(bx, x);
                    }
                    self.mate[x] = v;
                    return true;
                }
                self.label[bx] = Label::Inner;
                self.label_edge[bx] = (v, x);
                let m = self.mate[base];
                let bm = self.top[m];
                self.assign_outer(bm, (base, m));
                false
            }
            Label::Outer => {
                let ancestor = self.common_ancestor(v, x);
                if ancestor == NONE {
                    self.augment_side(v, x);
                    self.augment_side(x, v);
                    true
                } else {
                    self.add_blossom(ancestor, v, x);
                    false
                }
            }
            Label::Inner => {
                // Reached inside an inner blossom: remembered for when it opens.
                if self.label_edge[x].0 == NONE {
                    self.label_edge[x] = (v, x);
                }
                false
            }
        }
    }

    fn assign_outer(&mut self, b: usize, edge: (usize, usize)) {
        self.label[b] = Label::Outer;
        self.label_edge[b] = edge;
        let leaves = self.leaves_of(b);
        self.queue.extend(leaves);
    }

    /// The top-level outer blossom where the trees of outer vertices `v` and `x` meet, or
    /// NONE when they are different trees.
    fn common_ancestor(&self, v: usize, x: usize) -> usize {
        let mut seen = std::collections::HashSet::new();
        let (mut a, mut b) = (self.top[v], self.top[x]);
        loop {
            for side in [&mut a, &mut b] {
                if *side == NONE {
                    continue;
                }
                if !seen.insert(*side) {
                    return *side;
                }
                let (t, _) = self.label_edge[*side];
                *side = if t == NONE {
                    NONE
                } else {
                    let bt = self.top[t];
                    self.top[self.label_edge[bt].0]
                };
            }
            if a == NONE && b == NONE {
                return NONE;
            }
        }
    }

    /// Makes a new outer blossom of the cycle through `v`-`x` and the tree paths from both
    /// to their common top-level blossom `ancestor`.
    fn add_blossom(&mut self, ancestor: usize, v: usize, x: usize) {
        let b = self.unused.pop().expect("at most n blossoms");
        let mut children = vec![ancestor];
        let mut edges = Vec::new();
        // From v up to the ancestor, then reversed: the cycle starts at the ancestor.
        let mut path = Vec::new();
        let mut path_edges = Vec::new();
        let mut bv = self.top[v];
        while bv != ancestor {
            path.push(bv);
            path_edges.push(self.label_edge[bv]);
            bv = self.top[self.label_edge[bv].0];
        }
        for (child, (outside, inside)) in path.iter().rev().zip(path_edges.iter().rev()) {
            children.push(*child);
            edges.push((*outside, *inside));
        }
        edges.push((v, x));
        let mut bx = self.top[x];
        while bx != ancestor {
            children.push(bx);
            let (outside, inside) = self.label_edge[bx];
            edges.push((inside, outside));
            bx = self.top[outside];
        }
        for &c in &children {
            self.parent[c] = b;
        }
        self.base[b] = self.base[ancestor];
        self.dual[b] = Wide::ZERO;
        self.label[b] = Label::Outer;
        self.label_edge[b] = self.label_edge[ancestor];
        for leaf in self.leaves_of_list(&children) {
            if self.label[self.top[leaf]] == Label::Inner {
                self.queue.push(leaf);
            }
            self.top[leaf] = b;
        }
        self.children[b] = children;
        self.cycle_edges[b] = edges;
        // Best edges whose outer end is now inside the blossom with them are stale.
        let leaves = self.leaves_of(b);
        for &y in &leaves {
            let s = self.best_from[y];
            if s != NONE && self.top[s] == b {
                self.best_from[y] = NONE;
                for k in 0..self.n {
                    if self.top[k] != b
                        && self.label[self.top[k]] == Label::Outer
                        && !self.w2(k, y).is_zero()
                    {
                        let slack = self.slack(k, y);
                        let best = self.best_from[y];
                        if best == NONE || slack < self.slack(best, y) {
                            self.best_from[y] = k;
                        }
                    }
                }
            }
        }
    }

    fn leaves_of_list(&self, blossoms: &[usize]) -> Vec<usize> {
        let mut out = Vec::new();
        for &c in blossoms {
            self.leaves(c, &mut out);
        }
        out
    }

    /// Swaps matched and unmatched edges from outer vertex `s` back to its tree's root,
    /// matching `s` to `partner` (or leaving it free, NONE).
    fn augment_side(&mut self, mut s: usize, mut partner: usize) {
        loop {
            let bs = self.top[s];
            if bs >= self.n {
                self.rotate(bs, s);
            }
            self.mate[s] = partner;
            let (t, _) = self.label_edge[bs];
            if t == NONE {
                break;
            }
            let bt = self.top[t];
            let (prev, j) = self.label_edge[bt];
            if bt >= self.n {
                self.rotate(bt, j);
            }
            self.mate[j] = prev;
            partner = j;
            s = prev;
        }
    }

    /// Re-matches inside blossom `b` so that vertex `v` becomes its base.
    fn rotate(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= self.n {
            self.rotate(t, v);
        }
        let k = self.children[b].len();
        let i = self.children[b].iter().position(|&c| c == t).unwrap();
        // The children from `t` round to the old base's child pair up the even way round:
        // forward (i+1, i+2), (i+3, i+4), ... or backward (i-1, i-2), (i-3, i-4), ...; each
        // pair is matched by the cycle edge between them.
        let mut j = i;
        while j != 0 {
            let first = if i % 2 == 1 { (j + 1) % k } else { j - 2 };
            let (p, q) = self.cycle_edges[b][first];
            let (c1, c2) = (self.children[b][first], self.children[b][(first + 1) % k]);
            if c1 >= self.n {
                self.rotate(c1, p);
            }
            if c2 >= self.n {
                self.rotate(c2, q);
            }
            self.mate[p] = q;
            self.mate[q] = p;
            j = if i % 2 == 1 { (j + 2) % k } else { j - 2 };
        }
        self.children[b].rotate_left(i);
        self.cycle_edges[b].rotate_left(i);
        self.base[b] = v;
    }

    /// Opens top-level blossom `b`: its children become top-level. In a stage (not
    /// `end_of_stage`) an inner blossom's children are labeled again along the path through
    /// it; at the end of a stage, children of zero dual are opened too.
    fn expand(&mut self, b: usize, end_of_stage: bool) {
        let children = std::mem::take(&mut self.children[b]);
        let edges = std::mem::take(&mut self.cycle_edges[b]);
        for &c in &children {
            self.parent[c] = NONE;
            for x in self.leaves_of(c) {
                self.top[x] = c;
            }
        }
        if !end_of_stage && self.label[b] == Label::Inner {
            // The path through b: from the child it was entered by to the child holding its
            // base, the even way round; those children alternate inner and outer, the
            // others are free again (or inner, if an outer vertex reached into them).
            let (outside, inside) = self.label_edge[b];
            let k = children.len();
            let entry = children
                .iter()
                .position(|&c| self.top[inside] == c)
                .unwrap();
            // A lone vertex's label_edge says whether an outer vertex reached it: kept.
            for &c in &children {
                self.label[c] = Label::Free;
            }
            let mut on_path = vec![false; k];
            let forward = entry % 2 == 1;
            let mut j = entry;
            let mut from = (outside, inside);
            loop {
                // children[j] is inner, entered by `from`.
                on_path[j] = true;
                self.label[children[j]] = Label::Inner;
                self.label_edge[children[j]] = from;
                if j == 0 {
                    break;
                }
                // Next child (outer), then the one after (inner).
                let (j1, e1) = if forward {
                    ((j + 1) % k, edges[j])
                } else {
                    (j - 1, (edges[j - 1].1, edges[j - 1].0))
                };
                let (j2, e2) = if forward {
                    ((j1 + 1) % k, edges[j1])
                } else {
                    (j1 - 1, (edges[j1 - 1].1, edges[j1 - 1].0))
                };
                // The pair (j, j1) is matched through e1; j1 is outer, labeled through it.
                on_path[j1] = true;
                self.label_edge[children[j1]] = (e1.0, e1.1);
                self.assign_outer(children[j1], (e1.0, e1.1));
                from = (e2.0, e2.1);
                j = j2;
            }
            // Children off the path: free, unless a vertex in them was reached.
            for (idx, &c) in children.iter().enumerate() {
                if on_path[idx] || self.label[c] != Label::Free {
                    continue;
                }
                let reached = self
                    .leaves_of(c)
                    .into_iter()
                    .find(|&y| self.label_edge[y].0 != NONE && y < self.n);
                if let Some(y) = reached {
                    let (s, _) = self.label_edge[y];
                    self.label_edge[y] = (NONE, NONE);
                    let _ = self.tight(s, y);
                }
            }
        }
        self.label[b] = Label::Free;
        self.label_edge[b] = (NONE, NONE);
        self.base[b] = NONE;
        self.dual[b] = Wide::ZERO;
        self.unused.push(b);
        if end_of_stage {
            for &c in &children {
                if c >= self.n && self.dual[c].is_zero() {
                    self.expand(c, true);
                }
            }
        }
    }

    /// After a stage: outer blossoms whose dual is zero are opened.
    fn end_stage(&mut self) {
        for b in self.n..2 * self.n {
            if self.base[b] != NONE
                && self.parent[b] == NONE
                && self.label[b] == Label::Outer
                && self.dual[b].is_zero()
            {
                self.expand(b, true);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type W = Wide<1>;

    /// The best total weight by trying every matching (bitmask dynamic programming).
    fn brute_force(n: usize, w: &[u64]) -> u64 {
        let mut best = vec![0u64; 1 << n];
        for mask in 1usize..(1 << n) {
            let i = mask.trailing_zeros() as usize;
            let rest = mask & !(1 << i);
            let mut b = best[rest];
            for j in 0..n {
                if rest & (1 << j) != 0 && w[i * n + j] > 0 {
                    b = b.max(w[i * n + j] + best[rest & !(1 << j)]);
                }
            }
            best[mask] = b;
        }
        best[(1 << n) - 1]
    }

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    fn check(m: &Matcher<1>, n: usize, w: &[u64], what: &str) {
        let mut total = 0;
        for i in 0..n {
            if let Some(j) = m.mate(i) {
                assert_eq!(m.mate(j), Some(i), "{what}: mates");
                assert!(w[i * n + j] > 0, "{what}: a non-edge matched");
                if j > i {
                    total += w[i * n + j];
                }
            }
        }
        assert_eq!(total, brute_force(n, w), "{what}: total weight");
    }

    #[test]
    fn random_graphs_match_as_well_as_every_matching_tried() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for case in 0..3000 {
            let n = 1 + (rng.next() % 11) as usize;
            let density = rng.next() % 100;
            let spread = [3, 10, 1000][(rng.next() % 3) as usize];
            let mut w = vec![0u64; n * n];
            let mut m = Matcher::<1>::new(n);
            for i in 0..n {
                for j in i + 1..n {
                    if rng.next() % 100 < density {
                        let x = 1 + rng.next() % spread;
                        w[i * n + j] = x;
                        w[j * n + i] = x;
                        m.set_weight(i, j, W::from_u64(x));
                    }
                }
            }
            m.solve();
            check(&m, n, &w, &format!("case {case}"));
            // Then change the edges of a few vertices at a time, solving after each change.
            for round in 0..6 {
                for _ in 0..1 + rng.next() % 3 {
                    let v = (rng.next() % n as u64) as usize;
                    for k in 0..n {
                        if k != v && rng.next() % 3 == 0 {
                            let x = if rng.next() % 4 == 0 {
                                0
                            } else {
                                1 + rng.next() % spread
                            };
                            w[v * n + k] = x;
                            w[k * n + v] = x;
                            m.set_weight(v, k, W::from_u64(x));
                        }
                    }
                }
                m.solve();
                check(&m, n, &w, &format!("case {case}, change {round}"));
            }
        }
    }
}
