"""`python -m rulelang`: the same as the `rulelang` command."""
from .cli import main

raise SystemExit(main())
