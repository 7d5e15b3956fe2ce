import os

from celery import Celery
from celery.schedules import crontab

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pantry.settings")

app = Celery("pantry")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

app.conf.beat_schedule = {
    "expiry-alerts": {
        "task": "stock.tasks.send_expiry_alerts",
        "schedule": crontab(hour=7, minute=30),
    },
}
