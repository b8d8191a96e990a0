/* Booby Trap: an exact copy of a loaded Chipmunk space (issue 31, item 5).
 *
 * A removal starts from the stored tray rebuilt and loaded (physics.LeanWorld + warm_up: 40 steps
 * at 60 solver iterations, a third of a removal's time), and the hold check that stored that tray
 * has just rebuilt and loaded the very same space. Keeping a copy of it saves the next removal
 * its warm-up, but only if the copy steps exactly as the original would, and the state that
 * decides the next step is more than any Chipmunk call sets: the joints' and contacts'
 * accumulated impulses (the solver's warm start), the solver's bias velocities, and the order in
 * which the bounding-box tree reports touching pairs (its shape and each leaf's pair list, which
 * are history). pymunk's own copy leaves some of it out: its copies step differently from the
 * first step on (BENCHMARKS.md: 44 of 44 removals differed).
 *
 * `copy_state(src, dst)` therefore copies that history itself. `dst` must be a space built by the
 * same calls in the same order as `src` (physics.LeanWorld on the same packing) and never stepped;
 * then the two differ only in their state, and this function writes src's state into dst:
 *   - the space's step stamp and last time step;
 *   - every body's motion (position, velocity, force, angle, spin, torque, transform and the
 *     solver's bias velocities) and its contact list;
 *   - every joint's cached solver values (accumulated impulse included);
 *   - every cached contact (arbiter) with its contacts' accumulated impulses, in the order of the
 *     last step's contact list, and the contact buffers they live in;
 *   - the dynamic tree (its nodes' boxes, parents and children, each leaf's stamp and pair list)
 *     and the static leaves' stamps and pair lists, with every pair's cached collision id.
 * Pointers are translated from src's objects to dst's (bodies and shapes pair up in build order,
 * leaves by their shape, internal nodes by tree order). Nothing of src changes.
 *
 * The structures are Chipmunk's private ones, laid out as pymunk 7.3.1's build has them (read
 * from its debug information); physics.py uses the copy only with that pymunk and only after a
 * self-check in the process (a copy stepped beside its original must give the same bits), and
 * the tests compare removals from a copy with removals from a rebuild, bit for bit. Every
 * structural mismatch is refused before anything is written (ValueError).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef double cpFloat;
typedef struct { cpFloat x, y; } Vect;
typedef struct { cpFloat l, b, r, t; } BB;
typedef struct { cpFloat a, b, c, d, tx, ty; } Transform;
typedef uintptr_t HashValue;
typedef unsigned int Timestamp;

typedef struct Array { int num, max; void **arr; } Array;

typedef struct Body Body;
typedef struct Shape Shape;
typedef struct Arbiter Arbiter;

struct Body {
    void *velocity_func, *position_func;
    cpFloat m, m_inv, i, i_inv;
    Vect cog, p, v, f;
    cpFloat a, w, t;
    Transform transform;
    void *userData;
    Vect v_bias;
    cpFloat w_bias;
    void *space;
    Shape *shapeList;
    Arbiter *arbiterList;
    void *constraintList;
    struct { Body *root, *next; cpFloat idleTime; } sleeping;
};

struct Shape {
    void *klass, *space;
    Body *body;
    struct { cpFloat m, i; Vect cog; cpFloat area; } massInfo;
    BB bb;
    unsigned char sensor;
    cpFloat e, u;
    Vect surfaceV;
    void *userData;
    uintptr_t type;
    struct { uintptr_t group; unsigned int categories, mask; } filter;
    Shape *next, *prev;
    HashValue hashid;
};

typedef struct { Shape shape; Vect c, tc; cpFloat r; } CircleShape;

typedef struct Constraint {
    void *klass, *space;
    Body *a, *b;
    struct Constraint *next_a, *next_b;
    cpFloat maxForce, errorBias, maxBias;
    unsigned char collideBodies;
    void *preSolve, *postSolve, *userData;
} Constraint;

typedef struct Contact {
    Vect r1, r2;
    cpFloat nMass, tMass, bounce, jnAcc, jtAcc, jBias, bias;
    HashValue hash;
} Contact;

typedef struct ArbiterThread { Arbiter *next, *prev; } ArbiterThread;

struct Arbiter {
    cpFloat e, u;
    Vect surface_vr;
    void *data;
    Shape *a, *b;
    Body *body_a, *body_b;
    ArbiterThread thread_a, thread_b;
    int count;
    Contact *contacts;
    Vect n;
    void *handlerAB, *handlerBA, *handlerA, *handlerB;
    unsigned char swapped;
    Timestamp stamp;
    int state;
    unsigned char processCollision;
};

typedef struct ContactBufferHeader {
    Timestamp stamp;
    struct ContactBufferHeader *next;
    unsigned int numContacts;
} ContactBufferHeader;

#define BUFFER_BYTES (32 * 1024)
#define CONTACTS_PER_BUFFER ((BUFFER_BYTES - sizeof(ContactBufferHeader)) / sizeof(Contact))
typedef struct { ContactBufferHeader header; Contact contacts[CONTACTS_PER_BUFFER]; } ContactBuffer;

typedef struct HashSetBin { void *elt; HashValue hash; struct HashSetBin *next; } HashSetBin;
typedef struct HashSet {
    unsigned int entries, size;
    void *eql, *default_value;
    HashSetBin **table;
    HashSetBin *pooledBins;
    Array *allocatedBuffers;
} HashSet;

typedef struct SpatialIndex { void *klass, *bbfunc; struct SpatialIndex *staticIndex, *dynamicIndex; } SpatialIndex;

typedef struct Node Node;
typedef struct Pair Pair;
struct Node {
    void *obj;
    BB bb;
    Node *parent;
    union {
        struct { Node *a, *b; } children;
        struct { Timestamp stamp; Pair *pairs; } leaf;
    } node;
};
typedef struct Thread { Pair *prev; Node *leaf; Pair *next; } Thread;
struct Pair { Thread a, b; unsigned int id; };

typedef struct BBTree {
    SpatialIndex spatialIndex;
    void *velocityFunc;
    HashSet *leaves;
    Node *root, *pooledNodes;
    Pair *pooledPairs;
    Array *allocatedBuffers;
    Timestamp stamp;
} BBTree;

typedef struct Space {
    int iterations;
    Vect gravity;
    cpFloat damping, idleSpeedThreshold, sleepTimeThreshold, collisionSlop, collisionBias;
    Timestamp collisionPersistence;
    void *userData;
    Timestamp stamp;
    cpFloat curr_dt;
    Array *dynamicBodies, *staticBodies, *rousedBodies, *sleepingComponents;
    HashValue shapeIDCounter;
    SpatialIndex *staticShapes, *dynamicShapes;
    Array *constraints, *arbiters;
    ContactBufferHeader *contactBuffersHead;
    HashSet *cachedArbiters;
    Array *pooledArbiters, *allocatedBuffers;
    int locked;
    HashSet *collisionHandlers;
    /* the rest (post-step callbacks, the built-in static body) is not touched */
} Space;

