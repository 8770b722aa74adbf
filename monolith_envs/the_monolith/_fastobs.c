/* Compiled observation builder of The Monolith (docs/the_monolith.md §7).
 *
 * The same observation as monolith_envs/the_monolith/observe.py (Observer.observe_python), value for value:
 * the Python implementation is the reference, and tests/the_monolith/test_fastobs.py compares both for every
 * seat at every decision of seeded games in 2p, 3p, 4p, 4p with the draft and non-default tower weights.
 * It reads the plain-data state (Python lists of ints) directly; nothing is converted to arrays first.
 *
 *   make_context(layout, tables, config) -> capsule
 *     layout: a dict of named ints (Observer.layout_ints builds it from the ObsSpec): the offset of every
 *       piece ("players", "spaces", ...), the start of every column within a row ("players.favour",
 *       "spaces.controller", "context.high_bidder", ...), the row widths ("players.row", ...), the piece
 *       sizes ("phase.size", "sub_phase.size"), the game's sizes (n, N, R, S, D, E, O, P, num_days, size,
 *       draft_max_bid, monolith) and the decision codes the context piece looks at ("sub.MARCH_STEP", ...).
 *       Each is read once, here, by the name CTX_INTS below gives it; a missing one is a KeyError naming it.
 *     tables: a dict of int lists by name: active[N], building[N] (-1 or the building column), slots[N],
 *       base_tunnel[N], event_tunnel[E] (-1: no set_tunnel on reveal, else the last one's value),
 *       shaman_weight[S], div_weight[D] (the shaman_control_weight modifier, 0 without one), hold[n].
 *     config: the 4 floats of the config piece.
 *   observe(context, state, viewer, out) -> None    (out: writable float32[size] buffer; zeroed here)
 *
 * Errors: ValueError for a viewer that is not a seat (the Python message) or a code outside its range,
 * TypeError for a state field that is not a list of ints, IndexError for a list that is too short,
 * AttributeError for a missing field; each message names the field.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "_fastobs_lists.h"

#define CAPSULE "the_monolith_obs_ctx"
#define MAXP 4

/* Ctx member <- layout key (X-macro: the member list and the key list cannot drift apart) */
#define CTX_INTS(X) \
    X(n, "n") X(N, "N") X(R, "R") X(S, "S") X(D, "D") X(E, "E") X(O, "O") X(P, "P") X(num_days, "num_days") \
    X(size, "size") X(dmb, "draft_max_bid") X(mono, "monolith") \
    X(a_phase, "phase") X(n_phase, "phase.size") X(a_sub, "sub_phase") X(n_sub, "sub_phase.size") \
    X(a_day, "day") X(a_decider, "decider") X(a_first, "first_player") X(a_surge, "surge") \
    X(a_players, "players") X(a_spaces, "spaces") X(a_row, "row") X(a_own, "own_objectives") \
    X(a_scored, "scored_objectives") X(a_divd, "div_discard") X(a_events, "events") X(a_decks, "deck_sizes") \
    X(a_context, "context") X(a_config, "config") \
    X(pw, "players.row") X(sw, "spaces.row") X(rw, "row.row") X(ew, "events.row") \
    X(pl_present, "players.present") X(pl_favour, "players.favour") X(pl_available, "players.available") \
    X(pl_spent, "players.spent") X(pl_unearned, "players.unearned") X(pl_on_row, "players.on_row") \
    X(pl_tower_today, "players.tower_today") X(pl_tower_stuck, "players.tower_stuck") \
    X(pl_zones, "players.zones") X(pl_boast, "players.boast") X(pl_reserves, "players.reserves") \
    X(pl_anger, "players.anger") X(pl_limbo, "players.limbo") X(pl_living, "players.living") \
    X(pl_dead, "players.dead") X(pl_shaman_alive, "players.shaman_alive") X(pl_committed, "players.committed") \
    X(pl_out, "players.out") X(pl_kills, "players.kills") X(pl_objectives, "players.objectives") \
    X(pl_draft_bid, "players.draft_bid") X(pl_shaman, "players.shaman") X(pl_held, "players.held") \
    X(sp_active, "spaces.active") X(sp_building, "spaces.building") X(sp_tunnel, "spaces.tunnel") \
    X(sp_monolith, "spaces.monolith") X(sp_stronghold, "spaces.stronghold") X(sp_slots, "spaces.slots") \
    X(sp_blood, "spaces.blood") X(sp_seats, "spaces.seats") X(sp_seat_w, "spaces.seat_width") \
    X(sp_living, "spaces.seat.living") X(sp_dead, "spaces.seat.dead") \
    X(sp_sh_alive, "spaces.seat.shaman_alive") X(sp_sh_dead, "spaces.seat.shaman_dead") \
    X(sp_boast, "spaces.seat.boast") X(sp_controller, "spaces.controller") \
    X(rw_card, "row.card") X(rw_bids, "row.bids") \
    X(ev_in_play, "events.in_play") X(ev_discarded, "events.discarded") X(ev_space, "events.space") \
    X(dk_div, "deck_sizes.div_deck") X(dk_event, "deck_sizes.event_deck") X(dk_obj, "deck_sizes.obj_deck") \
    X(dk_obj_discard, "deck_sizes.obj_discard") \
    X(cx_focus, "context.focus") X(cx_slot, "context.slot") X(cx_owed, "context.owed") \
    X(cx_surge_first, "context.surge_first") X(cx_march_group, "context.march_group") \
    X(cx_march_steps, "context.march_steps") X(cx_free_steps, "context.free_steps") \
    X(cx_sh_steps, "context.shaman_steps") X(cx_rec_paid, "context.paid") X(cx_rec_bonus, "context.bonus") \
    X(cx_free_fate, "context.free_fate") X(cx_used, "context.power_used") \
    X(cx_draft_shaman, "context.draft_shaman") X(cx_high_bid, "context.high_bid") \
    X(cx_high_bidder, "context.high_bidder") X(cx_passed, "context.passed") X(cx_claimed, "context.claimed") \
    X(cf_first, "config.slay_weight") \
    X(sub_march_step, "sub.MARCH_STEP") X(sub_march_regroup, "sub.MARCH_REGROUP") \
    X(sub_march_group, "sub.MARCH_GROUP") X(sub_shaman_step, "sub.SHAMAN_STEP") \
    X(sub_maneuver_dest, "sub.MANEUVER_DEST") X(sub_power_window, "sub.POWER_WINDOW") \
    X(sub_extra_kill, "sub.EXTRA_KILL") X(sub_event_move, "sub.EVENT_MOVE") X(sub_div_raise, "sub.DIV_RAISE") \
    X(sub_div_amount, "sub.DIV_AMOUNT") X(sub_event_place, "sub.EVENT_PLACE")

