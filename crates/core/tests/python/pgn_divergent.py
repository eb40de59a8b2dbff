#!/usr/bin/env python3
"""Writes tests/data/pgn/python-chess-normalised.tsv: how python-chess reads the PGN files that
tests/pgn.rs reads differently from python-chess (its DIVERGENT list), once each file's text is
rewritten so that python-chess reads what the file's authors meant, by the rewriting named
beside it below. Every game of those files is then checked move by move against an independent
reading, not only counted.

Columns: file, game (1-based), expected (ok | variant | null@PLY), plies of the main line,
final FEN (empty unless ok).

  ok        python-chess reads the rewritten game without error: Rookery must read it, with
            the same number of plies and the same final position.
  variant   the game names a variant other than standard chess: Rookery must refuse it.
  null@N    the main line's ply N is a null move (`--`, `Z0`): Rookery must refuse the game at
            that ply.
"""
import io
import os
import re

import chess
import chess.pgn

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..", "data", "pgn")


def without_braced(text, nested):
    """The text without its {comments}; with `nested`, braces nest."""
    out, depth = [], 0
    for ch in text:
        if ch == "{":
            depth = depth + 1 if nested else 1
            continue
        if ch == "}" and depth:
            depth -= 1
            continue
        if not depth:
            out.append(ch)
    return "".join(out)


def without_variations(text):
    """The text without (variations), nested ones too, and without comments."""
    text = without_braced(text, nested=False)
    out, depth = [], 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    return "".join(out)


def comment_before_first_move_removed(text):
    # python-chess ends the tag section at a comment standing before move 1.
    return re.sub(r"\]\s*\{[^}]*\}\s*", "]\n\n", text)


def result_ends_each_game(text):
    # Games without tags, one a line: each result token ends a game.
    return re.sub(r"(\s(?:1-0|0-1|1/2-1/2|\*))[ \t]*\n", r"\1\n\n", text)


def tag_sections_are_games(text):
    # A tag section followed by another tag section is a game without moves.
    return re.sub(r"\]\s*\n\s*\n(?=\[)", "]\n\n*\n\n", text) + "\n*\n"


def one_game_without_blank_lines(text):
    # python-chess ends a game's movetext at a blank line.
    tags, _, movetext = text.strip().partition("\n\n")
    return tags + "\n\n" + re.sub(r"\n[ \t]*(?=\n)", "", movetext.strip()) + "\n"


def crafty_columns(text):
    # Crafty's layout: a blank line and `8. ...` before each move after a variation.
    return one_game_without_blank_lines(re.sub(r"\d+\.\s+\.\.\.", "", without_variations(text)))


