"""Small float32 matrix products whose output has few columns (a multiple of 8, at most
``SKINNY_MAX_N``), such as W3's [256, 64] x [64, 8]: OpenBLAS packs its operands and fills
its output with zeros before every product, which costs as much as the arithmetic at these
sizes. Here each block of 8 output columns is one AVX vector: 8 rows at a time keep 8
accumulators, each output element summing its products in k's order, one fused
multiply-add per step.

The loops are compiled for AVX2 and FMA (a function attribute: the rest of the package keeps
the baseline instruction set) and run only where the CPU has both (``have_skinny``); on
other machines and compilers the matrix product stays NumPy's.

Products too small for BLAS's own threads but big enough to share (``split_matmul``) are
cut into pieces of output columns (or rows) that the threads of ``dy_pool.h`` take in turn,
each piece one single-threaded call of the BLAS that NumPy uses, found in NumPy's library by
``cpu_linalg`` (``set_gemm``).
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


from cpython.pycapsule cimport PyCapsule_New


cdef extern from "dy_pool.h":
    ctypedef void (*dy_piece_fn)(void* ctx, int piece) noexcept nogil
    ctypedef struct dy_pool_api:
        pass
    const dy_pool_api dy_pool_exported
    int dy_pool_resize(int n) noexcept nogil
    int dy_pool_workers() noexcept nogil
    void dy_pool_run(dy_piece_fn fn, void* ctx, int pieces) noexcept nogil

# the pool for the other compiled modules (dy_pool_api.h)
POOL = PyCapsule_New(<void*>&dy_pool_exported, b"dygrad_accelerated._linalg.POOL", NULL)

cdef extern from *:
    """
    #include <stdint.h>
    /* cblas_?gemm with BLAS integers of 64 bits (NumPy's OpenBLAS) or 32 (the usual ABI) */
    typedef void (*dy_sgemm64_t)(int, int, int, int64_t, int64_t, int64_t, float,
                                 const float *, int64_t, const float *, int64_t, float,
                                 float *, int64_t);
    typedef void (*dy_dgemm64_t)(int, int, int, int64_t, int64_t, int64_t, double,
                                 const double *, int64_t, const double *, int64_t, double,
                                 double *, int64_t);
    typedef void (*dy_sgemm32_t)(int, int, int, int, int, int, float, const float *, int,
                                 const float *, int, float, float *, int);
    typedef void (*dy_dgemm32_t)(int, int, int, int, int, int, double, const double *, int,
                                 const double *, int, double, double *, int);
    static void *dy_gemm[2] = {NULL, NULL}; /* float32, float64 */
    static int dy_gemm_ilp64 = 0;
    enum { DY_ROW_MAJOR = 101, DY_NO_TRANS = 111, DY_TRANS = 112 };

    /* C = op(A) @ op(B), row-major, cut along n (columns of C) or along m (rows) */
    typedef struct {
        int f64, ta, tb, along_n;
        ptrdiff_t m, n, k, lda, ldb, ldc, step;
        const char *A, *B;
        char *C;
    } dy_gemm_job;

    static void dy_gemm_call(const dy_gemm_job *j, ptrdiff_t m, ptrdiff_t n, const char *A,
                             const char *B, char *C) {
        if (j->f64) {
            if (dy_gemm_ilp64)
                ((dy_dgemm64_t)dy_gemm[1])(DY_ROW_MAJOR, j->ta, j->tb, m, n, j->k, 1.0,
                    (const double *)A, j->lda, (const double *)B, j->ldb, 0.0, (double *)C, j->ldc);
            else
                ((dy_dgemm32_t)dy_gemm[1])(DY_ROW_MAJOR, j->ta, j->tb, (int)m, (int)n, (int)j->k,
                    1.0, (const double *)A, (int)j->lda, (const double *)B, (int)j->ldb, 0.0,
                    (double *)C, (int)j->ldc);
        } else {
            if (dy_gemm_ilp64)
                ((dy_sgemm64_t)dy_gemm[0])(DY_ROW_MAJOR, j->ta, j->tb, m, n, j->k, 1.0f,
                    (const float *)A, j->lda, (const float *)B, j->ldb, 0.0f, (float *)C, j->ldc);
            else
                ((dy_sgemm32_t)dy_gemm[0])(DY_ROW_MAJOR, j->ta, j->tb, (int)m, (int)n, (int)j->k,
                    1.0f, (const float *)A, (int)j->lda, (const float *)B, (int)j->ldb, 0.0f,
                    (float *)C, (int)j->ldc);
        }
    }

    static void dy_gemm_piece(void *ctx, int piece) {
        const dy_gemm_job *j = (const dy_gemm_job *)ctx;
        ptrdiff_t isz = j->f64 ? 8 : 4, lo = piece * j->step;
        ptrdiff_t hi = lo + j->step, end = j->along_n ? j->n : j->m;
        if (hi > end) hi = end;
        if (hi <= lo) return;
        if (j->along_n)
            dy_gemm_call(j, j->m, hi - lo, j->A,
                         j->B + (j->tb == DY_NO_TRANS ? lo : lo * j->ldb) * isz, j->C + lo * isz);
        else
            dy_gemm_call(j, hi - lo, j->n, j->A + (j->ta == DY_NO_TRANS ? lo * j->lda : lo) * isz,
                         j->B, j->C + lo * j->ldc * isz);
    }
    """
    void* dy_gemm[2]
    int dy_gemm_ilp64
    enum:
        DY_NO_TRANS
        DY_TRANS
    ctypedef struct dy_gemm_job:
        int f64, ta, tb, along_n
        Py_ssize_t m, n, k, lda, ldb, ldc, step
        const char* A
        const char* B
        char* C
    void dy_gemm_piece(void* ctx, int piece) noexcept nogil


def set_gemm(size_t sgemm, size_t dgemm, bint ilp64):
    """The addresses of the BLAS's ``cblas_sgemm`` and ``cblas_dgemm`` (0: none), and whether
    its integers have 64 bits."""
    global dy_gemm_ilp64
    dy_gemm[0] = <void*>sgemm
    dy_gemm[1] = <void*>dgemm
    dy_gemm_ilp64 = ilp64


def set_workers(int n):
    """n worker threads besides the caller's (0: none); returns how many run."""
    with nogil:
        n = dy_pool_resize(n)
    return n