/* The offsets of pymunk 7.3.1's build (its DWARF information, `ptype /o` in gdb). */
_Static_assert(sizeof(Body) == 272, "cpBody");
_Static_assert(offsetof(Body, v_bias) == 192 && offsetof(Body, arbiterList) == 232, "cpBody");
_Static_assert(sizeof(Shape) == 192 && offsetof(Shape, hashid) == 184 && offsetof(Shape, next) == 168, "cpShape");
_Static_assert(sizeof(CircleShape) == 232, "cpCircleShape");
_Static_assert(sizeof(Constraint) == 104, "cpConstraint");
_Static_assert(sizeof(Contact) == 96, "cpContact");
_Static_assert(sizeof(Arbiter) == 184 && offsetof(Arbiter, contacts) == 112 && offsetof(Arbiter, stamp) == 172, "cpArbiter");
_Static_assert(sizeof(ContactBufferHeader) == 24 && sizeof(ContactBuffer) == 32760, "cpContactBuffer");
_Static_assert(sizeof(HashSet) == 48 && sizeof(HashSetBin) == 24, "cpHashSet");
_Static_assert(sizeof(Node) == 64 && offsetof(Node, node) == 48, "Node");
_Static_assert(sizeof(Pair) == 56 && offsetof(Pair, id) == 48, "Pair");
_Static_assert(sizeof(BBTree) == 88 && offsetof(BBTree, stamp) == 80, "cpBBTree");
_Static_assert(offsetof(Space, stamp) == 80 && offsetof(Space, curr_dt) == 88, "cpSpace");
_Static_assert(offsetof(Space, dynamicShapes) == 144 && offsetof(Space, allocatedBuffers) == 192, "cpSpace");
_Static_assert(offsetof(Space, locked) == 200 && offsetof(Space, collisionHandlers) == 208, "cpSpace");

/* The joint kinds a tray has and their sizes (cpPivotJoint, cpGearJoint, cpGrooveJoint). */
typedef unsigned char (*IsKind)(Constraint *);
static IsKind is_pivot, is_gear, is_groove;
#define PIVOT_SIZE 232
#define GEAR_SIZE 152
#define GROOVE_SIZE 288

/* ------------------------------------------------------------ a pointer map -------------- */
typedef struct { void **keys, **values; size_t cap; } PtrMap;

static int map_init(PtrMap *m, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n + 2) cap <<= 1;
    m->cap = cap;
    m->keys = calloc(cap, sizeof(void *));
    m->values = calloc(cap, sizeof(void *));
    return m->keys && m->values;
}

static void map_free(PtrMap *m) { free(m->keys); free(m->values); }

static size_t slot(const PtrMap *m, const void *key)
{
    size_t h = ((uintptr_t)key >> 3) * 0x9E3779B97F4A7C15ull;
    size_t i = h & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != key) i = (i + 1) & (m->cap - 1);
    return i;
}

static void map_put(PtrMap *m, void *key, void *value)
{
    size_t i = slot(m, key);
    m->keys[i] = key;
    m->values[i] = value;
}

/* NULL maps to NULL; a key that is not in the map also gives NULL (callers check). */
static void *map_get(const PtrMap *m, const void *key)
{
    if (!key) return NULL;
    size_t i = slot(m, key);
    return m->keys[i] ? m->values[i] : NULL;
}

/* ------------------------------------------------------------ Chipmunk's containers ------ */
static int array_push(Array *arr, void *obj)
{
    if (arr->num == arr->max) {  /* cpArrayPush's growth */
        int max = 3 * (arr->max + 1) / 2;
        void **grown = realloc(arr->arr, max * sizeof(void *));
        if (!grown) return 0;
        arr->arr = grown;
        arr->max = max;
    }
    arr->arr[arr->num++] = obj;
    return 1;
}