# file -> (why Rookery's reading differs from python-chess's, the rewriting that makes
# python-chess read what the authors meant). The files with variants are read unchanged.
REWRITES = {
    "pgn-extract/barnes-horton.pgn": (
        "one game; python-chess splits the tags off when a comment precedes move 1",
        comment_before_first_move_removed,
    ),
    "pgn-extract/test-C.pgn": ("the same", comment_before_first_move_removed),
    "pgn-extract/test-F-text.pgn": ("the same", comment_before_first_move_removed),
    "pgn-extract/test-Ta.pgn": ("the same", comment_before_first_move_removed),
    "pgn-extract/test-checkmate.pgn": ("the same", comment_before_first_move_removed),
    "pgn-extract/test-nochecks.pgn": ("the same", comment_before_first_move_removed),
    "pgn-extract/test-stalemate.pgn": ("the same", comment_before_first_move_removed),
    "pgn-extract/nested-comment.pgn": (
        "braces nest, as pgn-extract --nestedcomment reads them",
        lambda t: without_braced(t, nested=True),
    ),
    "pgn-extract/test-allownullmoves.pgn": (
        "null moves refused, as pgn-extract does without --allownullmoves",
        None,
    ),
    "pgn-extract/test-fuzzydepth.pgn": (
        "games without tags end at their result token",
        result_ends_each_game,
    ),
    "pgn-extract/test-nobadresults.pgn": (
        "the same, with the tag on the movetext's line",
        lambda t: result_ends_each_game(re.sub(r"\]\s*", "]\n\n", t)),
    ),
    "python-chess/anastasian-lewis.pgn": ("Z0 null move refused", None),
    "scalachess/FWWRC.pgn": (
        "each tag section is a game (no movetext)",
        tag_sections_are_games,
    ),
    "scalachess/uzchesscup.pgn": ("the same", tag_sections_are_games),
    "scalachess/fixtures/blackAbsentResult.pgn": (
        "`+--` is a forfeit result; python-chess plays it as a null move",
        lambda t: re.sub(r"(?m)^\s*\+--\s*$", "*", t),
    ),
    "scalachess/fixtures/completeTagsWithSpaces.pgn": (
        'Variant "  Standard  " is standard',
        lambda t: re.sub(r'\[Variant "\s*Standard\s*"\]', '[Variant "Standard"]', t),
    ),
    "scalachess/fixtures/fromCrafty.pgn": (
        "one annotated game; python-chess splits at Crafty's comments",
        crafty_columns,
    ),
    "scalachess/fixtures/fromPositionEmptyFen.pgn": (
        'no FEN tag (Variant "From Position", SetUp "1"): the standard start; variations skipped',
        lambda t: without_variations(re.sub(r'\[(FEN|SetUp|Variant) "[^"]*"\]\s*\n', "", t)).replace(
            "]\n1.", "]\n\n1."
        ),
    ),
    "scalachess/fixtures/gameWithComments.pgn": (
        "% escape lines (PGN standard 6)",
        lambda t: one_game_without_blank_lines(re.sub(r"(?m)^%.*\n", "", t)),
    ),
    "scalachess/fixtures/invisibleChar.pgn": (
        "a byte-order mark before the tags is no game",
        lambda t: t.replace("\ufeff", ""),
    ),
    "scalachess/fixtures/overflow.pgn": (
        "variations skipped; python-chess misplaces one",
        without_variations,
    ),
    "scalachess/fixtures/stackOverflow.pgn": (
        "movetext on the tags' line",
        lambda t: re.sub(r"\]\s+(?=\[)", "]\n", re.sub(r'(\[[A-Za-z]+ "[^"]*"\])\s+(?=1\.)', r"\1\n\n", t)),
    ),
    "scalachess/fixtures/withDelimiters.pgn": (
        "[pgn] ... [/pgn] around one line of movetext",
        lambda t: t.replace("[pgn]", "").replace("[/pgn]", ""),
    ),
    "scalachess/fixtures/weirdDashes.pgn": (
        "O\u2011O with a non-breaking hyphen is castling",
        lambda t: t.replace("\u2011", "-"),
    ),
}
VARIANTS = [
    "python-chess/antichess-programfox.pgn",
    "python-chess/cutechess-fischerrandom.pgn",
    "python-chess/knightvuillaume-jannlee-zh-lichess.pgn",
    "python-chess/saturs-jannlee-zh-lichess.pgn",
    "scalachess/fixtures/atomicPromotion.pgn",
    "scalachess/fixtures/atomicRegression.pgn",
    "scalachess/fixtures/chessComCrazyhouse.pgn",
    "scalachess/fixtures/complete960.pgn",
    "scalachess/fixtures/crazyhouse1.pgn",
    "scalachess/fixtures/crazyhouse2.pgn",
    "scalachess/fixtures/crazyhouseFromProd.pgn",
    "scalachess/fixtures/stLouisFischerandom.pgn",
]


def games(text):
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        yield game


rows = []
for rel in sorted(list(REWRITES) + VARIANTS):
    with open(os.path.join(root, rel), encoding="utf-8-sig", errors="replace") as f:
        text = f.read()
    rewrite = REWRITES.get(rel, (None, None))[1]
    if rewrite is not None:
        text = rewrite(text)
    for n, game in enumerate(games(text), start=1):
        variant = game.headers.get("Variant", "Standard").strip().lower()
        if variant not in ("standard", "chess", ""):
            rows.append(f"{rel}\t{n}\tvariant\t0\t")
            continue
        moves = list(game.mainline_moves())
        null = next((i for i, m in enumerate(moves, start=1) if not m), None)
        if null is not None:
            rows.append(f"{rel}\t{n}\tnull@{null}\t0\t")
            continue
        assert not game.errors, f"{rel} game {n}: {game.errors[0]}"
        rows.append(f"{rel}\t{n}\tok\t{len(moves)}\t{game.end().board().fen()}")
with open(os.path.join(root, "python-chess-normalised.tsv"), "w") as out:
    out.write(f"# python-chess {chess.__version__}, files rewritten by tests/python/pgn_divergent.py\n")
    out.write("\n".join(rows) + "\n")
print(len(rows), "games")
