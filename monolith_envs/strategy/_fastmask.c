/* Compiled legal-action lists of Monolith: The Strategy Game (docs/monolith_strategy.md §4.6, §4.7, §4.12, §10).
 *
 * The TURN decision's legal actions (place, set aside, end turn, cast), exactly as
 * monolith_envs/strategy/turn.py's turn_mask_python computes them: the Python function is the reference, and
 * tests/strategy/test_fastmask.py compares both at every decision of seeded 1-4 player games (and on
 * perturbed copies: blocked sockets, Stacker bumps).  It reads the plain-data state (Python ints, bools,
 * lists and dicts) directly.
 *
 *   make_context(codes, board_sockets, round_sockets, round_reserved, anytime, checks) -> capsule
 *     codes: (PLACE, SET_ASIDE, END_TURN, CAST, phase_action, side_exalted): the first flat index of each
 *     TURN action family, and the ACTION phase and Exalted side codes.
 *     board_sockets[c] / round_sockets[r]: requirements (0 = ANY, 1-6, at most 4) of board card c / Exalted
 *     side r; round_reserved[r]: that side's sockets are reserved.
 *     anytime[k]: kind k may be cast after socketing; checks[k]: None (never castable in this game) or the
 *     list of (check, argument) pairs that must all hold (turn.py's mask_checks: CHECK_* below).
 *   turn_legal(context, state) -> list of int   (ascending)
 *   mask_of(actions, n) -> bytearray            (n zero bytes, 1 at every listed action)
 *
 * Errors: TypeError for a field of the wrong type, IndexError for an index outside its list, KeyError for a
 * missing key of a record, AttributeError for a missing state field; the message names the field.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define NBOARD 52  /* board sockets: 13 positions x 4 */
#define NPOS 13
#define PRIV0 52
#define NSOCK 60   /* socket ids 0 .. NSOCK - 1 (board.py NSOCK) */
#define MAXK 256
#define MAXCHECKS 8

enum { CHECK_POOL, CHECK_POOL_NOT_FACE, CHECK_MOVE, CHECK_BLOCK, CHECK_SOURCE_DIE, CHECK_RUNE, CHECK_PRIMUS, NCHECK };

typedef struct {
    long place, set_aside, end_turn, cast, phase_action, side_exalted;
    int nboard, nround, K;
    signed char *bsock;  /* [nboard * 4] requirement, -1 past the card's sockets */
    signed char *rsock;  /* [nround * 4] */
    unsigned char *rres; /* [nround] */
    unsigned char anytime[MAXK];
    signed char ncheck[MAXK];  /* -1: never castable */
    unsigned char check[MAXK][MAXCHECKS], arg[MAXK][MAXCHECKS];
    PyObject *ints;  /* tuple of the ints 0 .. cast + K - 1: the listed actions, made once */
} Ctx;

static const char *CAPSULE = "monolith_strategy_mask_ctx";

static void ctx_free(PyObject *cap) {
    Ctx *c = (Ctx *)PyCapsule_GetPointer(cap, CAPSULE);
    if (!c) return;
    PyMem_Free(c->bsock); PyMem_Free(c->rsock); PyMem_Free(c->rres);
    Py_XDECREF(c->ints);
    PyMem_Free(c);
}

/* ------------------------------------------------------------------ reading Python values */
static int to_long(PyObject *o, long *v, const char *what) {
    if (PyLong_Check(o)) {
        long x = PyLong_AsLong(o);
        if (x == -1 && PyErr_Occurred()) return -1;
        *v = x;
        return 0;
    }
    if (PyIndex_Check(o)) {  /* numpy integers */
        PyObject *i = PyNumber_Index(o);
        if (!i) return -1;
        long x = PyLong_AsLong(i);
        Py_DECREF(i);
        if (x == -1 && PyErr_Occurred()) return -1;
        *v = x;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "legal actions: %s holds %.80s, expected int", what, Py_TYPE(o)->tp_name);
    return -1;
}

static int truth(PyObject *o) {
    if (o == Py_True) return 1;
    if (o == Py_False) return 0;
    return PyObject_IsTrue(o);
}

