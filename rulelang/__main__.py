"""`python -m rulelang`: the same as the `rulelang` command."""
from rulelang.cli import main

raise SystemExit(main())
