# Hostile: 100 MB on stderr without a single newline.
import sys
chunk = "e" * 65536
for _ in range(1600):
    sys.stderr.write(chunk)
