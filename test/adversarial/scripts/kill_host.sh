# Hostile: kills a host process by pid and then everything it can reach.
kill -9 "$1" 2>/dev/null && echo "KILLED $1" || echo "blocked $1"
kill -9 -1 2>/dev/null
echo "still here"
