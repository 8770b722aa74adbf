/* Compiled observation builder of Monolith: The Strategy Game (docs/monolith_strategy.md §7).
 *
 * The same observation as monolith_envs/strategy/observe.py (Observer.observe_python), bit for bit: the
 * Python implementation is the reference and tests/strategy/test_fastobs.py compares both for every seat at
 * every decision of seeded games in 1, 2, 3 and 4 players (Exalted rounds, Player Powers, intro layouts).
 * It reads the plain-data state (Python ints, lists and dicts) directly; nothing is converted first.  Every
 * ratio is computed in double and capped at 1 before it is stored as float32, as the Python code does.
 *
 *   make_context(layout, board_sockets, round_sockets, round_reserved, copies, is_pp, tolls) -> capsule
 *     layout: a dict of named ints (Observer.layout_ints builds it from the ObsSpec): the piece offsets
 *     ("players", "sockets", ...), the start of every sub-field within a row ("players.vp", "sockets.face",
 *     "decision_ctx.socket", ...), row widths and piece sizes ("sockets.row", "round.size"), the sizes n, K,
 *     C, X, size, the config flags, the ratios' denominators and the phase, side and decision-kind codes.
 *     Each is read once, here, by the name CTX_INTS gives it (no offset is written into this file); a
 *     missing one is a KeyError naming it, a negative one a ValueError.
 *     board_sockets[c] / round_sockets[r]: the requirements (0 = ANY, 1-6) of board card c / Exalted side r
 *     (at most 4); round_reserved[r]: its sockets are reserved; copies[k], is_pp[k] per action kind; tolls:
 *     the toll spaces, ascending.
 *   observe(context, state, me, out) -> None     (out: writable float32 buffer of the layout size; it is
 *     cleared first, so an uninitialised one, numpy.empty, will do)
 *
 * The value readers and writers are in _fastobs_values.h (included once, below).
 *
 * Errors: TypeError for a field of the wrong type, IndexError for an index outside its list or the vector,
 * KeyError for a missing key of a record, ValueError for a buffer of the wrong size; the message names the
 * field.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <string.h>

#define NBOARD 52  /* board sockets: 13 positions x 4 */
#define NPOS 13

