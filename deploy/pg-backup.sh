#!/usr/bin/env bash
# PostgreSQL backup of the app's database: one pg_dump (custom format, compressed) per run into
# BACKUP_DIR, checked with pg_restore --list, older than BACKUP_KEEP_DAYS removed.
#   DATABASE_URL=postgres://… BACKUP_DIR=/var/backups/closing-signing deploy/pg-backup.sh
# Prints the path of the new dump. Document files are in the dump unless S3_BUCKET is set (then back
# up the bucket too: enable versioning on it). See docs/deploy.md, "Backups and restore".
set -euo pipefail
umask 077

: "${DATABASE_URL:?DATABASE_URL is not set}"
BACKUP_DIR="${BACKUP_DIR:-/var/backups/closing-signing}"
BACKUP_KEEP_DAYS="${BACKUP_KEEP_DAYS:-14}"

mkdir -p "$BACKUP_DIR"
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
final="$BACKUP_DIR/closing-signing-$stamp.dump"
partial="$final.partial"
trap 'rm -f "$partial"' EXIT

# A consistent snapshot without blocking the app (pg_dump runs in one repeatable-read transaction).
pg_dump --dbname="$DATABASE_URL" --format=custom --compress=6 --no-owner --no-acl --file="$partial"
# A dump that pg_restore cannot list is not a backup.
pg_restore --list "$partial" >/dev/null
mv "$partial" "$final"
trap - EXIT

find "$BACKUP_DIR" -maxdepth 1 -name 'closing-signing-*.dump' -type f -mtime "+$BACKUP_KEEP_DAYS" -print -delete \
  | sed 's/^/removed old backup: /' >&2
echo "$final"
