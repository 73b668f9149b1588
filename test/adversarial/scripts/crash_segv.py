# Hostile: crashes with a segmentation fault.
import ctypes
ctypes.string_at(0)