static int array_reserve(Array *arr, int n)
{
    if (arr->max >= n) return 1;
    void **grown = realloc(arr->arr, n * sizeof(void *));
    if (!grown) return 0;
    arr->arr = grown;
    arr->max = n;
    return 1;
}

/* A block that the space (or tree, or set) frees with itself: pushed on its allocatedBuffers. */
static void *owned_block(Array *owner, size_t bytes)
{
    void *block = calloc(1, bytes ? bytes : 1);
    if (block && !array_push(owner, block)) { free(block); return NULL; }
    return block;
}

static const unsigned int PRIMES[] = {5, 13, 23, 47, 97, 193, 389, 769, 1543, 3079, 6151, 12289,
                                      24593, 49157, 98317, 196613, 393241, 786433, 0};

/* cachedArbiters is empty in a space never stepped: make its table big enough for `n`, then
 * insert without resizing (the order of this set's buckets never reaches the numbers: it is
 * only filtered for stale entries and looked up). */
static int arbiter_set_fill(HashSet *set, Arbiter **arbs, int n)
{
    if (set->entries != 0) return 0;
    unsigned int size = set->size;
    for (int k = 0; (unsigned int)n >= size; k++) {
        if (!PRIMES[k]) return 0;
        size = PRIMES[k];
    }
    if (size != set->size) {
        HashSetBin **table = calloc(size, sizeof(HashSetBin *));
        if (!table) return 0;
        free(set->table);
        set->table = table;
        set->size = size;
    }
    HashSetBin *bins = owned_block(set->allocatedBuffers, (size_t)n * sizeof(HashSetBin));
    if (n && !bins) return 0;
    for (int k = 0; k < n; k++) {
        Arbiter *arb = arbs[k];
        /* CP_HASH_PAIR of the two shapes, as cpSpaceCollideShapes makes it */
        HashValue hash = (HashValue)arb->a * 3344921057ul ^ (HashValue)arb->b * 3344921057ul;
        HashSetBin *bin = &bins[k];
        bin->elt = arb;
        bin->hash = hash;
        bin->next = set->table[hash % set->size];
        set->table[hash % set->size] = bin;
    }
    set->entries = n;
    return 1;
}

/* The bins of a set in its iteration order (bucket by bucket, each chain in order). */
static int set_elements(const HashSet *set, void **out, int cap)
{
    int n = 0;
    for (unsigned int i = 0; i < set->size; i++)
        for (HashSetBin *bin = set->table[i]; bin; bin = bin->next) {
            if (n >= cap) return -1;
            out[n++] = bin->elt;
        }
    return n;
}

static int internal_nodes(Node *root, Node **out, int cap)
{
    int n = 0, top = 0;
    Node *stack[512];
    if (!root) return 0;
    stack[top++] = root;
    while (top) {
        Node *node = stack[--top];
        if (node->obj) continue;
        if (n >= cap || top + 2 > 512) return -1;
        out[n++] = node;
        stack[top++] = node->node.children.b;
        stack[top++] = node->node.children.a;
    }
    return n;
}

static Pair *next_pair(const Pair *pair, const Node *leaf)
{
    return pair->a.leaf == leaf ? pair->a.next : pair->b.next;
}

/* ------------------------------------------------------------ the copy ------------------- */
typedef struct {
    PtrMap objects;  /* bodies, shapes, leaves, nodes, pairs, arbiters, buffers: src -> dst */
    void **scratch_a, **scratch_b;
    int scratch;     /* entries in each scratch array */
} Copy;

static PyObject *fail(const char *what)
{
    PyErr_Format(PyExc_ValueError, "cannot copy the space: %s", what);
    return NULL;
}

static int is_static_leaf(const Node *leaf)
{
    return ((const Shape *)leaf->obj)->body->sleeping.idleTime == INFINITY;  /* cpBodyGetType */
}

static int pair_up_bodies(Copy *c, Array *src, Array *dst, int dynamic)
{
    if (src->num != dst->num) return 0;
    for (int i = 0; i < src->num; i++) {
        Body *s = src->arr[i], *d = dst->arr[i];
        if (s->m != d->m || s->i != d->i || s->userData != d->userData) return 0;
        if (dynamic && (d->arbiterList || d->sleeping.root)) return 0;
        map_put(&c->objects, s, d);
        Shape *ss = s->shapeList, *ds = d->shapeList;
        for (; ss && ds; ss = ss->next, ds = ds->next) {
            if (ss->hashid != ds->hashid || ss->klass != ds->klass) return 0;
            map_put(&c->objects, ss, ds);
        }
        if (ss || ds) return 0;
    }
    return 1;
}

/* Leaves of two trees built alike: the same set of shapes, in the same bucket order. */
static int pair_up_leaves(Copy *c, BBTree *src, BBTree *dst)
{
    int ns = set_elements(src->leaves, c->scratch_a, c->scratch);
    int nd = set_elements(dst->leaves, c->scratch_b, c->scratch);
    if (ns < 0 || ns != nd) return 0;
    for (int i = 0; i < ns; i++) {
        Node *s = c->scratch_a[i], *d = c->scratch_b[i];
        if (map_get(&c->objects, s->obj) != d->obj) return 0;
        map_put(&c->objects, s, d);
    }
    return 1;
}

