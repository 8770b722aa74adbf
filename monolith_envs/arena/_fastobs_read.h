/* Readers of the compiled Arena observation builder (_fastobs.c includes this file once, after the
 * Ctx type): lists and tuples read without conversion, ints and numpy scalars, the state and effects
 * fields through the instance dict (interned keys), and the capped float32 value. Every error names
 * the field (TypeError, IndexError, KeyError, ValueError).
 */
/* ---- sequence helpers: lists and tuples only, items read without conversion ---- */
static PyObject *EMPTY_ITEMS[1]; /* items of an empty list (whose ob_item is NULL) */

static PyObject **items_of(PyObject *o, Py_ssize_t *len, const char *what) {
    if (PyList_Check(o)) {
        *len = PyList_GET_SIZE(o);
        return *len ? ((PyListObject *)o)->ob_item : EMPTY_ITEMS;
    }
    if (PyTuple_Check(o)) { *len = PyTuple_GET_SIZE(o); return ((PyTupleObject *)o)->ob_item; }
    PyErr_Format(PyExc_TypeError, "observation: %s must be a list or tuple, not %.80s", what, Py_TYPE(o)->tp_name);
    return NULL;
}

/* The value of a small int (or bool) read straight from the object, without a call, when the object
 * is a compact int (every value the state holds); anything else goes through PyLong_AsLong. */
static inline int small_int(PyObject *o, long *v) {
#if PY_VERSION_HEX >= 0x030C0000
    if (PyLong_Check(o) && PyUnstable_Long_IsCompact((PyLongObject *)o)) {
        *v = (long)PyUnstable_Long_CompactValue((PyLongObject *)o);
        return 1;
    }
#else
    if (PyLong_Check(o)) {
        Py_ssize_t size = Py_SIZE(o);
        if (size == 0) { *v = 0; return 1; }
        if (size == 1) { *v = (long)((PyLongObject *)o)->ob_digit[0]; return 1; }
        if (size == -1) { *v = -(long)((PyLongObject *)o)->ob_digit[0]; return 1; }
    }
#endif
    return 0;
}

/* Values whose conversion cannot run Python code: ints (and bools) and numpy's scalar types, which are
 * defined in C (a Python subclass of them is a heap type with another name).  Anything else is refused,
 * so no Python code can run (and, say, resize a list whose items are being read) while an observation is
 * built.  Generic C-defined types are not enough: a weakref proxy, for one, forwards to Python code. */
static int numpy_scalar(PyObject *o) { /* not numpy.ndarray: a 0-d object array converts its element */
    const char *name = Py_TYPE(o)->tp_name;
    return !(Py_TYPE(o)->tp_flags & Py_TPFLAGS_HEAPTYPE) && strncmp(name, "numpy.", 6) == 0 &&
           strcmp(name, "numpy.ndarray") != 0;
}

static int numpy_bool(PyObject *o) { /* numpy.bool (numpy 2) or numpy.bool_ (numpy 1) */
    return numpy_scalar(o) && strncmp(Py_TYPE(o)->tp_name + 6, "bool", 4) == 0;
}

static int as_int_slow(PyObject *o, long *v, const char *what) {
    if (numpy_bool(o)) {
        int t = PyObject_IsTrue(o);
        if (t < 0) return -1;
        *v = t;
        return 0;
    }
    if (!PyLong_Check(o) && !(numpy_scalar(o) && PyIndex_Check(o))) {
        PyErr_Format(PyExc_TypeError, "observation: %s holds %.80s, expected int", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    long x = PyLong_AsLong(o);
    if (x == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "observation: %s holds a %.80s that is not a C long integer", what,
                         Py_TYPE(o)->tp_name);
        }
        return -1;
    }
    *v = x;
    return 0;
}

static inline int as_int(PyObject *o, long *v, const char *what) {
    if (small_int(o, v)) return 0;
    return as_int_slow(o, v, what);
}

typedef struct { PyObject **it; Py_ssize_t n; const char *name; } Seq;

static int seq(PyObject *o, Seq *s, const char *name) {
    s->name = name;
    s->it = items_of(o, &s->n, name);
    return s->it ? 0 : -1;
}

/* item i of s as a long; -1 and an exception on error (bounds checked) */
static inline int at(const Seq *s, long i, long *v) {
    if (i < 0 || i >= s->n) {
        PyErr_Format(PyExc_IndexError, "observation: index %ld outside %s (length %zd)", i, s->name, s->n);
        return -1;
    }
    return as_int(s->it[i], v, s->name);
}

