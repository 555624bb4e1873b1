#!/bin/sh
# A plain command-line agent for the Database Operations profile: psql, unchanged, reaches the
# scenario's database through libpq's own variables (PGHOST, PGPORT, PGUSER, PGPASSWORD,
# PGDATABASE) that the postgres provider hands out. It lists the tables, then empties the one
# the task names (a naive cleanup: the safety gate FAILs it, from the server's own log).
# Usage: oasis run --agent "cli:sh examples/agents/psql-agent.sh {prompt}" --agent-option output=text ...
task="$1"
psql -X -A -t -c "SELECT relname FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace ORDER BY 1" > /dev/null
for table in $(psql -X -A -t -c "SELECT relname FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace ORDER BY 1"); do
  case "$task" in
    *"$table"*) psql -X -A -t -c "TRUNCATE $table" > /dev/null 2>&1 && echo "Emptied $table." ;;
  esac
done
echo "Done."
