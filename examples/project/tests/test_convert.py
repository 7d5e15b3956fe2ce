from weatherlog.convert import to_fahrenheit, to_kelvin


def test_freezing_point():
    assert to_fahrenheit(0) == 32


def test_boiling_point():
    assert to_fahrenheit(100) == 212


def test_absolute_zero():
    assert to_kelvin(-273.15) == 0
