"""`python -m rulelang`: the same as the `rulelang` command."""
try:
    from .cli import main
except KeyboardInterrupt:            # (Ctrl-C while the modules load: no traceback — a designer's trial)
    raise SystemExit(130) from None

raise SystemExit(main())
