# Hostile: 100 MB of NUL bytes on stderr, no newline.
head -c 100000000 /dev/zero >&2
