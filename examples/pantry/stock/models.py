from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone


class Category(models.TextChoices):
    CANNED = "canned", "Canned goods"
    DRY = "dry", "Dry goods"
    FRESH = "fresh", "Fresh produce"
    HYGIENE = "hygiene", "Hygiene"


class Item(models.Model):
    name = models.CharField(max_length=120)
    category = models.CharField(max_length=16, choices=Category.choices, default=Category.DRY)
    quantity = models.PositiveIntegerField(default=0)
    expires_on = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    @property
    def low_on_stock(self):
        return self.quantity < settings.LOW_STOCK_THRESHOLD

    def expires_soon(self, today=None):
        today = today or timezone.localdate()
        if self.expires_on is None:
            return False
        return self.expires_on - today <= timedelta(days=settings.EXPIRY_WARNING_DAYS)


class Donation(models.Model):
    item = models.ForeignKey(Item, on_delete=models.CASCADE, related_name="donations")
    donor = models.CharField(max_length=80, blank=True)
    quantity = models.PositiveIntegerField()
    received_at = models.DateTimeField(auto_now_add=True)

    def save(self, *args, **kwargs):
        super().save(*args, **kwargs)
        Item.objects.filter(pk=self.item_id).update(quantity=models.F("quantity") + self.quantity)
