/* SPDX-License-Identifier: BSD-3-Clause */
/* sf_compare: the PetscSF type ghostwire against basic, operation by operation, on random graphs with
   duplicate leaves, self edges, sparse leaves, ranks without roots or leaves, and roots and leaves
   in one array: every unit and op PETSc passes (and some the fast path leaves to basic) in Bcast and
   Reduce, operations in flight together on different buffers, FetchAndOp, Gather, and an allgather
   SF made ghostwire after SetUp. Any difference
   from basic is an error naming the case. -expect_fast 1 (0) also requires that the fast path took
   (did not take) operations; -1 checks nothing about it. -expect_transfer segment (cma) requires
   that messages to node peers went only through the segment (that some were read straight from
   the peer's array by cross-memory attach), summed over all ranks. */
static const char help[] = "Compares the PetscSF type ghostwire with basic.\n";

#include <petscsf.h>

typedef enum { FLOATING, INTEGER, TEXT, PAIR, OPAQUE } Kind;
typedef struct {
  const char  *name;
  MPI_Datatype unit;
  Kind         kind;
  size_t       element; /* bytes of one element: double, an integer, one int of a pair, a byte */
  size_t       extent;  /* bytes of one unit in an array */
} UnitCase;
typedef struct {
  const char *name;
  MPI_Op      op;
} OpCase;
typedef struct {
  PetscInt     nroots, nleaves, leafspace, rootoffset; /* rootoffset: roots and leaves share one array */
  PetscInt    *ilocal;
  PetscSFNode *iremote;
} Graph;

static unsigned next_random(unsigned *state)
{
  *state = *state * 1103515245u + 12345u;
  return (*state >> 16) & 0x7fff;
}

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
  (void)type;
  for (int i = 0; i < *len; i++) ((double *)inout)[i] += ((double *)in)[i];
}

/* Roots per rank: variant 1 leaves rank 0 without roots (unless it is alone). */
static PetscInt root_count(PetscMPIInt rank, PetscMPIInt size, PetscInt variant)
{
  return (variant == 1 && rank == 0 && size > 1) ? 0 : 3 + (rank + variant) % 4;
}

/* Variant 0: contiguous leaves; 1: sparse leaves in reverse order; 2: the last rank has no leaves;
   3: leaves behind the roots in the same array (the caller passes one array as both). */
