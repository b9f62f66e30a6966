/* dy_pool_api.h: the pool of dy_pool.h as the other compiled modules reach it. The pool is
   one per process, in ``_linalg``; a module that cuts work into pieces gets its functions
   from the capsule ``_linalg.POOL`` (``dy_pool_import``, once, with the GIL). */
#ifndef DY_POOL_API_H
#define DY_POOL_API_H

#include <Python.h>

typedef void (*dy_piece_fn)(void *ctx, int piece);

typedef struct {
    /* fn(ctx, i) for i in [0, pieces), shared with the workers; returns when all are done */
    void (*run)(dy_piece_fn fn, void *ctx, int pieces);
    /* the number of workers besides the caller (0: the caller runs every piece) */
    int (*workers)(void);
} dy_pool_api;

#define DY_POOL_CAPSULE "dygrad_accelerated._linalg.POOL"

/* The pool's functions, or NULL with a Python error set. */
static const dy_pool_api *dy_pool_import(void) {
    PyObject *mod = PyImport_ImportModule("dygrad_accelerated._linalg");
    if (mod == NULL) return NULL;
    PyObject *cap = PyObject_GetAttrString(mod, "POOL");
    Py_DECREF(mod);
    if (cap == NULL) return NULL;
    const dy_pool_api *api = (const dy_pool_api *)PyCapsule_GetPointer(cap, DY_POOL_CAPSULE);
    Py_DECREF(cap);
    return api;
}

#endif /* DY_POOL_API_H */