static PyObject *copy_state(PyObject *self, PyObject *args)
{
    unsigned long long src_address, dst_address;
    if (!PyArg_ParseTuple(args, "KK", &src_address, &dst_address)) return NULL;
    Space *src = (Space *)(uintptr_t)src_address, *dst = (Space *)(uintptr_t)dst_address;
    if (!src || !dst || src == dst) return fail("two different spaces are needed");
    if (!is_pivot) return fail("init() was not called");
    if (dst->stamp != 0 || dst->cachedArbiters->entries != 0 || dst->arbiters->num != 0)
        return fail("the copy's space has been stepped");
    if (src->locked || dst->locked) return fail("a space is locked");
    /* No collision handler: every contact's handlers are Chipmunk's one do-nothing handler. */
    if (src->collisionHandlers->entries || dst->collisionHandlers->entries)
        return fail("a space has collision handlers");
    if (src->iterations != dst->iterations || src->collisionPersistence != dst->collisionPersistence)
        return fail("the spaces' settings differ");
    BBTree *stree = (BBTree *)src->dynamicShapes, *dtree = (BBTree *)dst->dynamicShapes;
    BBTree *sstatic = (BBTree *)src->staticShapes, *dstatic = (BBTree *)dst->staticShapes;
    if (stree->spatialIndex.klass != dtree->spatialIndex.klass || sstatic->spatialIndex.klass != dtree->spatialIndex.klass ||
        dstatic->spatialIndex.klass != dtree->spatialIndex.klass || stree->spatialIndex.klass != sstatic->spatialIndex.klass)
        return fail("the spatial indexes are not both bounding-box trees");

    /* Sizes first: every array and map below is made for exactly this space. */
    int n_leaves = (int)stree->leaves->entries, n_static = (int)sstatic->leaves->entries;
    int n_arbiters = (int)src->cachedArbiters->entries;
    int n_bodies = src->dynamicBodies->num + src->staticBodies->num;
    Copy copy = {{0}, NULL, NULL, 2 * (n_leaves + n_static) + 16};
    Copy *c = &copy;
    PyObject *result = NULL;
    const char *problem = NULL;
    Pair **pairs = NULL;
    Arbiter **arbs = NULL, **darbs = NULL;
    ContactBufferHeader *sbufs[64], *dbufs[64];
    int n_internal, n_pairs = 0, n_entries = 0, n_buffers = 0;
    c->scratch_a = malloc(c->scratch * sizeof(void *));
    c->scratch_b = malloc(c->scratch * sizeof(void *));
    if (!c->scratch_a || !c->scratch_b) { result = PyErr_NoMemory(); goto done; }
    {
        int n = set_elements(stree->leaves, c->scratch_a, c->scratch);
        int m = set_elements(sstatic->leaves, c->scratch_a + n, c->scratch - n);
        for (int i = 0; i < n + m; i++) {
            Node *leaf = c->scratch_a[i];
            for (Pair *p = leaf->node.leaf.pairs; p; p = next_pair(p, leaf)) n_entries++;
        }
    }
    pairs = malloc((n_entries + 1) * sizeof(Pair *));
    arbs = malloc((n_arbiters + 1) * sizeof(Arbiter *));
    darbs = malloc((n_arbiters + 1) * sizeof(Arbiter *));
    if (!pairs || !arbs || !darbs ||
        !map_init(&c->objects, 2 * n_bodies + 3 * (n_leaves + n_static) + n_entries + n_arbiters + 64)) {
        result = PyErr_NoMemory();
        goto done;
    }

    /* 1. Everything is checked and paired up before anything of dst is written. */
    if (!pair_up_bodies(c, src->dynamicBodies, dst->dynamicBodies, 1) ||
        !pair_up_bodies(c, src->staticBodies, dst->staticBodies, 0)) {
        problem = "the bodies or shapes differ (not built alike)";
        goto done;
    }
    if (src->constraints->num != dst->constraints->num) { problem = "the joints differ"; goto done; }
    for (int i = 0; i < src->constraints->num; i++) {
        Constraint *s = src->constraints->arr[i], *d = dst->constraints->arr[i];
        if (s->klass != d->klass || map_get(&c->objects, s->a) != d->a || map_get(&c->objects, s->b) != d->b ||
            !(is_pivot(s) || is_gear(s) || is_groove(s))) {
            problem = "the joints differ";
            goto done;
        }
    }
    if (!pair_up_leaves(c, stree, dtree) || !pair_up_leaves(c, sstatic, dstatic)) {
        problem = "the trees' leaves differ";
        goto done;
    }
    {
        Node **snodes = (Node **)c->scratch_a, **dnodes = (Node **)c->scratch_b;
        n_internal = internal_nodes(stree->root, snodes, c->scratch);
        if (n_internal < 0 || internal_nodes(dtree->root, dnodes, c->scratch) != n_internal) {
            problem = "the trees' sizes differ";
            goto done;
        }
        for (int i = 0; i < n_internal; i++) map_put(&c->objects, snodes[i], dnodes[i]);
    }
    /* The pairs, each once: a pair between two dynamic leaves is in both their lists (taken from
     * its leaf a), one with a static leaf (its leaf a) only in the dynamic leaf's list. */
    {
        int n = set_elements(stree->leaves, c->scratch_a, c->scratch);
        for (int i = 0; i < n; i++) {
            Node *leaf = c->scratch_a[i];
            for (Pair *p = leaf->node.leaf.pairs; p; p = next_pair(p, leaf)) {
                if (p->a.leaf != leaf && !is_static_leaf(p->a.leaf)) continue;
                if (n_pairs >= n_entries) { problem = "the pair lists are inconsistent"; goto done; }
                pairs[n_pairs++] = p;
            }
        }
    }

    /* The cached arbiters, and the contact buffers their contacts live in. */
    if (set_elements(src->cachedArbiters, (void **)arbs, n_arbiters) != n_arbiters) {
        problem = "the contact set is inconsistent";
        goto done;
    }
    if (src->contactBuffersHead) {
        ContactBufferHeader *b = src->contactBuffersHead;
        do {
            if (n_buffers >= 64) { problem = "too many contact buffers"; goto done; }
            sbufs[n_buffers++] = b;
            b = b->next;
        } while (b != src->contactBuffersHead);
    }
    for (int k = 0; k < n_arbiters; k++) {
        Arbiter *a = arbs[k];
        if (a->data || !map_get(&c->objects, a->a) || !map_get(&c->objects, a->b)) {
            problem = "a contact belongs to an unknown shape or has user data";
            goto done;
        }
        if (a->contacts) {
            int found = 0;
            for (int i = 0; i < n_buffers && !found; i++) {
                char *base = (char *)((ContactBuffer *)sbufs[i])->contacts;
                found = (char *)a->contacts >= base &&
                        (char *)(a->contacts + a->count) <= base + sbufs[i]->numContacts * sizeof(Contact);
            }
            if (!found) { problem = "a contact is outside the contact buffers"; goto done; }
        }
    }

    /* 2. Allocate dst's new pairs, arbiters and contact buffers (owned by dst). */
    {
        Pair *dpairs = owned_block(dtree->allocatedBuffers, (size_t)n_pairs * sizeof(Pair));
        Arbiter *block = owned_block(dst->allocatedBuffers, (size_t)n_arbiters * sizeof(Arbiter));
        if ((n_pairs && !dpairs) || (n_arbiters && !block) || !array_reserve(dst->arbiters, src->arbiters->num)) {
            result = PyErr_NoMemory();
            goto done;
        }
        for (int i = 0; i < n_pairs; i++) map_put(&c->objects, pairs[i], &dpairs[i]);
        for (int k = 0; k < n_arbiters; k++) {
            darbs[k] = &block[k];
            map_put(&c->objects, arbs[k], &block[k]);
        }
        for (int i = 0; i < n_buffers; i++) {
            dbufs[i] = owned_block(dst->allocatedBuffers, sizeof(ContactBuffer));
            if (!dbufs[i]) { result = PyErr_NoMemory(); goto done; }
            memcpy(dbufs[i], sbufs[i], sizeof(ContactBufferHeader) + sbufs[i]->numContacts * sizeof(Contact));
        }
        for (int i = 0; i < n_buffers; i++) dbufs[i]->next = dbufs[(i + 1) % n_buffers];
    }

    /* 3. Write. The space. */
    dst->stamp = src->stamp;
    dst->curr_dt = src->curr_dt;
    if (n_buffers) dst->contactBuffersHead = dbufs[0];

    /* Bodies: their motion and contact lists. */
    for (int kind = 0; kind < 2; kind++) {
        Array *sa = kind ? src->staticBodies : src->dynamicBodies;
        for (int i = 0; i < sa->num; i++) {
            Body *s = sa->arr[i], *d = map_get(&c->objects, s);
            d->p = s->p; d->v = s->v; d->f = s->f;
            d->a = s->a; d->w = s->w; d->t = s->t;
            d->transform = s->transform;
            d->v_bias = s->v_bias; d->w_bias = s->w_bias;
            d->sleeping.idleTime = s->sleeping.idleTime;
            d->arbiterList = map_get(&c->objects, s->arbiterList);
            for (Shape *ss = s->shapeList, *ds = d->shapeList; ss; ss = ss->next, ds = ds->next) {
                ds->bb = ss->bb;
            }
        }
    }

    /* Joints: everything after the common header (anchors, cached masses, accumulated impulse). */
    for (int i = 0; i < src->constraints->num; i++) {
        Constraint *s = src->constraints->arr[i], *d = dst->constraints->arr[i];
        size_t size = is_pivot(s) ? PIVOT_SIZE : is_gear(s) ? GEAR_SIZE : GROOVE_SIZE;
        memcpy((char *)d + sizeof(Constraint), (char *)s + sizeof(Constraint), size - sizeof(Constraint));
    }

    /* Arbiters (their contacts' accumulated impulses in the copied buffers), the cached set and
     * the last step's list. */
    for (int k = 0; k < n_arbiters; k++) {
        Arbiter *s = arbs[k], *d = darbs[k];
        *d = *s;
        d->a = map_get(&c->objects, s->a);
        d->b = map_get(&c->objects, s->b);
        d->body_a = map_get(&c->objects, s->body_a);
        d->body_b = map_get(&c->objects, s->body_b);
        d->thread_a.next = map_get(&c->objects, s->thread_a.next);
        d->thread_a.prev = map_get(&c->objects, s->thread_a.prev);
        d->thread_b.next = map_get(&c->objects, s->thread_b.next);
        d->thread_b.prev = map_get(&c->objects, s->thread_b.prev);
        d->contacts = NULL;
        for (int i = 0; i < n_buffers && s->contacts; i++) {
            Contact *base = ((ContactBuffer *)sbufs[i])->contacts;
            if (s->contacts >= base && s->contacts < base + CONTACTS_PER_BUFFER) {
                d->contacts = ((ContactBuffer *)dbufs[i])->contacts + (s->contacts - base);
                break;
            }
        }
    }
    if (!arbiter_set_fill(dst->cachedArbiters, darbs, n_arbiters)) { result = PyErr_NoMemory(); goto done; }
    for (int k = 0; k < src->arbiters->num; k++) dst->arbiters->arr[k] = map_get(&c->objects, src->arbiters->arr[k]);
    dst->arbiters->num = src->arbiters->num;

    /* The dynamic tree: every node's box, parent and children or stamp and pairs. */
    {
        Node **nodes = (Node **)c->scratch_a;
        int n = set_elements(stree->leaves, c->scratch_a, c->scratch);
        for (int i = 0; i < n; i++) {
            Node *s = nodes[i], *d = map_get(&c->objects, s);
            d->bb = s->bb;
            d->parent = map_get(&c->objects, s->parent);
            d->node.leaf.stamp = s->node.leaf.stamp;
            d->node.leaf.pairs = map_get(&c->objects, s->node.leaf.pairs);
        }
        n = internal_nodes(stree->root, nodes, c->scratch);
        for (int i = 0; i < n; i++) {
            Node *s = nodes[i], *d = map_get(&c->objects, s);
            d->bb = s->bb;
            d->parent = map_get(&c->objects, s->parent);
            d->node.children.a = map_get(&c->objects, s->node.children.a);
            d->node.children.b = map_get(&c->objects, s->node.children.b);
        }
        dtree->root = map_get(&c->objects, stree->root);
        dtree->stamp = stree->stamp;
        /* The static leaves: their stamps and pair lists (their tree itself is built alike). */
        n = set_elements(sstatic->leaves, c->scratch_a, c->scratch);
        for (int i = 0; i < n; i++) {
            Node *s = nodes[i], *d = map_get(&c->objects, s);
            d->node.leaf.stamp = s->node.leaf.stamp;
            d->node.leaf.pairs = map_get(&c->objects, s->node.leaf.pairs);
        }
        dstatic->stamp = sstatic->stamp;
        for (int i = 0; i < n_pairs; i++) {
            Pair *s = pairs[i], *d = map_get(&c->objects, s);
            d->a.prev = map_get(&c->objects, s->a.prev);
            d->a.leaf = map_get(&c->objects, s->a.leaf);
            d->a.next = map_get(&c->objects, s->a.next);
            d->b.prev = map_get(&c->objects, s->b.prev);
            d->b.leaf = map_get(&c->objects, s->b.leaf);
            d->b.next = map_get(&c->objects, s->b.next);
            d->id = s->id;
        }
    }
    result = Py_None;
    Py_INCREF(result);

done:
    if (problem && !result) result = fail(problem);
    free(pairs);
    free(arbs);
    free(darbs);
    free(c->scratch_a);
    free(c->scratch_b);
    map_free(&c->objects);
    return result;
}

