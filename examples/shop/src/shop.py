"""A tiny shop: prices and a cart."""

PRICES = {"apple": 0.5, "bread": 2.25, "milk": 1.1}


def price_of(item):
    return PRICES[item]


def cart_total(items):
    total = 0
    for item in items:
        total += price_of(item)
    return round(total, 2)
