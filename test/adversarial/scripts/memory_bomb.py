# Hostile: grows a list of 1 MiB buffers for ever.
chunks = []
while True:
    chunks.append(bytearray(1 << 20))
