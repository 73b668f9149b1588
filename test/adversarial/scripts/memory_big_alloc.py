# Hostile: one 8 GiB allocation, touched page by page.
block = bytearray(8 * 1024 ** 3)
for i in range(0, len(block), 4096):
    block[i] = 1