/* table member <- tables key, with its length: the map size N, the event count E, ... */
#define CTX_TABLES(X) \
    X(active, "active", N) X(building, "building", N) X(slots, "slots", N) X(base_tunnel, "base_tunnel", N) \
    X(event_tunnel, "event_tunnel", E) X(shaman_weight, "shaman_weight", S) X(div_weight, "div_weight", D) \
    X(hold, "hold", n)

#define AS_MEMBER(member, key) int member;
#define AS_TABLE(member, key, len) int *member;
typedef struct {
    CTX_INTS(AS_MEMBER)
    CTX_TABLES(AS_TABLE)
    float config[4];
} Ctx;

static void ctx_free(PyObject *cap) {
    Ctx *c = (Ctx *)PyCapsule_GetPointer(cap, CAPSULE);
    if (!c) return;
#define FREE_TABLE(member, key, len) PyMem_Free(c->member);
    CTX_TABLES(FREE_TABLE)
#undef FREE_TABLE
    PyMem_Free(c);
}

/* ---- state fields through the instance dict (interned keys; X-macro names each field once) */
#define STATE_FIELDS(X) \
    X(n) X(day) X(phase) X(sub) X(current) X(first) X(surge) X(terminal) X(favour) X(available) X(spent) \
    X(unearned) X(tower_today) X(tower_stuck) X(board) X(reserves) X(anger) X(limbo) X(shaman_id) \
    X(shaman_space) X(shaman_alive) X(held) X(objectives) X(committed) X(out) X(kills_today) X(draft_bid) \
    X(living) X(dead) X(blood) X(boast) X(row) X(bids) X(div_deck) X(div_discard) X(event_deck) \
    X(event_discard) X(events) X(obj_deck) X(obj_discard) X(focus_slot) X(march_src) X(march_cur) \
    X(march_group) X(march_steps) X(free_steps) X(sh_steps) X(rec_paid) X(rec_bonus) X(man_space) X(owed) \
    X(surge_first) X(free_fate) X(last_space) X(turn_used) X(win_used) X(event_focus) X(d_shaman) X(d_high) \
    X(d_high_bidder) X(d_passed) X(d_claimed)
