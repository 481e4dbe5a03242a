"""The package's version, in a leaf module so that any layer can read it without importing the public API."""
__version__ = "0.1.0"
