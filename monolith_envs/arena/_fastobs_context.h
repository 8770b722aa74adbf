/* make_context of the compiled Arena observation builder (_fastobs.c includes this file once, after
 * _fastobs_read.h): the layout offsets read by name from Observer.layout_ints() and the per-type tables.
 */
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

