"""The implementation's name and version, as written into every verdict (05 §1 ``metadata``).

Kept in its own module so that any layer can read it without importing the public API
façade in ``oasis_eval/__init__.py`` (which sits on top of every layer).
"""

__version__ = "0.1.0"
IMPLEMENTATION_NAME = "oasis-eval"
