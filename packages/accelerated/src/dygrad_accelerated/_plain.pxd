# What the one-call entry points (_nn.relu_array, _loss.squared_error_array) take.

cimport numpy as cnp


cdef inline bint plain(x, int* kind) noexcept:
    """Whether x is an ndarray (exactly) of native float32 or float64, C-contiguous and
    aligned; its type number in kind."""
    if type(x) is not cnp.ndarray:
        return False
    cdef cnp.ndarray a = <cnp.ndarray>x
    kind[0] = cnp.PyArray_TYPE(a)
    return ((kind[0] == cnp.NPY_FLOAT or kind[0] == cnp.NPY_DOUBLE)
            and cnp.PyArray_ISCARRAY_RO(a) and cnp.PyArray_ISNOTSWAPPED(a))
