from src.shop import cart_total


def test_total():
    assert cart_total(["apple", "milk"]) == 1.6
