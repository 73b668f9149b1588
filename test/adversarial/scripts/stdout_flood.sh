# Hostile: endless lines on stdout.
yes "flood line"
