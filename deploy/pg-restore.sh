#!/usr/bin/env bash
# Restores a dump made by deploy/pg-backup.sh into a database.
#   deploy/pg-restore.sh <file.dump> [target-url]      (target defaults to DATABASE_URL)
# The target must exist and be empty (createdb …), unless --force is given: then the dump's tables
# replace the ones there (stop the app's services first). All in one transaction: a failed restore
# leaves the target as it was. See docs/deploy.md, "Backups and restore".
set -euo pipefail

force=0
args=()
for arg in "$@"; do
  case "$arg" in
    --force) force=1 ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) args+=("$arg") ;;
  esac
done
dump="${args[0]:-}"
target="${args[1]:-${DATABASE_URL:-}}"
[[ -n "$dump" && -r "$dump" ]] || { echo "pg-restore: no readable dump file given" >&2; exit 2; }
[[ -n "$target" ]] || { echo "pg-restore: no target (second argument or DATABASE_URL)" >&2; exit 2; }

pg_restore --list "$dump" >/dev/null

tables="$(psql "$target" -XAtq -v ON_ERROR_STOP=1 -c \
  "select count(*) from pg_tables where schemaname not in ('pg_catalog', 'information_schema')")"
if [[ "$tables" != "0" && "$force" != "1" ]]; then
  echo "pg-restore: the target database already has $tables tables; restore into an empty database, or pass --force to replace them" >&2
  exit 1
fi

clean=()
[[ "$force" == "1" ]] && clean=(--clean --if-exists)
pg_restore --dbname="$target" --no-owner --no-acl --single-transaction --exit-on-error "${clean[@]}" "$dump"
echo "restored $dump" >&2
