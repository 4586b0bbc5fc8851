"""What every engine runs on: the resumable slice loop with its limits (``driver``; the stop
signals it answers are ``cpkit.signals``'), the timed JIT warm-up (``jit``) and the bit
intrinsics of the kernels (``bits``)."""
