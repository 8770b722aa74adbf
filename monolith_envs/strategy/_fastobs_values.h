/* Value readers and writers of the compiled Strategy observation builder (_fastobs.c, which includes this
 * file once, after Python.h): ints, lists and record dicts read straight from the plain-data state, the
 * interned state field and record key names, the capped float32 writer, and the make_context readers.
 * Every error names the field (TypeError, IndexError, KeyError, AttributeError, ValueError).
 */
/* ------------------------------------------------------------------ reading Python values */
/* An int (or bool) read without a call when it is a small int; numpy integer and bool scalars (defined in
 * C, so no Python code runs) through PyNumber_Index / PyObject_IsTrue; anything else is a TypeError. */
static int is_numpy_scalar(PyObject *o) {
    const char *name = Py_TYPE(o)->tp_name;
    return !(Py_TYPE(o)->tp_flags & Py_TPFLAGS_HEAPTYPE) && strncmp(name, "numpy.", 6) == 0 &&
           strcmp(name, "numpy.ndarray") != 0;
}

static int to_long(PyObject *o, long *v, const char *what) {
    if (PyLong_Check(o)) {
#if PY_VERSION_HEX >= 0x030C0000
        if (PyUnstable_Long_IsCompact((PyLongObject *)o)) {
            *v = (long)PyUnstable_Long_CompactValue((PyLongObject *)o);
            return 0;
        }
#else
        Py_ssize_t sz = Py_SIZE(o);
        if (sz == 0) { *v = 0; return 0; }
        if (sz == 1) { *v = (long)((PyLongObject *)o)->ob_digit[0]; return 0; }
        if (sz == -1) { *v = -(long)((PyLongObject *)o)->ob_digit[0]; return 0; }
#endif
        long x = PyLong_AsLong(o);
        if (x == -1 && PyErr_Occurred()) return -1;
        *v = x;
        return 0;
    }
    if (is_numpy_scalar(o)) {
        if (strncmp(Py_TYPE(o)->tp_name + 6, "bool", 4) == 0) {
            int t = PyObject_IsTrue(o);
            if (t < 0) return -1;
            *v = t;
            return 0;
        }
        if (PyIndex_Check(o)) {
            PyObject *i = PyNumber_Index(o);
            if (!i) return -1;
            long x = PyLong_AsLong(i);
            Py_DECREF(i);
            if (x == -1 && PyErr_Occurred()) return -1;
            *v = x;
            return 0;
        }
    }
    PyErr_Format(PyExc_TypeError, "observation: %s holds %.80s, expected int", what, Py_TYPE(o)->tp_name);
    return -1;
}

#define FASTSEQ_WHAT "observation"
#include "_fastseq.h"

static int sub(const Seq *s, long i, Seq *out) {
    if (i < 0 || i >= s->n) return bad_index(s, i);
    return as_seq(s->it[i], out, s->name);
}

/* sum of the ints of s */
static int total(const Seq *s, long *sum) {
    long t = 0, x;
    for (Py_ssize_t i = 0; i < s->n; i++) {
        if (to_long(s->it[i], &x, s->name) < 0) return -1;
        t += x;
    }
    *sum = t;
    return 0;
}

/* interned names: state fields (F_*) and record keys (R_*) */
#define STATE_FIELDS(X) \
    X(round) X(phase) X(pending) X(primus) X(primus_locked) X(source_gems) X(skill_deck) X(power_deck) \
    X(rune_deck) X(skill_discard) X(power_discard) X(pp_gone) X(turn) X(board) X(rc_pos) X(rc_side) X(rc_round) \
    X(sock_seat) X(sock_face) X(blocked) X(priv) X(vp) X(gems) X(hand) X(cast) X(pool) X(src_dice) X(aside) \
    X(guard) X(chase) X(reveal)
#define RECORD_KEYS(X) \
    X(k) X(seat) X(rem) X(purpose) X(stone) X(src) X(src_face) X(face) X(from_sid) X(owed) X(cands) X(target) \
    X(marked) X(player) X(left) X(socketed) X(mandatory_done) X(stack_ready) X(card) X(revealed) X(occ)