#define AS_K(name) K_##name,
#define AS_STR(name) #name,
enum { STATE_FIELDS(AS_K) NK };
static const char *KNAMES[NK] = { STATE_FIELDS(AS_STR) };
static PyObject *KEYS[NK];

static PyObject *field(PyObject *d, int k) {
    PyObject *v = PyDict_GetItemWithError(d, KEYS[k]);
    if (!v && !PyErr_Occurred())
        PyErr_Format(PyExc_AttributeError, "observation: the state has no field %s", KNAMES[k]);
    return v; /* borrowed */
}

static int get_int(PyObject *d, int k, long *v) {
    PyObject *o = field(d, k);
    return o ? to_long(o, v, KNAMES[k]) : -1;
}

static int get_list(PyObject *d, int k, List *l) {
    PyObject *o = field(d, k);
    return o ? as_list(o, l, KNAMES[k]) : -1;
}

/* per-seat list of at least n ints into v[0..n-1] */
static int get_seats(PyObject *d, int k, int n, long *v) {
    List l;
    if (get_list(d, k, &l) < 0) return -1;
    for (int q = 0; q < n; q++)
        if (item(&l, q, &v[q]) < 0) return -1;
    return 0;
}

#define TRY(x) do { if ((x) < 0) goto fail; } while (0)

/* ------------------------------------------------------------------ make_context */
static PyObject *make_context(PyObject *self, PyObject *args) {
    PyObject *layout, *tables, *config;
    if (!PyArg_ParseTuple(args, "O!O!O:make_context", &PyDict_Type, &layout, &PyDict_Type, &tables, &config))
        return NULL;
    Ctx *c = PyMem_Calloc(1, sizeof(Ctx));
    if (!c) return PyErr_NoMemory();
    PyObject *cap = PyCapsule_New(c, CAPSULE, ctx_free);
    if (!cap) { PyMem_Free(c); return NULL; }
#define READ_INT(member, key) if (layout_int(layout, key, &c->member) < 0) goto fail;
    CTX_INTS(READ_INT)
#undef READ_INT
    if (c->n < 1 || c->n > MAXP || c->P != MAXP || c->dmb < 1 || c->D < 1 || c->E < 1 || c->O < 1) {
        PyErr_SetString(PyExc_ValueError, "make_context: n, P, draft_max_bid, D, E or O out of range");
        goto fail;
    }
#define READ_TABLE(member, key, len) if (!(c->member = table_ints(tables, key, c->len))) goto fail;
    CTX_TABLES(READ_TABLE)
#undef READ_TABLE
    PyObject *seq = PySequence_Fast(config, "make_context: config must be a sequence of 4 floats");
    if (!seq) goto fail;
    if (PySequence_Fast_GET_SIZE(seq) != 4) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "make_context: config must hold 4 floats");
        goto fail;
    }
    for (int k = 0; k < 4; k++) {
        double x = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, k));
        if (x == -1.0 && PyErr_Occurred()) { Py_DECREF(seq); goto fail; }
        c->config[k] = (float)x;
    }
    Py_DECREF(seq);
    return cap;
fail:
    Py_DECREF(cap);
    return NULL;
}

/* ------------------------------------------------------------------ observe */
static inline float ratio(long x, double by) { return (float)((double)x / by); }

