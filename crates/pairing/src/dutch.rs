//! The FIDE Dutch system (Handbook C.04.3, the rules in force from 2026), paired as the
//! FIDE-endorsed engine bbpPairings pairs it.
//!
//! Every criterion of the rules becomes a field of an edge weight between two players, the
//! most important highest: the absolute criteria decide whether the edge exists (C.04.3 2.1:
//! no second game, no absolute colour clash), then completing the round and the bye (C5-C9),
//! then the pairs and scores of the current bracket and the next (C6-C8), the colour criteria
//! (C10-C13), then the floats of the last two rounds (C14-C21). A maximum weight matching of
//! all players ([`crate::matching`]) then meets them all in their order of priority at once.
//! The bracket-by-bracket work of the rules (which moved-down players are paired, their
//! opponents, the exchanges between S1 and S2, each S1 player's opponent) is done by fixing
//! one choice at a time: a small weight added to one choice, the matching solved again, the
//! choice kept if the optimum kept it (C.04.3 articles 3 and 4: the first pairing in their
//! order that meets the criteria best).
//!
//! The fields, their widths and the order in which choices are fixed are bbpPairings's
//! (`dutch.cpp`), so that both give the same pairing for every tournament; the tests compare
//! them on thousands of random tournaments.

use std::collections::HashMap;
use std::ops::Not;

use crate::matching::Matcher;
use crate::swiss::Field;
use crate::trf::{Color, Points};
use crate::wide::Wide;

/// One pair of the round, or the pairing-allocated bye.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Board {
    /// Indices into [`Field::players`].
    Game {
        /// White.
        white: usize,
        /// Black.
        black: usize,
    },
    /// The player who gets the pairing-allocated bye.
    Bye(usize),
}

/// No pairing meets the absolute criteria (C.04.3 2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoPairing;

impl std::fmt::Display for NoPairing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(
            "no pairing exists: the players cannot all be paired without a second meeting \
             or an absolute colour clash",
        )
    }
}

impl std::error::Error for NoPairing {}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Float {
    Down,
    Up,
    None,
}

/// The number of bits needed to write `x` (0 for 0).
fn bits(x: usize) -> u32 {
    usize::BITS - x.leading_zeros()
}

/// Pairs the next round of a field by the Dutch system.
///
/// # Errors
/// [`NoPairing`] when the absolute criteria cannot all be met.
pub fn pair(field: &Field) -> Result<Vec<Board>, NoPairing> {
    let plan = Plan::new(field);
    // The widest weight: the fields' bits, two more for the top field, and room for the
    // matching's doubled duals.
    let width = plan.total_bits + 2 + 6;
    match width.div_ceil(64) {
        0..=1 => Pairer::<1>::new(plan).run(),
        2 => Pairer::<2>::new(plan).run(),
        3..=4 => Pairer::<4>::new(plan).run(),
        5..=8 => Pairer::<8>::new(plan).run(),
        9..=16 => Pairer::<16>::new(plan).run(),
        17..=32 => Pairer::<32>::new(plan).run(),
        33..=64 => Pairer::<64>::new(plan).run(),
        _ => Pairer::<128>::new(plan).run(),
    }
}

/// What the pairing of one round needs to know, computed once.
struct Plan<'a> {
    field: &'a Field,
    /// The players to pair (indices into `field.players`), by score then pairing number.
    sorted: Vec<usize>,
    /// Each player's score with acceleration, this round.
    score: Vec<Points>,
    /// Pairs that may not meet: forbidden, or played before.
    forbidden: Vec<Vec<bool>>,
    /// For each score, the bit at which its field starts in a score-group field.
    group_shift: HashMap<Points, u32>,
    /// The width of one score-group field (the sum of the groups' widths).
    groups_bits: u32,
    /// The width of a field counting players of one group.
    size_bits: u32,
    total_bits: u32,
    /// Floats one and two rounds back.
    floats: Vec<[Float; 2]>,
    eligible: Vec<bool>,
}