def workers():
    return dy_pool_workers()


cdef bint _layout(cnp.ndarray a, Py_ssize_t rows, Py_ssize_t cols, Py_ssize_t isz,
                  int* trans, Py_ssize_t* ld):
    """The BLAS layout of a [rows, cols] operand: rows in order (no transpose) or columns in
    order (transposed), with its leading dimension; False for any other strides."""
    cdef Py_ssize_t s0 = a.strides[0], s1 = a.strides[1]
    if (s1 == isz or cols == 1) and s0 % isz == 0 and (s0 >= cols * isz or rows == 1):
        trans[0], ld[0] = DY_NO_TRANS, max(s0 // isz, cols, 1)
        return True
    if (s0 == isz or rows == 1) and s1 % isz == 0 and (s1 >= rows * isz or cols == 1):
        trans[0], ld[0] = DY_TRANS, max(s1 // isz, rows, 1)
        return True
    return False


def split_matmul(cnp.ndarray a, cnp.ndarray b, cnp.ndarray out, int pieces):
    """out = a @ b, cut into ``pieces`` pieces of out's columns (of its rows when it has
    fewer columns than rows) that the pool's threads and this one take in turn. a [m, k] and
    b [k, n] float32 or float64 (both the same) with rows or columns in order, out [m, n]
    C-contiguous of that dtype, m, n, k > 0. Returns False, doing nothing, when the BLAS or
    the layouts do not allow it (the caller checks the rest: ``cpu_linalg``)."""
    cdef dy_gemm_job j
    cdef Py_ssize_t isz = a.descr.itemsize, unit, size
    j.f64 = isz == 8
    if dy_gemm[j.f64] == NULL or not (_layout(a, a.shape[0], a.shape[1], isz, &j.ta, &j.lda)
                                     and _layout(b, b.shape[0], b.shape[1], isz, &j.tb, &j.ldb)):
        return False
    j.m, j.k, j.n, j.ldc = a.shape[0], a.shape[1], b.shape[1], b.shape[1]
    j.A = <const char*>cnp.PyArray_DATA(a)
    j.B = <const char*>cnp.PyArray_DATA(b)
    j.C = <char*>cnp.PyArray_DATA(out)
    j.along_n = j.n >= j.m
    size = j.n if j.along_n else j.m
    unit = 16  # BLAS's kernels work on blocks of 16 (float32) columns: cut at their edges
    pieces = max(1, min(pieces, (size + unit - 1) // unit))
    j.step = ((size + pieces - 1) // pieces + unit - 1) // unit * unit
    pieces = (size + j.step - 1) // j.step
    with nogil:
        dy_pool_run(dy_gemm_piece, &j, pieces)
    return True


cdef extern from *:
    """
    /* out [m, n] = a [m] (element stride sa) times b [n] (contiguous), row by row: the
       products of a gemm with k = 1, each element one multiplication as in BLAS's */
    #define DY_OUTER(T, name) \\
    static void name(const T *a, ptrdiff_t sa, const T *b, T *out, ptrdiff_t m, ptrdiff_t n) { \\
        for (ptrdiff_t i = 0; i < m; i++) { \\
            const T ai = a[i * sa]; \\
            T *o = out + i * n; \\
            for (ptrdiff_t j = 0; j < n; j++) o[j] = ai * b[j]; \\
        } \\
    }
    DY_OUTER(float, dy_outer_f)
    DY_OUTER(double, dy_outer_d)
    """
    void dy_outer_f(const float* a, Py_ssize_t sa, const float* b, float* out, Py_ssize_t m,
                    Py_ssize_t n) noexcept nogil
    void dy_outer_d(const double* a, Py_ssize_t sa, const double* b, double* out,
                    Py_ssize_t m, Py_ssize_t n) noexcept nogil


def outer(cnp.ndarray a, cnp.ndarray b, cnp.ndarray out):
    """out = a @ b for a [m, 1] (any stride along m, a multiple of the itemsize), b [1, n]
    C-contiguous and out [m, n] C-contiguous, all float32 or all float64: what a gemm with
    k = 1 computes, without BLAS packing the operands. The caller checks it all."""
    cdef Py_ssize_t m = a.shape[0], n = b.shape[1], isz = a.descr.itemsize
    cdef Py_ssize_t sa = a.strides[0] // isz
    with nogil:
        if isz == 8:
            dy_outer_d(<const double*>cnp.PyArray_DATA(a), sa,
                       <const double*>cnp.PyArray_DATA(b), <double*>cnp.PyArray_DATA(out), m, n)
        else:
            dy_outer_f(<const float*>cnp.PyArray_DATA(a), sa,
                       <const float*>cnp.PyArray_DATA(b), <float*>cnp.PyArray_DATA(out), m, n)