/* the seat's shaman_control_weight (docs §4.1): the largest modifier of its shaman and held cards, at least 1 */
static int weight_of(const Ctx *c, long sid, const List *held, long *w) {
    long best = 1;
    if (sid < 0) sid += c->S; /* a seat without a shaman yet reads the last one, as Python indexing does */
    if (sid >= 0 && sid < c->S && c->shaman_weight[sid] > best) best = c->shaman_weight[sid];
    for (Py_ssize_t j = 0; j < held->len; j++) {
        long card;
        if (item(held, j, &card) < 0 || in_range(card, 0, c->D, "a held divination") < 0) return -1;
        if (c->div_weight[card] > best) best = c->div_weight[card];
    }
    *w = best;
    return 0;
}

/* entry j of the events in play: the event (0..E-1) and its space (0..N-1, or negative for none) */
static int event_at(const Ctx *c, const List *events, Py_ssize_t j, long *e, long *sp) {
    List ev;
    if (sublist(events, j, &ev) < 0 || item(&ev, 0, e) < 0 || item(&ev, 1, sp) < 0) return -1;
    if (in_range(*e, 0, c->E, "an event in play") < 0) return -1;
    return *sp >= 0 ? in_range(*sp, 0, c->N, "an event's space") : 0;
}

/* the spaces block (docs §7 spaces) and the per-seat totals of living warriors, dead warriors and boasts */
static int spaces_block(const Ctx *c, PyObject *d, const long *rel, const long *alive, const List *held,
                        long *liv, long *dead, long *boast, float *o) {
    const int n = c->n, N = c->N, sw = c->sw;
    List living, dead_, blood, boasts, events, shsp;
    TRY(get_list(d, K_living, &living));
    TRY(get_list(d, K_dead, &dead_));
    TRY(get_list(d, K_blood, &blood));
    TRY(get_list(d, K_boast, &boasts));
    TRY(get_list(d, K_events, &events));
    TRY(get_list(d, K_shaman_space, &shsp));
    long sid[MAXP], shs[MAXP], w[MAXP];
    TRY(get_seats(d, K_shaman_id, n, sid));
    for (int q = 0; q < n; q++) {
        TRY(item(&shsp, q, &shs[q]));
        List h;
        TRY(sublist(held, q, &h));
        TRY(weight_of(c, sid[q], &h, &w[q]));
    }
    unsigned char tun[256];
    if (N > 256) { PyErr_SetString(PyExc_ValueError, "observation: more than 256 spaces"); goto fail; }
    for (int sp = 0; sp < N; sp++) tun[sp] = (unsigned char)(c->base_tunnel[sp] != 0);
    for (Py_ssize_t j = 0; j < events.len; j++) {
        long e, sp;
        TRY(event_at(c, &events, j, &e, &sp));
        if (sp >= 0 && c->event_tunnel[e] >= 0) tun[sp] = (unsigned char)(c->event_tunnel[e] && c->active[sp]);
    }
    for (int q = 0; q < n; q++) liv[q] = dead[q] = boast[q] = 0;
    for (int sp = 0; sp < N; sp++) {
        List lv, dd, bo;
        long lq[MAXP], dq[MAXP], bq[MAXP];
        TRY(sublist(&living, sp, &lv));
        TRY(sublist(&dead_, sp, &dd));
        TRY(sublist(&boasts, sp, &bo));
        for (int q = 0; q < n; q++) {
            TRY(item(&lv, q, &lq[q]));
            TRY(item(&dd, q, &dq[q]));
            TRY(item(&bo, q, &bq[q]));
            liv[q] += lq[q];
            dead[q] += dq[q];
            boast[q] += bq[q];
        }
        if (!c->active[sp]) continue; /* locked spaces hold nothing; the totals still count every space */
        float *b = o + c->a_spaces + sp * sw;
        b[c->sp_active] = 1.0f;
        if (c->building[sp] >= 0) b[c->sp_building + c->building[sp]] = 1.0f;
        if (sp == c->mono) b[c->sp_monolith] = 1.0f;
        b[c->sp_slots] = ratio(c->slots[sp], 6.0);
        if (tun[sp]) b[c->sp_tunnel] = 1.0f;
        long bl;
        TRY(item(&blood, sp, &bl));
        if (bl) b[c->sp_blood] = ratio(bl, 6.0);
        long best = 0, who = -1;
        int tie = 0;
        for (int q = 0; q < n; q++) {
            float *u = b + c->sp_seats + c->sp_seat_w * rel[q];
            if (c->hold[q] == sp) b[c->sp_stronghold + rel[q]] = 1.0f;
            if (lq[q]) u[c->sp_living] = ratio(lq[q], 16.0);
            if (dq[q]) u[c->sp_dead] = ratio(dq[q], 16.0);
            if (bq[q]) u[c->sp_boast] = ratio(bq[q], 6.0);
            long units = lq[q];
            if (shs[q] == sp) {
                u[alive[q] ? c->sp_sh_alive : c->sp_sh_dead] = 1.0f;
                if (alive[q]) units += w[q];
            }
            if (units > best) { best = units; who = q; tie = 0; }
            else if (units == best && units > 0) tie = 1;
        }
        if (who >= 0 && !tie) b[c->sp_controller + rel[who]] = 1.0f;
    }
    return 0;
fail:
    return -1;
}

