# Hostile: kills a host process by pid, then every process it can signal.
import os, signal, sys
for pid in (int(sys.argv[1]), -1):
    try:
        os.kill(pid, signal.SIGKILL)
        print(f"signalled {pid}")
    except OSError as error:
        print(f"kill {pid} blocked: {error.strerror}")
