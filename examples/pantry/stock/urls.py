from rest_framework.routers import DefaultRouter

from .views import DonationViewSet, ItemViewSet

router = DefaultRouter()
router.register("items", ItemViewSet)
router.register("donations", DonationViewSet)

urlpatterns = router.urls
