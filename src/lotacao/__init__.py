"""Lotação: regulation of complementary passenger transport for Brazilian agencies.

This package must stay importable without Django: `lotacao.law` and `lotacao.cli`
(the `lotacao evaluate` command) are pure Python.
"""

__version__ = "0.1.0"
