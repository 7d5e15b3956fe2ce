"""marten — a small webhook relay.

Inbound webhooks arrive on ``POST /hooks/{source}``; marten checks their
signature, drops duplicates it has already seen, and fans each payload out to
the destinations listed for that source in the routes file.
"""

__version__ = "0.7.3"

__all__ = ["__version__"]