static PetscErrorCode make_graph(MPI_Comm comm, PetscInt variant, Graph *g)
{
  PetscMPIInt rank, size;
  unsigned    seed;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  seed          = 17u + 131u * (unsigned)variant + 7u * (unsigned)rank;
  g->nroots     = root_count(rank, size, variant);
  g->nleaves    = (variant == 2 && rank == size - 1) ? 0 : 6 + (3 * rank + variant) % 5;
  g->rootoffset = variant == 3 ? g->nroots : 0;
  g->leafspace  = variant == 1 ? 2 * g->nleaves + 1 : g->rootoffset + g->nleaves;
  PetscCall(PetscMalloc1(g->nleaves, &g->iremote));
  g->ilocal = NULL;
  if (variant == 1 || variant == 3) PetscCall(PetscMalloc1(g->nleaves, &g->ilocal));
  for (PetscInt i = 0; i < g->nleaves; i++) {
    PetscMPIInt owner;
    do owner = (PetscMPIInt)(next_random(&seed) % (unsigned)size);
    while (root_count(owner, size, variant) == 0);
    g->iremote[i].rank  = owner;
    g->iremote[i].index = (PetscInt)(next_random(&seed) % (unsigned)root_count(owner, size, variant));
    if (variant == 1) g->ilocal[i] = 2 * (g->nleaves - 1 - i) + 1;
    if (variant == 3) g->ilocal[i] = g->rootoffset + i;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode make_sf(MPI_Comm comm, const Graph *g, PetscSFType type, PetscSF *sf)
{
  PetscFunctionBeginUser;
  PetscCall(PetscSFCreate(comm, sf));
  PetscCall(PetscSFSetType(*sf, type));
  PetscCall(PetscSFSetFromOptions(*sf)); /* -sf_ghostwire_fast; keeps the type unless -sf_type says otherwise */
  PetscCall(PetscSFSetType(*sf, type));
  PetscCall(PetscSFSetGraph(*sf, g->nroots, g->nleaves, g->ilocal, PETSC_COPY_VALUES, g->iremote, PETSC_COPY_VALUES));
  PetscCall(PetscSFSetUp(*sf));
  PetscFunctionReturn(0);
}

/* Small values, so that sums and products of doubles are exact whatever the order and integer
   products stay in range; the rest of a wider integer is zero. */
static void fill(void *data, PetscInt units, const UnitCase *u, unsigned *seed)
{
  unsigned char *bytes = (unsigned char *)data;
  size_t         n     = (size_t)units * u->extent / u->element;

  if (!data) return;
  PetscMemzero(data, (size_t)units * u->extent);
  for (size_t i = 0; i < n; i++) {
    unsigned r = next_random(seed);
    if (u->kind == FLOATING) ((double *)data)[i] = (double)(1 + r % 3);
    else if (u->kind == PAIR) ((int *)data)[i] = (int)(r % 4);
    else if (u->kind == TEXT) bytes[i] = (unsigned char)('a' + r % 26);
    else if (u->kind == OPAQUE) bytes[i] = (unsigned char)r;
    else bytes[i * u->element] = (unsigned char)(r % 4);
  }
}

typedef struct {
  void *root, *leaf; /* the same array when the graph's roots and leaves share one */
} Buffers;

static PetscErrorCode buffers_create(const Graph *g, const UnitCase *u, unsigned seed, Buffers *b)
{
  PetscFunctionBeginUser;
  b->root = b->leaf = NULL;
  if (g->leafspace) PetscCall(PetscMalloc((size_t)g->leafspace * u->extent, &b->leaf));
  fill(b->leaf, g->leafspace, u, &seed);
  if (g->rootoffset) b->root = b->leaf;
  else {
    if (g->nroots) PetscCall(PetscMalloc((size_t)g->nroots * u->extent, &b->root));
    fill(b->root, g->nroots, u, &seed);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode buffers_destroy(const Graph *g, Buffers *b)
{
  PetscFunctionBeginUser;
  if (!g->rootoffset) PetscCall(PetscFree(b->root));
  PetscCall(PetscFree(b->leaf));
  PetscFunctionReturn(0);
}

/* Index of the first unit that differs, or -1. */
static PetscInt first_difference(const void *a, const void *b, PetscInt units, size_t extent)
{
  for (PetscInt i = 0; i < units; i++)
    if (memcmp((const char *)a + (size_t)i * extent, (const char *)b + (size_t)i * extent, extent)) return i;
  return -1;
}

static PetscErrorCode buffers_compare(MPI_Comm comm, const Graph *g, const UnitCase *u, const Buffers *basic, const Buffers *gw, const char *what)
{
  PetscMPIInt rank;
  PetscInt    leaf = -1, root = -1;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (g->leafspace) leaf = first_difference(basic->leaf, gw->leaf, g->leafspace, u->extent);
  if (!g->rootoffset && g->nroots) root = first_difference(basic->root, gw->root, g->nroots, u->extent);
  PetscCheck(leaf < 0 && root < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "[%d] %s with unit %s: ghostwire differs from basic at %s %" PetscInt_FMT, rank, what, u->name, leaf >= 0 ? "leaf" : "root", leaf >= 0 ? leaf : root);
  PetscFunctionReturn(0);
}

static PetscErrorCode run(PetscSF sf, const UnitCase *u, MPI_Op op, PetscBool bcast, Buffers *b)
{
  PetscFunctionBeginUser;
  if (bcast) {
    PetscCall(PetscSFBcastBegin(sf, u->unit, b->root, b->leaf, op));
    PetscCall(PetscSFBcastEnd(sf, u->unit, b->root, b->leaf, op));
  } else {
    PetscCall(PetscSFReduceBegin(sf, u->unit, b->leaf, b->root, op));
    PetscCall(PetscSFReduceEnd(sf, u->unit, b->leaf, b->root, op));
  }
  PetscFunctionReturn(0);
}

/* Reduce with MPI_REPLACE leaves a root with several leaves one of their values, which one is not
   fixed (basic's own choice varies from run to run): give all leaves of a root the same value. */
static void same_value_per_root(const Graph *g, const UnitCase *u, void *leafdata)
{
  for (PetscInt i = 0; i < g->nleaves; i++) {
    unsigned char *unit = (unsigned char *)leafdata + (size_t)(g->ilocal ? g->ilocal[i] : i) * u->extent;
    for (size_t j = 0; j < u->extent; j++) unit[j] = (unsigned char)(7 * g->iremote[i].rank + 13 * g->iremote[i].index + (PetscInt)j);
  }
}

/* One Bcast or Reduce with the same data on both SFs. */
static PetscErrorCode compare_one(PetscSF basic, PetscSF gw, const Graph *g, const UnitCase *u, const OpCase *o, PetscBool bcast, unsigned seed)
{
  Buffers b, w;
  char    what[128];

  PetscFunctionBeginUser;
  PetscCall(buffers_create(g, u, seed, &b));
  PetscCall(buffers_create(g, u, seed, &w));
  if (!bcast && o->op == MPI_REPLACE) {
    same_value_per_root(g, u, b.leaf);
    same_value_per_root(g, u, w.leaf);
  }
  PetscCall(run(basic, u, o->op, bcast, &b));
  PetscCall(run(gw, u, o->op, bcast, &w));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s with %s", bcast ? "Bcast" : "Reduce", o->name));
  PetscCall(buffers_compare(PetscObjectComm((PetscObject)gw), g, u, &b, &w, what));
  PetscCall(buffers_destroy(g, &b));
  PetscCall(buffers_destroy(g, &w));
  PetscFunctionReturn(0);
}

static PetscBool applies(Kind kind, const OpCase *o, const UnitCase *u)
{
  PetscBool arithmetic = (PetscBool)(o->op == MPI_REPLACE || o->op == MPI_SUM || o->op == MPI_PROD || o->op == MPI_MAX || o->op == MPI_MIN);
  PetscBool loc        = (PetscBool)(o->op == MPI_MAXLOC || o->op == MPI_MINLOC);
  switch (kind) {
  case FLOATING:
    return (PetscBool)(arithmetic || (!strcmp(o->name, "user sum") && u->unit == MPIU_SCALAR));
  case INTEGER:
    return (PetscBool)(!loc && strcmp(o->name, "user sum"));
  case PAIR:
    return (PetscBool)(o->op == MPI_REPLACE || loc);
  default:
    return (PetscBool)(o->op == MPI_REPLACE);
  }
}

/* Three operations in flight on the ghostwire SF at once, ended out of order, against basic's one by one. */
static PetscErrorCode compare_in_flight(PetscSF basic, PetscSF gw, const Graph *g, const UnitCase *scalar, const UnitCase *integer)
{
  Buffers b[3], w[3];
  const UnitCase *units[3] = {scalar, integer, scalar};
  MPI_Op          ops[3]   = {MPI_SUM, MPI_MAX, MPI_REPLACE};
  PetscBool       bcast[3] = {PETSC_TRUE, PETSC_FALSE, PETSC_TRUE};

  PetscFunctionBeginUser;
  for (int k = 0; k < 3; k++) {
    PetscCall(buffers_create(g, units[k], 100u + (unsigned)k, &b[k]));
    PetscCall(buffers_create(g, units[k], 100u + (unsigned)k, &w[k]));
    PetscCall(run(basic, units[k], ops[k], bcast[k], &b[k]));
  }
  /* With roots and leaves in one array (variant 3), each operation has its own such array. */
  PetscCall(PetscSFBcastBegin(gw, scalar->unit, w[0].root, w[0].leaf, MPI_SUM));
  PetscCall(PetscSFReduceBegin(gw, integer->unit, w[1].leaf, w[1].root, MPI_MAX));
  PetscCall(PetscSFBcastBegin(gw, scalar->unit, w[2].root, w[2].leaf, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(gw, scalar->unit, w[2].root, w[2].leaf, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(gw, scalar->unit, w[0].root, w[0].leaf, MPI_SUM));
  PetscCall(PetscSFReduceEnd(gw, integer->unit, w[1].leaf, w[1].root, MPI_MAX));
  for (int k = 0; k < 3; k++) {
    PetscCall(buffers_compare(PetscObjectComm((PetscObject)gw), g, units[k], &b[k], &w[k], "operations in flight together"));
    PetscCall(buffers_destroy(g, &b[k]));
    PetscCall(buffers_destroy(g, &w[k]));
  }
  PetscFunctionReturn(0);
}

/* FetchAndOp (left to basic) and Gather (through the multi-SF, itself of type ghostwire). */
static PetscErrorCode compare_fetch_and_gather(PetscSF basic, PetscSF gw, const Graph *g, const UnitCase *integer)
{
  PetscSF         sfs[2] = {basic, gw};
  PetscInt       *root[2], *leaf, *update[2], *multi[2], nmulti = 0;
  const PetscInt *degree;
  unsigned        seed = 7;

  PetscFunctionBeginUser;
  PetscCall(PetscSFComputeDegreeBegin(basic, &degree));
  PetscCall(PetscSFComputeDegreeEnd(basic, &degree));
  for (PetscInt i = 0; i < g->nroots; i++) nmulti += degree[i];
  PetscCall(PetscMalloc1(g->leafspace + 1, &leaf));
  fill(leaf, g->leafspace, integer, &seed);
  for (int s = 0; s < 2; s++) {
    PetscCall(PetscCalloc3(g->nroots + 1, &root[s], g->leafspace + 1, &update[s], nmulti + 1, &multi[s]));
    PetscCall(PetscSFFetchAndOpBegin(sfs[s], MPIU_INT, root[s], leaf, update[s], MPI_SUM));
    PetscCall(PetscSFFetchAndOpEnd(sfs[s], MPIU_INT, root[s], leaf, update[s], MPI_SUM));
    PetscCall(PetscSFGatherBegin(sfs[s], MPIU_INT, leaf, multi[s]));
    PetscCall(PetscSFGatherEnd(sfs[s], MPIU_INT, leaf, multi[s]));
  }
  PetscCheck(!memcmp(root[0], root[1], sizeof(PetscInt) * (size_t)g->nroots) && !memcmp(update[0], update[1], sizeof(PetscInt) * (size_t)g->leafspace), PETSC_COMM_SELF, PETSC_ERR_PLIB, "FetchAndOp: ghostwire differs from basic");
  PetscCheck(!memcmp(multi[0], multi[1], sizeof(PetscInt) * (size_t)nmulti), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Gather: ghostwire differs from basic");
  for (int s = 0; s < 2; s++) PetscCall(PetscFree3(root[s], update[s], multi[s]));
  PetscCall(PetscFree(leaf));
  PetscFunctionReturn(0);
}

/* An allgather SF whose type is changed to ghostwire after SetUp, against one left as PETSc made it. */
static PetscErrorCode compare_pattern(MPI_Comm comm)
{
  PetscSF     sfs[2];
  PetscLayout map;
  PetscMPIInt rank, size;
  PetscInt   *root[2], *leaf[2], n, N;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  n = rank + 1;
  PetscCall(PetscLayoutCreateFromSizes(comm, n, PETSC_DECIDE, 1, &map));
  PetscCall(PetscLayoutGetSize(map, &N));
  for (int s = 0; s < 2; s++) {
    PetscCall(PetscSFCreate(comm, &sfs[s]));
    PetscCall(PetscSFSetGraphWithPattern(sfs[s], map, PETSCSF_PATTERN_ALLGATHER));
    PetscCall(PetscSFSetUp(sfs[s]));
    if (s == 1) PetscCall(PetscSFSetType(sfs[s], "ghostwire"));
    PetscCall(PetscMalloc2(n, &root[s], N, &leaf[s]));
    for (PetscInt i = 0; i < n; i++) root[s][i] = 100 * rank + i;
    for (PetscInt i = 0; i < N; i++) leaf[s][i] = -1;
    PetscCall(PetscSFBcastBegin(sfs[s], MPIU_INT, root[s], leaf[s], MPI_REPLACE));
    PetscCall(PetscSFBcastEnd(sfs[s], MPIU_INT, root[s], leaf[s], MPI_REPLACE));
    PetscCall(PetscSFReduceBegin(sfs[s], MPIU_INT, leaf[s], root[s], MPI_SUM));
    PetscCall(PetscSFReduceEnd(sfs[s], MPIU_INT, leaf[s], root[s], MPI_SUM));
  }
  PetscCheck(!memcmp(root[0], root[1], sizeof(PetscInt) * (size_t)n) && !memcmp(leaf[0], leaf[1], sizeof(PetscInt) * (size_t)N), PETSC_COMM_SELF, PETSC_ERR_PLIB, "[%d] allgather SF made ghostwire after SetUp differs from PETSc's", rank);
  for (int s = 0; s < 2; s++) {
    PetscCall(PetscFree2(root[s], leaf[s]));
    PetscCall(PetscSFDestroy(&sfs[s]));
  }
  PetscCall(PetscLayoutDestroy(&map));
  PetscFunctionReturn(0);
}

#define NUNITS 10
#define NOPS   14

static PetscErrorCode make_units(UnitCase units[NUNITS])
{
  MPI_Datatype scalar3, int2, pair_struct;
  /* No padding: basic copies a struct's padding bytes from whatever its buffers held. */
  int          lengths[2] = {1, 2};
  MPI_Aint     offsets[2] = {0, sizeof(double)}, lb, extent;
  MPI_Datatype members[2] = {MPI_DOUBLE, MPI_INT};

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Type_contiguous(3, MPIU_SCALAR, &scalar3));
  PetscCallMPI(MPI_Type_contiguous(2, MPIU_INT, &int2));
  PetscCallMPI(MPI_Type_create_struct(2, lengths, offsets, members, &pair_struct));
  PetscCallMPI(MPI_Type_commit(&scalar3));
  PetscCallMPI(MPI_Type_commit(&int2));
  PetscCallMPI(MPI_Type_commit(&pair_struct));
  PetscCallMPI(MPI_Type_get_extent(pair_struct, &lb, &extent));
  units[0] = (UnitCase){"MPIU_SCALAR", MPIU_SCALAR, FLOATING, sizeof(double), sizeof(double)};
  units[1] = (UnitCase){"3 x MPIU_SCALAR", scalar3, FLOATING, sizeof(double), 3 * sizeof(double)};
  units[2] = (UnitCase){"MPIU_INT", MPIU_INT, INTEGER, sizeof(PetscInt), sizeof(PetscInt)};
  units[3] = (UnitCase){"2 x MPIU_INT", int2, INTEGER, sizeof(PetscInt), 2 * sizeof(PetscInt)};
  units[4] = (UnitCase){"MPI_SIGNED_CHAR", MPI_SIGNED_CHAR, INTEGER, 1, 1};
  units[5] = (UnitCase){"MPI_UNSIGNED_CHAR", MPI_UNSIGNED_CHAR, INTEGER, 1, 1};
  units[6] = (UnitCase){"MPI_CHAR", MPI_CHAR, TEXT, 1, 1};
  units[7] = (UnitCase){"MPIU_2INT", MPIU_2INT, PAIR, sizeof(int), 2 * sizeof(int)};
  units[8] = (UnitCase){"MPI_INT64_T", MPI_INT64_T, INTEGER, 8, 8};
  units[9] = (UnitCase){"struct {double, int, int}", pair_struct, OPAQUE, 1, (size_t)extent};
  PetscFunctionReturn(0);
}

static PetscErrorCode free_units(UnitCase units[NUNITS])
{
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Type_free(&units[1].unit));
  PetscCallMPI(MPI_Type_free(&units[3].unit));
  PetscCallMPI(MPI_Type_free(&units[9].unit));
  PetscFunctionReturn(0);
}

static void make_ops(OpCase ops[NOPS], MPI_Op user)
{
  OpCase all[NOPS] = {
    {"MPI_REPLACE", MPI_REPLACE}, {"MPI_SUM", MPI_SUM},       {"MPI_PROD", MPI_PROD}, {"MPI_MAX", MPI_MAX},       {"MPI_MIN", MPI_MIN},
    {"MPI_LAND", MPI_LAND},       {"MPI_LOR", MPI_LOR},       {"MPI_LXOR", MPI_LXOR}, {"MPI_BAND", MPI_BAND},     {"MPI_BOR", MPI_BOR},
    {"MPI_BXOR", MPI_BXOR},       {"MPI_MAXLOC", MPI_MAXLOC}, {"MPI_MINLOC", MPI_MINLOC}, {"user sum", user},
  };
  for (int i = 0; i < NOPS; i++) ops[i] = all[i];
}

/* Every applicable unit and op, both directions, then the other checks, on one graph. */
static PetscErrorCode compare_graph(MPI_Comm comm, PetscInt variant, const UnitCase units[NUNITS], const OpCase ops[NOPS], PetscInt *checks, PetscInt *fast, PetscInt transfers[2])
{
  Graph    g;
  PetscSF  basic, gw;
  PetscInt bcasts = 0, reduces = 0, staged = 0, read = 0;
  PetscErrorCode (*get_counts)(PetscSF, PetscInt *, PetscInt *) = NULL;
  PetscErrorCode (*get_transfer_counts)(PetscSF, PetscInt *, PetscInt *) = NULL;

  PetscFunctionBeginUser;
  PetscCall(make_graph(comm, variant, &g));
  PetscCall(make_sf(comm, &g, PETSCSFBASIC, &basic));
  PetscCall(make_sf(comm, &g, "ghostwire", &gw));
  for (int u = 0; u < NUNITS; u++) {
    for (int o = 0; o < NOPS; o++) {
      if (!applies(units[u].kind, &ops[o], &units[u])) continue;
      for (int bcast = 0; bcast < 2; bcast++, (*checks)++) PetscCall(compare_one(basic, gw, &g, &units[u], &ops[o], (PetscBool)bcast, (unsigned)(1000 * variant + 10 * u + o)));
    }
  }
  PetscCall(compare_in_flight(basic, gw, &g, &units[0], &units[2]));
  if (!g.rootoffset) PetscCall(compare_fetch_and_gather(basic, gw, &g, &units[2]));
  *checks += 2;
  PetscCall(PetscObjectQueryFunction((PetscObject)gw, "PetscSFGhostwireGetCounts_C", &get_counts));
  PetscCheck(get_counts, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the ghostwire SF has no PetscSFGhostwireGetCounts_C");
  PetscCall(get_counts(gw, &bcasts, &reduces));
  *fast += bcasts + reduces;
  PetscCall(PetscObjectQueryFunction((PetscObject)gw, "PetscSFGhostwireGetTransferCounts_C", &get_transfer_counts));
  PetscCheck(get_transfer_counts, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the ghostwire SF has no PetscSFGhostwireGetTransferCounts_C");
  PetscCall(get_transfer_counts(gw, &staged, &read));
  transfers[0] += staged;
  transfers[1] += read;
  PetscCall(PetscSFDestroy(&gw));
  PetscCall(PetscSFDestroy(&basic));
  PetscCall(PetscFree(g.ilocal));
  PetscCall(PetscFree(g.iremote));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  UnitCase    units[NUNITS];
  OpCase      ops[NOPS];
  MPI_Op      user;
  PetscInt    expect_fast = -1, checks = 0, fast = 0, transfers[2] = {0, 0}, all[2];
  PetscMPIInt rank;
  char        expect_transfer[16] = "";

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-expect_fast", &expect_fast, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-expect_transfer", expect_transfer, sizeof(expect_transfer), NULL));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(make_units(units));
  PetscCallMPI(MPI_Op_create(user_sum, 1, &user));
  make_ops(ops, user);
  for (PetscInt variant = 0; variant < 4; variant++) PetscCall(compare_graph(PETSC_COMM_WORLD, variant, units, ops, &checks, &fast, transfers));
  PetscCall(compare_pattern(PETSC_COMM_WORLD));
  checks++;
  PetscCheck(expect_fast != 1 || fast > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "[%d] the fast path took no operation, but -expect_fast 1", rank);
  PetscCheck(expect_fast != 0 || fast == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "[%d] the fast path took %" PetscInt_FMT " operations, but -expect_fast 0", rank, fast);
  PetscCallMPI(MPI_Allreduce(transfers, all, 2, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  PetscCheck(strcmp(expect_transfer, "segment") || (all[0] > 0 && all[1] == 0), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " messages through the segment, %" PetscInt_FMT " read by cross-memory attach, but -expect_transfer segment", all[0], all[1]);
  PetscCheck(strcmp(expect_transfer, "cma") || all[1] > 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "no message read by cross-memory attach, but -expect_transfer cma");
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "sf_compare: messages to node peers: %" PetscInt_FMT " through the segment, %" PetscInt_FMT " by cross-memory attach\n", all[0], all[1]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "sf_compare: %" PetscInt_FMT " checks on 4 graphs, ghostwire equals basic; fast path on rank 0: %" PetscInt_FMT " operations\n", checks, fast));
  PetscCallMPI(MPI_Op_free(&user));
  PetscCall(free_units(units));
  PetscCall(PetscFinalize());
  return 0;
}
