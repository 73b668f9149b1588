# Hostile: writes every byte value and invalid UTF-8 sequences.
import sys
sys.stdout.buffer.write(bytes(range(256)) + b"\xff\xfe\xc3\x28 invalid \xe2\x82 end\n")
sys.stderr.buffer.write(b"\x80\x81 err\n")
