# Hostile: dies by SIGKILL sent to itself.
echo "about to die"
kill -9 $$
