"""The games through research libraries: OpenSpiel (`trapworks.adapters.openspiel`), PettingZoo
(`trapworks.adapters.pettingzoo`) and Gymnasium (`trapworks.adapters.gymnasium`).

Each adapter imports its library, so install the extra first: `pip install trapworks[research]`.
The adapters decide no rule: they translate the kernel (trapworks.core) into each library's terms.
"""