#define FASTSEQ_WHAT "legal actions"
#include "_fastseq.h"

static inline int at_truth(const Seq *s, long i) {
    if (i < 0 || i >= s->n) return bad_index(s, i);
    return truth(s->it[i]);
}

static int sub(const Seq *s, long i, Seq *out) {
    if (i < 0 || i >= s->n) return bad_index(s, i);
    return as_seq(s->it[i], out, s->name);
}

#define STATE_FIELDS(X) \
    X(turn) X(pool) X(phase) X(sock_seat) X(sock_face) X(blocked) X(board) X(rc_pos) X(rc_side) X(rc_round) \
    X(priv) X(hand) X(src_dice) X(rune_deck) X(primus)
#define RECORD_KEYS(X) X(player) X(left) X(socketed) X(mandatory_done) X(stack_ready) X(card) X(occ)
#define AS_F(name) F_##name,
#define AS_R(name) R_##name,
#define AS_STR(name) #name,
enum { STATE_FIELDS(AS_F) NF };
enum { RECORD_KEYS(AS_R) NR };
static const char *FNAMES[NF] = { STATE_FIELDS(AS_STR) };
static const char *RNAMES[NR] = { RECORD_KEYS(AS_STR) };
static PyObject *FKEYS[NF], *RKEYS[NR];

