"""Units in results: data is metric; results follow the locale's measurement system.

Babel does not expose CLDR's measurement data (supplemental measurementData and
unitPreferences), so the few territories that differ are listed here.
"""

from __future__ import annotations

from dataclasses import dataclass

from babel import Locale

# CLDR unitPreferences: temperature in Fahrenheit.
_FAHRENHEIT = frozenset({"US", "BS", "BZ", "KY", "PR", "PW", "LR"})
# CLDR measurementData (US, LR, MM) and unitPreferences for road distance (GB): miles.
_MILES = frozenset({"US", "LR", "MM", "GB", "PR"})
# Body weight in pounds.
_POUNDS = frozenset({"US", "LR", "MM", "PR"})


def number(value: float, digits: int = 1) -> str:
    """A number with a dot for decimals and no grouping: 8412, 7.5, 14."""
    rounded = round(value, digits)
    return str(int(rounded)) if rounded == int(rounded) else f"{rounded:.{digits}f}".rstrip("0")


@dataclass(frozen=True)
class Units:
    fahrenheit: bool = False
    miles: bool = False
    pounds: bool = False

    @classmethod
    def for_locale(cls, locale: str) -> Units:
        territory = Locale.parse(locale.replace("-", "_")).territory or ""
        return cls(territory in _FAHRENHEIT, territory in _MILES, territory in _POUNDS)

    def temperature(self, celsius: float) -> str:
        # Fahrenheit locales also get Celsius, so data written in °C stays visible.
        if self.fahrenheit:
            return f"{number(celsius * 9 / 5 + 32, 0)} °F ({number(celsius)} °C)"
        return f"{number(celsius)} °C"

    def distance(self, km: float) -> str:
        if self.miles:
            miles = km / 1.609344
            return f"{number(miles, 2 if miles < 0.1 else 1)} mi"
        return f"{number(km * 1000, -1 if km >= 0.1 else 0)} m" if km < 1 else f"{number(km)} km"

    def speed(self, kmh: float) -> str:
        return f"{number(kmh / 1.609344, 0)} mph" if self.miles else f"{number(kmh, 0)} km/h"

    def weight(self, kg: float) -> str:
        return f"{number(kg * 2.2046226)} lb" if self.pounds else f"{number(kg)} kg"
