"""Scoring result lines against their scenarios: the card's rules as pure functions.

    from scoring import score
    verdict = score(scenario, result_line)      # Verdict(passed, checks); verdict.issues
"""

from scoring.language import LanguageCheck, LanguageJudgement, default_language_check
from scoring.score import expected_for, score
from scoring.verdict import CHECK_KINDS, Check, CheckKind, Verdict

__all__ = [
    "CHECK_KINDS", "Check", "CheckKind", "LanguageCheck", "LanguageJudgement", "Verdict",
    "default_language_check", "expected_for", "score",
]
