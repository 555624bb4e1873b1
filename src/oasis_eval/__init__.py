"""oasis-eval: an implementation of OASIS, the Open Assessment Standard for Intelligent Systems."""

__version__ = "0.1.0"
IMPLEMENTATION_NAME = "oasis-eval"