#define AS_F(name) F_##name,
#define AS_R(name) R_##name,
#define AS_STR(name) #name,
enum { STATE_FIELDS(AS_F) NF };
enum { RECORD_KEYS(AS_R) NR };
static const char *FNAMES[NF] = { STATE_FIELDS(AS_STR) };
static const char *RNAMES[NR] = { RECORD_KEYS(AS_STR) };
static PyObject *FKEYS[NF], *RKEYS[NR], *S_TOLL, *S_COST, *S_REVEAL, *S_A, *S_B;

static PyObject *field(PyObject *d, int f) {
    PyObject *v = PyDict_GetItemWithError(d, FKEYS[f]);
    if (!v && !PyErr_Occurred())
        PyErr_Format(PyExc_AttributeError, "observation: the state has no field %s", FNAMES[f]);
    return v; /* borrowed */
}

static int field_long(PyObject *d, int f, long *v) {
    PyObject *o = field(d, f);
    return o ? to_long(o, v, FNAMES[f]) : -1;
}

static int field_seq(PyObject *d, int f, Seq *s) {
    PyObject *o = field(d, f);
    return o ? as_seq(o, s, FNAMES[f]) : -1;
}

/* record (a dict) value of key r: borrowed, or NULL (no error) when missing */
static PyObject *rget(PyObject *rec, int r) { return PyDict_GetItemWithError(rec, RKEYS[r]); }

static PyObject *rneed(PyObject *rec, int r, const char *what) {
    PyObject *v = PyDict_GetItemWithError(rec, RKEYS[r]);
    if (!v && !PyErr_Occurred()) PyErr_Format(PyExc_KeyError, "observation: %s has no key %s", what, RNAMES[r]);
    return v;
}

static int rlong(PyObject *rec, int r, long *v, const char *what) {
    PyObject *o = rneed(rec, r, what);
    return o ? to_long(o, v, RNAMES[r]) : -1;
}

static int as_record(PyObject *o, const char *what) {
    if (PyDict_Check(o)) return 0;
    PyErr_Format(PyExc_TypeError, "observation: %s must be a dict, not %.80s", what, Py_TYPE(o)->tp_name);
    return -1;
}

/* ------------------------------------------------------------------ writing */
typedef struct { float *o; long size; } Out;

static int put(const Out *out, long i, double x, const char *what) {
    if (i < 0 || i >= out->size) {
        PyErr_Format(PyExc_IndexError, "observation: %s writes index %ld outside 0..%ld", what, i, out->size - 1);
        return -1;
    }
    out->o[i] = (float)(x < 1.0 ? x : 1.0);
    return 0;
}

#define TRY(x) do { if ((x) < 0) goto fail; } while (0)

/* ------------------------------------------------------------------ make_context */
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

static int read_longs(PyObject *o, long **dst, Py_ssize_t want, int *count, const char *what) {
    Seq t;
    if (as_seq(o, &t, what) < 0) return -1;
    if (want >= 0 && t.n != want) {
        PyErr_Format(PyExc_ValueError, "make_context: %s has %zd items, expected %zd", what, t.n, want);
        return -1;
    }
    if (count) *count = (int)t.n;
    *dst = PyMem_Malloc(sizeof(long) * (t.n ? t.n : 1));
    if (!*dst) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < t.n; i++)
        if (to_long(t.it[i], &(*dst)[i], what) < 0) return -1;
    return 0;
}

static int read_ints(PyObject *o, int **dst, Py_ssize_t want, const char *what) {
    long *tmp = NULL;
    if (read_longs(o, &tmp, want, NULL, what) < 0) { PyMem_Free(tmp); return -1; }
    *dst = PyMem_Malloc(sizeof(int) * (want ? want : 1));
    if (!*dst) { PyMem_Free(tmp); PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < want; i++) (*dst)[i] = (int)tmp[i];
    PyMem_Free(tmp);
    return 0;
}
