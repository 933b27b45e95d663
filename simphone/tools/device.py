"""get_device_status and set_device_setting: the phone's state and its switches."""

from __future__ import annotations

from typing import Any

from orvena_bench.formats.textmatch import fold
from simphone.errors import ToolError
from simphone.phone import Phone
from simphone.times import argument_time, show_datetime
from simphone.units import number

_SWITCHES = {"wifi": "Wi-Fi", "bluetooth": "Bluetooth", "flashlight": "Flashlight",
             "lowPower": "Low Power Mode", "airplaneMode": "Airplane Mode", "darkMode": "Dark Mode"}
_ON = {"on", "true", "1", "yes", "enable", "enabled", "activate"}
_OFF = {"off", "false", "0", "no", "disable", "disabled", "deactivate"}
_FOCUS_NAMES = {"do-not-disturb": "Do Not Disturb", "sleep": "Sleep", "work": "Work",
                "personal": "Personal", "driving": "Driving", "fitness": "Fitness"}
# What models write for a focus mode, folded, to the mode.
_FOCUS_ALIASES = {"dnd": "do-not-disturb", "do not disturb": "do-not-disturb",
                  "donotdisturb": "do-not-disturb", "do_not_disturb": "do-not-disturb",
                  "on": "do-not-disturb", "true": "do-not-disturb"}


def _focus_now(phone: Phone) -> str:
    device = phone.device
    if device.focus == "off" or (device.focusUntil is not None and device.focusUntil <= phone.now):
        return "off"
    until = f" until {show_datetime(device.focusUntil)}" if device.focusUntil else ""
    return f"{_FOCUS_NAMES[device.focus]}{until}"


def _network(phone: Phone) -> str:
    device = phone.device
    if device.airplaneMode or device.network == "none":
        return "no connection" + (" (airplane mode)" if device.airplaneMode else "")
    if device.network == "wifi":
        return f"Wi-Fi {device.wifiName}" if device.wifiName else "Wi-Fi"
    return f"cellular ({device.carrier})" if device.carrier else "cellular"


def onoff(flag: bool) -> str:
    return "on" if flag else "off"


def get_device_status(phone: Phone, args: dict[str, Any]) -> str:
    d = phone.device
    free = d.storage.totalGB - d.storage.usedGB
    denied = sorted(p for p, state in d.permissions.items() if state == "denied")
    return "\n".join([
        f"battery: {d.battery}% ({'charging' if d.charging else 'not charging'})",
        f"storage: {number(d.storage.usedGB)} GB of {number(d.storage.totalGB)} GB used "
        f"({number(free)} GB free)",
        f"network: {_network(phone)}",
        f"Wi-Fi: {onoff(d.wifi)}, Bluetooth: {onoff(d.bluetooth)}, Airplane Mode: {onoff(d.airplaneMode)}",
        f"focus: {_focus_now(phone)}",
        f"brightness: {d.brightness}%, volume: {d.volume}%",
        f"flashlight: {onoff(d.flashlight)}, Low Power Mode: {onoff(d.lowPower)}, "
        f"Dark Mode: {onoff(d.darkMode)}",
        "permissions: " + (f"denied for {', '.join(denied)}; all others granted" if denied
                           else "all granted"),
    ])


def _switch(value: Any, setting: str) -> bool:
    if isinstance(value, bool):
        return value
    text = fold(str(value).strip())
    if text in _ON:
        return True
    if text in _OFF:
        return False
    raise ToolError(f"value for {setting}: expected on or off, got {value!r}")


def _level(value: Any, setting: str) -> int:
    text = str(value).strip().rstrip("%").strip()
    if isinstance(value, bool) or not text.lstrip("-").isdigit() or not 0 <= int(text) <= 100:
        raise ToolError(f"value for {setting}: expected a number from 0 to 100, got {value!r}")
    return int(text)


def _focus(value: Any) -> str:
    if value is False:
        return "off"
    text = fold(str(value).strip())
    mode = _FOCUS_ALIASES.get(text) or _FOCUS_ALIASES.get(text.replace("-", " ")) or text
    if mode in _OFF:
        return "off"
    if mode not in _FOCUS_NAMES:
        raise ToolError("value for focus: expected do-not-disturb, sleep, work, personal, driving, "
                        f"fitness or off, got {value!r}")
    return mode


def set_device_setting(phone: Phone, args: dict[str, Any]) -> str:
    setting, value, device = args["setting"], args["value"], phone.device
    if args.get("until") and setting != "focus":
        raise ToolError("until applies only to focus")
    if setting == "focus":
        mode = _focus(value)
        until = argument_time(args["until"], phone.clock, "until") if args.get("until") else None
        if until is not None and until <= phone.now:
            raise ToolError(f"until {args['until']} is in the past (now is {show_datetime(phone.now)})")
        device.focus, device.focusUntil = mode, (until if mode != "off" else None)
        return f"Focus: {_focus_now(phone)}."
    if setting in ("brightness", "volume"):
        setattr(device, setting, _level(value, setting))
        return f"{setting.capitalize()} set to {getattr(device, setting)}%."
    on = _switch(value, setting)
    setattr(device, setting, on)
    # The network follows the radios, as on the phone.
    if setting == "airplaneMode":
        device.network = "none" if on else ("wifi" if device.wifi else "cellular")
    elif setting == "wifi" and not device.airplaneMode:
        device.network = "wifi" if on else "cellular"
    extra = f" (network: {_network(phone)})" if setting in ("wifi", "airplaneMode") else ""
    return f"{_SWITCHES[setting]} is now {'on' if on else 'off'}{extra}."


TOOLS = {"get_device_status": get_device_status, "set_device_setting": set_device_setting}