#define CTX_INTS(X) \
    X(size, "size") X(n, "n") X(K, "K") X(C, "C") X(nx, "X") X(solo, "solo") X(exalted, "exalted") \
    X(player_powers, "player_powers") X(total_gems, "total_gems") X(victory, "victory") \
    X(skill_size, "skill_size") X(power_size, "power_size") X(rune_size, "rune_size") X(priv0, "priv0") \
    X(phase_action, "phase_action") X(side_exalted, "side_exalted") X(k_pay_offer, "kind_pay_offer") \
    X(k_pay_more, "kind_pay_more") X(k_reveal_src, "kind_reveal_src") X(k_socket_dst, "kind_socket_dst") \
    X(k_discard, "kind_discard") X(k_rune_pick, "kind_rune_pick") \
    X(a_round, "round") X(round_size, "round.size") X(a_phase, "phase") X(a_decision, "decision") \
    X(decision_size, "decision.size") X(phase_size, "phase.size") \
    X(a_seats, "seats") X(seats_row, "seats.row") X(a_flags, "flags") X(f_locked, "flags.primus_locked") \
    X(f_solo, "flags.solo") X(f_exalted, "flags.exalted") X(f_powers, "flags.player_powers") \
    X(a_nplayers, "num_players") X(a_supply, "supply") X(u_gems, "supply.source_gems") \
    X(u_skill, "supply.skill_deck") X(u_power, "supply.power_deck") X(u_rune, "supply.rune_deck") \
    X(a_discards, "discards") X(a_turn, "turn") X(t_left, "turn.left") X(t_socketed, "turn.socketed") \
    X(t_mandatory, "turn.mandatory_done") X(t_stack, "turn.stack_ready") \
    X(a_rcard, "round_card") X(r_covered, "round_card.covered") X(r_exalted, "round_card.exalted") \
    X(r_exalted_id, "round_card.exalted_id") \
    X(a_pos, "positions") X(pos_row, "positions.row") X(b_card, "positions.card") \
    X(b_normal, "positions.covered_normal") X(b_exalted, "positions.covered_exalted") X(b_dice, "positions.dice") \
    X(b_total, "positions.total") \
    X(a_sock, "sockets") X(sock_row, "sockets.row") X(s_exists, "sockets.exists") X(s_req, "sockets.requirement") \
    X(s_reserved, "sockets.reserved") X(s_blocked, "sockets.blocked") X(s_occ, "sockets.occupant") \
    X(s_face, "sockets.face") \
    X(a_players, "players") X(pl_row, "players.row") X(p_present, "players.present") X(p_vp, "players.vp") \
    X(p_stones, "players.stones") X(p_gems, "players.gems") X(p_hand, "players.hand_size") \
    X(p_cast, "players.cast") X(p_pool, "players.pool") X(p_board, "players.board_dice") \
    X(p_priv, "players.private_dice") X(p_src, "players.source_dice") X(p_aside, "players.aside") \
    X(p_guard, "players.guard") X(p_runes, "players.runes") X(p_revealed, "players.revealed") \
    X(p_chase, "players.chase") X(p_marker, "players.chase_marker") X(p_bonus, "players.chase_bonus") \
    X(a_hand, "my_hand") X(a_runes, "my_runes") X(runes_row, "my_runes.row") \
    X(a_dec, "decision_ctx") X(d_rem, "decision_ctx.remaining") X(d_purpose, "decision_ctx.purpose") \
    X(d_stone, "decision_ctx.stone") X(d_action, "decision_ctx.src_action") X(d_board, "decision_ctx.src_board") \
    X(d_exalted, "decision_ctx.src_exalted") X(d_face, "decision_ctx.face") X(d_socket, "decision_ctx.socket") \
    X(d_owed, "decision_ctx.owed") X(d_target, "decision_ctx.reveal_target") \
    X(d_marked, "decision_ctx.earmarked") X(d_cands, "decision_ctx.candidates")

#define AS_MEMBER(member, key) int member;
typedef struct {
    CTX_INTS(AS_MEMBER)
    int nboard, nround, ntolls;
    signed char *bsock;  /* [nboard * 4] requirement, -1 past the card's sockets */
    signed char *rsock;  /* [nround * 4] */
    int *rres;           /* [nround] */
    int *copies, *is_pp; /* [K] */
    long *tolls;         /* [ntolls] ascending */
} Ctx;
#undef AS_MEMBER

static void ctx_free(PyObject *cap) {
    Ctx *c = (Ctx *)PyCapsule_GetPointer(cap, "monolith_strategy_obs_ctx");
    if (!c) return;
    PyMem_Free(c->bsock); PyMem_Free(c->rsock); PyMem_Free(c->rres);
    PyMem_Free(c->copies); PyMem_Free(c->is_pp); PyMem_Free(c->tolls);
    PyMem_Free(c);
}

#include "_fastobs_values.h"

