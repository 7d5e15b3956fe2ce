import logging

from celery import shared_task

from .models import Item

log = logging.getLogger(__name__)


@shared_task
def send_expiry_alerts():
    soon = [item for item in Item.objects.exclude(expires_on=None) if item.expires_soon()]
    for item in soon:
        log.warning("%s expires on %s", item.name, item.expires_on)
    return len(soon)
