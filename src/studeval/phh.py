"""The PHH format's reader and writer under the name it has always had:
``studeval.phh`` is :mod:`studeval.histories.phh`, the same module (PHH lives beside
the card rooms' readers, as one more kind of hand history).

>>> import studeval.histories.phh
>>> import studeval.phh
>>> studeval.phh is studeval.histories.phh
True
"""

import sys

from studeval.histories import phh as _phh
from studeval.histories.phh import *  # noqa: F403 - for type checkers; the module is replaced
from studeval.histories.phh import __all__ as __all__

sys.modules[__name__] = _phh