/* --- the settle loop (issue 42 item 5) ----------------------------------------------------
 *
 * physics.LeanWorld.settle and warm_up step a space and, between steps, read it through pymunk's
 * batched queries: every step the contacts' depths (the squeeze test), every FRAME_EVERY steps the
 * positions (the tape), every SETTLE_CHECK_EVERY steps the speeds (the rest test). Written in
 * Python those calls, the spring's force and numpy's reductions cost about a quarter of a game.
 * Here the same loop makes the very same calls to Chipmunk and to pymunk's own batched iterators
 * (their addresses given by `init_steps`), into the very buffers physics.py made (pmBatchedData),
 * and does the same arithmetic in the same order (no contraction into fused multiply-adds, hence
 * the pragma): the same steps, the same numbers, bit for bit (tests/booby_trap/test_settle_loop.py
 * compares it with the Python loop). Nothing here reads a private structure.
 */
#pragma GCC optimize("fp-contract=off")

typedef void (*SpaceStepFn)(void *space, cpFloat dt);
typedef void (*BodySetForceFn)(void *body, Vect force);
typedef Vect (*BodyGetPositionFn)(const void *body);
typedef void (*SpaceSetIterationsFn)(void *space, int iterations);
typedef void (*IterFn)(void *object, void *data);
typedef void (*SpaceEachFn)(void *space, IterFn func, void *data);

