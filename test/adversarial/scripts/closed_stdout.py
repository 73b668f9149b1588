# Hostile: closes stdout and stderr, then sleeps (the runner must not wait for EOF alone).
import os, time
os.close(1)
os.close(2)
time.sleep(60)