static PyObject *field(PyObject *d, int f) {
    PyObject *v = PyDict_GetItemWithError(d, FKEYS[f]);
    if (!v && !PyErr_Occurred())
        PyErr_Format(PyExc_AttributeError, "legal actions: the state has no field %s", FNAMES[f]);
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

static PyObject *rneed(PyObject *rec, int r, const char *what) {
    if (!PyDict_Check(rec)) {
        PyErr_Format(PyExc_TypeError, "legal actions: %s must be a dict, not %.80s", what, Py_TYPE(rec)->tp_name);
        return NULL;
    }
    PyObject *v = PyDict_GetItemWithError(rec, RKEYS[r]);
    if (!v && !PyErr_Occurred()) PyErr_Format(PyExc_KeyError, "legal actions: %s has no key %s", what, RNAMES[r]);
    return v;
}

#define TRY(x) do { if ((x) < 0) goto fail; } while (0)

/* ------------------------------------------------------------------ make_context */
static PyObject *make_context(PyObject *self, PyObject *args) {
    PyObject *codes, *bs, *rs, *rr, *anytime, *checks;
    if (!PyArg_ParseTuple(args, "OOOOOO:make_context", &codes, &bs, &rs, &rr, &anytime, &checks)) return NULL;
    Ctx *c = PyMem_Calloc(1, sizeof(Ctx));
    if (!c) return PyErr_NoMemory();
    PyObject *cap = PyCapsule_New(c, CAPSULE, ctx_free);
    if (!cap) { PyMem_Free(c); return NULL; }
    Seq t;
    long *dst[6] = {&c->place, &c->set_aside, &c->end_turn, &c->cast, &c->phase_action, &c->side_exalted};
    TRY(as_seq(codes, &t, "codes"));
    if (t.n != 6) { PyErr_SetString(PyExc_ValueError, "make_context: codes must hold 6 ints"); goto fail; }
    for (int i = 0; i < 6; i++) TRY(at(&t, i, dst[i]));
    TRY(read_sockets(bs, &c->bsock, &c->nboard, "board_sockets"));
    TRY(read_sockets(rs, &c->rsock, &c->nround, "round_sockets"));
    TRY(as_seq(rr, &t, "round_reserved"));
    if (t.n != c->nround) { PyErr_SetString(PyExc_ValueError, "make_context: round_reserved and round_sockets differ in length"); goto fail; }
    if (!(c->rres = PyMem_Calloc(c->nround ? c->nround : 1, 1))) { PyErr_NoMemory(); goto fail; }
    for (int r = 0; r < c->nround; r++) {
        int v = at_truth(&t, r);
        TRY(v);
        c->rres[r] = (unsigned char)v;
    }
    Seq at_, ch;
    TRY(as_seq(anytime, &at_, "anytime"));
    TRY(as_seq(checks, &ch, "checks"));
    if (at_.n != ch.n || at_.n > MAXK) {
        PyErr_Format(PyExc_ValueError, "make_context: anytime and checks must have the same length, at most %d", MAXK);
        goto fail;
    }
    c->K = (int)at_.n;
    for (int k = 0; k < c->K; k++) {
        int v = at_truth(&at_, k);
        TRY(v);
        c->anytime[k] = (unsigned char)v;
        if (ch.it[k] == Py_None) { c->ncheck[k] = -1; continue; }
        Seq lines;
        TRY(as_seq(ch.it[k], &lines, "checks"));
        if (lines.n > MAXCHECKS) { PyErr_Format(PyExc_ValueError, "make_context: kind %d has more than %d checks", k, MAXCHECKS); goto fail; }
        c->ncheck[k] = (signed char)lines.n;
        for (Py_ssize_t j = 0; j < lines.n; j++) {
            Seq pair;
            long code, arg;
            TRY(as_seq(lines.it[j], &pair, "checks pair"));
            TRY(at(&pair, 0, &code));
            TRY(at(&pair, 1, &arg));
            if (code < 0 || code >= NCHECK || arg < 0 || arg > 6 || pair.n != 2) {
                PyErr_Format(PyExc_ValueError, "make_context: kind %d check (%ld, %ld) unknown", k, code, arg);
                goto fail;
            }
            c->check[k][j] = (unsigned char)code;
            c->arg[k][j] = (unsigned char)arg;
        }
    }
    if (c->place < 0 || c->set_aside < c->place + 6 * NSOCK || c->end_turn < c->set_aside + 6 || c->cast <= c->end_turn ||
        c->cast > 1L << 20) {
        PyErr_SetString(PyExc_ValueError, "make_context: codes must be ascending action family starts "
                        "(PLACE + 360 <= SET_ASIDE, SET_ASIDE + 6 <= END_TURN < CAST)");
        goto fail;
    }
    if (!(c->ints = PyTuple_New(c->cast + c->K))) goto fail;
    for (long a = 0; a < c->cast + c->K; a++) {
        PyObject *v = PyLong_FromLong(a);
        if (!v) goto fail;
        PyTuple_SET_ITEM(c->ints, a, v);
    }
    return cap;
fail:
    Py_DECREF(cap);
    return NULL;
}

/* ------------------------------------------------------------------ turn_legal */
typedef struct {
    const Ctx *c;
    PyObject *d;
    long p;
    signed char req[NBOARD];  /* open board sockets (existing, not reserved): requirement; -1 otherwise */
    unsigned char resv[NBOARD];  /* reserved (Exalted side with reserved sockets) */
    Seq seat, face, blocked, privs;
    long pool[6], poolsum;
} Turn;

/* the geometry: which board sockets exist and take a die, by the board cards and the Round card */
static int geometry(Turn *t) {
    const Ctx *c = t->c;
    long rc_pos, rc_side, rc_round;
    Seq board;
    if (field_long(t->d, F_rc_pos, &rc_pos) < 0 || field_long(t->d, F_rc_side, &rc_side) < 0 ||
        field_long(t->d, F_rc_round, &rc_round) < 0 || field_seq(t->d, F_board, &board) < 0)
        return -1;
    memset(t->req, -1, sizeof t->req);
    memset(t->resv, 0, sizeof t->resv);
    for (long pos = 1; pos <= NPOS; pos++) {
        const signed char *socks = NULL;
        int reserved = 0;
        if (pos == rc_pos) {
            if (rc_side != c->side_exalted) continue;
            if (rc_round < 1 || rc_round > c->nround) {
                PyErr_Format(PyExc_IndexError, "legal actions: rc_round %ld outside 1..%d", rc_round, c->nround);
                return -1;
            }
            socks = c->rsock + (rc_round - 1) * 4;
            reserved = c->rres[rc_round - 1];
        } else {
            long b;
            if (at(&board, pos, &b) < 0) return -1;
            if (b < 0) continue;
            if (b >= c->nboard) {
                PyErr_Format(PyExc_IndexError, "legal actions: board card %ld outside 0..%d", b, c->nboard - 1);
                return -1;
            }
            socks = c->bsock + b * 4;
        }
        for (int i = 0; i < 4 && socks[i] >= 0; i++) {
            if (reserved) t->resv[(pos - 1) * 4 + i] = 1;
            else t->req[(pos - 1) * 4 + i] = socks[i];
        }
    }
    return 0;
}

/* p's empty private sockets that take face f (1-6), appended to out[*m] as fb + their socket ids; or,
 * with out NULL, 1 if there is one */
static int private_sockets(Turn *t, long f, long fb, long *out, int *m) {
    const Ctx *c = t->c;
    for (Py_ssize_t slot = 0; slot < t->privs.n; slot++) {
        PyObject *pr = t->privs.it[slot], *o;
        long card;
        Seq occ;
        if (!(o = rneed(pr, R_card, "priv entry")) || to_long(o, &card, "priv card") < 0) return -1;
        if (!(o = rneed(pr, R_occ, "priv entry")) || as_seq(o, &occ, "priv occ") < 0) return -1;
        if (card < 0 || card >= c->nboard) {
            PyErr_Format(PyExc_IndexError, "legal actions: priv card %ld outside 0..%d", card, c->nboard - 1);
            return -1;
        }
        const signed char *socks = c->bsock + card * 4;
        for (int i = 0; i < 4 && socks[i] >= 0; i++) {
            int full = at_truth(&occ, i);
            if (full < 0) return -1;
            if (!full && (!socks[i] || socks[i] == f)) {
                if (!out) return 1;
                out[(*m)++] = fb + PRIV0 + slot * 4 + i;
            }
        }
    }
    return 0;
}

/* effects.has_move_source: some face among p's non-reserved socketed dice has an empty socket to enter */
static int has_move_source(Turn *t) {
    int faces[7] = {0};
    long x;
    for (long sid = 0; sid < NBOARD; sid++) {
        if (at(&t->seat, sid, &x) < 0) return -1;
        if (x != t->p || t->resv[sid]) continue;
        if (at(&t->face, sid, &x) < 0) return -1;
        if (x >= 1 && x <= 6) faces[x] = 1;
        else { PyErr_Format(PyExc_ValueError, "legal actions: sock_face[%ld] is %ld for a die", sid, x); return -1; }
    }
    for (Py_ssize_t slot = 0; slot < t->privs.n; slot++) {
        PyObject *o = rneed(t->privs.it[slot], R_occ, "priv entry");
        Seq occ;
        if (!o || as_seq(o, &occ, "priv occ") < 0) return -1;
        for (Py_ssize_t i = 0; i < occ.n; i++) {
            if (at(&occ, i, &x) < 0) return -1;
            if (x >= 1 && x <= 6) faces[x] = 1;
        }
    }
    for (long f = 1; f <= 6; f++) {
        if (!faces[f]) continue;
        for (long sid = 0; sid < NBOARD; sid++) {
            if (t->req[sid] < 0 || (t->req[sid] && t->req[sid] != f)) continue;
            if (at(&t->seat, sid, &x) < 0) return -1;
            if (x >= 0) continue;
            int b = at_truth(&t->blocked, sid);
            if (b < 0) return -1;
            if (!b) return 1;
        }
        int r = private_sockets(t, f, 0, NULL, NULL);
        if (r) return r;
    }
    return 0;
}

/* one castability check (turn._line_ok for the lines whose requirement depends on the position) */
static int check_ok(Turn *t, int code, int arg) {
    long x;
    switch (code) {
    case CHECK_POOL:
        return t->poolsum > 0;
    case CHECK_POOL_NOT_FACE:
        for (int f = 0; f < 6; f++)
            if (f != arg - 1 && t->pool[f]) return 1;
        return 0;
    case CHECK_MOVE:
        return has_move_source(t);
    case CHECK_BLOCK:
        for (long sid = 0; sid < NBOARD; sid++) {
            if (t->req[sid] < 0) continue;
            int b = at_truth(&t->blocked, sid);
            if (b < 0) return -1;
            if (b) continue;
            if (at(&t->seat, sid, &x) < 0) return -1;
            if (x < 0) return 1;
        }
        return 0;
    case CHECK_SOURCE_DIE: {
        Seq src;
        if (field_seq(t->d, F_src_dice, &src) < 0 || at(&src, t->p, &x) < 0) return -1;
        return x >= 1;
    }
    case CHECK_RUNE: {
        PyObject *o = field(t->d, F_rune_deck);
        Seq deck;
        if (!o || as_seq(o, &deck, "rune_deck") < 0) return -1;
        return t->privs.n < 2 && deck.n > 0;
    }
    case CHECK_PRIMUS:
        if (field_long(t->d, F_primus, &x) < 0) return -1;
        return x != t->p;
    }
    PyErr_Format(PyExc_ValueError, "legal actions: unknown check %d", code);
    return -1;
}

static PyObject *turn_legal(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "turn_legal(context, state) takes 2 arguments");
        return NULL;
    }
    const Ctx *c = (const Ctx *)PyCapsule_GetPointer(args[0], CAPSULE);
    if (!c) return NULL;
    PyObject *d = PyObject_GenericGetDict(args[1], NULL);
    if (!d) return NULL;
    Turn t;
    t.c = c;
    t.d = d;
    long acts[6 * NSOCK + 8 + MAXK];
    int m = 0;
    PyObject *tn = field(d, F_turn), *o, *res = NULL;
    Seq pools, hands, hand;
    long left, phase;
    int socketed, mandatory, stack;
    if (!tn) goto fail;
    if (!(o = rneed(tn, R_player, "turn")) || to_long(o, &t.p, "turn player") < 0) goto fail;
    if (!(o = rneed(tn, R_left, "turn")) || to_long(o, &left, "turn left") < 0) goto fail;
    if (!(o = rneed(tn, R_socketed, "turn")) || (socketed = truth(o)) < 0) goto fail;
    if (!(o = rneed(tn, R_mandatory_done, "turn")) || (mandatory = truth(o)) < 0) goto fail;
    if (!(o = rneed(tn, R_stack_ready, "turn")) || (stack = truth(o)) < 0) goto fail;
    TRY(field_seq(d, F_pool, &pools));
    Seq pool;
    TRY(sub(&pools, t.p, &pool));
    t.poolsum = 0;
    for (int f = 0; f < 6; f++) {
        TRY(at(&pool, f, &t.pool[f]));
        t.poolsum += t.pool[f];
    }
    TRY(field_long(d, F_phase, &phase));
    TRY(field_seq(d, F_sock_seat, &t.seat));
    TRY(field_seq(d, F_sock_face, &t.face));
    TRY(field_seq(d, F_blocked, &t.blocked));
    Seq privs_all;
    TRY(field_seq(d, F_priv, &privs_all));
    TRY(sub(&privs_all, t.p, &t.privs));
    if (t.privs.n > 2) {
        PyErr_Format(PyExc_ValueError, "legal actions: priv of player %ld holds %zd Runes (at most 2)", t.p, t.privs.n);
        goto fail;
    }
    TRY(geometry(&t));
    int anypool = t.pool[0] || t.pool[1] || t.pool[2] || t.pool[3] || t.pool[4] || t.pool[5];
    if (left >= 1 && anypool) {
        int bump = stack && phase == c->phase_action;
        /* the open sockets' state, read once: 0 free, 1 taken (or blocked), 2 a bump candidate (then its face) */
        unsigned char st[NBOARD];
        long bface[NBOARD];
        for (long sid = 0; sid < NBOARD; sid++) {
            if (t.req[sid] < 0) continue;
            long q;
            int b = at_truth(&t.blocked, sid);
            TRY(b);
            TRY(at(&t.seat, sid, &q));
            st[sid] = b ? 1 : q < 0 ? 0 : (bump && q != t.p) ? 2 : 1;
            if (st[sid] == 2) TRY(at(&t.face, sid, &bface[sid]));
        }
        for (long f = 0; f < 6; f++) {
            if (!t.pool[f]) continue;
            long fb = c->place + f * NSOCK;
            for (long sid = 0; sid < NBOARD; sid++) {
                signed char r = t.req[sid];
                if (r < 0 || (r && r != f + 1)) continue;
                if (st[sid] == 0 || (st[sid] == 2 && bface[sid] <= f)) acts[m++] = fb + sid;
            }
            TRY(private_sockets(&t, f + 1, fb, acts, &m));
        }
    }
    if (!mandatory && !m)
        for (long f = 0; f < 6; f++)
            if (t.pool[f]) acts[m++] = c->set_aside + f;
    if (mandatory) acts[m++] = c->end_turn;
    TRY(field_seq(d, F_hand, &hands));
    TRY(sub(&hands, t.p, &hand));
    if (hand.n > c->K) { PyErr_Format(PyExc_IndexError, "legal actions: hand has %zd kinds, the game %d", hand.n, c->K); goto fail; }
    if (t.poolsum || (mandatory && !socketed)) {
        int cache[NCHECK][7];  /* check results by (code, arg): -2 not computed yet */
        for (int i = 0; i < NCHECK; i++)
            for (int j = 0; j < 7; j++) cache[i][j] = -2;
        for (long k = 0; k < hand.n; k++) {
            int held = truth(hand.it[k]);
            TRY(held);
            if (!held || !(c->anytime[k] || !socketed) || c->ncheck[k] < 0) continue;
            int ok = 1;
            for (int j = 0; j < c->ncheck[k] && ok; j++) {
                int code = c->check[k][j], arg = c->arg[k][j];
                if (cache[code][arg] == -2) cache[code][arg] = check_ok(&t, code, arg);
                TRY(cache[code][arg]);
                ok = cache[code][arg];
            }
            if (ok) acts[m++] = c->cast + k;
        }
    }
    res = PyList_New(m);
    if (!res) goto fail;
    for (int i = 0; i < m; i++) {
        PyObject *v = PyTuple_GET_ITEM(c->ints, acts[i]);  /* every listed action is below cast + K */
        Py_INCREF(v);
        PyList_SET_ITEM(res, i, v);
    }