typedef struct { int num, max; cpFloat *arr; } FloatArray;
typedef struct { int num, max; uintptr_t *arr; } IntArray;
typedef struct { IntArray *ints; FloatArray *floats; int fields; } BatchedData;

static struct {
    SpaceStepFn step;
    BodySetForceFn set_force;
    BodyGetPositionFn position;
    SpaceSetIterationsFn set_iterations;
    SpaceEachFn each_body, each_arbiter;
    IterFn body_batched, arbiter_batched;
} cp;

typedef struct { cpFloat half, preload, rate, reference, dt; } Spring;

/* World.step: the spring's force on the bar (`load` of it), then one step. */
static inline void spring_step(void *space, void *bar, cpFloat load, const Spring *s)
{
    Vect force = {-load * (s->preload + s->rate * ((cp.position(bar).x - s->half) - s->reference)), 0.0};
    cp.set_force(bar, force);
    cp.step(space, s->dt);
}

static PyObject *init_steps(PyObject *self, PyObject *args)
{
    unsigned long long a[8];
    if (!PyArg_ParseTuple(args, "KKKKKKKK", &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6], &a[7])) return NULL;
    cp.step = (SpaceStepFn)(uintptr_t)a[0];
    cp.set_force = (BodySetForceFn)(uintptr_t)a[1];
    cp.position = (BodyGetPositionFn)(uintptr_t)a[2];
    cp.set_iterations = (SpaceSetIterationsFn)(uintptr_t)a[3];
    cp.each_body = (SpaceEachFn)(uintptr_t)a[4];
    cp.each_arbiter = (SpaceEachFn)(uintptr_t)a[5];
    cp.body_batched = (IterFn)(uintptr_t)a[6];
    cp.arbiter_batched = (IterFn)(uintptr_t)a[7];
    Py_RETURN_NONE;
}

