# Hostile: writes 100 MB into the workspace (RLIMIT_FSIZE must stop it).
import sys
with open(sys.argv[1], "wb") as handle:
    for _ in range(100):
        handle.write(b"\0" * (1 << 20))
        handle.flush()
