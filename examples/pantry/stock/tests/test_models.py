from datetime import date

import pytest

from stock.models import Donation, Item


@pytest.mark.django_db
def test_donation_adds_to_quantity():
    item = Item.objects.create(name="Rice", quantity=2)
    Donation.objects.create(item=item, quantity=10)
    item.refresh_from_db()
    assert item.quantity == 12


def test_low_on_stock_below_threshold():
    assert Item(name="Beans", quantity=4).low_on_stock
    assert not Item(name="Beans", quantity=5).low_on_stock


def test_expires_soon_within_warning_days():
    item = Item(name="Milk", expires_on=date(2024, 5, 4))
    assert item.expires_soon(today=date(2024, 5, 1))
    assert not item.expires_soon(today=date(2024, 4, 20))
