# Hostile: double fork + setsid daemon that writes a file after its parent has returned.
import os, sys, time
marker = sys.argv[1]
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for fd in (0, 1, 2):
            os.close(fd)
        time.sleep(1.5)
        with open(marker, "w") as handle:
            handle.write("daemon survived\n")
        time.sleep(60)
    os._exit(0)
print("parent done", flush=True)