impl<'a> Plan<'a> {
    fn new(field: &'a Field) -> Plan<'a> {
        let n = field.players.len();
        let score: Vec<Points> = (0..n)
            .map(|i| {
                if field.players[i].valid {
                    field.score_with_acceleration(i, 0)
                } else {
                    0
                }
            })
            .collect();
        let mut forbidden = vec![vec![false; n]; n];
        for &(a, b) in &field.forbidden {
            forbidden[a][b] = true;
            forbidden[b][a] = true;
        }
        let mut sorted = Vec::new();
        for (i, p) in field.players.iter().enumerate() {
            if !p.valid {
                continue;
            }
            if p.history.len() <= field.played_rounds {
                sorted.push(i);
            }
            for m in &p.history {
                if m.played {
                    forbidden[i][m.opponent] = true;
                    forbidden[m.opponent][i] = true;
                }
            }
        }
        sorted.sort_by(|&a, &b| {
            score[b]
                .cmp(&score[a])
                .then(field.players[a].rank.cmp(&field.players[b].rank))
        });
        // Score groups from the bottom: each gets as many bits as its size needs.
        let mut group_shift = HashMap::new();
        let mut groups_bits = 0u32;
        let mut largest = 0usize;
        let mut run = 0usize;
        for k in (0..sorted.len()).rev() {
            run += 1;
            let here = score[sorted[k]];
            if k == 0 || here < score[sorted[k - 1]] {
                group_shift.insert(here, groups_bits);
                largest = largest.max(run);
                groups_bits += bits(run);
                run = 0;
            }
        }
        let size_bits = bits(largest);
        let played = field.played_rounds;
        let float = |i: usize, back: usize| -> Float {
            if back > played || !field.players[i].valid {
                return Float::None;
            }
            let m = &field.players[i].history[played - back];
            if !m.played {
                return if field.points_of(i, m) > field.points.loss {
                    Float::Down
                } else {
                    Float::None
                };
            }
            let mine = field.score_with_acceleration(i, back);
            let theirs = field.score_with_acceleration(m.opponent, back);
            match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => Float::Down,
                std::cmp::Ordering::Less => Float::Up,
                std::cmp::Ordering::Equal => Float::None,
            }
        };
        let floats = (0..n).map(|i| [float(i, 1), float(i, 2)]).collect();
        let eligible = (0..n)
            .map(|i| field.players[i].valid && field.eligible_for_bye(i))
            .collect();
        // The fields of an edge weight, as `edge_weight` lays them out.
        let mut total = size_bits + groups_bits + size_bits + groups_bits + 2 * size_bits;
        total += 4 * size_bits;
        if played > 0 {
            total += 2 * size_bits + 2 * groups_bits;
        }
        if played > 1 {
            total += 2 * size_bits + 2 * groups_bits;
        }
        total += 3 * size_bits + 1;
        Plan {
            field,
            sorted,
            score,
            forbidden,
            group_shift,
            groups_bits,
            size_bits,
            total_bits: total,
            floats,
            eligible,
        }
    }

    /// The absolute criteria (C.04.3 2.1): not met before, not forbidden, and no clash of
    /// absolute colour preferences, except in the last round for a player above half the
    /// points (the topscorers, C.04.3 1.8).
    fn compatible(&self, a: usize, b: usize) -> bool {
        if self.forbidden[a][b] {
            return false;
        }
        let (pa, pb) = (&self.field.players[a], &self.field.players[b]);
        let f = self.field;
        let threshold = (f.played_rounds as Points * f.points.win.max(f.points.draw)) >> 1;
        !pa.absolute_preference()
            || !pb.absolute_preference()
            || pa.colour_preference != pb.colour_preference
            || (f.played_rounds + 1 >= f.total_rounds
                && (self.score[a] > threshold || self.score[b] > threshold))
    }

    fn bye_candidate(&self, i: usize, bye_score: Points) -> bool {
        self.eligible[i] && self.score[i] <= bye_score
    }
}

/// The context of one edge weight.
#[derive(Clone, Copy)]
struct EdgeContext<'r> {
    lower_in_current: bool,
    lower_in_next: bool,
    bye_score: Points,
    single_downfloater_is_bye: bool,
    unplayed_ranks: &'r HashMap<usize, usize>,
}

struct Pairer<'a, const L: usize> {
    plan: Plan<'a>,
    matcher: Matcher<L>,
    max_weight: Wide<L>,
    /// The matching as the last solve left it (changing weights unmatches vertices in the
    /// matcher; the decisions read the last optimum).
    stable: Vec<usize>,
}

fn one<const L: usize>(b: bool) -> Wide<L> {
    Wide::from_u64(u64::from(b))
}