fail:
    Py_DECREF(d);
    return res;
}

/* ------------------------------------------------------------------ mask_of */
static PyObject *mask_of(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "mask_of(actions, n) takes 2 arguments");
        return NULL;
    }
    Seq acts;
    long n;
    if (as_seq(args[0], &acts, "actions") < 0 || to_long(args[1], &n, "n") < 0) return NULL;
    if (n < 0) { PyErr_Format(PyExc_ValueError, "mask_of: n is %ld, expected >= 0", n); return NULL; }
    PyObject *out = PyByteArray_FromStringAndSize(NULL, n);
    if (!out) return NULL;
    char *b = PyByteArray_AS_STRING(out);
    memset(b, 0, (size_t)n);
    for (Py_ssize_t i = 0; i < acts.n; i++) {
        long a;
        if (to_long(acts.it[i], &a, "actions") < 0) { Py_DECREF(out); return NULL; }
        if (a < 0 || a >= n) {
            PyErr_Format(PyExc_IndexError, "mask_of: action %ld outside 0..%ld", a, n - 1);
            Py_DECREF(out);
            return NULL;
        }
        b[a] = 1;
    }
    return out;
}

static PyMethodDef methods[] = {
    {"make_context", make_context, METH_VARARGS,
     "make_context(codes, board_sockets, round_sockets, round_reserved, anytime, checks) -> context"},
    {"turn_legal", (PyCFunction)(void (*)(void))turn_legal, METH_FASTCALL,
     "turn_legal(context, state) -> the TURN decision's legal actions (ascending list of int)"},
    {"mask_of", (PyCFunction)(void (*)(void))mask_of, METH_FASTCALL,
     "mask_of(actions, n) -> bytearray of n bytes, 1 at every listed action"},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, "_fastmask",
    "Compiled legal-action lists of Monolith: The Strategy Game (docs/monolith_strategy.md §10).", -1, methods
};

PyMODINIT_FUNC PyInit__fastmask(void) {
    for (int k = 0; k < NF; k++)
        if (!(FKEYS[k] = PyUnicode_InternFromString(FNAMES[k]))) return NULL;
    for (int k = 0; k < NR; k++)
        if (!(RKEYS[k] = PyUnicode_InternFromString(RNAMES[k]))) return NULL;
    return PyModule_Create(&moddef);
}
