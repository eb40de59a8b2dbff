#!/usr/bin/env python3
"""Glicko-2 computed from Mark Glickman's paper ("Example of the Glicko-2 system", 2013),
steps 1-8, written from the paper alone: the independent figures `crates/core/tests/rating.rs`
holds the core's Glicko-2 to. Standard library only; prints each case's figures.

  python3 crates/core/tests/python/glicko2_reference.py

lichess's bounds (its `Glicko.scala`): the deviation within 45-500, the volatility at most 0.1,
one game's change at most 700 points either way, the rating within 400-4000. Idle time grows
the deviation as lichess does: phi^2 + periods x sigma^2, 0.21436 periods a day.
"""

import math

SCALE = 173.7178
EPSILON = 0.000001


def g(phi):
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def expect(mu, mu_j, phi_j):
    return 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))


def period(player, games, tau):
    """One rating period: player (r, rd, sigma), games [((r, rd), score)] -> (r, rd, sigma)."""
    r, rd, sigma = player
    mu, phi = (r - 1500) / SCALE, rd / SCALE  # step 2
    if not games:
        return r, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma
    v_inv, total = 0.0, 0.0
    for (r_j, rd_j), s in games:  # steps 3 and 4
        mu_j, phi_j = (r_j - 1500) / SCALE, rd_j / SCALE
        e = expect(mu, mu_j, phi_j)
        v_inv += g(phi_j) ** 2 * e * (1 - e)
        total += g(phi_j) * (s - e)
    v = 1 / v_inv
    delta = v * total
    a = math.log(sigma * sigma)  # step 5

    def f(x):
        return (math.exp(x) * (delta ** 2 - phi ** 2 - v - math.exp(x))
                / (2 * (phi ** 2 + v + math.exp(x)) ** 2) - (x - a) / tau ** 2)

    big_a = a
    if delta ** 2 > phi ** 2 + v:
        big_b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2
        big_b, f_b = big_c, f_c
    sigma_new = math.exp(big_a / 2)
    phi_star = math.sqrt(phi ** 2 + sigma_new ** 2)  # step 6
    phi_new = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)  # step 7
    mu_new = mu + phi_new ** 2 * total
    return SCALE * mu_new + 1500, SCALE * phi_new, sigma_new  # step 8


def lichess(player, games):
    """lichess's update of one game: tau 0.75, then its bounds."""
    r, rd, sigma = period(player, games, 0.75)
    r = min(max(r, player[0] - 700), player[0] + 700)
    return min(max(r, 400), 4000), min(max(rd, 45), 500), min(sigma, 0.1)


def idle(player, days):
    r, rd, sigma = player
    phi = rd / SCALE
    grown = math.sqrt(phi * phi + days * 0.21436 * sigma * sigma) * SCALE
    return r, min(max(grown, 45), 500), sigma


def show(name, figures):
    print(f"{name}: {figures[0]:.10f} {figures[1]:.10f} {figures[2]:.14f}")


def main():
    # The paper's example: tau 0.5.
    show("paper", period((1500, 200, 0.06),
                         [((1400, 30), 1), ((1550, 100), 0), ((1700, 300), 0)], 0.5))
    # An upset streak: 1400 beats 1900 ten times, each game its own period (as lichess
    # rates), tau 0.75, no bounds reached.
    p = (1400, 60, 0.06)
    for _ in range(10):
        p = period(p, [((1900, 60), 1)], 0.75)
    show("streak", p)
    # An inactive player comes back: 1700/50/0.06, a year away, then loses to 1500/50.
    show("back", period(idle((1700, 50, 0.06), 365), [((1500, 50), 0)], 0.75))
    # lichess's bounds: a new player (1500/500/0.09) beats a 3000/45 player: the change is held
    # to 700.
    show("capped", lichess((1500, 500, 0.09), [((3000, 45), 1)]))
    # A volatility at the cap rises past it with an upset: held at 0.1.
    show("volatile", period((1500, 50, 0.1), [((3000, 45), 1)], 0.75))
    show("volatile capped", lichess((1500, 50, 0.1), [((3000, 45), 1)]))
    # Two new players' first rated game (lichess: 1500/500/0.09 each), White wins, then a
    # draw between them as the first game left them (the server's ratings suite).
    white, black = (1500, 500, 0.09), (1500, 500, 0.09)
    w1 = lichess(white, [((black[0], black[1]), 1)])
    b1 = lichess(black, [((white[0], white[1]), 0)])
    show("first game, white", w1)
    show("first game, black", b1)
    show("second game, white", lichess(w1, [((b1[0], b1[1]), 0.5)]))
    show("second game, black", lichess(b1, [((w1[0], w1[1]), 0.5)]))
    # Step 5 chooses its first bracket by whether delta^2 > phi^2 + v: a win against an equal
    # is just below that line, a win against a player 15 points stronger just above it.
    show("equal", period((1500, 100, 0.06), [((1500, 50), 1)], 0.75))
    show("stronger", period((1500, 100, 0.06), [((1515, 50), 1)], 0.75))
    # Further above that line (by 0.51), where the first bracket decides the path to the root.
    show("stronger still", period((1500, 60, 0.06), [((1525, 50), 1)], 0.75))
    # Step 5's downward search for a bracket (the loop on k) runs only when the new
    # volatility lies more than tau below the old one in log terms, which needs a tau above
    # 2: fifty draws for a player of volatility 3, tau 3.
    show("k loop", period((1500, 30, 3.0), [((1500, 30), 0.5)] * 50, 3.0))
    # A period without games: step 6 alone, the deviation grows.
    show("no games", period((1500, 200, 0.06), [], 0.5))
    # A new player loses to a 400: the fall is held to 700.
    show("fall capped", lichess((1500, 500, 0.09), [((400, 45), 0)]))
    # The floor: 410 with a wide deviation loses to 1000: 394 unbounded, 400 on lichess.
    show("floor", lichess((410, 300, 0.06), [((1000, 50), 0)]))

if __name__ == "__main__":
    main()
