"""Puzzles to climb from: known puzzles whose logical solve needs a technique.

Each puzzle below takes the step of the techniques listed under it somewhere in its graded
solve: the puzzles of tests/engine/technique_positions.json, most from public lists (top95
from Norvig's essay, hardest_200 from the Enjoy Sudoku forum's hardest list), named above
each (the rarest techniques, met in none of them, have none). seek.py climbs from them to
new puzzles that need the same technique.
"""

from __future__ import annotations

_NEEDED_BY = {
    # HoDoKu reglib-1.3, line 652 (its givens)
    "000406000200000004100000036046300500001840000007020010005030041000000000000507320": (
        "Sashimi Jellyfish",
    ),
    # top95
    "400000805030000000000700000020000060000080400000010000000603070500200000104000000": (
        "Full House",
        "Hidden Single",
        "Naked Single",
        "Pointing",
    ),
    # top95
    "000014000030000200070000000000900030601000000000000080200000104000050600000708000": (
        "Claiming",
        "Naked Triple",
        "Skyscraper",
        "Two-String Kite",
    ),
    # top95
    "480300000000000071020000000705000060000200800000000000001076000300000400000050000": (
        "Naked Pair",
        "Hidden Pair",
        "XY-Wing",
        "W-Wing",
    ),
    # top95
    "047020000800001000030000902000005000600810050000040000070000304000900010400270800": (
        "X-Wing",
        "Sashimi Swordfish",
    ),
    # top95
    "047080001000000000000600700600003570000005000010060000280040000090100040000020690": (
        "Swordfish",
        "X-Chain",
    ),
    # top95
    "008400030000300000900001574790008000000007005140000020009060002050000400000090056": (
        "Hidden Triple",
        "ALS-XY-Wing",
    ),
    # top95
    "600302000050000010000000000702600000000000054300000000080150000000040200000000700": (
        "Empty Rectangle",
    ),
    # top95
    "602050000000003040000000000430008000010000200000000700500270000000000081000600000": (
        "Finned X-Wing",
        "Alternating Inference Chain",
        "Forcing Chain",
    ),
    # top95
    "002470058000000000000001040000020009528090400009000100000000030300007500685002000": (
        "Sashimi X-Wing",
        "Sue de Coq",
    ),
    # top95
    "306070000000000051800000000010405000700000600000200000020000040000080300000500000": (
        "XYZ-Wing",
        "Unique Rectangle Type 4",
        "XY-Chain",
    ),
    # top95
    "000800009087300040600700000008500970000000000043007500000003000030001450400002001": (
        "Simple Colouring",
    ),
    # top95
    "000500000000000506970000020004802000250100030080030000000004070013050090020003100": (
        "Unique Rectangle Type 1",
    ),
    # top95
    "000000000057240009800009470009003000500900120003010900060000250000560000070000006": (
        "Unique Rectangle Type 2",
    ),
    # top95
    "040500000800090030076020000014600000000009007000003600001004050060000003007100200": (
        "Unique Rectangle Type 3",
    ),
    # hardest_200
    "980700600750000080006000000400030000008900070000002100030004500009500060000010002": (
        "Naked Quad",
    ),
    # made by our generator
    "300409007500820003000000210009000030703904108020000700048000000900048001200103004": (
        "Jellyfish",
    ),
    # made by our generator
    "000080500020046000000200709006000087003000100980000400105004000000690070009030000": (
        "Hidden Quad",
    ),
    # top95
    "100000003060300700070005001210700090007000000008010020000806400009020060000400000": ("BUG+1",),
    # top95
    "060501090100090053900007000040800070000000508081705030000050200000000000076008000": (
        "Finned Swordfish",
        "ALS-XZ",
    ),
    # top95
    "600302000040000080000000000702600000000000054300000000080150000000080200000000700": (
        "Finned Jellyfish",
    ),
    # hardest_200
    "980700600500090070007004000400032700006500090000000301100080500020000000005400080": (
        "Dynamic Forcing Chain",
    ),
    # hardest_200
    "980700600750040000003008070500007030009400000000020100300000001090005080005200006": (
        "Nested Forcing Chain",
    ),
}

# The technique's name (as in the table) -> a puzzle whose solve takes its step.
TECHNIQUE_STARTS = {name: puzzle for puzzle, names in _NEEDED_BY.items() for name in names}
