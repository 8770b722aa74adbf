/* Compiled observation builder of Monolith Arena (docs/monolith_arena.md §7).
 *
 * The same observation as monolith_envs/arena/observe.py (Observer.observe_python), value for value: the
 * Python implementation is the reference and tests/arena/test_fastobs.py compares both at every step of
 * seeded games in every configuration.  It reads the plain-data state (Python lists of ints) and the
 * continuous-effects object directly, so nothing is converted to arrays first.
 *
 *   make_context(static_rows, layout, tough, melee, ranged, melee_dirs, ranged_dirs, fac_hp, team, team_hp)
 *       -> capsule
 *     layout: a dict of named ints (Observer.layout_ints builds it from the ObsSpec): the piece offsets
 *     ("hands", "seats", ...), the start of every sub-field within a row ("hex.netted", "seats.hp",
 *     "scalars.uses", "monolith.hidden", ...), the row width, size and first-axis stride of each piece
 *     ("seats.row", "sub_phase.size", "hands.stride", ...), the sizes T, H, W, n, size, the flags module,
 *     reinf, teams, max_decisions, the tile instances per seat per_seat, max_initiative (the last
 *     activations slot), the location code loc_board and the static row of an empty hex, empty_row.
 *     Each is read once, here, by the name CTX_INTS below gives it (no sub-offset is written into this
 *     file); a missing one is a KeyError naming it, a negative one a ValueError.
 *   observe(context, state, fx, p, omniscient, out) -> None     (out: writable float32 buffer of zeros)
 *
 * Errors: TypeError for a state field that is not a list/tuple of ints, IndexError for an index outside
 * its list, ValueError for a buffer of the wrong size; the message names the field.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <string.h>

#define MAXT 1024

typedef struct {
    int T, H, W, n, size, nfac;
    int module, reinf, teams, max_decisions;
    double team_hp;
    int per_seat, max_initiative, loc_board, empty_row;
    /* hex-row fields, within a row */
    int h_wounds, h_tough, h_poison, h_netted, h_net_marker, h_disarmed, h_entrenched, h_used, h_acts;
    int h_melee, h_ranged, h_armor, h_no_seg, h_seg_owner, h_segment;
    /* piece offsets, their rows (width of the last axis), first-axis strides and sizes */
    int a_hands, a_unseen, a_mono, a_seats, a_sub, a_acting, a_turn, a_scalars, a_peff, a_phex, a_pmode;
    int hands_stride, hands_row, unseen_row, mono_stride, mono_row, seats_row, phex_row;
    int n_sub, n_peff, n_modes;
    /* fields of the rows of hands, monolith and seats, within a row */
    int hd_type, hd_fresh, mo_type, mo_empty, mo_hidden, mo_on_board;
    int st_alive, st_hp, st_deck, st_hand, st_discard, st_ally, st_folded, st_unrevealed, st_turn_seat, st_done;
    /* scalars and config fields, within the piece */
    int sc_discarded, sc_uses, sc_placed, sc_unfolded, sc_exception_used, sc_use_cap, sc_last_round;
    int sc_last_round_owed, sc_battle, sc_battle_phase, sc_poison_supply, sc_net_marker_free, sc_entrench_free;
    int sc_decisions, a_config, cf_module, cf_reinf, cf_teams;
    Py_buffer stat;      /* float32[(T + 1) * 24, W], held for the context's lifetime (shared, not copied) */
    int *tough;          /* [T] printed toughness */
    int *melee, *ranged; /* [T * 36]: (t * 6 + f) * 6 + d */
    unsigned char *mdirs, *rdirs; /* [T * 6] bit d set when d is in melee_dirs[t][f] / ranged_dirs[t][f] */
    int *fac_hp;         /* [nfac] */
    int team[4];
} Ctx;

static void ctx_free(PyObject *cap) {
    Ctx *c = (Ctx *)PyCapsule_GetPointer(cap, "monolith_arena_obs_ctx");
    if (!c) return;
    if (c->stat.obj) PyBuffer_Release(&c->stat);
    PyMem_Free(c->tough); PyMem_Free(c->melee); PyMem_Free(c->ranged);
    PyMem_Free(c->mdirs); PyMem_Free(c->rdirs); PyMem_Free(c->fac_hp);
    PyMem_Free(c);
}

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

