"""The hands that ``docs/stats.md`` works each statistic through: three PokerStars
hands at one table, written for the statistics (a steal and a re-steal, an open pair
on fourth street, a razz steal the bring-in folds to, a stud8 scoop).

>>> EXAMPLE.count("PokerStars Hand #")
3
"""

__all__ = ["EXAMPLE"]

#: Three hands of PokerStars text: stud, razz and stud8 at the table 'Ursa II'.
EXAMPLE = """\
PokerStars Hand #250101001:  7 Card Stud Limit ($0.05/$0.10 USD) - 2026/12/02 12:00:00 ET
Table 'Ursa II' 8-max
Seat 1: Ann ($5.00 in chips)
Seat 3: Bob ($5.00 in chips)
Seat 5: Cy ($5.00 in chips)
Seat 7: Dee ($5.00 in chips)
Ann: posts the ante $0.01
Bob: posts the ante $0.01
Cy: posts the ante $0.01
Dee: posts the ante $0.01
*** 3rd STREET ***
Dealt to Ann [2c]
Dealt to Bob [Kh]
Dealt to Cy [5d]
Dealt to Dee [9s]
Ann: brings in for $0.02
Bob: raises $0.03 to $0.05
Cy: folds
Dee: raises $0.05 to $0.10
Ann: folds
Bob: calls $0.05
*** 4th STREET ***
Dealt to Bob [Kh] [Jc]
Dealt to Dee [9s] [9h]
Dee: bets $0.05
Bob: folds
Uncalled bet ($0.05) returned to Dee
Dee collected $0.26 from pot
*** SUMMARY ***
Total pot $0.26 | Rake $0.00

PokerStars Hand #250101002:  Razz Limit ($0.05/$0.10 USD) - 2026/12/02 12:01:10 ET
Table 'Ursa II' 8-max
Seat 1: Ann ($5.00 in chips)
Seat 3: Bob ($5.00 in chips)
Seat 5: Cy ($5.00 in chips)
Ann: posts the ante $0.01
Bob: posts the ante $0.01
Cy: posts the ante $0.01
*** 3rd STREET ***
Dealt to Ann [Kc]
Dealt to Bob [9d]
Dealt to Cy [3h]
Ann: brings in for $0.02
Bob: folds
Cy: raises $0.03 to $0.05
Ann: folds
Uncalled bet ($0.03) returned to Cy
Cy collected $0.07 from pot
*** SUMMARY ***
Total pot $0.07 | Rake $0.00

PokerStars Hand #250101003:  7 Card Stud Hi/Lo Limit ($0.05/$0.10 USD) - 2026/12/02 12:02:31 ET
Table 'Ursa II' 8-max
Seat 3: Bob ($5.00 in chips)
Seat 7: Dee ($5.00 in chips)
Bob: posts the ante $0.01
Dee: posts the ante $0.01
*** 3rd STREET ***
Dealt to Bob [2h]
Dealt to Dee [3d]
Bob: brings in for $0.02
Dee: raises $0.03 to $0.05
Bob: calls $0.03
*** 4th STREET ***
Dealt to Bob [2h] [Ks]
Dealt to Dee [3d] [4d]
Bob: bets $0.05
Dee: calls $0.05
*** 5th STREET ***
Dealt to Bob [2h Ks] [Qd]
Dealt to Dee [3d 4d] [5h]
Bob: bets $0.10
Dee: calls $0.10
*** 6th STREET ***
Dealt to Bob [2h Ks Qd] [Jd]
Dealt to Dee [3d 4d 5h] [9c]
Bob: checks
Dee: checks
*** RIVER ***
Bob: checks
Dee: checks
*** SHOW DOWN ***
Bob: shows [Kc Kd 2h Ks Qd Jd 8s]
Dee: shows [Ac 2c 3d 4d 5h 9c Tc]
Dee collected $0.42 from pot
*** SUMMARY ***
Total pot $0.42 | Rake $0.00
"""
