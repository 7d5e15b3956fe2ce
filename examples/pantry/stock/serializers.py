from rest_framework import serializers

from .models import Donation, Item


class ItemSerializer(serializers.ModelSerializer):
    low_on_stock = serializers.BooleanField(read_only=True)

    class Meta:
        model = Item
        fields = ["id", "name", "category", "quantity", "expires_on", "low_on_stock"]


class DonationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Donation
        fields = ["id", "item", "donor", "quantity", "received_at"]
