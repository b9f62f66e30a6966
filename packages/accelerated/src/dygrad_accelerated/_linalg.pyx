"""Small float32 matrix products whose output has few columns (a multiple of 8, at most
``SKINNY_MAX_N``), such as W3's [256, 64] x [64, 8]: OpenBLAS packs its operands and fills
its output with zeros before every product, which costs as much as the arithmetic at these
sizes. Here each block of 8 output columns is one AVX vector: 8 rows at a time keep 8
accumulators, each output element summing its products in k's order, one fused
multiply-add per step.

The loops are compiled for AVX2 and FMA (a function attribute: the rest of the package keeps
the baseline instruction set) and run only where the CPU has both (``have_skinny``); on
other machines and compilers the matrix product stays NumPy's.
"""

cimport numpy as cnp

cnp.import_array()

cdef extern from *:
    """
    #include <stddef.h>
    #if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
    #include <immintrin.h>
    #define DY_SKINNY 1
    static int dy_have_skinny(void) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    }
    /* C [m, n] = A [m, k] (element strides sam, sak) times B [k, n] (C-contiguous);
       n a multiple of 8; C C-contiguous */
    __attribute__((target("avx2,fma")))
    static void dy_sgemm_skinny(const float *A, ptrdiff_t sam, ptrdiff_t sak, const float *B,
                                float *C, ptrdiff_t m, ptrdiff_t k, ptrdiff_t n) {
        ptrdiff_t v, i, p;
        for (v = 0; v < n; v += 8) {
            const float *b = B + v;
            for (i = 0; i + 8 <= m; i += 8) {
                __m256 c0 = _mm256_setzero_ps(), c1 = c0, c2 = c0, c3 = c0;
                __m256 c4 = c0, c5 = c0, c6 = c0, c7 = c0;
                const float *a = A + i * sam;
                for (p = 0; p < k; p++) {
                    __m256 bp = _mm256_loadu_ps(b + p * n);
                    const float *ap = a + p * sak;
                    c0 = _mm256_fmadd_ps(_mm256_broadcast_ss(ap), bp, c0);
                    c1 = _mm256_fmadd_ps(_mm256_broadcast_ss(ap + sam), bp, c1);
                    c2 = _mm256_fmadd_ps(_mm256_broadcast_ss(ap + 2 * sam), bp, c2);
                    c3 = _mm256_fmadd_ps(_mm256_broadcast_ss(ap + 3 * sam), bp, c3);
                    c4 = _mm256_fmadd_ps(_mm256_broadcast_ss(ap + 4 * sam), bp, c4);
                    c5 = _mm256_fmadd_ps(_mm256_broadcast_ss(ap + 5 * sam), bp, c5);
                    c6 = _mm256_fmadd_ps(_mm256_broadcast_ss(ap + 6 * sam), bp, c6);
                    c7 = _mm256_fmadd_ps(_mm256_broadcast_ss(ap + 7 * sam), bp, c7);
                }
                float *c = C + i * n + v;
                _mm256_storeu_ps(c, c0);
                _mm256_storeu_ps(c + n, c1);
                _mm256_storeu_ps(c + 2 * n, c2);
                _mm256_storeu_ps(c + 3 * n, c3);
                _mm256_storeu_ps(c + 4 * n, c4);
                _mm256_storeu_ps(c + 5 * n, c5);
                _mm256_storeu_ps(c + 6 * n, c6);
                _mm256_storeu_ps(c + 7 * n, c7);
            }
            for (; i < m; i++) {  /* the last m % 8 rows, one at a time */
                __m256 c0 = _mm256_setzero_ps();
                const float *a = A + i * sam;
                for (p = 0; p < k; p++)
                    c0 = _mm256_fmadd_ps(_mm256_broadcast_ss(a + p * sak),
                                         _mm256_loadu_ps(b + p * n), c0);
                _mm256_storeu_ps(C + i * n + v, c0);
            }
        }
    }
    #else
    #define DY_SKINNY 0
    static int dy_have_skinny(void) { return 0; }
    static void dy_sgemm_skinny(const float *A, ptrdiff_t sam, ptrdiff_t sak, const float *B,
                                float *C, ptrdiff_t m, ptrdiff_t k, ptrdiff_t n) {
        (void)A; (void)sam; (void)sak; (void)B; (void)C; (void)m; (void)k; (void)n;
    }
    #endif
    """
    int dy_have_skinny() noexcept nogil
    void dy_sgemm_skinny(const float* A, Py_ssize_t sam, Py_ssize_t sak, const float* B,
                         float* C, Py_ssize_t m, Py_ssize_t k, Py_ssize_t n) noexcept nogil


def have_skinny():
    """Whether this build and this CPU run ``sgemm_skinny`` (x86-64 with AVX2 and FMA)."""
    return bool(dy_have_skinny())


def sgemm_skinny(cnp.ndarray a, cnp.ndarray b, cnp.ndarray out):
    """out = a @ b for float32 a [m, k] (any strides, multiples of 4 bytes), b [k, n] and out
    [m, n] C-contiguous, n a multiple of 8. The caller checks all of it (``cpu_linalg``)."""
    cdef Py_ssize_t m = a.shape[0], k = a.shape[1], n = b.shape[1]
    cdef Py_ssize_t sam = a.strides[0] // 4, sak = a.strides[1] // 4
    cdef const float* pa = <const float*>cnp.PyArray_DATA(a)
    cdef const float* pb = <const float*>cnp.PyArray_DATA(b)
    cdef float* pc = <float*>cnp.PyArray_DATA(out)
    with nogil:
        dy_sgemm_skinny(pa, sam, sak, pb, pc, m, k, n)