/* multi-hot of the indices (each in 0..hi-1) of list l at at[index] */
static int hot(const List *l, long hi, float *at, const char *what) {
    for (Py_ssize_t j = 0; j < l->len; j++) {
        long x;
        if (item(l, j, &x) < 0 || in_range(x, 0, hi, what) < 0) return -1;
        at[x] = 1.0f;
    }
    return 0;
}

/* the same for the list field k of the state */
static int multi_hot(PyObject *d, int k, long hi, float *at) {
    List l;
    if (get_list(d, k, &l) < 0) return -1;
    return hot(&l, hi, at, KNAMES[k]);
}

static int players_block(const Ctx *c, PyObject *d, long viewer, const long *alive, const List *held,
                         const long *liv, const long *dead, const long *boast, float *o) {
    const int n = c->n;
    static const int hearts[6] = {K_available, K_spent, K_unearned, K_tower_today, K_tower_stuck, K_favour};
    long v[6][MAXP], res[MAXP], ang[MAXP], lim[MAXP], sid[MAXP], com[MAXP], out[MAXP], kil[MAXP], dbid[MAXP];
    for (int k = 0; k < 6; k++) TRY(get_seats(d, hearts[k], n, v[k]));
    TRY(get_seats(d, K_reserves, n, res));
    TRY(get_seats(d, K_anger, n, ang));
    TRY(get_seats(d, K_limbo, n, lim));
    TRY(get_seats(d, K_shaman_id, n, sid));
    TRY(get_seats(d, K_committed, n, com));
    TRY(get_seats(d, K_out, n, out));
    TRY(get_seats(d, K_kills_today, n, kil));
    TRY(get_seats(d, K_draft_bid, n, dbid));
    List board, objs, bids;
    TRY(get_list(d, K_board, &board));
    TRY(get_list(d, K_objectives, &objs));
    TRY(get_list(d, K_bids, &bids));
    for (int k = 0; k < n; k++) {
        int q = (int)((viewer + k) % n);
        float *b = o + c->a_players + k * c->pw;
        b[c->pl_present] = 1.0f;
        b[c->pl_favour] = ratio(v[5][q], 100.0);
        long on_row = 0;
        for (Py_ssize_t i = 0; i < bids.len; i++) {
            List r;
            long x;
            TRY(sublist(&bids, i, &r));
            TRY(item(&r, q, &x));
            on_row += x;
        }
        List zb;
        long z[3];
        TRY(sublist(&board, q, &zb));
        for (int j = 0; j < 3; j++) TRY(item(&zb, j, &z[j]));
        const long h19[10] = {v[0][q], v[1][q], v[2][q], on_row, v[3][q], v[4][q], z[0], z[1], z[2], boast[q]};
        const int h19_at[10] = {c->pl_available, c->pl_spent, c->pl_unearned, c->pl_on_row, c->pl_tower_today,
                                c->pl_tower_stuck, c->pl_zones, c->pl_zones + 1, c->pl_zones + 2, c->pl_boast};
        for (int j = 0; j < 10; j++)
            if (h19[j]) b[h19_at[j]] = ratio(h19[j], 19.0);
        const long w16[5] = {res[q], ang[q], lim[q], liv[q], dead[q]};
        const int w16_at[5] = {c->pl_reserves, c->pl_anger, c->pl_limbo, c->pl_living, c->pl_dead};
        for (int j = 0; j < 5; j++)
            if (w16[j]) b[w16_at[j]] = ratio(w16[j], 16.0);
        b[c->pl_shaman_alive] = (float)alive[q];
        b[c->pl_committed] = (float)com[q];
        b[c->pl_out] = (float)out[q];
        b[c->pl_kills] = ratio(kil[q], 16.0);
        List ob;
        TRY(sublist(&objs, q, &ob));
        b[c->pl_objectives] = ratio((long)ob.len, 3.0);
        b[c->pl_draft_bid] = ratio(dbid[q], (double)c->dmb);
        if (sid[q] >= 0) {
            TRY(in_range(sid[q], 0, c->S, "shaman_id"));
            b[c->pl_shaman + sid[q]] = 1.0f;
        }
        List h;
        TRY(sublist(held, q, &h));
        TRY(hot(&h, c->D, b + c->pl_held, "a held divination"));
    }
    return 0;
fail:
    return -1;
}