static int sub_seq(const Seq *s, long i, Seq *out) {
    if (i < 0 || i >= s->n) {
        PyErr_Format(PyExc_IndexError, "observation: index %ld outside %s (length %zd)", i, s->name, s->n);
        return -1;
    }
    return seq(s->it[i], out, s->name);
}

/* the tile type of instance inst (an index into itype), checked to lie in 0..T-1 */
static int tile_type(const Seq *itype, long inst, int T, long *ty) {
    if (at(itype, inst, ty) < 0) return -1;
    if (*ty < 0 || *ty >= T) {
        PyErr_Format(PyExc_IndexError, "observation: instance %ld has type %ld outside 0..%d", inst, *ty, T - 1);
        return -1;
    }
    return 0;
}

/* ---- state attribute access through the instance dict (interned keys) ----
 * Each field is named once (X-macros): K_<name> indexes KNAMES / KEYS, F_<name> FNAMES / FKEYS. */
#define STATE_FIELDS(X) \
    X(itype) X(board) X(wounds) X(poison) X(used) X(net_marker_on) X(entrench_on) X(seg_hex) X(alive) \
    X(mono_folded) X(seg_content) X(seg_revealed) X(loc) X(fresh) X(hand) X(deck) X(discard) X(hp) X(factions) \
    X(turn_seat) X(first_turn_done) X(pool) X(sub_phase) X(acting_seat) X(discarded) X(uses) X(placed) \
    X(unfolded) X(exception_used) X(last_round) X(last_round_owed) X(b_active) X(b_phase) X(poison_supply) \
    X(decisions) X(p_effect) X(p_a) X(p_b) X(p_c) X(p_mode)
#define FX_FIELDS(X) \
    X(typ) X(fac) X(owner) X(occ) X(touched) X(tough) X(inits) X(netted) X(disarmed) X(melee_b) X(ranged_b)
#define AS_K(name) K_##name,
#define AS_F(name) F_##name,
#define AS_STR(name) #name,
enum { STATE_FIELDS(AS_K) NK };
static const char *KNAMES[NK] = { STATE_FIELDS(AS_STR) };
static PyObject *KEYS[NK];

enum { FX_FIELDS(AS_F) NF };
static const char *FNAMES[NF] = { FX_FIELDS(AS_STR) };
static PyObject *FKEYS[NF];

static PyObject *field(PyObject *d, int k) {
    PyObject *v = PyDict_GetItemWithError(d, KEYS[k]);
    if (!v && !PyErr_Occurred())
        PyErr_Format(PyExc_AttributeError, "observation: the state has no field %s", KNAMES[k]);
    return v; /* borrowed */
}

static int field_int(PyObject *d, int k, long *v) {
    PyObject *o = field(d, k);
    if (!o) return -1;
    return as_int(o, v, KNAMES[k]);
}

static int field_seq(PyObject *d, int k, Seq *s) {
    PyObject *o = field(d, k);
    if (!o) return -1;
    return seq(o, s, KNAMES[k]);
}

static int truth(PyObject *o, const char *what) { /* 1, 0, or -1 on error; values as in as_int */
    long v;
    if (as_int(o, &v, what) < 0) return -1;
    return v != 0;
}

static int field_true(PyObject *d, int k) { /* 1, 0, or -1 on error */
    PyObject *o = field(d, k);
    if (!o) return -1;
    return truth(o, KNAMES[k]);
}

static double field_double(PyObject *d, int k, int *err) {
    PyObject *o = field(d, k);
    if (!o) { *err = 1; return 0.0; }
    PyNumberMethods *nb = Py_TYPE(o)->tp_as_number;
    if (!PyFloat_Check(o) && !PyLong_Check(o) && !(numpy_scalar(o) && nb && (nb->nb_float || nb->nb_index))) {
        PyErr_Format(PyExc_TypeError, "observation: %s holds %.80s, expected a number", KNAMES[k],
                     Py_TYPE(o)->tp_name);
        *err = 1;
        return 0.0;
    }
    double x = PyFloat_AsDouble(o);
    if (x == -1.0 && PyErr_Occurred()) { *err = 1; return 0.0; }
    return x;
}

#define TRY(x) do { if ((x) < 0) goto fail; } while (0)

static float clip1(double x) { return (float)(x < 1.0 ? x : 1.0); }
