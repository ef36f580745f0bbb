// SPDX-License-Identifier: BSD-3-Clause
// petsc-basic, petsc-neighbor, petsc-window: PETSc's star forest (Debian's petsc-dev) on the case's
// index lists, as a PETSc user writes a halo exchange; petsc-ghostwire the same through ghostwire's
// own PetscSF type. Roots are this rank's array, leaves its
// ghost elements, each leaf pointing at the element of the neighbour's array it mirrors (the
// receive's source layout), so one PetscSFBcast (MPI_REPLACE) from the array into itself fills
// the ghosts, and one PetscSFReduce (MPI_SUM) sends them back to be added (--reverse). The SF is
// built and set up once; its type is the only difference between them. Options a user would
// set for PETSc (PETSC_OPTIONS, e.g. -sf_window_sync) apply: PetscInitialize reads them.
#include <petscsf.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "exchanger.hpp"

namespace gwbench::halo {
namespace {

static_assert(sizeof(PetscScalar) == sizeof(double), "PETSc built with real double scalars");

void petsc_call(PetscErrorCode error, const char* what) {
  if (error != 0) throw std::runtime_error(std::string("PETSc: ") + what + " failed (error " + std::to_string(error) + ")");
}

PetscInt petsc_int(std::size_t value) {
  if (value > static_cast<std::size_t>(PETSC_MAX_INT))
    throw std::runtime_error("a halo case exceeds PETSc's index range (PetscInt)");
  return static_cast<PetscInt>(value);
}

// PETSc lives from the first PETSc implementation of the job to end_petsc_session(): after
// MPI_Init, which it then leaves to the caller, and before MPI_Finalize.
void start_petsc() {
  PetscBool started = PETSC_FALSE;
  petsc_call(PetscInitialized(&started), "PetscInitialized");
  if (started) return;
  // ghostwire's timeouts and MPI_Abort report failures; PETSc's handler would only add noise.
  petsc_call(PetscOptionsSetValue(nullptr, "-no_signal_handler", nullptr), "PetscOptionsSetValue");
  petsc_call(PetscInitializeNoArguments(), "PetscInitializeNoArguments");
}

// The PetscSF type ghostwire, registered as PETSc's -dll_append registers it (once per job).
void load_ghostwire_type() {
  static bool loaded = false;
  if (loaded) return;
  start_petsc();
  petsc_call(PetscDLLibraryAppend(PETSC_COMM_WORLD, &PetscDLLibrariesLoaded, GW_BENCH_PETSC_TYPE_LIBRARY),
             "PetscDLLibraryAppend(libghostwire_petsc.so)");
  loaded = true;
}

class PetscSfExchanger final : public Exchanger {
 public:
  PetscSfExchanger(const ExchangerSetup& setup, PetscSFType type)
      : field_(reinterpret_cast<double*>(setup.shared_field.data())) {
    start_petsc();
    const HaloCase& c = setup.halo_case;
    std::vector<PetscInt> leaves;
    std::vector<PetscSFNode> roots;
    for (const Receive& r : c.receives) {
      r.layout.for_each_run([&](std::size_t first, std::size_t count) {
        for (std::size_t i = first; i < first + count; ++i) leaves.push_back(petsc_int(i));
      });
      r.source.for_each_run([&](std::size_t first, std::size_t count) {
        for (std::size_t i = first; i < first + count; ++i) roots.push_back({r.neighbour, petsc_int(i)});
      });
    }
    if (leaves.size() != roots.size()) throw std::logic_error("a receive's layout and source differ in length");
    petsc_call(PetscSFCreate(MPI_COMM_WORLD, &sf_), "PetscSFCreate");
    petsc_call(PetscSFSetType(sf_, type), "PetscSFSetType");
    petsc_call(PetscSFSetFromOptions(sf_), "PetscSFSetFromOptions");
    petsc_call(PetscSFSetGraph(sf_, petsc_int(c.elements), petsc_int(leaves.size()), leaves.data(), PETSC_COPY_VALUES,
                               roots.data(), PETSC_COPY_VALUES),
               "PetscSFSetGraph");
    petsc_call(PetscSFSetUp(sf_), "PetscSFSetUp");
  }
  ~PetscSfExchanger() override { PetscSFDestroy(&sf_); }

  double* field() override { return field_; }

  void exchange() override {
    petsc_call(PetscSFBcastBegin(sf_, MPI_DOUBLE, field_, field_, MPI_REPLACE), "PetscSFBcastBegin");
    petsc_call(PetscSFBcastEnd(sf_, MPI_DOUBLE, field_, field_, MPI_REPLACE), "PetscSFBcastEnd");
  }

  void reverse_sum() override {
    petsc_call(PetscSFReduceBegin(sf_, MPI_DOUBLE, field_, field_, MPI_SUM), "PetscSFReduceBegin");
    petsc_call(PetscSFReduceEnd(sf_, MPI_DOUBLE, field_, field_, MPI_SUM), "PetscSFReduceEnd");
  }

 private:
  double* field_;
  PetscSF sf_ = nullptr;
};

}  // namespace

std::unique_ptr<Exchanger> make_petsc_exchanger(const ExchangerSetup& setup, std::string_view type) {
  if (type == "basic") return std::make_unique<PetscSfExchanger>(setup, PETSCSFBASIC);
  if (type == "neighbor") return std::make_unique<PetscSfExchanger>(setup, PETSCSFNEIGHBOR);
  if (type == "window") return std::make_unique<PetscSfExchanger>(setup, PETSCSFWINDOW);
  if (type == "ghostwire") {
    load_ghostwire_type();
    return std::make_unique<PetscSfExchanger>(setup, "ghostwire");
  }
  throw std::logic_error("unknown PetscSF type " + std::string(type));
}

void end_petsc_session() {
  PetscBool started = PETSC_FALSE, ended = PETSC_FALSE;
  PetscInitialized(&started);
  PetscFinalized(&ended);
  if (started && !ended) petsc_call(PetscFinalize(), "PetscFinalize");
}

}  // namespace gwbench::halo
