"""The rules engine: the laws of the packs as data, evaluated without a database.

Pure Python: nothing here imports Django. Entry points:

- :func:`lotacao.law.packs.get_pack` loads (strictly) and caches one law's pack;
- :func:`lotacao.law.evaluate.evaluate_case` answers one case of the JSON contract.
"""
