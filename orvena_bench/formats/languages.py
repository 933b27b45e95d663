"""The bench's languages and categories."""

from __future__ import annotations

# The 30 languages of the bench, in the card's order.
LANGUAGES: tuple[str, ...] = (
    "da", "de", "en", "es", "fr", "it", "ja", "ko", "nl", "pt", "sv", "tr", "vi", "uk", "ru",
    "bg", "sl", "hr", "lv", "lt", "pl", "et", "fi", "id", "hi", "ar", "cs", "el", "hu", "ro",
)

# The 13 languages Apple's on-device model supports (the card's Results table).
APPLE_LANGUAGES: tuple[str, ...] = (
    "da", "de", "en", "es", "fr", "it", "ja", "ko", "nl", "pt", "sv", "tr", "vi",
)

CATEGORIES: tuple[str, ...] = (
    "calendar", "reminders", "alarms", "scheduled", "weather", "places", "travel", "contacts",
    "health", "photos", "files", "web", "media", "device", "chain", "recovery", "followup",
    "no-tool", "unsupported", "mcp",
)

# In these categories a failing expected call still counts (card: "Expected calls count only when
# they succeeded, except in recovery and unsupported scenarios").
FAILURE_TOLERANT_CATEGORIES: frozenset[str] = frozenset({"recovery", "unsupported"})

# Loader tools: never need to be listed in expectations.
LOADER_TOOLS: frozenset[str] = frozenset({"load_skills", "load_tools", "load_connectors"})

