# Hostile: 100 MB of lines on stdout.
import sys
line = "x" * 99 + "\n"
for _ in range(1_000_000):
    sys.stdout.write(line)
