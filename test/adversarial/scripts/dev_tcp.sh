# Hostile: bash /dev/tcp to a host service and to the internet.
if exec 3<>"/dev/tcp/127.0.0.1/$1"; then echo "CONNECTED local"; else echo "blocked local"; fi
if exec 4<>/dev/tcp/1.1.1.1/80; then echo "CONNECTED internet"; else echo "blocked internet"; fi