static int steps_ready(void)
{
    if (cp.step && cp.set_force && cp.position && cp.set_iterations && cp.each_body && cp.each_arbiter
        && cp.body_batched && cp.arbiter_batched)
        return 1;
    PyErr_SetString(PyExc_RuntimeError, "init_steps was not called");
    return 0;
}

/* warm_up(space, bar, steps, ramp, warm_iterations, iterations, half, preload, rate, reference, dt):
 * LeanWorld.warm_up's loop (the load ramped up over `ramp` steps, at warm_iterations). */
static PyObject *warm_up(PyObject *self, PyObject *args)
{
    unsigned long long space_a, bar_a;
    int steps, ramp, warm_iterations, iterations;
    Spring s;
    if (!PyArg_ParseTuple(args, "KKiiiiddddd", &space_a, &bar_a, &steps, &ramp, &warm_iterations, &iterations,
                          &s.half, &s.preload, &s.rate, &s.reference, &s.dt))
        return NULL;
    if (!steps_ready()) return NULL;
    if (ramp <= 0) { PyErr_SetString(PyExc_ValueError, "the warm-up's ramp must be at least 1 step"); return NULL; }
    void *space = (void *)(uintptr_t)space_a, *bar = (void *)(uintptr_t)bar_a;
    Py_BEGIN_ALLOW_THREADS
    cp.set_iterations(space, warm_iterations);
    for (int n = 1; n <= steps; n++) {
        cpFloat load = (cpFloat)n / (cpFloat)ramp; /* Python's min(1.0, n / ramp) */
        if (!(load < 1.0)) load = 1.0;
        spring_step(space, bar, load, &s);
    }
    cp.set_iterations(space, iterations);
    Py_END_ALLOW_THREADS
    Py_RETURN_NONE;
}

/* run(space, bar, load, steps, half, preload, rate, reference, dt): `steps` plain steps. */
static PyObject *run(PyObject *self, PyObject *args)
{
    unsigned long long space_a, bar_a;
    cpFloat load;
    long long steps;
    Spring s;
    if (!PyArg_ParseTuple(args, "KKdLddddd", &space_a, &bar_a, &load, &steps, &s.half, &s.preload, &s.rate,
                          &s.reference, &s.dt))
        return NULL;
    if (!steps_ready()) return NULL;
    void *space = (void *)(uintptr_t)space_a, *bar = (void *)(uintptr_t)bar_a;
    Py_BEGIN_ALLOW_THREADS
    for (long long n = 0; n < steps; n++) spring_step(space, bar, load, &s);
    Py_END_ALLOW_THREADS
    Py_RETURN_NONE;
}

static inline void batch_clear(BatchedData *d)
{
    d->ints->num = 0;
    d->floats->num = 0;
}

/* settle(space, bar, load, max_steps, half, preload, rate, reference, dt,
 *        speeds, check_every, rest_speed, rest_checks,
 *        depths, squeeze_every, pop, on_squeeze,
 *        places, frame_every, tape):
 * LeanWorld.settle's loop. `speeds`, `depths`, `places` are the addresses of the world's
 * pmBatchedData (velocities; contacts' first depths; ids and positions); `depths` 0 for no squeeze
 * test, else `on_squeeze()` is called after a step with a contact deeper than -pop (numpy's min:
 * a NaN depth hides the others); `places` 0 for no tape, else every frame_every steps
 * (bar face, ids bytes, positions bytes) is appended to the list `tape`. Returns the steps. */