static PyObject *make_context(PyObject *self, PyObject *args) {
    PyObject *layout, *bs, *rs, *rr, *copies, *is_pp, *tolls;
    if (!PyArg_ParseTuple(args, "OOOOOOO:make_context", &layout, &bs, &rs, &rr, &copies, &is_pp, &tolls)) return NULL;
    Ctx *c = PyMem_Calloc(1, sizeof(Ctx));
    if (!c) return PyErr_NoMemory();
    PyObject *cap = PyCapsule_New(c, "monolith_strategy_obs_ctx", ctx_free);
    if (!cap) { PyMem_Free(c); return NULL; }
    if (!PyDict_Check(layout)) {
        PyErr_Format(PyExc_TypeError, "make_context: layout must be a dict of named ints, not %.80s",
                     Py_TYPE(layout)->tp_name);
        goto fail;
    }
#define READ_INT(member, key) if (layout_int(layout, key, &c->member) < 0) goto fail;
    CTX_INTS(READ_INT)
#undef READ_INT
    if (c->n < 1 || c->n > 4 || c->victory < 1 || c->total_gems < 1 || c->skill_size < 1 || c->power_size < 1 ||
        c->rune_size < 1 || c->priv0 != NBOARD) {
        PyErr_SetString(PyExc_ValueError, "make_context: n, victory, total_gems, deck sizes or priv0 out of range");
        goto fail;
    }
    TRY(read_sockets(bs, &c->bsock, &c->nboard, "board_sockets"));
    TRY(read_sockets(rs, &c->rsock, &c->nround, "round_sockets"));
    TRY(read_ints(rr, &c->rres, c->nround, "round_reserved"));
    TRY(read_ints(copies, &c->copies, c->K, "copies"));
    TRY(read_ints(is_pp, &c->is_pp, c->K, "is_pp"));
    TRY(read_longs(tolls, &c->tolls, -1, &c->ntolls, "tolls"));
    if (c->ntolls < 1) { PyErr_SetString(PyExc_ValueError, "make_context: the content has no toll stones"); goto fail; }
    for (int k = 0; k < c->K; k++)
        if (!c->is_pp[k] && c->copies[k] < 1) {
            PyErr_Format(PyExc_ValueError, "make_context: kind %d has %d copies", k, c->copies[k]);
            goto fail;
        }
    return cap;
fail:
    Py_DECREF(cap);
    return NULL;
}

/* ------------------------------------------------------------------ observe: parts */
/* Round card, card one-hots, cover flags and the board socket rows (exists, requirement, reserved) */
static int static_part(const Ctx *c, PyObject *d, const Out *out) {
    long rc_pos, rc_side, rc_round;
    Seq board;
    if (field_long(d, F_rc_pos, &rc_pos) < 0 || field_long(d, F_rc_side, &rc_side) < 0 ||
        field_long(d, F_rc_round, &rc_round) < 0 || field_seq(d, F_board, &board) < 0)
        return -1;
    int ex = rc_side == c->side_exalted;
    if (rc_pos) {
        if (put(out, c->a_rcard + c->r_covered + rc_pos - 1, 1.0, "rc_pos") < 0) return -1;
        if (ex && (put(out, c->a_rcard + c->r_exalted, 1.0, "rc_side") < 0 ||
                   put(out, c->a_rcard + c->r_exalted_id + rc_round - 1, 1.0, "rc_round") < 0))
            return -1;
    }
    for (long pos = 1; pos <= NPOS; pos++) {
        long row = c->a_pos + (pos - 1) * c->pos_row, b;
        if (at(&board, pos, &b) < 0) return -1;
        if (b >= 0 && put(out, row + c->b_card + b, 1.0, "board") < 0) return -1;
        const signed char *socks = NULL;
        int reserved = 0;
        if (pos == rc_pos) {
            if (put(out, row + (ex ? c->b_exalted : c->b_normal), 1.0, "rc_pos") < 0) return -1;
            if (ex) {
                if (rc_round < 1 || rc_round > c->nround) {
                    PyErr_Format(PyExc_IndexError, "observation: rc_round %ld outside 1..%d", rc_round, c->nround);
                    return -1;
                }
                socks = c->rsock + (rc_round - 1) * 4;
                reserved = c->rres[rc_round - 1] != 0;
            }
        } else if (b >= 0) {
            if (b >= c->nboard) {
                PyErr_Format(PyExc_IndexError, "observation: board card %ld outside 0..%d", b, c->nboard - 1);
                return -1;
            }
            socks = c->bsock + b * 4;
        }
        if (!socks) continue;
        for (int i = 0; i < 4 && socks[i] >= 0; i++) {
            float *r = out->o + c->a_sock + ((pos - 1) * 4 + i) * c->sock_row;
            r[c->s_exists] = 1.0f;
            r[c->s_req + socks[i]] = 1.0f;
            r[c->s_reserved] = (float)reserved;
        }
    }
    return 0;
}

