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
 *   observe(context, state, fx, p, omniscient, out) -> None     (out: writable float32 buffer, any contents)
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

#include "_fastobs_read.h"

#include "_fastobs_context.h"

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
    /* the 19 hex rows are copied whole from the static rows below; everything after them starts at 0 */
    memset(o + 19 * W, 0, sizeof(float) * (size_t)(c->size - 19 * W));
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
     "observe(context, state, fx, p, omniscient, out): write seat p's observation into out (float32, overwritten whole)"},
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