static int cards_blocks(const Ctx *c, PyObject *d, long viewer, const long *rel, float *o) {
    const int n = c->n;
    List row, bids, objs, mine, disc, events, edisc, deck;
    TRY(get_list(d, K_row, &row));
    TRY(get_list(d, K_bids, &bids));
    if (row.len > c->R) { PyErr_Format(PyExc_ValueError, "observation: row has %zd slots, more than %d", row.len, c->R); goto fail; }
    for (Py_ssize_t i = 0; i < row.len; i++) {
        float *b = o + c->a_row + i * c->rw;
        long card;
        TRY(item(&row, i, &card));
        if (card >= 0) {
            TRY(in_range(card, 0, c->D, "a row card"));
            b[c->rw_card + card] = 1.0f;
        }
        List r;
        TRY(sublist(&bids, i, &r));
        for (int q = 0; q < n; q++) {
            long x;
            TRY(item(&r, q, &x));
            if (x) b[c->rw_bids + rel[q]] = ratio(x, 19.0);
        }
    }
    TRY(get_list(d, K_objectives, &objs));
    TRY(sublist(&objs, viewer, &mine));
    TRY(hot(&mine, c->O, o + c->a_own, "an objective"));
    TRY(get_list(d, K_obj_discard, &disc));
    for (Py_ssize_t j = 0; j < disc.len; j++) {
        List pair;
        long x, up;
        TRY(sublist(&disc, j, &pair));
        TRY(item(&pair, 0, &x));
        TRY(item(&pair, 1, &up));
        if (up) {
            TRY(in_range(x, 0, c->O, "an objective discard"));
            o[c->a_scored + x] = 1.0f;
        }
    }
    float *dk = o + c->a_decks;
    dk[c->dk_obj_discard] = ratio((long)disc.len, (double)c->O);
    TRY(multi_hot(d, K_div_discard, c->D, o + c->a_divd));
    TRY(get_list(d, K_events, &events));
    for (Py_ssize_t j = 0; j < events.len; j++) {
        long e, sp;
        TRY(event_at(c, &events, j, &e, &sp));
        float *b = o + c->a_events + e * c->ew;
        b[c->ev_in_play] = 1.0f;
        if (sp >= 0) b[c->ev_space + sp] = 1.0f;
    }
    {   /* the event drawn and being placed (EVENT_PLACE): in play, on no space yet (docs §7) */
        long sub_v, drawn;
        TRY(get_int(d, K_sub, &sub_v));
        TRY(get_int(d, K_event_focus, &drawn));
        if (sub_v == c->sub_event_place && drawn >= 0) {
            TRY(in_range(drawn, 0, c->E, "the event being placed"));
            o[c->a_events + drawn * c->ew + c->ev_in_play] = 1.0f;
        }
    }
    TRY(get_list(d, K_event_discard, &edisc));
    for (Py_ssize_t j = 0; j < edisc.len; j++) {
        long e;
        TRY(item(&edisc, j, &e));
        TRY(in_range(e, 0, c->E, "an event discard"));
        o[c->a_events + e * c->ew + c->ev_discarded] = 1.0f;
    }
    TRY(get_list(d, K_div_deck, &deck));
    dk[c->dk_div] = ratio((long)deck.len, (double)c->D);
    TRY(get_list(d, K_event_deck, &deck));
    dk[c->dk_event] = ratio((long)deck.len, (double)c->E);
    TRY(get_list(d, K_obj_deck, &deck));
    dk[c->dk_obj] = ratio((long)deck.len, (double)c->O);
    return 0;
fail:
    return -1;
}

