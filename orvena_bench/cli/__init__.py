"""The ``orvena-bench`` command line."""
