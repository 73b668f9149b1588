# Hostile: a setsid'ed, nohup'ed background job that outlives the script.
setsid nohup sh -c "sleep 1.5; echo daemon survived > '$1'; sleep 60" >/dev/null 2>&1 < /dev/null &
echo "parent done"
