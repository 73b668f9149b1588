# Hostile: spins for ever.
while :; do :; done
