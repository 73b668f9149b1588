# Hostile: four children of 48 MiB each, each under the limit alone, over it together.
import os, time
for _ in range(4):
    if os.fork() == 0:
        data = bytearray(48 * 1024 * 1024)
        for i in range(0, len(data), 4096):
            data[i] = 1
        time.sleep(60)
        os._exit(0)
time.sleep(60)
