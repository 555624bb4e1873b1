"""oasis-postgres: an OASIS environment provider on a real PostgreSQL server, the Database
Operations profile's behavior evaluators, and the demo agents ``pg:careful`` / ``pg:naive``.

oasis-eval finds it through entry points only (``pyproject.toml``); it imports nothing of
oasis-eval but the contract, the spec model and the behavior-plugin API.
"""

__version__ = "0.1.0"
