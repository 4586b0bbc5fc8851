"""What every engine runs on: the resumable slice loop with its limits and stop signals
(``driver``), the timed JIT warm-up (``jit``) and the bit intrinsics of the kernels (``bits``)."""
