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
    int dy_pool_jobs() noexcept nogil
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


# the state the products read: the counts from ``threads.py``, the rest from ``cpu_linalg``
cdef int _threads = 1         # dygrad.set_num_threads' count
cdef int _pool_for = 0        # the count the pool was last sized for (0: no worker started)
cdef bint _blas_one = False   # BLAS is known to run on one thread now
cdef Py_ssize_t _split_min = 1 << 18, _blas_min = 1 << 24
cdef int _pieces_per_thread = 2
cdef object _other = None     # cpu_linalg's product, for what ``product`` declines


def configure(Py_ssize_t split_min, Py_ssize_t blas_min, int pieces_per_thread, other):
    """The range of products the pool shares (multiply-adds), the pieces per thread, and the
    product for what ``product`` declines (``cpu_linalg``)."""
    global _split_min, _blas_min, _pieces_per_thread, _other
    _split_min, _blas_min, _pieces_per_thread, _other = split_min, blas_min, pieces_per_thread, other


def set_threads(int n):
    """dygrad.set_num_threads' count (``threads.py``): a pool already started is resized now,
    else at its first product."""
    global _threads
    _threads = max(n, 1)
    if _pool_for and _pool_for != _threads:
        _pool_size()


def note_blas(int n):
    """BLAS runs n threads from now on (``threads.blas``)."""
    global _blas_one
    _blas_one = n == 1


cdef int _pool_size() noexcept:
    global _pool_for
    cdef int n = _threads - 1
    if _pool_for != _threads:
        with nogil:
            dy_pool_resize(n)
        _pool_for = _threads
    return dy_pool_workers() + 1


def pool_threads():
    """The threads that share a product's pieces (this one too): the pool has ``threads - 1``
    workers, started at the first product that asks after a change of the count."""
    return _pool_size()


def workers():
    """The pool's workers now."""
    return dy_pool_workers()


def jobs():
    """How many jobs the pool has run (modulo 2^24): a product it shared is one."""
    return dy_pool_jobs()


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


cdef object _gemm(a, b):
    """a @ b into a new C-contiguous array by one call of NumPy's cblas_?gemm, or by the
    pool's threads in pieces when there are several threads and it has SPLIT_MIN to
    BLAS_MIN multiply-adds; None (nothing done) unless a and b are 2-D float32 or float64
    arrays of one dtype whose rows or columns are in order, every size at least 2, below
    BLAS_MIN multiply-adds, BLAS found and known to run on one thread."""
    cdef dy_gemm_job j
    cdef cnp.ndarray x, y, out
    cdef cnp.npy_intp dims[2]
    cdef int type_num, pieces = 1
    cdef Py_ssize_t isz, size, unit = 16
    if not (_blas_one and type(a) is cnp.ndarray and type(b) is cnp.ndarray):
        return None
    x, y = <cnp.ndarray>a, <cnp.ndarray>b
    type_num = cnp.PyArray_TYPE(x)
    if (cnp.PyArray_NDIM(x) != 2 or cnp.PyArray_NDIM(y) != 2 or cnp.PyArray_TYPE(y) != type_num
            or (type_num != cnp.NPY_FLOAT32 and type_num != cnp.NPY_FLOAT64)):
        return None
    j.m, j.k, j.n = x.shape[0], x.shape[1], y.shape[1]
    if y.shape[0] != j.k or j.m < 2 or j.k < 2 or j.n < 2 or j.m * j.k * j.n >= _blas_min:
        return None
    j.f64 = type_num == cnp.NPY_FLOAT64
    isz = 8 if j.f64 else 4
    if dy_gemm[j.f64] == NULL or not (_layout(x, j.m, j.k, isz, &j.ta, &j.lda)
                                     and _layout(y, j.k, j.n, isz, &j.tb, &j.ldb)):
        return None
    dims[0], dims[1] = j.m, j.n
    out = cnp.PyArray_EMPTY(2, dims, type_num, 0)
    j.ldc = j.n
    j.A = <const char*>cnp.PyArray_DATA(x)
    j.B = <const char*>cnp.PyArray_DATA(y)
    j.C = <char*>cnp.PyArray_DATA(out)
    j.along_n = j.n >= j.m
    size = j.n if j.along_n else j.m
    if _threads > 1 and j.m * j.k * j.n >= _split_min:
        pieces = _pieces_per_thread * _pool_size()
        # BLAS's kernels work on blocks of 16 (float32) columns: cut at their edges
        pieces = max(1, min(pieces, (size + unit - 1) // unit))
    j.step = ((size + pieces - 1) // pieces + unit - 1) // unit * unit
    pieces = (size + j.step - 1) // j.step
    with nogil:
        if pieces > 1:
            dy_pool_run(dy_gemm_piece, &j, pieces)
        else:
            dy_gemm_piece(&j, 0)
    return out


def gemm(a, b):
    """a @ b by NumPy's cblas_?gemm called directly (shared among the threads from SPLIT_MIN
    multiply-adds), or None when ``_gemm`` declines the operands."""
    return _gemm(a, b)


def product(a, b):
    """a @ b of 2-D arrays as np.matmul computes it: ``gemm``'s, else the ``other`` product
    ``configure`` gave (cpu_linalg's: thin products, BLAS's threads, NumPy)."""
    out = _gemm(a, b)
    return _other(a, b) if out is None else out


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
