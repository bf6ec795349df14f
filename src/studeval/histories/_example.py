"""One PokerStars hand, for the examples of the docs and the docstrings (every
other room's example hands are the tests' data, in ``tests/data/histories/``).

>>> EXAMPLE.splitlines()[0][:40]
'PokerStars Game #20261202017:  Razz Limi'
"""

__all__ = ["EXAMPLE"]

#: A razz hand at $0.04/$0.08, five players (written for studeval).
EXAMPLE = """\
PokerStars Game #20261202017:  Razz Limit ($0.04/$0.08 USD) - 2026/12/02 10:24:42 ET
Table 'Vega III' 8-max
Seat 1: alba_k ($1.33 in chips)
Seat 3: bruno1977 ($2.17 in chips)
Seat 5: cleo42 ($1.71 in chips)
Seat 7: Hero ($1.60 in chips)
Seat 8: DarioZ ($1.65 in chips)
alba_k: posts the ante $0.01
bruno1977: posts the ante $0.01
cleo42: posts the ante $0.01
Hero: posts the ante $0.01
DarioZ: posts the ante $0.01
*** 3rd STREET ***
Dealt to alba_k [Qc]
Dealt to bruno1977 [6h]
Dealt to cleo42 [3s]
Dealt to Hero [Td 2s 9s]
Dealt to DarioZ [3h]
alba_k: brings in for $0.02
bruno1977: calls $0.02
cleo42: calls $0.02
Hero: folds
DarioZ: calls $0.02
*** 4th STREET ***
Dealt to alba_k [Qc] [8s]
Dealt to bruno1977 [6h] [7h]
Dealt to cleo42 [3s] [Js]
Dealt to DarioZ [3h] [3d]
bruno1977: bets $0.04
cleo42: calls $0.04
DarioZ: calls $0.04
alba_k: folds
*** 5th STREET ***
Dealt to bruno1977 [6h 7h] [7s]
Dealt to cleo42 [3s Js] [Kh]
Dealt to DarioZ [3h 3d] [4h]
cleo42: checks
DarioZ: bets $0.08
bruno1977: calls $0.08
cleo42: folds
*** 6th STREET ***
Dealt to bruno1977 [6h 7h 7s] [Jh]
Dealt to DarioZ [3h 3d 4h] [9c]
DarioZ: bets $0.08
bruno1977: folds
Uncalled bet ($0.08) returned to DarioZ
DarioZ collected $0.39 from pot
*** SUMMARY ***
Total pot $0.41 | Rake $0.02
Seat 1: alba_k folded on the 4th Street
Seat 3: bruno1977 folded on the 6th Street
Seat 5: cleo42 folded on the 5th Street
Seat 7: Hero folded on the 3rd Street (didn't bet)
Seat 8: DarioZ collected ($0.39)
"""
