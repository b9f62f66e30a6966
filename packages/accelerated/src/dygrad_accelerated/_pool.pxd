# The pool of threads of _linalg (dy_pool.h) for the other compiled modules (dy_pool_api.h).

cdef extern from "dy_pool_api.h":
    ctypedef void (*dy_piece_fn)(void* ctx, int piece) noexcept nogil
    ctypedef struct dy_pool_api:
        void (*run)(dy_piece_fn fn, void* ctx, int pieces) noexcept nogil
        int (*workers)() noexcept nogil
    const dy_pool_api* dy_pool_import() except NULL
