#!/bin/sh
# Dumps the notes database and keeps the last 7 days of dumps.
set -eu
BACKUP_DIR=/var/backups/notes
KEEP_DAYS=7
mkdir -p "$BACKUP_DIR"
docker compose exec -T db pg_dump -U notes notes | gzip > "$BACKUP_DIR/notes-$(date +%F).sql.gz"
find "$BACKUP_DIR" -name 'notes-*.sql.gz' -mtime +"$KEEP_DAYS" -delete