/* ------------------------------------------------------------------ make_context */
static int read_ints(PyObject *o, int *dst, Py_ssize_t want, const char *what) {
    Py_ssize_t n;
    PyObject **it = items_of(o, &n, what);
    if (!it) return -1;
    if (n != want) {
        PyErr_Format(PyExc_ValueError, "make_context: %s has %zd items, expected %zd", what, n, want);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v;
        if (as_int(it[i], &v, what) < 0) return -1;
        dst[i] = (int)v;
    }
    return 0;
}

/* the T per-type entries of a table (a list/tuple of length T), or NULL */
static PyObject **types_of(PyObject *o, int T, const char *what) {
    Py_ssize_t n;
    PyObject **it = items_of(o, &n, what);
    if (it && n != T) {
        PyErr_Format(PyExc_ValueError, "make_context: %s has %zd types, expected %d", what, n, T);
        return NULL;
    }
    return it;
}

/* the 6 per-facing entries of type t's entry, or NULL */
static PyObject **facings_of(PyObject *entry, int t, const char *what) {
    Py_ssize_t nf;
    PyObject **fs = items_of(entry, &nf, what);
    if (fs && nf != 6) {
        PyErr_Format(PyExc_ValueError, "make_context: %s[%d] needs 6 facings", what, t);
        return NULL;
    }
    return fs;
}

/* table[t][f][d] (T x 6 x 6 ints) into dst[(t * 6 + f) * 6 + d] */
static int read_t66(PyObject *o, int *dst, int T, const char *what) {
    PyObject **it = types_of(o, T, what);
    if (!it) return -1;
    for (int t = 0; t < T; t++) {
        PyObject **fs = facings_of(it[t], t, what);
        if (!fs) return -1;
        for (int f = 0; f < 6; f++)
            if (read_ints(fs[f], dst + (t * 6 + f) * 6, 6, what) < 0) return -1;
    }
    return 0;
}

/* dirs[t][f] (tuples of directions) into bit masks dst[t * 6 + f] */
static int read_dirs(PyObject *o, unsigned char *dst, int T, const char *what) {
    PyObject **it = types_of(o, T, what);
    if (!it) return -1;
    for (int t = 0; t < T; t++) {
        PyObject **fs = facings_of(it[t], t, what);
        if (!fs) return -1;
        for (int f = 0; f < 6; f++) {
            Py_ssize_t nd;
            PyObject **ds = items_of(fs[f], &nd, what);
            if (!ds) return -1;
            unsigned char m = 0;
            for (Py_ssize_t k = 0; k < nd; k++) {
                long d;
                if (as_int(ds[k], &d, what) < 0) return -1;
                if (d < 0 || d > 5) { PyErr_Format(PyExc_ValueError, "make_context: %s direction %ld", what, d); return -1; }
                m |= (unsigned char)(1u << d);
            }
            dst[t * 6 + f] = m;
        }
    }
    return 0;
}

/* Ctx member <- layout key, read by name (X-macro: the member list and the key list cannot drift apart) */
#define CTX_INTS(X) \
    X(T, "T") X(H, "H") X(W, "W") X(n, "n") X(size, "size") X(module, "module") X(reinf, "reinf") \
    X(teams, "teams") X(max_decisions, "max_decisions") X(per_seat, "per_seat") \
    X(max_initiative, "max_initiative") X(loc_board, "loc_board") X(empty_row, "empty_row") \
    X(h_wounds, "hex.wounds") X(h_tough, "hex.tough") X(h_poison, "hex.poison") X(h_netted, "hex.netted") \
    X(h_net_marker, "hex.net_marker") X(h_disarmed, "hex.disarmed") X(h_entrenched, "hex.entrenched") \
    X(h_used, "hex.used") X(h_acts, "hex.activations") X(h_melee, "hex.melee") X(h_ranged, "hex.ranged") \
    X(h_armor, "hex.armor") X(h_no_seg, "hex.no_segment") X(h_seg_owner, "hex.segment_owner") \
    X(h_segment, "hex.segment") \
    X(a_hands, "hands") X(a_unseen, "unseen") X(a_mono, "monolith") X(a_seats, "seats") X(a_sub, "sub_phase") \
    X(a_acting, "acting") X(a_turn, "turn") X(a_scalars, "scalars") X(a_peff, "pending_effect") \
    X(a_phex, "pending_hex") X(a_pmode, "pending_mode") X(a_config, "config") \
    X(hands_stride, "hands.stride") X(hands_row, "hands.row") X(unseen_row, "unseen.row") \
    X(mono_stride, "monolith.stride") X(mono_row, "monolith.row") X(seats_row, "seats.row") \
    X(phex_row, "pending_hex.row") X(n_sub, "sub_phase.size") X(n_peff, "pending_effect.size") \
    X(n_modes, "pending_mode.size") \
    X(hd_type, "hands.type") X(hd_fresh, "hands.fresh") X(mo_type, "monolith.type") X(mo_empty, "monolith.empty") \
    X(mo_hidden, "monolith.hidden") X(mo_on_board, "monolith.on_board") \
    X(st_alive, "seats.alive") X(st_hp, "seats.hp") X(st_deck, "seats.deck") X(st_hand, "seats.hand") \
    X(st_discard, "seats.discard") X(st_ally, "seats.ally") X(st_folded, "seats.folded") \
    X(st_unrevealed, "seats.unrevealed") X(st_turn_seat, "seats.turn_seat") X(st_done, "seats.first_turn_done") \
    X(sc_discarded, "scalars.discarded") X(sc_uses, "scalars.uses") X(sc_placed, "scalars.placed") \
    X(sc_unfolded, "scalars.unfolded") X(sc_exception_used, "scalars.exception_used") \
    X(sc_use_cap, "scalars.use_cap") X(sc_last_round, "scalars.last_round") \
    X(sc_last_round_owed, "scalars.last_round_owed") X(sc_battle, "scalars.battle") \
    X(sc_battle_phase, "scalars.battle_phase") X(sc_poison_supply, "scalars.poison_supply") \
    X(sc_net_marker_free, "scalars.net_marker_free") X(sc_entrench_free, "scalars.entrench_free") \
    X(sc_decisions, "scalars.decisions") X(cf_module, "config.module") X(cf_reinf, "config.reinforcement") \
    X(cf_teams, "config.teams")

