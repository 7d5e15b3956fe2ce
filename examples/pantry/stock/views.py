from rest_framework import viewsets

from .models import Donation, Item
from .serializers import DonationSerializer, ItemSerializer


class ItemViewSet(viewsets.ModelViewSet):
    queryset = Item.objects.all()
    serializer_class = ItemSerializer


class DonationViewSet(viewsets.ModelViewSet):
    queryset = Donation.objects.select_related("item")
    serializer_class = DonationSerializer
