"""Scenario-set validation: well-formed (static checks) and solvable (the reference agent through
the real loop)."""
