// SPDX-License-Identifier: BSD-3-Clause
#include "world_cache.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <vector>

#include <ghostwire/error.hpp>
#include <ghostwire/settings.hpp>

namespace gwpetsc {
namespace {

int world_key = MPI_KEYVAL_INVALID;
int finalize_key = MPI_KEYVAL_INVALID;
// Worlds alive, in creation order (the same on every rank), for the clean-up at MPI_Finalize.
std::vector<ghostwire::World*> alive;

void forget(ghostwire::World* world) {
  alive.erase(std::remove(alive.begin(), alive.end(), world), alive.end());
}

int delete_world(MPI_Comm, int, void* value, void*) {
  auto* world = static_cast<ghostwire::World*>(value);
  forget(world);
  delete world;
  return MPI_SUCCESS;
}

// At MPI_Finalize: the Worlds of communicators nobody freed, newest first.
int delete_all(MPI_Comm, int, void*, void*) {
  while (!alive.empty()) {
    ghostwire::World* world = alive.back();
    alive.pop_back();
    delete world;
  }
  return MPI_SUCCESS;
}

void create_keys() {
  if (world_key != MPI_KEYVAL_INVALID) return;
  if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_world, &world_key, nullptr) != MPI_SUCCESS ||
      MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_all, &finalize_key, nullptr) != MPI_SUCCESS ||
      MPI_Comm_set_attr(MPI_COMM_SELF, finalize_key, nullptr) != MPI_SUCCESS)
    ghostwire::raise(ghostwire::Errc::mpi, "PetscSF ghostwire: cannot create the MPI attribute keys of its Worlds");
}

// ghostwire's settings from the environment, but waits without a limit unless GHOSTWIRE_TIMEOUT
// sets one: under basic a rank may sit in End for as long as its peers take to reach Begin.
ghostwire::Settings settings() {
  ghostwire::Settings s = ghostwire::Settings::from_environment();
  if (!std::getenv("GHOSTWIRE_TIMEOUT")) s.timeout_seconds = 1e9;
  return s;
}

}  // namespace

ghostwire::World& world_of(MPI_Comm comm) {
  create_keys();
  void* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, world_key, &value, &found);
  if (found) return *static_cast<ghostwire::World*>(value);
  auto world = std::make_unique<ghostwire::World>(comm, settings());
  if (MPI_Comm_set_attr(comm, world_key, world.get()) != MPI_SUCCESS)
    ghostwire::raise(ghostwire::Errc::mpi, "PetscSF ghostwire: cannot attach its World to the SF's communicator");
  alive.push_back(world.get());
  return *world.release();
}

}  // namespace gwpetsc
