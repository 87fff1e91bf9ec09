# cython: language_level=3
"""The few C operations that differ between compilers, behind one name each.

gcc and clang (Linux, macOS, MinGW) use their builtins and POSIX
``clock_gettime``; MSVC (Windows wheels) has none of them, so it gets a
bit-twiddling popcount (correct on any x64 or ARM64 CPU, unlike ``__popcnt64``,
which needs the POPCNT instruction), ``_BitScanForward64``, volatile accesses
for the stop flag and ``QueryPerformanceCounter``.  The results are the same
on every compiler; only the instructions differ.
"""

cdef extern from *:
    """
    #ifndef C6_PORTABLE_H
    #define C6_PORTABLE_H
    #if defined(_MSC_VER) && !defined(__clang__)
    #include <intrin.h>
    #ifndef WIN32_LEAN_AND_MEAN
    #define WIN32_LEAN_AND_MEAN
    #endif
    #include <windows.h>
    static __inline int c6_popcount64(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    static __inline int c6_ctz64(unsigned long long x) {  /* x != 0 */
        unsigned long i;
        _BitScanForward64(&i, x);
        return (int)i;
    }
    static __inline int c6_flag_get(int* p) { return *(volatile int*)p; }
    static __inline void c6_flag_set(int* p, int v) { *(volatile int*)p = v; }
    static __inline double c6_now(void) {
        LARGE_INTEGER count, freq;
        QueryPerformanceCounter(&count);
        QueryPerformanceFrequency(&freq);
        return (double)count.QuadPart / (double)freq.QuadPart;
    }
    #else
    #include <time.h>
    #define c6_popcount64(x) __builtin_popcountll(x)
    #define c6_ctz64(x) __builtin_ctzll(x)
    static inline int c6_flag_get(int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void c6_flag_set(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    static inline double c6_now(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec + ts.tv_nsec * 1e-9;
    }
    #endif
    #endif
    """
    int popcount64 "c6_popcount64"(unsigned long long x) nogil   # set bits of x
    int ctz64 "c6_ctz64"(unsigned long long x) nogil             # index of the lowest set bit; x != 0
    int flag_get "c6_flag_get"(int* p) nogil          # a flag another thread may set (relaxed load)
    void flag_set "c6_flag_set"(int* p, int v) nogil  # relaxed store
    double monotonic_now "c6_now"() nogil             # seconds on a monotonic clock
