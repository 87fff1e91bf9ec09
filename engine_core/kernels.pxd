# cython: language_level=3
"""Timing kernels for the benchmark scripts (see kernels.pyx); they export no
C-level functions: other modules never use them."""