static int context_block(const Ctx *c, PyObject *d, long sub, long current, const long *rel, float *o) {
    float *x = o + c->a_context;
    long focus = -1, v;
    if (sub == c->sub_march_step || sub == c->sub_march_regroup) {
        TRY(get_int(d, K_march_cur, &focus));
    } else if (sub == c->sub_march_group) {
        TRY(get_int(d, K_march_src, &focus));
    } else if (sub == c->sub_shaman_step) {
        List l;
        TRY(in_range(current, 0, c->n, "current"));
        TRY(get_list(d, K_shaman_space, &l));
        TRY(item(&l, current, &focus));
    } else if (sub == c->sub_maneuver_dest) {
        TRY(get_int(d, K_man_space, &focus));
    } else if (sub == c->sub_power_window || sub == c->sub_extra_kill) {
        TRY(get_int(d, K_last_space, &focus));
        if (focus < 0) TRY(get_int(d, K_man_space, &focus));
    } else if (sub == c->sub_event_move) {
        TRY(get_int(d, K_event_focus, &v));
        if (v >= 0) {
            List events, ev;
            TRY(get_list(d, K_events, &events));
            TRY(sublist(&events, v, &ev));
            TRY(item(&ev, 1, &focus));
        }
    }
    if (focus >= 0) {
        TRY(in_range(focus, 0, c->N, "the focus space"));
        x[c->cx_focus + focus] = 1.0f;
    }
    if (sub == c->sub_div_raise || sub == c->sub_div_amount) {
        TRY(get_int(d, K_focus_slot, &v));
        if (v >= 0) {
            TRY(in_range(v, 0, c->R, "focus_slot"));
            x[c->cx_slot + v] = 1.0f;
        }
    }
    static const int kk[9] = {K_owed, K_surge_first, K_march_group, K_march_steps, K_free_steps, K_sh_steps,
                              K_rec_paid, K_rec_bonus, K_free_fate};
    long val[9];
    for (int k = 0; k < 9; k++) TRY(get_int(d, kk[k], &val[k]));
    x[c->cx_owed] = ratio(val[0], 4.0);
    x[c->cx_surge_first] = (float)val[1];
    x[c->cx_march_group] = ratio(val[2], 16.0);
    x[c->cx_march_steps] = val[3] >= 10 ? 1.0f : ratio(val[3], 10.0);
    x[c->cx_free_steps] = ratio(val[4], 5.0);
    x[c->cx_sh_steps] = ratio(val[5], 5.0);
    x[c->cx_rec_paid] = ratio(val[6], 19.0);
    x[c->cx_rec_bonus] = ratio(val[7] > 0 ? val[7] : 0, 5.0);
    x[c->cx_free_fate] = ratio(val[8], 5.0);
    List used;
    TRY(get_list(d, sub == c->sub_power_window ? K_win_used : K_turn_used, &used));
    for (int j = 0; j < 4; j++) {
        TRY(item(&used, j, &v));
        x[c->cx_used + j] = (float)v;
    }
    TRY(get_int(d, K_d_shaman, &v));
    if (v >= 0) {
        TRY(in_range(v, 0, c->S, "d_shaman"));
        x[c->cx_draft_shaman + v] = 1.0f;
    }
    TRY(get_int(d, K_d_high, &v));
    if (v >= 0) x[c->cx_high_bid] = ratio(v, (double)c->dmb);
    TRY(get_int(d, K_d_high_bidder, &v));
    if (v >= 0) {
        TRY(in_range(v, 0, c->n, "d_high_bidder"));
        x[c->cx_high_bidder + rel[v]] = 1.0f;
    }
    long passed[MAXP];
    TRY(get_seats(d, K_d_passed, c->n, passed));
    for (int q = 0; q < c->n; q++)
        if (passed[q]) x[c->cx_passed + rel[q]] = 1.0f;
    TRY(multi_hot(d, K_d_claimed, c->S, x + c->cx_claimed));
    return 0;
fail:
    return -1;
}

