/* Compiled scalar draw of monolith_envs/core/chance.py's ChanceRecorder (ARCHITECTURE §2, chance).
 *
 * A die roll through the recorder is ``Generator.integers(low, high)`` (default dtype int64, ``high``
 * exclusive) plus its chance event.  numpy's scalar path costs about 1.3 us of argument handling around a
 * few nanoseconds of drawing; this module makes the same draw from the generator's bit generator directly:
 * numpy's ``random_bounded_uint64_fill`` for one value of a range below 2**32, which is Lemire's bounded
 * method on ``next_uint32`` (numpy/random/src/distributions/distributions.c), holding the generator's lock
 * as ``Generator.integers`` does.  ``rng.integers`` is the reference: tests/strategy/test_fastchance.py
 * compares both, value by value, over many seeds, bit generators and ranges (with draws of the other
 * calls in between) and at every decision of seeded Strategy games.
 *
 *   record_integers(capsule, acquire, release, low, high, events, step, text, event_cls) -> int or None
 *     capsule: ``rng.bit_generator.capsule`` (the bit generator's ``bitgen_t``); acquire / release: the
 *     bound ``acquire`` / ``release`` of ``rng.bit_generator.lock``; low < high: the draw
 *     ``integers(low, high)``; events: the list that gets ``event_cls(step, "integers", text, value)``
 *     (a tuple subclass of four items: the recorder's ChanceEvent).
 *     Returns the drawn value as an int, or None with nothing drawn and nothing recorded when this path
 *     does not cover the call (a range of 2**32 values or more, bounds outside int64, low >= high, the lock
 *     held elsewhere): the caller then draws through ``rng.integers``.
 *
 * Errors: TypeError for arguments of the wrong type (the message names the argument).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

/* numpy/random/bitgen.h (a stable layout since numpy 1.17) */
typedef struct bitgen {
    void *state;
    uint64_t (*next_uint64)(void *st);
    uint32_t (*next_uint32)(void *st);
    double (*next_double)(void *st);
    uint64_t (*next_raw)(void *st);
} bitgen_t;

static PyObject *INTEGERS;  /* the interned "integers" */

/* numpy's buffered_bounded_lemire_uint32 (rng < 0xFFFFFFFF): a value in 0 .. rng */
static uint32_t bounded_lemire_uint32(bitgen_t *bg, uint32_t rng) {
    const uint32_t rng_excl = rng + 1;
    uint64_t m = ((uint64_t)bg->next_uint32(bg->state)) * rng_excl;
    uint32_t leftover = (uint32_t)(m & 0xFFFFFFFFUL);
    if (leftover < rng_excl) {
        const uint32_t threshold = (UINT32_MAX - rng) % rng_excl;
        while (leftover < threshold) {
            m = ((uint64_t)bg->next_uint32(bg->state)) * rng_excl;
            leftover = (uint32_t)(m & 0xFFFFFFFFUL);
        }
    }
    return (uint32_t)(m >> 32);
}

static PyObject *record_integers(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "record_integers: expected 9 arguments (capsule, acquire, release, low, "
                                         "high, events, step, text, event_cls)");
        return NULL;
    }
    PyObject *cap = args[0], *acquire = args[1], *release = args[2], *events = args[5], *step = args[6],
             *text = args[7], *cls = args[8];
    if (!PyList_Check(events)) {
        PyErr_SetString(PyExc_TypeError, "record_integers: events must be a list");
        return NULL;
    }
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "record_integers: event_cls must be a tuple subclass");
        return NULL;
    }
    if (!PyLong_Check(args[3]) || !PyLong_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError, "record_integers: low and high must be ints");
        return NULL;
    }
    int overflow = 0;
    long long low = PyLong_AsLongLongAndOverflow(args[3], &overflow);
    if (overflow || (low == -1 && PyErr_Occurred())) { PyErr_Clear(); Py_RETURN_NONE; }
    long long high = PyLong_AsLongLongAndOverflow(args[4], &overflow);
    if (overflow || (high == -1 && PyErr_Occurred())) { PyErr_Clear(); Py_RETURN_NONE; }
    if (low >= high) Py_RETURN_NONE;  /* numpy raises: its own path gives its own error */
    uint64_t rng = (uint64_t)high - (uint64_t)low - 1;  /* high - 1 - low, the closed range of numpy */
    if (rng >= 0xFFFFFFFFULL) Py_RETURN_NONE;
    bitgen_t *bg = (bitgen_t *)PyCapsule_GetPointer(cap, "BitGenerator");
    if (!bg) return NULL;
    uint64_t off = (uint64_t)low, out;
    if (rng == 0) {
        out = off;  /* numpy returns low without a draw */
    } else {
        PyObject *got = PyObject_CallOneArg(acquire, Py_False);
        if (!got) return NULL;
        int held = PyObject_IsTrue(got);
        Py_DECREF(got);
        if (held < 0) return NULL;
        if (!held) Py_RETURN_NONE;
        out = off + bounded_lemire_uint32(bg, (uint32_t)rng);
        PyObject *r = PyObject_CallNoArgs(release);
        if (!r) return NULL;
        Py_DECREF(r);
    }
    PyObject *value = PyLong_FromLongLong((long long)out);
    if (!value) return NULL;
    PyObject *ev = ((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, 4);  /* what tuple.__new__ does */
    if (!ev) { Py_DECREF(value); return NULL; }
    Py_INCREF(step); Py_INCREF(INTEGERS); Py_INCREF(text); Py_INCREF(value);
    PyTuple_SET_ITEM(ev, 0, step);
    PyTuple_SET_ITEM(ev, 1, INTEGERS);
    PyTuple_SET_ITEM(ev, 2, text);
    PyTuple_SET_ITEM(ev, 3, value);
    int bad = PyList_Append(events, ev);
    Py_DECREF(ev);
    if (bad) { Py_DECREF(value); return NULL; }
    return value;
}

static PyMethodDef methods[] = {
    {"record_integers", (PyCFunction)(void (*)(void))record_integers, METH_FASTCALL,
     "record_integers(capsule, acquire, release, low, high, events, step, text, event_cls) -> int or None"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, "_fastchance",
    "Compiled scalar integers() draw of the chance recorder (monolith_envs/core/chance.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__fastchance(void) {
    INTEGERS = PyUnicode_InternFromString("integers");
    if (!INTEGERS) return NULL;
    return PyModule_Create(&moddef);
}