static PyObject *settle(PyObject *self, PyObject *args)
{
    unsigned long long space_a, bar_a, speeds_a, depths_a, places_a;
    cpFloat load, rest_speed, pop;
    int max_steps, check_every, rest_checks, squeeze_every, frame_every;
    Spring s;
    PyObject *on_squeeze, *tape;
    if (!PyArg_ParseTuple(args, "KKdidddddKidiKidOKiO", &space_a, &bar_a, &load, &max_steps, &s.half,
                          &s.preload, &s.rate, &s.reference, &s.dt, &speeds_a, &check_every, &rest_speed,
                          &rest_checks, &depths_a, &squeeze_every, &pop, &on_squeeze, &places_a,
                          &frame_every, &tape))
        return NULL;
    if (!steps_ready()) return NULL;
    if (check_every <= 0 || (depths_a && squeeze_every <= 0) || (places_a && frame_every <= 0)) {
        PyErr_SetString(PyExc_ValueError, "the settle's check intervals must be at least 1 step");
        return NULL;
    }
    if (places_a && !PyList_Check(tape)) {
        PyErr_SetString(PyExc_TypeError, "tape must be a list");
        return NULL;
    }
    void *space = (void *)(uintptr_t)space_a, *bar = (void *)(uintptr_t)bar_a;
    BatchedData *speeds = (BatchedData *)(uintptr_t)speeds_a;
    BatchedData *depths = (BatchedData *)(uintptr_t)depths_a;
    BatchedData *places = (BatchedData *)(uintptr_t)places_a;
    int quiet = 0;
    /* Other threads run while this one steps (as they did while cffi's calls stepped): the server
     * applies moves in a thread pool. The GIL is taken back only to call Python. */
    PyThreadState *released = PyEval_SaveThread();
    for (int n = 1; n <= max_steps; n++) {
        spring_step(space, bar, load, &s);
        if (depths && n % squeeze_every == 0) {
            depths->floats->num = 0;
            cp.each_arbiter(space, cp.arbiter_batched, depths);
            int k = depths->floats->num;
            if (k) {
                const cpFloat *d = depths->floats->arr;
                cpFloat low = d[0];
                int nan = 0;
                for (int i = 0; i < k; i++) {
                    if (d[i] != d[i]) nan = 1;
                    else if (d[i] < low) low = d[i];
                }
                if (!nan && low < pop) {
                    PyEval_RestoreThread(released);
                    PyObject *r = PyObject_CallNoArgs(on_squeeze);
                    if (!r) return NULL;
                    Py_DECREF(r);
                    released = PyEval_SaveThread();
                }
            }
        }
        if (places && n % frame_every == 0) {
            batch_clear(places);
            cp.each_body(space, cp.body_batched, places);
            cpFloat face = cp.position(bar).x - s.half;
            PyEval_RestoreThread(released);
            /* LeanWorld.tape: (bar_face(), bytes of the ids, bytes of the positions) */
            PyObject *ids = PyBytes_FromStringAndSize(
                places->ints->num ? (const char *)places->ints->arr : "",
                (Py_ssize_t)places->ints->num * (Py_ssize_t)sizeof(uintptr_t));
            PyObject *xy = PyBytes_FromStringAndSize(
                places->floats->num ? (const char *)places->floats->arr : "",
                (Py_ssize_t)places->floats->num * (Py_ssize_t)sizeof(cpFloat));
            PyObject *frame = ids && xy ? Py_BuildValue("(dNN)", face, ids, xy) : NULL;
            if (!frame) {
                if (!(ids && xy)) { Py_XDECREF(ids); Py_XDECREF(xy); }
                return NULL;
            }
            int failed = PyList_Append(tape, frame);
            Py_DECREF(frame);
            if (failed) return NULL;
            released = PyEval_SaveThread();
        }
        if (n % check_every == 0) {
            /* max_speed: the square root of the largest squared speed (numpy's max: NaN wins). */
            speeds->floats->num = 0;
            cp.each_body(space, cp.body_batched, speeds);
            int k = speeds->floats->num / 2;
            cpFloat top = 0.0;
            if (k) {
                const cpFloat *v = speeds->floats->arr;
                top = v[0] * v[0] + v[1] * v[1];
                for (int i = 1; i < k && top == top; i++) {
                    cpFloat sq = v[2 * i] * v[2 * i] + v[2 * i + 1] * v[2 * i + 1];
                    if (sq != sq || sq > top) top = sq;
                }
                top = sqrt(top);
            }
            quiet = top < rest_speed ? quiet + 1 : 0;
            if (quiet >= rest_checks && n < max_steps) {
                PyEval_RestoreThread(released);
                return PyLong_FromLong(n);
            }
        }
    }
    PyEval_RestoreThread(released);
    return PyLong_FromLong(max_steps);
}

static PyObject *init(PyObject *self, PyObject *args)
{
    unsigned long long pivot, gear, groove;
    if (!PyArg_ParseTuple(args, "KKK", &pivot, &gear, &groove)) return NULL;
    is_pivot = (IsKind)(uintptr_t)pivot;
    is_gear = (IsKind)(uintptr_t)gear;
    is_groove = (IsKind)(uintptr_t)groove;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"init", init, METH_VARARGS,
     "init(is_pivot, is_gear, is_groove): the addresses of pymunk's cpConstraintIs* functions."},
    {"copy_state", copy_state, METH_VARARGS,
     "copy_state(src, dst): write the state of space src into dst, built alike and never stepped."},
    {"init_steps", init_steps, METH_VARARGS,
     "init_steps(step, set_force, position, set_iterations, each_body, each_arbiter, body_batched, "
     "arbiter_batched): the addresses the settle loop calls."},
    {"warm_up", warm_up, METH_VARARGS, "LeanWorld.warm_up's loop."},
    {"run", run, METH_VARARGS, "Plain spring steps."},
    {"settle", settle, METH_VARARGS, "LeanWorld.settle's loop."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_worldcopy", NULL, -1, methods};

PyMODINIT_FUNC PyInit__worldcopy(void) { return PyModule_Create(&module); }
