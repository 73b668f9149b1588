# Hostile: one byte every 100 ms for ever (never trips the output cap, only the clock).
while :; do printf .; sleep 0.1; done
