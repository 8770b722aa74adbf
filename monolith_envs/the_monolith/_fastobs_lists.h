/* Reading the plain-data state of The Monolith from C: lists of ints, checked, with named errors.
 * Included by _fastobs.c only (static functions; see there for the builder itself).
 *
 * Ints: plain ints and bools (also IntEnum codes) are read directly, numpy's C scalar types through their
 * index; anything else is a TypeError naming the field, so no Python code runs while a list is read.
 * Lists (or tuples) are read through their item arrays, borrowed, with every index checked.
 */
#ifndef THE_MONOLITH_FASTOBS_LISTS_H
#define THE_MONOLITH_FASTOBS_LISTS_H

#include <Python.h>
#include <limits.h>
#include <string.h>

static int numpy_scalar(PyObject *o) {
    const char *name = Py_TYPE(o)->tp_name;
    return !(Py_TYPE(o)->tp_flags & Py_TPFLAGS_HEAPTYPE) && strncmp(name, "numpy.", 6) == 0 &&
           strcmp(name, "numpy.ndarray") != 0;
}

static int to_long(PyObject *o, long *v, const char *what) {
    int overflow = 0;
    if (PyLong_Check(o)) {
        *v = PyLong_AsLongAndOverflow(o, &overflow);
    } else if (numpy_scalar(o) && strncmp(Py_TYPE(o)->tp_name + 6, "bool", 4) == 0) {
        int t = PyObject_IsTrue(o);
        if (t < 0) return -1;
        *v = t;
        return 0;
    } else if (numpy_scalar(o) && PyIndex_Check(o)) {
        PyObject *i = PyNumber_Index(o);
        if (!i) return -1;
        *v = PyLong_AsLongAndOverflow(i, &overflow);
        Py_DECREF(i);
    } else {
        PyErr_Format(PyExc_TypeError, "observation: %s holds %.80s, expected int", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    if (overflow || (*v == -1 && PyErr_Occurred())) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "observation: %s holds an int too large", what);
        return -1;
    }
    return 0;
}

typedef struct { PyObject **it; Py_ssize_t len; const char *name; } List;

static PyObject *EMPTY[1];

static int as_list(PyObject *o, List *l, const char *name) {
    l->name = name;
    if (PyList_Check(o)) {
        l->len = PyList_GET_SIZE(o);
        l->it = l->len ? ((PyListObject *)o)->ob_item : EMPTY;
        return 0;
    }
    if (PyTuple_Check(o)) {
        l->len = PyTuple_GET_SIZE(o);
        l->it = ((PyTupleObject *)o)->ob_item;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "observation: %s must be a list, not %.80s", name, Py_TYPE(o)->tp_name);
    return -1;
}

static int item(const List *l, Py_ssize_t i, long *v) {
    if (i >= l->len) {
        PyErr_Format(PyExc_IndexError, "observation: %s has %zd entries, needs more than %zd", l->name, l->len, i);
        return -1;
    }
    return to_long(l->it[i], v, l->name);
}

static int sublist(const List *l, Py_ssize_t i, List *out) {
    if (i >= l->len) {
        PyErr_Format(PyExc_IndexError, "observation: %s has %zd entries, needs more than %zd", l->name, l->len, i);
        return -1;
    }
    return as_list(l->it[i], out, l->name);
}

/* a value read from the state must lie in lo..hi-1 (a card, a space, a seat) */
static int in_range(long v, long lo, long hi, const char *what) {
    if (v < lo || v >= hi) {
        PyErr_Format(PyExc_ValueError, "observation: %s is %ld, outside %ld..%ld", what, v, lo, hi - 1);
        return -1;
    }
    return 0;
}


/* ---- the context's named ints and tables */
static int layout_int(PyObject *layout, const char *key, int *dst) {
    PyObject *v = PyDict_GetItemString(layout, key); /* borrowed */
    if (!v) {
        PyErr_Format(PyExc_KeyError, "make_context: the layout has no %s", key);
        return -1;
    }
    long x;
    if (to_long(v, &x, key) < 0) return -1;
    if (x < 0 || x > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "make_context: layout %s is %ld, expected a non-negative C int", key, x);
        return -1;
    }
    *dst = (int)x;
    return 0;
}

static int *table_ints(PyObject *tables, const char *key, int want) {
    PyObject *v = PyDict_GetItemString(tables, key); /* borrowed */
    if (!v) {
        PyErr_Format(PyExc_KeyError, "make_context: the tables have no %s", key);
        return NULL;
    }
    List l;
    if (as_list(v, &l, key) < 0) return NULL;
    if (l.len != want) {
        PyErr_Format(PyExc_ValueError, "make_context: table %s has %zd entries, expected %d", key, l.len, want);
        return NULL;
    }
    int *out = PyMem_Malloc(sizeof(int) * (want > 0 ? want : 1));
    if (!out) { PyErr_NoMemory(); return NULL; }
    for (int i = 0; i < want; i++) {
        long x;
        if (to_long(l.it[i], &x, key) < 0) { PyMem_Free(out); return NULL; }
        out[i] = (int)x;
    }
    return out;
}


#endif