static int layout_int(PyObject *layout, const char *key, int *dst) {
    PyObject *v = PyDict_GetItemString(layout, key); /* borrowed */
    if (!v) {
        PyErr_Format(PyExc_KeyError, "make_context: the layout has no %s", key);
        return -1;
    }
    long x;
    if (as_int(v, &x, key) < 0) return -1;
    if (x < 0 || x > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "make_context: layout %s is %ld, expected a non-negative C int", key, x);
        return -1;
    }
    *dst = (int)x;
    return 0;
}

static PyObject *make_context(PyObject *self, PyObject *args) {
    PyObject *stat, *ints, *tough, *melee, *ranged, *mdirs, *rdirs, *fac_hp, *team;
    double team_hp;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOd:make_context", &stat, &ints, &tough, &melee, &ranged, &mdirs, &rdirs,
                          &fac_hp, &team, &team_hp))
        return NULL;
    Ctx *c = PyMem_Calloc(1, sizeof(Ctx));
    if (!c) return PyErr_NoMemory();
    PyObject *cap = PyCapsule_New(c, "monolith_arena_obs_ctx", ctx_free);
    if (!cap) { PyMem_Free(c); return NULL; }
    if (!PyDict_Check(ints)) {
        PyErr_Format(PyExc_TypeError, "make_context: layout must be a dict of named ints, not %.80s",
                     Py_TYPE(ints)->tp_name);
        goto fail;
    }
#define READ_INT(member, key) if (layout_int(ints, key, &c->member) < 0) goto fail;
    CTX_INTS(READ_INT)
#undef READ_INT
    c->team_hp = team_hp > 0 ? team_hp : 1.0;
    if (c->T <= 0 || c->T > MAXT || c->n < 1 || c->n > 4 || c->H < 1 || c->W < 1 || c->max_decisions < 1 ||
        c->per_seat < 1 || c->max_initiative < 1) {
        PyErr_SetString(PyExc_ValueError, "make_context: T, n, H, W, max_decisions, per_seat or max_initiative out of range");
        goto fail;
    }
    if (PyObject_GetBuffer(stat, &c->stat, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) goto fail;
    if (c->stat.itemsize != 4 || !c->stat.format || strcmp(c->stat.format, "f") != 0 ||
        c->stat.len != (Py_ssize_t)(c->T + 1) * 24 * c->W * 4) {
        PyErr_SetString(PyExc_ValueError, "make_context: static rows must be float32[(T + 1) * 24, W]");
        goto fail;
    }
    int T = c->T;
    c->tough = PyMem_Malloc(sizeof(int) * T);
    c->melee = PyMem_Malloc(sizeof(int) * T * 36);
    c->ranged = PyMem_Malloc(sizeof(int) * T * 36);
    c->mdirs = PyMem_Malloc(T * 6);
    c->rdirs = PyMem_Malloc(T * 6);
    Py_ssize_t nfac;
    if (!items_of(fac_hp, &nfac, "fac_hp")) goto fail;
    c->nfac = (int)nfac;
    c->fac_hp = PyMem_Malloc(sizeof(int) * (nfac > 0 ? nfac : 1));
    if (!c->tough || !c->melee || !c->ranged || !c->mdirs || !c->rdirs || !c->fac_hp) { PyErr_NoMemory(); goto fail; }
    if (read_ints(tough, c->tough, T, "tough") < 0) goto fail;
    if (read_t66(melee, c->melee, T, "melee") < 0) goto fail;
    if (read_t66(ranged, c->ranged, T, "ranged") < 0) goto fail;
    if (read_dirs(mdirs, c->mdirs, T, "melee_dirs") < 0) goto fail;
    if (read_dirs(rdirs, c->rdirs, T, "ranged_dirs") < 0) goto fail;
    if (read_ints(fac_hp, c->fac_hp, nfac, "fac_hp") < 0) goto fail;
    if (read_ints(team, c->team, c->n, "team") < 0) goto fail;
    return cap;
fail:
    Py_DECREF(cap);
    return NULL;
}

