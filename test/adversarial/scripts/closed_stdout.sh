# Hostile: closes stdout and stderr, then sleeps.
exec >&- 2>&-
sleep 60
