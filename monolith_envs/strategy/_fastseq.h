/* Lists and tuples read in place by the compiled Strategy builders (_fastobs.c through _fastobs_values.h,
 * and _fastmask.c): Seq views a list's or tuple's items without a copy, as_seq checks the type, at reads an
 * int with its index checked, read_sockets reads a socket-requirement table of the context.  The including
 * file defines FASTSEQ_WHAT (the message prefix, e.g. "observation") and to_long(o, &v, what), and includes
 * <string.h>, before including it.  Errors name the field: TypeError for a value
 * that is not a list or tuple, IndexError for an index outside it.
 */
#ifndef FASTSEQ_WHAT
#error "define FASTSEQ_WHAT (the message prefix) before including _fastseq.h"
#endif

typedef struct { PyObject **it; Py_ssize_t n; const char *name; } Seq;
static PyObject *NO_ITEMS[1];

static int as_seq(PyObject *o, Seq *s, const char *name) {
    s->name = name;
    if (PyList_Check(o)) {
        s->n = PyList_GET_SIZE(o);
        s->it = s->n ? ((PyListObject *)o)->ob_item : NO_ITEMS;
        return 0;
    }
    if (PyTuple_Check(o)) { s->n = PyTuple_GET_SIZE(o); s->it = ((PyTupleObject *)o)->ob_item; return 0; }
    PyErr_Format(PyExc_TypeError, FASTSEQ_WHAT ": %s must be a list or tuple, not %.80s", name,
                 Py_TYPE(o)->tp_name);
    return -1;
}

static int bad_index(const Seq *s, long i) {
    PyErr_Format(PyExc_IndexError, FASTSEQ_WHAT ": index %ld outside %s (length %zd)", i, s->name, s->n);
    return -1;
}

static inline int at(const Seq *s, long i, long *v) {
    if (i < 0 || i >= s->n) return bad_index(s, i);
    return to_long(s->it[i], v, s->name);
}

/* make_context: table[i] (lists of at most 4 requirements 0-6) into a new dst[i * 4 + j], -1 past the end;
 * *count = len(table).  ValueError for a longer row or a requirement outside 0-6. */
static int read_sockets(PyObject *o, signed char **dst, int *count, const char *what) {
    Seq t;
    if (as_seq(o, &t, what) < 0) return -1;
    *count = (int)t.n;
    *dst = PyMem_Malloc(4 * (t.n ? t.n : 1));
    if (!*dst) { PyErr_NoMemory(); return -1; }
    memset(*dst, -1, 4 * (t.n ? t.n : 1));
    for (Py_ssize_t i = 0; i < t.n; i++) {
        Seq row;
        if (as_seq(t.it[i], &row, what) < 0) return -1;
        if (row.n > 4) { PyErr_Format(PyExc_ValueError, "make_context: %s[%zd] has %zd sockets (at most 4)", what, i, row.n); return -1; }
        for (Py_ssize_t j = 0; j < row.n; j++) {
            long r;
            if (to_long(row.it[j], &r, what) < 0) return -1;
            if (r < 0 || r > 6) { PyErr_Format(PyExc_ValueError, "make_context: %s[%zd] requirement %ld", what, i, r); return -1; }
            (*dst)[i * 4 + j] = (signed char)r;
        }
    }
    return 0;
}
