# Hostile: ignores SIGTERM, SIGINT and SIGHUP in a busy loop.
trap '' TERM INT HUP
while :; do :; done