static PyObject *observe(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "observe(context, state, viewer, out) takes 4 arguments");
        return NULL;
    }
    Ctx *c = (Ctx *)PyCapsule_GetPointer(args[0], CAPSULE);
    if (!c) return NULL;
    long viewer, sn, v;
    if (to_long(args[2], &viewer, "viewer") < 0) return NULL;
    PyObject *d = PyObject_GenericGetDict(args[1], NULL);
    if (!d) return NULL;
    Py_buffer ob;
    ob.obj = NULL;
    const int n = c->n;
    TRY(get_int(d, K_n, &sn));
    if (!(0 <= viewer && viewer < sn)) {
        PyErr_Format(PyExc_ValueError, "observer seat %ld outside 0..%ld", viewer, sn - 1);
        goto fail;
    }
    if (sn != n) { PyErr_Format(PyExc_ValueError, "observation: the state has %ld seats, the game %d", sn, n); goto fail; }
    TRY(PyObject_GetBuffer(args[3], &ob, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS));
    if (ob.len != (Py_ssize_t)c->size * 4) {
        PyErr_Format(PyExc_ValueError, "observation: out has %zd bytes, expected float32[%d]", ob.len, c->size);
        goto fail;
    }
    float *o = (float *)ob.buf;
    memset(o, 0, ob.len);
    long rel[MAXP];
    for (int q = 0; q < n; q++) rel[q] = ((q - viewer) % n + n) % n;
    long phase, sub, day, current, terminal, first, surge;
    TRY(get_int(d, K_phase, &phase));
    TRY(in_range(phase, 0, c->n_phase, "phase"));
    o[c->a_phase + phase] = 1.0f;
    TRY(get_int(d, K_sub, &sub));
    if (sub >= 0) {
        TRY(in_range(sub, 0, c->n_sub, "sub"));
        o[c->a_sub + sub] = 1.0f;
    }
    TRY(get_int(d, K_day, &day));
    if (1 <= day && day <= c->num_days) o[c->a_day + day - 1] = 1.0f;
    TRY(get_int(d, K_terminal, &terminal));
    TRY(get_int(d, K_current, &current));
    if (!terminal && current >= 0) o[c->a_decider + ((current - viewer) % n + n) % n] = 1.0f;
    TRY(get_int(d, K_first, &first));
    o[c->a_first + ((first - viewer) % n + n) % n] = 1.0f;
    TRY(get_int(d, K_surge, &surge));
    o[c->a_surge + (surge >= 0 ? ((surge - viewer) % n + n) % n : c->P)] = 1.0f;
    for (int k = 0; k < 4; k++) o[c->a_config + c->cf_first + k] = c->config[k];
    long alive[MAXP], liv[MAXP], dead[MAXP], boast[MAXP];
    List held;
    TRY(get_seats(d, K_shaman_alive, n, alive));
    TRY(get_list(d, K_held, &held));
    TRY(spaces_block(c, d, rel, alive, &held, liv, dead, boast, o));
    TRY(players_block(c, d, viewer, alive, &held, liv, dead, boast, o));
    TRY(cards_blocks(c, d, viewer, rel, o));
    TRY(context_block(c, d, sub, current, rel, o));
    (void)v;
    PyBuffer_Release(&ob);
    Py_DECREF(d);
    Py_RETURN_NONE;
fail:
    if (ob.obj) PyBuffer_Release(&ob);
    Py_DECREF(d);
    return NULL;
}

static PyMethodDef methods[] = {
    {"make_context", make_context, METH_VARARGS, "make_context(layout, tables, config) -> context"},
    {"observe", (PyCFunction)(void (*)(void))observe, METH_FASTCALL,
     "observe(context, state, viewer, out): write seat viewer's observation into out (float32[size])"},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, "_fastobs", "Compiled observation builder of The Monolith (docs/the_monolith.md §7).",
    -1, methods
};

PyMODINIT_FUNC PyInit__fastobs(void) {
    for (int k = 0; k < NK; k++) {
        KEYS[k] = PyUnicode_InternFromString(KNAMES[k]);
        if (!KEYS[k]) return NULL;
    }
    return PyModule_Create(&moddef);
}
