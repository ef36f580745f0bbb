// SPDX-License-Identifier: BSD-3-Clause
// Life cycle of the PetscSF type "ghostwire": create, set up (inner basic SF, then the fast path),
// reset, destroy, options, view, and the queries answered by the inner SF.
#include <new>

#include "fast_path.hpp"
#include "sf_ghostwire.hpp"

namespace gwpetsc {
namespace {

// The inner SF: a PETSCSFBASIC on the same communicator and graph, set up now; for a graph with
// a pattern (an SF whose type was changed after PetscSFSetGraphWithPattern), PETSc's own type for it.
PetscErrorCode build_inner(PetscSF sf, PetscSF* inner) {
  PetscFunctionBegin;
  PetscCall(PetscSFCreate(PetscObjectComm((PetscObject)sf), inner));
  (*inner)->allow_multi_leaves = sf->allow_multi_leaves;
  (*inner)->rankorder = sf->rankorder;
  if (sf->pattern != PETSCSF_PATTERN_GENERAL) {
    PetscCall(PetscSFSetGraphWithPattern(*inner, sf->map, sf->pattern));
  } else {
    PetscCall(PetscSFSetType(*inner, PETSCSFBASIC));
    PetscCall(PetscSFSetGraph(*inner, sf->nroots, sf->nleaves, sf->mine, PETSC_COPY_VALUES, sf->remote,
                              PETSC_COPY_VALUES));
  }
  PetscCall(PetscSFSetUp(*inner));
  PetscFunctionReturn(0);
}

// The outer SF's own rank fields (PetscSFView prints them), grouped as basic groups them: the inner
// basic SF's, copied (computing them again costs as much as a quarter of basic's set-up). Those a
// previous type left (the type changed after SetUp) are freed first.
PetscErrorCode set_up_ranks(PetscSF sf, PetscSF inner) {
  PetscFunctionBegin;
  if (sf->pattern != PETSCSF_PATTERN_GENERAL) PetscFunctionReturn(0);
  PetscCall(PetscFree4(sf->ranks, sf->roffset, sf->rmine, sf->rremote));
  const PetscInt n = inner->nranks, edges = inner->roffset[n];
  PetscCall(PetscMalloc4(n, &sf->ranks, n + 1, &sf->roffset, edges, &sf->rmine, edges, &sf->rremote));
  PetscCall(PetscArraycpy(sf->ranks, inner->ranks, n));
  PetscCall(PetscArraycpy(sf->roffset, inner->roffset, n + 1));
  PetscCall(PetscArraycpy(sf->rmine, inner->rmine, edges));
  PetscCall(PetscArraycpy(sf->rremote, inner->rremote, edges));
  sf->nranks = n;
  sf->ndranks = inner->ndranks;
  PetscFunctionReturn(0);
}

PetscErrorCode set_up(PetscSF sf) {
  SfData& d = data(sf);
  PetscFunctionBegin;
  PetscCall(build_inner(sf, &d.inner));
  PetscCall(set_up_ranks(sf, d.inner));
  if (d.use_fast && sf->pattern == PETSCSF_PATTERN_GENERAL) PetscCall(FastPath::create(sf, &d.fast));
  PetscCall(PetscInfo(sf, "PetscSF ghostwire: %s\n",
                      !d.fast                   ? "everything by the inner basic SF"
                      : d.fast->crosses_nodes() ? "Bcast and Reduce within a node through ghostwire, between nodes by basic"
                                                : "Bcast and Reduce through ghostwire (one node)"));
  PetscFunctionReturn(0);
}

PetscErrorCode reset(PetscSF sf) {
  SfData& d = data(sf);
  PetscFunctionBegin;
  if (d.fast) {
    PetscCheck(!d.fast->busy(), PetscObjectComm((PetscObject)sf), PETSC_ERR_ARG_WRONGSTATE,
               "PetscSF ghostwire: an operation has begun but not ended: end it before resetting or destroying the SF");
    FastPath::Counts c = d.fast->counts();
    PetscCall(PetscInfo(sf, "PetscSF ghostwire: %ld Bcast and %ld Reduce through ghostwire (%ld links), %ld left to basic\n",
                        c.bcast, c.reduce, c.links, c.declined));
    PetscCall(PetscInfo(sf, "PetscSF ghostwire: transfer %s: %ld messages to node peers through the segment, %ld read by cross-memory attach\n",
                        transfer_names[static_cast<int>(d.transfer)], c.staged, c.read));
  }
  PetscCall(FastPath::destroy(&d.fast));
  PetscCall(PetscSFDestroy(&d.inner));
  PetscFunctionReturn(0);
}

PetscErrorCode destroy(PetscSF sf) {
  PetscFunctionBegin;
  PetscCall(reset(sf));
  PetscCall(PetscObjectComposeFunction((PetscObject)sf, "PetscSFGhostwireGetCounts_C", nullptr));
  PetscCall(PetscObjectComposeFunction((PetscObject)sf, "PetscSFGhostwireGetTransferCounts_C", nullptr));
  delete &data(sf);
  sf->data = nullptr;
  PetscFunctionReturn(0);
}

PetscErrorCode set_from_options(PetscSF sf, PetscOptionItems* PetscOptionsObject) {
  SfData& d = data(sf);
  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "PetscSF ghostwire options");
  PetscCall(PetscOptionsBool("-sf_ghostwire_fast", "Bcast and Reduce within a node through ghostwire's shared memory",
                             "", d.use_fast, &d.use_fast, nullptr));
  PetscInt transfer = static_cast<PetscInt>(d.transfer);
  PetscCall(PetscOptionsEList("-sf_ghostwire_transfer",
                              "Messages between node peers: auto (by size), segment (pack, combine) or cma (read the peer's array)",
                              "", transfer_names, 3, transfer_names[transfer], &transfer, nullptr));
  d.transfer = static_cast<Transfer>(transfer);
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

PetscErrorCode duplicate(PetscSF sf, PetscSFDuplicateOption, PetscSF copy) {
  PetscFunctionBegin;
  data(copy).use_fast = data(sf).use_fast;
  data(copy).transfer = data(sf).transfer;
  PetscFunctionReturn(0);
}

// As basic's view: what it prints, from the inner SF (which knows the pattern for the non-ASCII
// viewers); before SetUp there is no inner SF, and basic's one line is all there is.
PetscErrorCode view(PetscSF sf, PetscViewer viewer) {
  SfData& d = data(sf);
  PetscBool ascii;
  PetscViewerFormat format;
  PetscFunctionBegin;
  if (d.inner) {
    d.inner->rankorder = sf->rankorder;
    PetscCall(d.inner->ops->View(d.inner, viewer));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  PetscCall(PetscViewerGetFormat(viewer, &format));
  if (ascii && format != PETSC_VIEWER_ASCII_MATLAB)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  MultiSF sort=%s\n", sf->rankorder ? "rank-order" : "unordered"));
  PetscFunctionReturn(0);
}

PetscErrorCode get_root_ranks(PetscSF sf, PetscInt* n, const PetscMPIInt** ranks, const PetscInt** offset,
                              const PetscInt** mine, const PetscInt** remote) {
  PetscFunctionBegin;
  PetscCall(PetscSFGetRootRanks(data(sf).inner, n, ranks, offset, mine, remote));
  PetscFunctionReturn(0);
}

PetscErrorCode get_leaf_ranks(PetscSF sf, PetscInt* n, const PetscMPIInt** ranks, const PetscInt** offset,
                              const PetscInt** rootloc) {
  PetscFunctionBegin;
  PetscCall(PetscSFGetLeafRanks(data(sf).inner, n, ranks, offset, rootloc));
  PetscFunctionReturn(0);
}

// Basic's embedded SF (its leaf order is what basic's users see), made a ghostwire SF again so that
// what is built from this SF stays accelerated.
PetscErrorCode create_embedded_root_sf(PetscSF sf, PetscInt n, const PetscInt* selected, PetscSF* out) {
  PetscSF basic;
  PetscInt nroots, nleaves;
  const PetscInt* ilocal;
  const PetscSFNode* iremote;
  PetscFunctionBegin;
  PetscCall(PetscSFCreateEmbeddedRootSF(data(sf).inner, n, selected, &basic));
  PetscCall(PetscSFGetGraph(basic, &nroots, &nleaves, &ilocal, &iremote));
  PetscCall(PetscSFDuplicate(sf, PETSCSF_DUPLICATE_CONFONLY, out));
  PetscCall(PetscSFSetGraph(*out, nroots, nleaves, const_cast<PetscInt*>(ilocal), PETSC_COPY_VALUES,
                            const_cast<PetscSFNode*>(iremote), PETSC_COPY_VALUES));
  PetscCall(PetscSFDestroy(&basic));
  PetscFunctionReturn(0);
}

// Through PetscObjectQueryFunction(sf, "PetscSFGhostwireGetCounts_C", ...): how many Bcast and
// Reduce operations the fast path has taken (0 and 0 without a fast path); tests check with it
// that the fast path is in use.
PetscErrorCode get_counts(PetscSF sf, PetscInt* bcasts, PetscInt* reduces) {
  SfData& d = data(sf);
  PetscFunctionBegin;
  FastPath::Counts c = d.fast ? d.fast->counts() : FastPath::Counts{};
  *bcasts = static_cast<PetscInt>(c.bcast);
  *reduces = static_cast<PetscInt>(c.reduce);
  PetscFunctionReturn(0);
}

// Through PetscObjectQueryFunction(sf, "PetscSFGhostwireGetTransferCounts_C", ...): how many
// messages to node peers went through the segment and how many were read by cross-memory attach.
PetscErrorCode get_transfer_counts(PetscSF sf, PetscInt* staged, PetscInt* read) {
  SfData& d = data(sf);
  PetscFunctionBegin;
  FastPath::Counts c = d.fast ? d.fast->counts() : FastPath::Counts{};
  *staged = static_cast<PetscInt>(c.staged);
  *read = static_cast<PetscInt>(c.read);
  PetscFunctionReturn(0);
}

}  // namespace

PetscErrorCode create(PetscSF sf) {
  PetscFunctionBegin;
  sf->data = new (std::nothrow) SfData;
  PetscCheck(sf->data, PETSC_COMM_SELF, PETSC_ERR_MEM, "PetscSF ghostwire: out of memory for the SF's data");
  PetscCall(transfer_from_environment(&data(sf).transfer));
  sf->ops->SetUp = set_up;
  sf->ops->Reset = reset;
  sf->ops->Destroy = destroy;
  sf->ops->SetFromOptions = set_from_options;
  sf->ops->Duplicate = duplicate;
  sf->ops->View = view;
  sf->ops->GetRootRanks = get_root_ranks;
  sf->ops->GetLeafRanks = get_leaf_ranks;
  sf->ops->CreateEmbeddedRootSF = create_embedded_root_sf;
  set_communication_ops(sf);
  PetscCall(PetscObjectComposeFunction((PetscObject)sf, "PetscSFGhostwireGetCounts_C", get_counts));
  PetscCall(PetscObjectComposeFunction((PetscObject)sf, "PetscSFGhostwireGetTransferCounts_C", get_transfer_counts));
  // The type changed after SetUp (DMPlex's point SF meets -sf_type in PetscSFSetFromOptions then):
  // PETSc would not call SetUp again, so set this type up now, as collectively as SetType is.
  if (sf->setupcalled) {
    sf->setupcalled = PETSC_FALSE;
    PetscCall(PetscSFSetUp(sf));
  }
  PetscFunctionReturn(0);
}

}  // namespace gwpetsc