impl<'a, const L: usize> Pairer<'a, L> {
    fn new(plan: Plan<'a>) -> Pairer<'a, L> {
        let n = plan.sorted.len();
        let max_weight = Wide::<L>::from_u64(1)
            .shl(plan.total_bits + 2)
            .wrapping_sub(&Wide::from_u64(1));
        Pairer {
            matcher: Matcher::new(n),
            plan,
            max_weight,
            stable: (0..n).collect(),
        }
    }

    /// The weight of the edge between `higher` and `lower` (indices into the field, higher
    /// ranked first), in the context of the bracket being paired.
    fn edge_weight(&self, higher: usize, lower: usize, cx: EdgeContext<'_>) -> Wide<L> {
        let p = &self.plan;
        if !p.compatible(higher, lower) {
            return Wide::ZERO;
        }
        let sb = p.size_bits;
        let gb = p.groups_bits;
        let (sh, sl) = (p.score[higher], p.score[lower]);
        let group_bit = |score: Points| -> Wide<L> { Wide::from_u64(1).shl(p.group_shift[&score]) };
        // Completing the round, and the bye going to one who may have it (C.04.3 2.2, C5).
        let mut r = Wide::from_u64(
            1 + u64::from(!p.bye_candidate(higher, cx.bye_score))
                + u64::from(!p.bye_candidate(lower, cx.bye_score)),
        );
        // As many pairs in the current bracket as possible (C6), with the highest scores (C7).
        r = r.shl(sb).add(&one(cx.lower_in_current));
        r = r.shl(gb);
        if cx.lower_in_current {
            r = r.add(&group_bit(sh));
        }
        // The same for the next bracket (C8).
        r = r.shl(sb).add(&one(cx.lower_in_next));
        r = r.shl(gb);
        if cx.lower_in_next {
            r = r.add(&group_bit(sh));
        }
        // The bye assignee with as few games unplayed as possible (C9).
        r = r.shl(sb).shl(sb);
        if cx.single_downfloater_is_bye {
            let fp = &p.field.players;
            if sh == cx.bye_score {
                r = r.add(&Wide::from_u64(
                    cx.unplayed_ranks[&fp[higher].played_games] as u64,
                ));
            }
            if sl == cx.bye_score {
                r = r.add(&Wide::from_u64(
                    cx.unplayed_ranks[&fp[lower].played_games] as u64,
                ));
            }
        }
        // Colours (C10-C13).
        r = self.colour_bits(r, lower, higher, cx.lower_in_current);
        let played = p.field.played_rounds;
        let current = cx.lower_in_current;
        // One round back, then two (only for rounds that were played).
        let floats: Vec<(Float, Float)> = p.floats[lower]
            .iter()
            .zip(&p.floats[higher])
            .take(played.min(2))
            .map(|(&l, &h)| (l, h))
            .collect();
        for &(fl_lower, fl_higher) in &floats {
            // Repeated downfloats and upfloats, one then two rounds back (C14-C17).
            r = r.shl(sb);
            if current {
                r = r.add(&one(fl_lower == Float::Down));
                r = r.add(&one(sh <= sl && fl_higher == Float::Down));
            }
            r = r.shl(sb);
            if current {
                r = r.add(&one(!(sh > sl && fl_lower == Float::Up)));
            }
        }
        for &(fl_lower, fl_higher) in &floats {
            // The scores of repeated downfloaters and of repeated upfloaters' opponents
            // (C18-C21).
            r = r.shl(gb);
            if current {
                if fl_lower == Float::Down {
                    r = r.add(&group_bit(sl));
                }
                if fl_higher == Float::Down {
                    r = r.add(&group_bit(sh));
                }
            }
            r = r.shl(gb);
            if current && !(fl_lower == Float::Up && sh > sl) {
                r = r.add(&group_bit(sh));
            }
        }
        // Room for fixing the bracket's choices one by one.
        let r = r.shl(sb).shl(sb).shl(sb).shl(1);
        // `Plan::total_bits` counts these fields: the two must agree.
        debug_assert!(r.bits() <= p.total_bits + 2, "{r:?}");
        r
    }

    /// The colour fields (C10-C13) for `player` (the lower) against `opponent`.
    fn colour_bits(&self, mut r: Wide<L>, player: usize, opponent: usize, mask: bool) -> Wide<L> {
        let sb = self.plan.size_bits;
        let (p, o) = (
            &self.plan.field.players[player],
            &self.plan.field.players[opponent],
        );
        // No absolute colour imbalance clash (C10).
        r = r.shl(sb).add(&one(mask
            && (!p.absolute_imbalance()
                || !o.absolute_imbalance()
                || p.colour_preference != o.colour_preference)));
        // No absolute preference clash beyond what C10 allows (C11).
        let c11 = !p.absolute_preference()
            || !o.absolute_preference()
            || p.colour_preference != o.colour_preference
            || if p.colour_imbalance == o.colour_imbalance {
                p.repeated_colour.is_none() || p.repeated_colour != o.repeated_colour
            } else {
                let weaker = if p.colour_imbalance > o.colour_imbalance {
                    o
                } else {
                    p
                };
                weaker.repeated_colour != p.colour_preference.map(Color::not)
            };
        r = r.shl(sb).add(&one(mask && c11));
        // Colour preferences met (C12).
        r = r.shl(sb).add(&one(
            mask && preferences_compatible(p.colour_preference, o.colour_preference)
        ));
        // Strong preferences met (C13).
        r = r.shl(sb).add(&one(mask
            && ((!p.strong_preference && !p.absolute_preference())
                || (!o.strong_preference && !o.absolute_preference())
                || (p.absolute_preference() && o.absolute_preference())
                || p.colour_preference != o.colour_preference)));
        r
    }

    fn run(mut self) -> Result<Vec<Board>, NoPairing> {
        let n = self.plan.sorted.len();
        if n == 0 {
            return Ok(Vec::new());
        }
        let sorted = self.plan.sorted.clone();
        let score = |v: usize, me: &Self| me.plan.score[sorted[v]];
        let top_score = self.plan.score[sorted[0]];
        let no_ranks = HashMap::new();
        let plain = EdgeContext {
            lower_in_current: false,
            lower_in_next: false,
            bye_score: 0,
            single_downfloater_is_bye: false,
            unplayed_ranks: &no_ranks,
        };
        // First: can everyone be paired at all, and who would get the bye?
        for i in 0..n {
            for j in 0..i {
                let (player, opponent) = (sorted[i], sorted[j]);
                let w = if n % 2 == 1 {
                    if self.plan.compatible(player, opponent) {
                        let p = &self.plan;
                        let top =
                            1 + u64::from(!p.eligible[player]) + u64::from(!p.eligible[opponent]);
                        Wide::from_u64(top)
                            .shl(p.groups_bits)
                            .add(&Wide::from_u64(u64::from(
                                p.group_shift[&p.score[player]] + p.group_shift[&p.score[opponent]],
                            )))
                            .shl(p.size_bits)
                            .add(&one(p.score[player] >= top_score))
                    } else {
                        Wide::ZERO
                    }
                } else {
                    self.edge_weight(opponent, player, plain)
                };
                self.matcher.set_weight(i, j, w);
            }
        }
        self.solve();
        if !self.complete() {
            return Err(NoPairing);
        }
        let mate = |v: usize, me: &Self| me.mate(v);
        let mut bye_score = 0;
        let mut single_downfloater_is_bye = false;
        let mut unplayed_ranks = HashMap::new();
        if n % 2 == 1 {
            let unmatched = (0..n).find(|&v| mate(v, &self) == v).unwrap();
            bye_score = score(unmatched, &self);
            if bye_score >= top_score {
                single_downfloater_is_bye = true;
                for v in 0..n {
                    if score(v, &self) < top_score {
                        break;
                    }
                    if score(mate(v, &self), &self) < top_score {
                        single_downfloater_is_bye = false;
                        break;
                    }
                }
            }
            let mut counts: Vec<usize> = sorted
                .iter()
                .filter(|&&i| self.plan.score[i] == bye_score)
                .map(|&i| self.plan.field.players[i].played_games)
                .collect();
            counts.sort_unstable_by(|a, b| b.cmp(a));
            for (rank, c) in counts.into_iter().enumerate() {
                unplayed_ranks.insert(c, rank);
            }
            let cx = EdgeContext {
                lower_in_current: false,
                lower_in_next: false,
                bye_score,
                single_downfloater_is_bye,
                unplayed_ranks: &unplayed_ranks,
            };
            for i in 0..n {
                for j in 0..i {
                    let w = self.edge_weight(sorted[j], sorted[i], cx);
                    self.matcher.set_weight(i, j, w);
                }
            }
        }
        self.brackets(bye_score, single_downfloater_is_bye, &unplayed_ranks)
    }

    /// Whether the matching pairs everyone but at most one player, who may have the bye.
    fn complete(&self) -> bool {
        let mut unmatched = 0;
        for v in 0..self.plan.sorted.len() {
            if self.mate(v) == v {
                unmatched += 1;
                if unmatched > 1 || !self.plan.eligible[self.plan.sorted[v]] {
                    return false;
                }
            }
        }
        true
    }

    fn mate(&self, v: usize) -> usize {
        self.stable[v]
    }

    fn solve(&mut self) {
        self.matcher.solve();
        for v in 0..self.stable.len() {
            self.stable[v] = self.matcher.mate(v).unwrap_or(v);
        }
    }

    /// Pairs `v` with the most preferred of `candidates` that keeps the best pairing: each
    /// candidate's edge gets `first`, `first + 1`, ... added, in the order given (the most
    /// preferred last); `count_all` counts candidates without an edge too. The pair found
    /// is fixed, and the partner returned.
    fn fix_partner(
        &mut self,
        v: usize,
        candidates: &[(usize, Wide<L>)],
        first: u64,
        count_all: bool,
    ) -> usize {
        let mut addend = first;
        for &(u, w) in candidates {
            if !w.is_zero() {
                self.matcher
                    .set_weight(v, u, w.add(&Wide::from_u64(addend)));
                addend += 1;
            } else if count_all {
                addend += 1;
            }
        }
        self.solve();
        let m = self.mate(v);
        self.finalize(v, m);
        m
    }

    /// Fixes `a` and `b` as a pair: their edge at the highest weight, their others gone.
    fn finalize(&mut self, a: usize, b: usize) {
        let max = self.max_weight;
        for u in 0..self.plan.sorted.len() {
            if u != a {
                self.matcher
                    .set_weight(a, u, if u == b { max } else { Wide::ZERO });
            }
            if u != b {
                self.matcher
                    .set_weight(b, u, if u == a { max } else { Wide::ZERO });
            }
        }
    }

    /// The brackets, top down (C.04.3 article 2.3): each paired as the rules want, the rest
    /// of the round kept pairable by the weights of the players below.
    fn brackets(
        mut self,
        bye_score: Points,
        mut single_downfloater_is_bye: bool,
        unplayed_ranks: &HashMap<usize, usize>,
    ) -> Result<Vec<Board>, NoPairing> {
        let sorted = self.plan.sorted.clone();
        let n = sorted.len();
        let score_of = |v: usize, me: &Self| me.plan.score[sorted[v]];
        let mut partner_of: Vec<Option<usize>> = vec![None; n];
        // The bracket and the next score group: vertices (positions in `sorted`).
        let mut in_play: Vec<usize> = Vec::new();
        let mut next = 0;
        let top = score_of(0, &self);
        while next < n && score_of(next, &self) >= top {
            in_play.push(next);
            next += 1;
        }
        let mut matched = vec![false; n];
        // The number of moved-down players at the head of the bracket.
        let mut mdps = 0usize;
        let mut group_begin_vertex = 0usize;
        while in_play.len() > 1 || next < n {
            let next_begin = in_play.len();
            let next_begin_vertex = group_begin_vertex + (next_begin - mdps);
            let group_start = next;
            while next < n && score_of(next, &self) >= score_of(group_start, &self) {
                in_play.push(next);
                next += 1;
            }
            let group_score = (group_start < n).then(|| score_of(group_start, &self));
            // Base weights: for every pair with its lower player in this bracket or the next
            // group (`base[larger][smaller]`, indices into `in_play`).
            let mut base: Vec<Vec<Wide<L>>> = vec![Vec::new(); in_play.len()];
            for larger in mdps..in_play.len() {
                for smaller in 0..larger {
                    let cx = EdgeContext {
                        lower_in_current: larger < next_begin,
                        lower_in_next: larger >= next_begin,
                        bye_score,
                        single_downfloater_is_bye,
                        unplayed_ranks,
                    };
                    let w = self.edge_weight(sorted[in_play[smaller]], sorted[in_play[larger]], cx);
                    base[larger].push(w);
                }
            }
            for (larger, row) in base.iter().enumerate() {
                for (smaller, w) in row.iter().enumerate() {
                    self.matcher
                        .set_weight(in_play[larger], in_play[smaller], *w);
                }
            }
            let sb = self.plan.size_bits;
            // The weight of an edge in the remainder, with the exchange criteria added.
            let exchange_weight = |base: &Vec<Vec<Wide<L>>>,
                                   smaller: usize,
                                   larger: usize,
                                   smaller_remainder_index: usize,
                                   remainder_pairs: usize|
             -> Wide<L> {
                let r = base[larger][smaller];
                if r.is_zero() {
                    return r;
                }
                // Fewest exchanges, then the smallest differences of exchanged numbers.
                let addend = one::<L>(smaller_remainder_index < remainder_pairs)
                    .shl(sb)
                    .shl(sb)
                    .wrapping_sub(&Wide::from_u64(smaller_remainder_index as u64))
                    .shl(1);
                r.add(&addend)
            };
            self.solve();
            let in_bracket = |m: usize| m >= group_begin_vertex && m < next_begin_vertex;

            // Which moved-down players are paired in this bracket (C.04.3 3.3).
            let mut group_score_mdp = 0;
            let mut remaining = 0usize;
            let mut remaining_matched = 0usize;
            for k in 0..mdps {
                if k == 0 || score_of(in_play[k], &self) < group_score_mdp {
                    group_score_mdp = score_of(in_play[k], &self);
                    remaining = 0;
                    remaining_matched = 0;
                    let mut j = k;
                    while j < in_play.len() && score_of(in_play[j], &self) >= group_score_mdp {
                        remaining += 1;
                        if in_bracket(self.mate(in_play[j])) {
                            remaining_matched += 1;
                        }
                        j += 1;
                    }
                }
                if remaining_matched == 0 {
                    continue;
                }
                let v = in_play[k];
                if remaining <= remaining_matched {
                    matched[v] = true;
                    continue;
                }
                remaining -= 1;
                if !in_bracket(self.mate(v)) {
                    // Try to pair this one.
                    for opp in mdps..next_begin {
                        let mut w = base[opp][k];
                        if !w.is_zero() {
                            w = w.or(&Wide::from_u64(1));
                            self.matcher.set_weight(v, in_play[opp], w);
                        }
                    }
                    self.solve();
                }
                if in_bracket(self.mate(v)) {
                    matched[v] = true;
                    remaining_matched -= 1;
                    for opp in mdps..next_begin {
                        let w = base[opp][k];
                        if !w.is_zero() {
                            let w = w
                                .or(&Wide::from_u64((next_begin - mdps) as u64))
                                .add(&Wide::from_u64(1));
                            self.matcher.set_weight(v, in_play[opp], w);
                        }
                    }
                }
            }
            // Their opponents: the highest possible in turn.
            for k in 0..mdps {
                let v = in_play[k];
                if !matched[v] {
                    continue;
                }
                let candidates: Vec<(usize, Wide<L>)> = (mdps..next_begin)
                    .rev()
                    .filter(|&opp| !matched[in_play[opp]])
                    .map(|opp| (in_play[opp], base[opp][k]))
                    .collect();
                let m = self.fix_partner(v, &candidates, in_play.len() as u64, false);
                matched[m] = true;
            }
            // The remainder: the residents not paired with a moved-down player.
            let mut remainder: Vec<usize> = Vec::new();
            let mut remainder_pairs = 0usize;
            for (k, &v) in in_play.iter().enumerate().take(next_begin).skip(mdps) {
                let m = self.mate(v);
                if m < group_begin_vertex {
                    continue;
                }
                remainder.push(k);
                if m < v {
                    remainder_pairs += 1;
                }
            }
            for (oi, &opp) in remainder.iter().enumerate() {
                for (pi, &pl) in remainder.iter().enumerate().take(oi) {
                    let w = exchange_weight(&base, pl, opp, pi, remainder_pairs);
                    self.matcher.set_weight(in_play[pl], in_play[opp], w);
                }
            }
            self.solve();
            let first_group_end = remainder_pairs;
            let exchanged = |me: &Self, v: usize| {
                let m = me.mate(v);
                m <= v || m >= next_begin_vertex
            };
            let mut exchange_count = 0usize;
            for &k in remainder.iter().take(first_group_end) {
                if exchanged(&self, in_play[k]) {
                    exchange_count += 1;
                }
            }
            // Exchanges: the lowest of S1 first (C.04.3 4.3).
            let mut left = exchange_count;
            let mut idx = first_group_end;
            while idx > 0 && left > 0 {
                idx -= 1;
                let k = remainder[idx];
                let v = in_play[k];
                let m = self.mate(v);
                if m > v && m < next_begin_vertex {
                    for &ok in &remainder[idx + 1..] {
                        let w = exchange_weight(&base, k, ok, idx, remainder_pairs);
                        if !w.is_zero() {
                            self.matcher.set_weight(
                                v,
                                in_play[ok],
                                w.wrapping_sub(&Wide::from_u64(1)),
                            );
                        }
                    }
                    self.solve();
                }
                let exchange = exchanged(&self, v);
                if exchange {
                    left -= 1;
                }
                for &ok in &remainder[idx + 1..] {
                    if exchange {
                        base[ok][k] = Wide::ZERO;
                    }
                    let w = exchange_weight(&base, k, ok, idx, remainder_pairs);
                    self.matcher.set_weight(v, in_play[ok], w);
                }
            }
            // ... and the highest of S2.
            let mut left = exchange_count;
            let mut remainder_index = first_group_end;
            let mut pos = first_group_end;
            while pos < remainder.len() && left > 1 {
                let k = remainder[pos];
                let v = in_play[k];
                let already = {
                    let m = self.mate(v);
                    m > v && m < next_begin_vertex
                };
                if !already {
                    for &ok in &remainder[pos + 1..] {
                        let w = exchange_weight(&base, k, ok, remainder_index, remainder_pairs);
                        if !w.is_zero() {
                            self.matcher
                                .set_weight(v, in_play[ok], w.add(&Wide::from_u64(1)));
                        }
                    }
                    self.solve();
                }
                let exchange = {
                    let m = self.mate(v);
                    m > v && m < next_begin_vertex
                };
                if exchange {
                    left -= 1;
                    for &ok in &remainder[..pos] {
                        base[k][ok] = Wide::ZERO;
                        self.matcher.set_weight(v, in_play[ok], Wide::ZERO);
                    }
                    for opp in next_begin..in_play.len() {
                        base[opp][k] = Wide::ZERO;
                        self.matcher.set_weight(v, in_play[opp], Wide::ZERO);
                    }
                }
                if !already {
                    for &ok in &remainder[pos + 1..] {
                        let w = exchange_weight(&base, k, ok, remainder_index, remainder_pairs);
                        self.matcher.set_weight(v, in_play[ok], w);
                    }
                }
                remainder_index += 1;
                pos += 1;
            }
            // The exchanges are fixed: S1 players pair downwards only, S2 players upwards.
            for (pi, &k) in remainder.iter().enumerate() {
                let v = in_play[k];
                for &ok in &remainder[pi + 1..] {
                    let u = in_play[ok];
                    let mv = self.mate(v);
                    let mu = self.mate(u);
                    if mv <= v || mv >= next_begin_vertex || (mu > u && mu < next_begin_vertex) {
                        base[ok][k] = Wide::ZERO;
                    }
                    self.matcher.set_weight(v, u, base[ok][k]);
                }
            }
            // Each S1 player's opponent: the highest in S2 that keeps the best pairing.
            for &k in &remainder {
                let v = in_play[k];
                let m = self.mate(v);
                if !(m > v && m < next_begin_vertex) {
                    continue;
                }
                let candidates: Vec<(usize, Wide<L>)> = remainder
                    .iter()
                    .rev()
                    .filter(|&&ok| ok > k && !matched[in_play[ok]])
                    .map(|&ok| (in_play[ok], base[ok][k]))
                    .collect();
                let m = self.fix_partner(v, &candidates, 0, true);
                matched[v] = true;
                matched[m] = true;
            }
            // The next bracket: this one's unpaired players (moved down), then the next group.
            let mut carried = Vec::new();
            mdps = 0;
            single_downfloater_is_bye = n % 2 == 1 && group_score.is_some_and(|s| bye_score >= s);
            for (k, &v) in in_play.iter().enumerate() {
                if k < next_begin && matched[v] {
                    let m = self.mate(v);
                    partner_of[v] = Some(m);
                    partner_of[m] = Some(v);
                } else {
                    carried.push(v);
                    if k < next_begin {
                        mdps += 1;
                    }
                    if single_downfloater_is_bye
                        && group_score.is_some_and(|s| score_of(self.mate(v), &self) < s)
                    {
                        single_downfloater_is_bye = false;
                    }
                }
            }
            in_play = carried;
            group_begin_vertex = next_begin_vertex;
        }
        let mut boards = Vec::new();
        for v in 0..n {
            match partner_of[v] {
                Some(m) if m > v => {
                    let (a, b) = (sorted[v].min(sorted[m]), sorted[v].max(sorted[m]));
                    let white = if self.colour_of(a, b) == Color::White {
                        a
                    } else {
                        b
                    };
                    boards.push(Board::Game {
                        white,
                        black: if white == a { b } else { a },
                    });
                }
                Some(_) => {}
                None => boards.push(Board::Bye(sorted[v])),
            }
        }
        Ok(boards)
    }

    /// The colour of `player` against `opponent` (C.04.3 article 5).
    fn colour_of(&self, player: usize, opponent: usize) -> Color {
        let f = self.plan.field;
        let (p, o) = (&f.players[player], &f.players[opponent]);
        let higher_is_opponent = {
            let (sp, so) = (self.plan.score[player], self.plan.score[opponent]);
            (sp, o.rank) < (so, p.rank)
        };
        match neutral_colour(f, player, opponent) {
            Some(c) => c,
            None => match p.colour_preference {
                None => {
                    if higher_is_opponent {
                        if o.rank % 2 == 1 {
                            f.initial_colour
                        } else {
                            !f.initial_colour
                        }
                    } else if p.rank % 2 == 1 {
                        !f.initial_colour
                    } else {
                        f.initial_colour
                    }
                }
                Some(pref) => {
                    if higher_is_opponent {
                        o.colour_preference.map_or(pref, Color::not)
                    } else {
                        pref
                    }
                }
            },
        }
    }
}

fn preferences_compatible(a: Option<Color>, b: Option<Color>) -> bool {
    a != b || a.is_none() || b.is_none()
}

/// The colour the rules give `player` against `opponent` before falling back on rank: both
/// preferences met, the stronger preference, or the last round in which their colours
/// differed (C.04.3 5.2.1-5.2.4); `None` when none decides.
fn neutral_colour(f: &Field, player: usize, opponent: usize) -> Option<Color> {
    let (p, o) = (&f.players[player], &f.players[opponent]);
    if preferences_compatible(p.colour_preference, o.colour_preference) {
        return p
            .colour_preference
            .or_else(|| o.colour_preference.map(Color::not));
    }
    if p.absolute_preference()
        && (p.colour_imbalance > o.colour_imbalance || !o.absolute_preference())
    {
        return p.colour_preference;
    }
    if o.absolute_preference()
        && (o.colour_imbalance > p.colour_imbalance || !p.absolute_preference())
    {
        return o.colour_preference.map(Color::not);
    }
    if p.strong_preference && !o.strong_preference {
        return p.colour_preference;
    }
    if o.strong_preference && !p.strong_preference {
        return o.colour_preference.map(Color::not);
    }
    // The most recent round in which they had different colours: each the other's then.
    let mine = f.players[player].history.iter().rev().filter(|m| m.played);
    let theirs = f.players[opponent]
        .history
        .iter()
        .rev()
        .filter(|m| m.played);
    for (a, b) in mine.zip(theirs) {
        if a.colour != b.colour {
            return b.colour;
        }
    }
    None
}

/// The boards in the order a pairing list is published (and bbpPairings writes them): games
/// by the higher player's score, then the lower one's, then the higher one's pairing number;
/// the bye last.
pub fn publication_order(field: &Field, boards: &mut [Board]) {
    let key = |b: &Board| {
        let (white, black) = match *b {
            Board::Game { white, black } => (white, black),
            Board::Bye(p) => (p, p),
        };
        let (pw, pb) = (&field.players[white], &field.players[black]);
        let white_below = (pw.score, pb.rank) < (pb.score, pw.rank);
        let (higher, lower) = if white_below { (pb, pw) } else { (pw, pb) };
        (
            matches!(b, Board::Bye(_)),
            std::cmp::Reverse(higher.score),
            std::cmp::Reverse(lower.score),
            higher.rank,
        )
    };
    boards.sort_by_key(key);
}

/// The pairing as bbpPairings and JaVaFo write it: the number of boards, then `white black`
/// by starting number, `N 0` for the bye.
pub fn write_pairs(field: &Field, boards: &[Board]) -> String {
    let mut boards = boards.to_vec();
    publication_order(field, &mut boards);
    let id = |p: usize| field.players[p].id;
    crate::trf::write_pairings(boards.iter().map(|b| match *b {
        Board::Game { white, black } => (id(white), Some(id(black))),
        Board::Bye(p) => (id(p), None),
    }))
}