/* the decision context (docs §7, the `decision_ctx` piece: block D of the obs spec) */
static int decision_part(const Ctx *c, PyObject *d, PyObject *pd, long kind, long me, long decider, const Out *out) {
    const long b = c->a_dec;
    long x;
    PyObject *v;
    if (kind == c->k_pay_offer || kind == c->k_pay_more || kind == c->k_reveal_src) {
        if (rlong(pd, R_rem, &x, "pending") < 0 || put(out, b + c->d_rem, x / 10.0, "pending rem") < 0) return -1;
        v = rget(pd, R_purpose);
        if (!v && PyErr_Occurred()) return -1;
        int at_ = 2;
        if (v) {
            if (!PyUnicode_Check(v)) { PyErr_SetString(PyExc_TypeError, "observation: pending purpose must be a str"); return -1; }
            at_ = PyUnicode_Compare(v, S_TOLL) == 0 ? 0 : PyUnicode_Compare(v, S_COST) == 0 ? 1
                : PyUnicode_Compare(v, S_REVEAL) == 0 ? 2 : -1;
            if (at_ < 0) { PyErr_Format(PyExc_ValueError, "observation: pending purpose %R is not toll, cost or reveal", v); return -1; }
        }
        if (put(out, b + c->d_purpose + at_, 1.0, "pending purpose") < 0) return -1;
        v = rget(pd, R_stone);
        if (!v && PyErr_Occurred()) return -1;
        if (v) {
            if (to_long(v, &x, "pending stone") < 0) return -1;
            if (x >= 0 && put(out, b + c->d_stone + x, 1.0, "pending stone") < 0) return -1;
        }
    }
    v = rget(pd, R_src);
    if (!v && PyErr_Occurred()) return -1;
    if (v && v != Py_None) {
        Seq src;
        if (as_seq(v, &src, "pending src") < 0) return -1;
        if (src.n) {
            if (src.n < 2) return bad_index(&src, 1);
            PyObject *typ = src.it[0];
            if (!PyUnicode_Check(typ)) { PyErr_SetString(PyExc_TypeError, "observation: pending src type must be a str"); return -1; }
            if (to_long(src.it[1], &x, "pending src") < 0) return -1;
            long at_ = PyUnicode_Compare(typ, S_A) == 0 ? c->d_action : PyUnicode_Compare(typ, S_B) == 0 ? c->d_board
                     : c->d_exalted;
            if (put(out, b + at_ + x, 1.0, "pending src") < 0) return -1;
        }
    }
    long face = 0;
    v = rget(pd, R_src_face);
    if (!v && PyErr_Occurred()) return -1;
    if (v && v != Py_None && to_long(v, &face, "pending src_face") < 0) return -1;
    if (!face && kind == c->k_socket_dst) {
        v = rget(pd, R_face);
        if (!v && PyErr_Occurred()) return -1;
        if (v && v != Py_None && to_long(v, &face, "pending face") < 0) return -1;
    }
    if (face && put(out, b + c->d_face + face - 1, 1.0, "pending face") < 0) return -1;
    if (kind == c->k_socket_dst) {
        if (rlong(pd, R_from_sid, &x, "pending") < 0) return -1;
        if ((x < c->priv0 || me == decider) && put(out, b + c->d_socket + x, 1.0, "pending from_sid") < 0) return -1;
    }
    if (kind == c->k_discard && (rlong(pd, R_owed, &x, "pending") < 0 || put(out, b + c->d_owed, x / 5.0, "pending owed") < 0))
        return -1;
    if (decider >= 0) {
        Seq reveal;
        if (field_seq(d, F_reveal, &reveal) < 0) return -1;
        if (decider >= reveal.n) return bad_index(&reveal, decider);
        PyObject *rv = reveal.it[decider];
        if (rv != Py_None) {
            if (as_record(rv, "reveal entry") < 0) return -1;
            if (PyDict_GET_SIZE(rv)) {
                if (rlong(rv, R_target, &x, "reveal entry") < 0 || put(out, b + c->d_target, x / 6.0, "reveal target") < 0 ||
                    rlong(rv, R_marked, &x, "reveal entry") < 0 || put(out, b + c->d_marked, x / 6.0, "reveal marked") < 0)
                    return -1;
            }
        }
    }
    if (kind == c->k_rune_pick && me == decider) {
        Seq cands;
        v = rneed(pd, R_cands, "pending");
        if (!v || as_seq(v, &cands, "pending cands") < 0) return -1;
        for (Py_ssize_t j = 0; j < cands.n; j++) {
            if (to_long(cands.it[j], &x, "pending cands") < 0) return -1;
            if (put(out, b + c->d_cands + j * c->C + x, 1.0, "pending cands") < 0) return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ observe */
static PyObject *observe(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "observe(context, state, me, out) takes 4 arguments");
        return NULL;
    }
    Ctx *c = (Ctx *)PyCapsule_GetPointer(args[0], "monolith_strategy_obs_ctx");
    if (!c) return NULL;
    const int n = c->n;
    long me;
    if (to_long(args[2], &me, "me") < 0) return NULL;
    if (me < 0 || me >= n) { PyErr_Format(PyExc_ValueError, "observation: seat %ld outside 0..%d", me, n - 1); return NULL; }
    PyObject *d = PyObject_GenericGetDict(args[1], NULL);
    if (!d) return NULL;
    Py_buffer ob;
    if (PyObject_GetBuffer(args[3], &ob, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) { Py_DECREF(d); return NULL; }
    if (ob.len != (Py_ssize_t)c->size * 4) {
        PyErr_Format(PyExc_ValueError, "observation: out has %zd bytes, expected float32[%d]", ob.len, c->size);
        goto fail;
    }
    Out out = {(float *)ob.buf, c->size};
    memset(out.o, 0, sizeof(float) * (size_t)c->size);
    long rel[4];
    for (int q = 0; q < n; q++) rel[q] = ((q - me) % n + n) % n;
    long x, y;

    /* header: round, phase, decision kind, seats, flags, num_players, supply, discards, turn */
    PyObject *pd = field(d, F_pending);
    if (!pd) goto fail;
    long kind = 0, decider = -1;
    if (pd == Py_None) {
        pd = NULL;
    } else {
        TRY(as_record(pd, "pending"));
        if (!PyDict_GET_SIZE(pd)) pd = NULL;
    }
    if (pd) {
        TRY(rlong(pd, R_k, &kind, "pending"));
        TRY(rlong(pd, R_seat, &decider, "pending"));
        if (decider >= n) { PyErr_Format(PyExc_IndexError, "observation: pending seat %ld outside 0..%d", decider, n - 1); goto fail; }
    }
    long round_, phase, primus;
    TRY(field_long(d, F_round, &round_));
    TRY(field_long(d, F_phase, &phase));
    TRY(field_long(d, F_primus, &primus));
    if (primus < 0 || primus >= n) { PyErr_Format(PyExc_IndexError, "observation: primus %ld outside 0..%d", primus, n - 1); goto fail; }
    if (round_ < 1 || phase < 0 || phase >= c->phase_size || kind < 0 || kind >= c->decision_size) {
        PyErr_Format(PyExc_ValueError, "observation: round %ld, phase %ld or decision kind %ld out of range", round_, phase, kind);
        goto fail;
    }
    TRY(static_part(c, d, &out));
    TRY(put(&out, c->a_round + (round_ < c->round_size ? round_ : c->round_size) - 1, 1.0, "round"));
    TRY(put(&out, c->a_phase + phase, 1.0, "phase"));
    TRY(put(&out, c->a_decision + kind, 1.0, "decision"));
    TRY(put(&out, c->a_seats + c->seats_row + rel[primus], 1.0, "primus"));
    TRY(put(&out, c->a_nplayers + n - 1, 1.0, "num_players"));
    if (decider >= 0) TRY(put(&out, c->a_seats + rel[decider], 1.0, "pending seat"));
    {
        PyObject *o = field(d, F_primus_locked);
        if (!o) goto fail;
        TRY(to_long(o, &x, "primus_locked"));
        if (x) TRY(put(&out, c->a_flags + c->f_locked, (double)x, "primus_locked"));
        out.o[c->a_flags + c->f_solo] = (float)c->solo;
        out.o[c->a_flags + c->f_exalted] = (float)c->exalted;
        out.o[c->a_flags + c->f_powers] = (float)c->player_powers;
    }
    {
        Seq deck;
        TRY(field_long(d, F_source_gems, &x));
        TRY(put(&out, c->a_supply + c->u_gems, (double)x / c->total_gems, "source_gems"));
        TRY(field_seq(d, F_skill_deck, &deck));
        TRY(put(&out, c->a_supply + c->u_skill, (double)deck.n / c->skill_size, "skill_deck"));
        TRY(field_seq(d, F_power_deck, &deck));
        TRY(put(&out, c->a_supply + c->u_power, (double)deck.n / c->power_size, "power_deck"));
        TRY(field_seq(d, F_rune_deck, &deck));
        TRY(put(&out, c->a_supply + c->u_rune, (double)deck.n / c->rune_size, "rune_deck"));
    }
    {
        Seq sd, pw, gone;
        TRY(field_seq(d, F_skill_discard, &sd));
        TRY(field_seq(d, F_power_discard, &pw));
        TRY(field_seq(d, F_pp_gone, &gone));
        for (int k = 0; k < c->K; k++) {
            if (c->is_pp[k]) {
                TRY(at(&gone, k, &x));
                if (x) out.o[c->a_discards + k] = 1.0f;
            } else {
                TRY(at(&sd, k, &x));
                TRY(at(&pw, k, &y));
                if (x + y) TRY(put(&out, c->a_discards + k, (double)(x + y) / c->copies[k], "discards"));
            }
        }
    }
    if (phase == c->phase_action) {
        PyObject *tn = field(d, F_turn);
        if (!tn) goto fail;
        TRY(as_record(tn, "turn"));
        TRY(rlong(tn, R_player, &x, "turn"));
        if (x < 0 || x >= n) { PyErr_Format(PyExc_IndexError, "observation: turn player %ld outside 0..%d", x, n - 1); goto fail; }
        TRY(put(&out, c->a_seats + 2 * c->seats_row + rel[x], 1.0, "turn player"));
        TRY(rlong(tn, R_left, &x, "turn"));
        TRY(put(&out, c->a_turn + c->t_left, (double)(x < 3 ? x : 3) / 3.0, "turn left"));
        TRY(rlong(tn, R_socketed, &x, "turn"));
        TRY(put(&out, c->a_turn + c->t_socketed, (double)x, "turn socketed"));
        TRY(rlong(tn, R_mandatory_done, &x, "turn"));
        TRY(put(&out, c->a_turn + c->t_mandatory, (double)x, "turn mandatory_done"));
        TRY(rlong(tn, R_stack_ready, &x, "turn"));
        TRY(put(&out, c->a_turn + c->t_stack, (double)x, "turn stack_ready"));
    }

    /* board sockets: occupant and face, dice per position and seat, blocked flags */
    Seq ss, sf, blk, priv;
    TRY(field_seq(d, F_sock_seat, &ss));
    TRY(field_seq(d, F_sock_face, &sf));
    TRY(field_seq(d, F_blocked, &blk));
    TRY(field_seq(d, F_priv, &priv));
    if (ss.n < NBOARD || sf.n < NBOARD || blk.n < NBOARD || priv.n < n) {
        PyErr_SetString(PyExc_ValueError, "observation: sock_seat, sock_face and blocked need 52 entries, priv one per seat");
        goto fail;
    }
    double dice[NPOS][4], tot[NPOS][4];
    memset(dice, 0, sizeof dice);
    memset(tot, 0, sizeof tot);
    long on_board[4] = {0, 0, 0, 0};
    for (long sid = 0; sid < NBOARD; sid++) {
        long q, f, bl;
        TRY(at(&ss, sid, &q));
        TRY(at(&blk, sid, &bl));
        long row = c->a_sock + sid * c->sock_row;
        if (bl) TRY(put(&out, row + c->s_blocked, 1.0, "blocked"));
        if (q < 0) continue;
        if (q >= n) { PyErr_Format(PyExc_IndexError, "observation: sock_seat[%ld] = %ld outside 0..%d", sid, q, n - 1); goto fail; }
        TRY(at(&sf, sid, &f));
        on_board[q]++;
        long r = rel[q];
        dice[sid >> 2][r] += 0.25;
        tot[sid >> 2][r] += f / 24.0;
        TRY(put(&out, row + c->s_occ + r, 1.0, "sock_seat"));
        TRY(put(&out, row + c->s_face, f / 6.0, "sock_face"));
    }
    for (int pos = 0; pos < NPOS; pos++)
        for (int r = 0; r < n; r++)
            if (dice[pos][r] != 0.0) {
                long row = c->a_pos + pos * c->pos_row + r;
                TRY(put(&out, row + c->b_dice, dice[pos][r], "positions dice"));
                TRY(put(&out, row + c->b_total, tot[pos][r], "positions total"));
            }

    /* players (public facts), the observer's private sockets, hand and Runes */
    Seq vp, gems, hand, cast, pool, src, aside, guard, chase;
    TRY(field_seq(d, F_vp, &vp)); TRY(field_seq(d, F_gems, &gems)); TRY(field_seq(d, F_hand, &hand));
    TRY(field_seq(d, F_cast, &cast)); TRY(field_seq(d, F_pool, &pool)); TRY(field_seq(d, F_src_dice, &src));
    TRY(field_seq(d, F_aside, &aside)); TRY(field_seq(d, F_guard, &guard)); TRY(field_seq(d, F_chase, &chase));
    for (long q = 0; q < n; q++) {
        long row = c->a_players + rel[q] * c->pl_row, vq, st = 0;
        Seq hq, cq, pq, rq;
        TRY(at(&vp, q, &vq));
        while (st < c->ntolls && c->tolls[st] <= vq) st++;
        TRY(put(&out, row + c->p_present, 1.0, "players"));
        TRY(put(&out, row + c->p_vp, (double)vq / c->victory, "vp"));
        TRY(put(&out, row + c->p_stones, (double)st / c->ntolls, "vp"));
        TRY(at(&gems, q, &x));
        TRY(put(&out, row + c->p_gems, x / 20.0, "gems"));
        TRY(sub(&hand, q, &hq)); TRY(sub(&cast, q, &cq));
        TRY(total(&hq, &x)); TRY(total(&cq, &y));
        TRY(put(&out, row + c->p_hand, (x + y) / 5.0, "hand"));
        for (Py_ssize_t k = 0; k < cq.n; k++) {
            TRY(to_long(cq.it[k], &x, "cast"));
            if (x) TRY(put(&out, row + c->p_cast + k, x / 4.0, "cast"));
        }
        TRY(sub(&pool, q, &pq));
        for (long f = 0; f < 6; f++) {
            TRY(at(&pq, f, &x));
            if (x) TRY(put(&out, row + c->p_pool + f, x / 5.0, "pool"));
        }
        TRY(put(&out, row + c->p_board, on_board[q] / 5.0, "sock_seat"));
        TRY(at(&src, q, &x)); TRY(put(&out, row + c->p_src, x / 5.0, "src_dice"));
        TRY(at(&aside, q, &x)); TRY(put(&out, row + c->p_aside, x / 5.0, "aside"));
        TRY(at(&guard, q, &x)); TRY(put(&out, row + c->p_guard, x / 3.0, "guard"));
        TRY(sub(&priv, q, &rq));
        TRY(put(&out, row + c->p_runes, rq.n / 2.0, "priv"));
        double faces[6] = {0, 0, 0, 0, 0, 0};
        int any_face = 0;
        for (Py_ssize_t slot = 0; slot < rq.n; slot++) {
            PyObject *e = rq.it[slot], *occo;
            Seq occ;
            long card, revealed;
            TRY(as_record(e, "priv entry"));
            TRY(rlong(e, R_card, &card, "priv entry"));
            TRY(rlong(e, R_revealed, &revealed, "priv entry"));
            if (!(occo = rneed(e, R_occ, "priv entry"))) goto fail;
            TRY(as_seq(occo, &occ, "priv occ"));
            for (Py_ssize_t i = 0; i < occ.n; i++) {
                long f;
                TRY(to_long(occ.it[i], &f, "priv occ"));
                if (!f) continue;
                if (f < 1 || f > 6) { PyErr_Format(PyExc_ValueError, "observation: priv occ face %ld", f); goto fail; }
                faces[f - 1] += 0.2;
                any_face = 1;
            }
            if (revealed) TRY(put(&out, row + c->p_revealed + slot * c->C + card, 1.0, "priv card"));
            if (q == me) {
                if (card < 0 || card >= c->nboard) { PyErr_Format(PyExc_IndexError, "observation: priv card %ld", card); goto fail; }
                const signed char *socks = c->bsock + card * 4;
                for (int i = 0; i < 4 && socks[i] >= 0; i++) {
                    long srow = c->a_sock + (c->priv0 + slot * 4 + i) * c->sock_row, f;
                    TRY(put(&out, srow + c->s_exists, 1.0, "priv socket"));
                    TRY(put(&out, srow + c->s_req + socks[i], 1.0, "priv socket"));
                    TRY(at(&occ, i, &f));
                    if (f) {
                        TRY(put(&out, srow + c->s_occ, 1.0, "priv occ"));
                        TRY(put(&out, srow + c->s_face, f / 6.0, "priv occ"));
                    }
                }
                TRY(put(&out, c->a_runes + slot * c->runes_row + card, 1.0, "priv card"));
            }
        }
        if (any_face)
            for (int f = 0; f < 6; f++)
                if (faces[f] != 0.0) TRY(put(&out, row + c->p_priv + f, faces[f], "priv occ"));
        if (q >= chase.n) { bad_index(&chase, q); goto fail; }
        PyObject *ch = chase.it[q];
        if (ch != Py_None) {
            Seq cs;
            TRY(as_seq(ch, &cs, "chase"));
            TRY(put(&out, row + c->p_chase, 1.0, "chase"));
            TRY(at(&cs, 0, &x)); TRY(put(&out, row + c->p_marker, (double)x / c->victory, "chase"));
            TRY(at(&cs, 1, &x)); TRY(put(&out, row + c->p_bonus, x / 5.0, "chase"));
        }
        if (q == me)
            for (Py_ssize_t k = 0; k < hq.n; k++) {
                TRY(to_long(hq.it[k], &x, "hand"));
                if (x) TRY(put(&out, c->a_hand + k, x / 4.0, "hand"));
            }
    }
    if (pd) TRY(decision_part(c, d, pd, kind, me, decider, &out));
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
     "make_context(layout, board_sockets, round_sockets, round_reserved, copies, is_pp, tolls) -> context"},
    {"observe", (PyCFunction)(void (*)(void))observe, METH_FASTCALL,
     "observe(context, state, me, out): write seat me's observation into out (float32, cleared first)"},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, "_fastobs",
    "Compiled observation builder of Monolith: The Strategy Game (docs/monolith_strategy.md §7).", -1, methods
};

PyMODINIT_FUNC PyInit__fastobs(void) {
    for (int k = 0; k < NF; k++)
        if (!(FKEYS[k] = PyUnicode_InternFromString(FNAMES[k]))) return NULL;
    for (int k = 0; k < NR; k++)
        if (!(RKEYS[k] = PyUnicode_InternFromString(RNAMES[k]))) return NULL;
    if (!(S_TOLL = PyUnicode_InternFromString("toll")) || !(S_COST = PyUnicode_InternFromString("cost")) ||
        !(S_REVEAL = PyUnicode_InternFromString("reveal")) || !(S_A = PyUnicode_InternFromString("a")) ||
        !(S_B = PyUnicode_InternFromString("b")))
        return NULL;
    return PyModule_Create(&moddef);
}
