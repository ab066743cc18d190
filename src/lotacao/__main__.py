"""`python -m lotacao …` runs the same command-line interface as `lotacao …`."""

from lotacao.cli import main

raise SystemExit(main())