/* ------------------------------------------------------------------ observe */
static int hex_block(const Ctx *c, PyObject *fx, const long *rel, float *out) {
    PyObject *f[NF];
    for (int k = 0; k < NF; k++) {
        f[k] = PyObject_GetAttr(fx, FKEYS[k]);
        if (!f[k]) { for (int j = 0; j < k; j++) Py_DECREF(f[j]); return -1; }
    }
    int rc = -1;
    Seq typ, fac, own, touched, tough, inits, net, dis, mb, rb;
    if (seq(f[F_typ], &typ, "fx.typ") < 0 || seq(f[F_fac], &fac, "fx.fac") < 0 ||
        seq(f[F_owner], &own, "fx.owner") < 0 || seq(f[F_touched], &touched, "fx.touched") < 0 ||
        seq(f[F_tough], &tough, "fx.tough") < 0 || seq(f[F_inits], &inits, "fx.inits") < 0 ||
        seq(f[F_netted], &net, "fx.netted") < 0 || seq(f[F_disarmed], &dis, "fx.disarmed") < 0 ||
        seq(f[F_melee_b], &mb, "fx.melee_b") < 0 || seq(f[F_ranged_b], &rb, "fx.ranged_b") < 0)
        goto done;
    const int W = c->W, T = c->T;
    const float *stat = (const float *)c->stat.buf;
    long tt[19], ff[19];
    for (int h = 0; h < 19; h++) {
        long t, fa, o;
        if (at(&typ, h, &t) < 0 || at(&fac, h, &fa) < 0 || at(&own, h, &o) < 0) goto done;
        long row;
        if (t < 0) {
            row = c->empty_row;
        } else {
            if (t >= T || fa < 0 || fa > 5 || o < 0 || o >= c->n) {
                PyErr_Format(PyExc_IndexError, "observation: fx hex %d has type %ld facing %ld owner %ld", h, t, fa, o);
                goto done;
            }
            row = (t * 6 + fa) * 4 + rel[o];
        }
        tt[h] = t; ff[h] = fa;
        memcpy(out + h * W, stat + row * W, sizeof(float) * W);
    }
    unsigned int seen = 0;
    for (Py_ssize_t i = 0; i < touched.n; i++) {
        long h;
        if (as_int(touched.it[i], &h, "fx.touched") < 0) goto done;
        if (h < 0 || h >= 19 || tt[h] < 0) {
            PyErr_Format(PyExc_IndexError, "observation: fx.touched holds hex %ld that has no tile", h);
            goto done;
        }
        if (seen & (1u << h)) continue;
        seen |= 1u << h;
        long t = tt[h], fa = ff[h], tg, nt, ds, m, r;
        float *b = out + h * W;
        if (at(&tough, h, &tg) < 0) goto done;
        if (tg != c->tough[t]) b[c->h_tough] = tg < 3 ? (float)(tg / 3.0) : 1.0f;
        if (h >= net.n || h >= dis.n) {
            PyErr_SetString(PyExc_IndexError, "observation: fx.netted/disarmed shorter than the board");
            goto done;
        }
        int tn = truth(net.it[h], "fx.netted"), td = truth(dis.it[h], "fx.disarmed");
        if (tn < 0 || td < 0) goto done;
        nt = tn; ds = td;
        if (nt) b[c->h_netted] = 1.0f;
        if (ds) b[c->h_disarmed] = 1.0f;
        /* activations: the printed values unless the effects changed them; rewriting them from the
           effective list gives the same floats when they did not (0.5 per activation, capped at the largest
           initiative slot) */
        float *acts = b + c->h_acts;
        const long top = c->max_initiative;
        for (int k = 0; k <= top; k++) acts[k] = 0.0f;
        if (!nt && !ds) {
            Seq vals;
            if (sub_seq(&inits, h, &vals) < 0) goto done;
            for (Py_ssize_t k = 0; k < vals.n; k++) {
                long x;
                if (as_int(vals.it[k], &x, "fx.inits") < 0) goto done;
                if (x < 0) { PyErr_Format(PyExc_ValueError, "observation: fx.inits holds %ld", x); goto done; }
                acts[x < top ? x : top] += 0.5f;
            }
        }
        if (at(&mb, h, &m) < 0 || at(&rb, h, &r) < 0) goto done;
        int tf = (int)(t * 6 + fa);
        if (m) {
            unsigned char dm = c->mdirs[tf];
            for (int d = 0; d < 6; d++)
                if (dm & (1u << d)) b[c->h_melee + d] = (float)((c->melee[tf * 6 + d] + m) / 4.0);
        }
        if (r) {
            unsigned char dm = c->rdirs[tf];
            for (int d = 0; d < 6; d++)
                if (dm & (1u << d)) {
                    long x = c->ranged[tf * 6 + d] + r;
                    b[c->h_ranged + d] = (float)((x > 0 ? x : 0) / 4.0);
                }
        }
    }
    rc = 0;
done:
    for (int k = 0; k < NF; k++) Py_DECREF(f[k]);
    return rc;
}

