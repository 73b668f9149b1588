# Hostile: spins for ever.
while True:
    pass
