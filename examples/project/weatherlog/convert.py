"""Unit conversions for temperatures given in degrees Celsius."""


def to_fahrenheit(celsius):
    return celsius * 9 / 5 + 32


def to_kelvin(celsius):
    return celsius + 273.15