static PyObject *observe(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "observe(context, state, fx, p, omniscient, out) takes 6 arguments");
        return NULL;
    }
    Ctx *c = (Ctx *)PyCapsule_GetPointer(args[0], "monolith_arena_obs_ctx");
    if (!c) return NULL;
    PyObject *state = args[1], *fx = args[2];
    long p = PyLong_AsLong(args[3]);
    if (p == -1 && PyErr_Occurred()) return NULL;
    int omni = PyObject_IsTrue(args[4]);
    if (omni < 0) return NULL;
    const int n = c->n, T = c->T, H = c->H, W = c->W;
    if (p < 0 || p >= n) { PyErr_Format(PyExc_ValueError, "observation: seat %ld outside 0..%d", p, n - 1); return NULL; }
    PyObject *d = PyObject_GenericGetDict(state, NULL);
    if (!d) return NULL;
    Py_buffer ob;
    if (PyObject_GetBuffer(args[5], &ob, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) { Py_DECREF(d); return NULL; }
    if (ob.len != (Py_ssize_t)c->size * 4) {
        PyErr_Format(PyExc_ValueError, "observation: out has %zd bytes, expected float32[%d]", ob.len, c->size);
        goto fail;
    }
    float *o = (float *)ob.buf;
    long rel[4];
    for (int q = 0; q < n; q++) rel[q] = ((q - p) % n + n) % n;

    /* ---- hex blocks */
    TRY(hex_block(c, fx, rel, o));
    Seq itype, board, wounds, poison, used;
    TRY(field_seq(d, K_itype, &itype));
    TRY(field_seq(d, K_board, &board));
    TRY(field_seq(d, K_wounds, &wounds));
    TRY(field_seq(d, K_poison, &poison));
    TRY(field_seq(d, K_used, &used));
    if (board.n != 19) { PyErr_SetString(PyExc_ValueError, "observation: board must have 19 hexes"); goto fail; }
    long bi[19];
    for (int h = 0; h < 19; h++) {
        TRY(at(&board, h, &bi[h]));
        if (bi[h] >= 0) {
            long w, pz, u;
            TRY(at(&wounds, bi[h], &w));
            TRY(at(&poison, bi[h], &pz));
            TRY(at(&used, bi[h], &u));
            float *b = o + h * W;
            if (w) b[c->h_wounds] = w < 3 ? (float)(w / 3.0) : 1.0f;
            if (pz) b[c->h_poison] = (float)(pz / 5.0);
            if (u) b[c->h_used] = 1.0f;
        }
    }
    long m;
    TRY(field_int(d, K_net_marker_on, &m));
    if (m >= 0) {
        for (int h = 0; h < 19; h++) if (bi[h] == m) { o[h * W + c->h_net_marker] = 1.0f; break; }
    }
    TRY(field_int(d, K_entrench_on, &m));
    if (m >= 0) {
        for (int h = 0; h < 19; h++)
            if (bi[h] == m) {
                float *b = o + h * W;
                b[c->h_entrenched] = 1.0f;
                for (int k = 0; k < 6; k++) b[c->h_armor + k] = 1.0f; /* every direction */
                break;
            }
    }
    Seq alive, seg_hex, folded, seg_content, seg_revealed, loc;
    TRY(field_seq(d, K_alive, &alive));
    if (alive.n < n) { PyErr_SetString(PyExc_ValueError, "observation: alive is shorter than the seats"); goto fail; }
    if (c->module) {
        TRY(field_seq(d, K_seg_hex, &seg_hex));
        TRY(field_seq(d, K_mono_folded, &folded));
        TRY(field_seq(d, K_seg_content, &seg_content));
        TRY(field_seq(d, K_seg_revealed, &seg_revealed));
        TRY(field_seq(d, K_loc, &loc));
        for (int q = 0; q < n; q++) {
            Seq sh;
            long h0, al, fo;
            TRY(sub_seq(&seg_hex, q, &sh));
            TRY(at(&sh, 0, &h0));
            TRY(at(&alive, q, &al));
            if (h0 < 0 || !al) continue;
            long r = rel[q];
            TRY(at(&folded, q, &fo));
            if (fo) {
                if (h0 >= 19) { PyErr_SetString(PyExc_IndexError, "observation: seg_hex outside the board"); goto fail; }
                float *b = o + h0 * W;
                b[c->h_no_seg] = 0.0f; b[c->h_seg_owner + r] = 1.0f;
                b[c->h_segment] = b[c->h_segment + 1] = b[c->h_segment + 2] = 1.0f;
            } else {
                for (int k = 0; k < 3; k++) {
                    long hk;
                    TRY(at(&sh, k, &hk));
                    if (hk < 0 || hk >= 19) { PyErr_SetString(PyExc_IndexError, "observation: seg_hex outside the board"); goto fail; }
                    float *b = o + hk * W;
                    b[c->h_no_seg] = 0.0f; b[c->h_seg_owner + r] = 1.0f; b[c->h_segment + k] = 1.0f;
                }
            }
        }
    }
    /* ---- hands */
    Seq hand, fresh;
    TRY(field_seq(d, K_hand, &hand));
    TRY(field_seq(d, K_fresh, &fresh));
    for (int q = 0; q < n; q++) {
        Seq hq, fq;
        TRY(sub_seq(&hand, q, &hq));
        TRY(sub_seq(&fresh, q, &fq));
        float *b = o + c->a_hands + rel[q] * c->hands_stride;
        for (Py_ssize_t k = 0; k < hq.n && k < H; k++) {
            long i, ty, fr;
            TRY(at(&hq, k, &i));
            if (i >= 0) {
                TRY(tile_type(&itype, i, T, &ty));
                b[c->hd_type + ty] = 1.0f;
                TRY(at(&fq, k, &fr));
                if (fr) b[c->hd_fresh] = 1.0f;
            }
            b += c->hands_row;
        }
    }
    /* ---- unseen pools: my deck; others: deck + unrevealed Monolith contents */
    Seq deck;
    TRY(field_seq(d, K_deck, &deck));
    for (int q = 0; q < n; q++) {
        Seq dq;
        TRY(sub_seq(&deck, q, &dq));
        float *b = o + c->a_unseen + rel[q] * c->unseen_row;
        for (Py_ssize_t k = 0; k < dq.n; k++) {
            long i, ty;
            TRY(as_int(dq.it[k], &i, "deck"));
            TRY(tile_type(&itype, i, T, &ty));
            b[ty] += 0.25f;
        }
        if (q != p && c->module && !omni) {
            Seq sc, sr;
            TRY(sub_seq(&seg_content, q, &sc));
            TRY(sub_seq(&seg_revealed, q, &sr));
            for (int k = 0; k < 2; k++) {
                long ci, rv, ty;
                TRY(at(&sc, k, &ci));
                TRY(at(&sr, k, &rv));
                if (ci >= 0 && !rv) {
                    TRY(tile_type(&itype, ci, T, &ty));
                    b[ty] += 0.25f;
                }
            }
        }
    }
    /* ---- Monolith contents */
    if (c->module) {
        for (int q = 0; q < n; q++) {
            long al;
            TRY(at(&alive, q, &al));
            if (!al) continue;
            Seq sc, sr;
            TRY(sub_seq(&seg_content, q, &sc));
            TRY(sub_seq(&seg_revealed, q, &sr));
            float *b = o + c->a_mono + rel[q] * c->mono_stride;
            for (int k = 0; k < 2; k++) {
                long ci, rv, ty, lc;
                TRY(at(&sc, k, &ci));
                if (ci < 0) {
                    b[c->mo_empty] = 1.0f;
                } else {
                    TRY(at(&sr, k, &rv));
                    if (q == p || rv || omni) {
                        TRY(tile_type(&itype, ci, T, &ty));
                        b[c->mo_type + ty] = 1.0f;
                    }
                    if (!rv) b[c->mo_hidden] = 1.0f;
                    TRY(at(&loc, ci, &lc));
                    if (lc == c->loc_board) b[c->mo_on_board] = 1.0f;
                }
                b += c->mono_row;
            }
        }
    }
    /* ---- per-seat scalars, in relative order */
    Seq discard, hp, factions, done_, pool;
    TRY(field_seq(d, K_discard, &discard));
    TRY(field_seq(d, K_hp, &hp));
    TRY(field_seq(d, K_factions, &factions));
    TRY(field_seq(d, K_first_turn_done, &done_));
    TRY(field_seq(d, K_pool, &pool));
    long ts;
    TRY(field_int(d, K_turn_seat, &ts));
    if (ts < 0 || ts >= n) { PyErr_Format(PyExc_ValueError, "observation: turn_seat %ld", ts); goto fail; }
    {
        float *b = o + c->a_seats;
        for (int r = 0; r < n; r++) {
            int q = (int)((p + r) % n);
            long al, x, dn;
            TRY(at(&alive, q, &al));
            if (al) b[c->st_alive] = 1.0f;
            if (c->teams) {
                TRY(at(&pool, c->team[q], &x));
                b[c->st_hp] = clip1((double)(x > 0 ? x : 0) / c->team_hp);
                if (q != p && c->team[q] == c->team[p]) b[c->st_ally] = 1.0f;
            } else {
                TRY(at(&hp, q, &x));
                if (x > 0) {
                    long fi, fh;
                    TRY(at(&factions, q, &fi));
                    if (fi < 0 || fi >= c->nfac) { PyErr_Format(PyExc_IndexError, "observation: faction %ld", fi); goto fail; }
                    fh = c->fac_hp[fi];
                    b[c->st_hp] = clip1((double)x / (double)(fh > 1 ? fh : 1));
                }
            }
            Seq dq, hq, xq;
            TRY(sub_seq(&deck, q, &dq));
            b[c->st_deck] = (float)((double)dq.n / c->per_seat);
            TRY(sub_seq(&hand, q, &hq));
            long empty = 0;
            for (Py_ssize_t k = 0; k < hq.n; k++) {
                long i;
                TRY(as_int(hq.it[k], &i, "hand"));
                if (i == -1) empty++;
            }
            b[c->st_hand] = (float)((double)(H - empty) / H);
            TRY(sub_seq(&discard, q, &xq));
            if (xq.n) b[c->st_discard] = xq.n < c->per_seat ? (float)((double)xq.n / c->per_seat) : 1.0f;
            if (c->module) {
                long fo, c0, c1, r0, r1;
                Seq sc, sr;
                TRY(at(&folded, q, &fo));
                if (fo) b[c->st_folded] = 1.0f;
                TRY(sub_seq(&seg_content, q, &sc));
                TRY(sub_seq(&seg_revealed, q, &sr));
                TRY(at(&sc, 0, &c0)); TRY(at(&sc, 1, &c1));
                TRY(at(&sr, 0, &r0)); TRY(at(&sr, 1, &r1));
                b[c->st_unrevealed] = (float)(((c0 >= 0 && !r0) + (c1 >= 0 && !r1)) / 2.0);
            }
            if (ts == q) b[c->st_turn_seat] = 1.0f;
            TRY(at(&done_, q, &dn));
            if (dn) b[c->st_done] = 1.0f;
            b += c->seats_row;
        }
    }
    /* ---- global */
    long x;
    TRY(field_int(d, K_sub_phase, &x));
    if (x < 0 || x >= c->n_sub) { PyErr_Format(PyExc_ValueError, "observation: sub_phase %ld", x); goto fail; }
    o[c->a_sub + x] = 1.0f;
    TRY(field_int(d, K_acting_seat, &x));
    if (x >= n) { PyErr_Format(PyExc_ValueError, "observation: acting_seat %ld", x); goto fail; }
    if (x >= 0) o[c->a_acting + rel[x]] = 1.0f;
    o[c->a_turn + rel[ts]] = 1.0f;
    {
        float *a = o + c->a_scalars;
        int err = 0, t;
        double dv = field_double(d, K_discarded, &err);
        if (err) goto fail;
        if (dv != 0.0) a[c->sc_discarded] = dv >= 1 ? 1.0f : (float)dv;
        dv = field_double(d, K_uses, &err);
        if (err) goto fail;
        if (dv != 0.0) a[c->sc_uses] = (float)(dv / 2.0);
        TRY(t = field_true(d, K_placed)); if (t) a[c->sc_placed] = 1.0f;
        TRY(t = field_true(d, K_unfolded)); if (t) a[c->sc_unfolded] = 1.0f;
        TRY(t = field_true(d, K_exception_used)); if (t) a[c->sc_exception_used] = 1.0f;
        if (c->reinf && ts == 0) {
            long d0;
            TRY(at(&done_, 0, &d0));
            if (!d0) a[c->sc_use_cap] = 1.0f;
        }
        TRY(t = field_true(d, K_last_round)); if (t) a[c->sc_last_round] = 1.0f;
        Seq owed;
        TRY(field_seq(d, K_last_round_owed, &owed));
        long sum = 0;
        for (Py_ssize_t k = 0; k < owed.n; k++) {
            long y;
            TRY(as_int(owed.it[k], &y, "last_round_owed"));
            sum += y;
        }
        if (sum) a[c->sc_last_round_owed] = (float)(sum / 3.0);
        TRY(t = field_true(d, K_b_active));
        if (t) {
            long bp;
            a[c->sc_battle] = 1.0f;
            TRY(field_int(d, K_b_phase, &bp));
            bp = bp < c->max_initiative ? bp : c->max_initiative;
            bp = bp > 0 ? bp : 0;
            a[c->sc_battle_phase] = (float)((double)bp / c->max_initiative);
        }
        TRY(field_int(d, K_poison_supply, &x));
        a[c->sc_poison_supply] = (float)(x / 5.0);
        TRY(field_int(d, K_net_marker_on, &x));
        if (x < 0) a[c->sc_net_marker_free] = 1.0f;
        TRY(field_int(d, K_entrench_on, &x));
        if (x < 0) a[c->sc_entrench_free] = 1.0f;
        TRY(field_int(d, K_decisions, &x));
        a[c->sc_decisions] = clip1((double)x / c->max_decisions);
    }
    TRY(field_int(d, K_p_effect, &x));
    if (x >= 0) {
        if (x >= c->n_peff) { PyErr_Format(PyExc_ValueError, "observation: p_effect %ld", x); goto fail; }
        o[c->a_peff + x] = 1.0f;
    }
    {
        static const int hk[3] = {K_p_a, K_p_b, K_p_c};
        for (int k = 0; k < 3; k++) {
            TRY(field_int(d, hk[k], &x));
            if (x >= 0 && x < c->phex_row) o[c->a_phex + c->phex_row * k + x] = 1.0f;
        }
    }
    TRY(field_int(d, K_p_mode, &x));
    if (x >= 0 && x < c->n_modes) o[c->a_pmode + x] = 1.0f;
    if (c->module) o[c->a_config + c->cf_module] = 1.0f;
    if (c->reinf) o[c->a_config + c->cf_reinf] = 1.0f;
    if (c->teams) o[c->a_config + c->cf_teams] = 1.0f;
    PyBuffer_Release(&ob);
    Py_DECREF(d);
    Py_RETURN_NONE;
fail:
    PyBuffer_Release(&ob);
    Py_DECREF(d);
    return NULL;
}

static PyMethodDef methods[] = {
    {"make_context", make_context, METH_VARARGS,
     "make_context(static_rows, layout, tough, melee, ranged, melee_dirs, ranged_dirs, fac_hp, team, team_hp) "
     "-> context"},
    {"observe", (PyCFunction)(void (*)(void))observe, METH_FASTCALL,
     "observe(context, state, fx, p, omniscient, out): write seat p's observation into out (float32 zeros)"},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, "_fastobs", "Compiled observation builder of Monolith Arena (docs/monolith_arena.md §7).", -1, methods
};

PyMODINIT_FUNC PyInit__fastobs(void) {
    for (int k = 0; k < NK; k++) {
        KEYS[k] = PyUnicode_InternFromString(KNAMES[k]);
        if (!KEYS[k]) return NULL;
    }
    for (int k = 0; k < NF; k++) {
        FKEYS[k] = PyUnicode_InternFromString(FNAMES[k]);
        if (!FKEYS[k]) return NULL;
    }
    return PyModule_Create(&moddef);
}
