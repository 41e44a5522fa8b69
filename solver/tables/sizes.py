"""The sizes a stored table's file is laid out by: the leaf that the store,
which writes the files, and the plans, which size them first, share."""

HEADER_ROOM = 64 << 10          # layered files: header space reserved before the data
FLOAT32_BYTES = 2 << 30         # layered tables larger than this (as float64) are float32
CHECKPOINT_BYTES = 256 << 20    # larger dense solves work in a file on disk, resumable
