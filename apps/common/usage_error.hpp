// SPDX-License-Identifier: BSD-3-Clause
// UsageError: a mistake the user can fix (an option, a variant name, a grid that does not fit the
// job, a config file or deck), shared by the apps. Every rank parses the same command line and the
// same input, so every rank throws it at the same point: main prints it once (rank 0) and all ranks
// finalise MPI and exit with usage_error_status, instead of aborting the job. Where one rank alone
// can see the mistake (gw-cfdproxy's rank 0 reads the mesh), it tells the others first: thrown on
// one rank only, the error would leave the others waiting for it. Each app's doc lists its exit
// statuses (docs/heat.md, "Running it"; docs/minighost.md, "Options"; docs/cloverleaf.md, "Decks";
// docs/cfdproxy.md, "Running it").
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string_view>

namespace ghostwire_programs {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The exit status of a usage error, in every app.
inline constexpr int usage_error_status = 2;

// Every rank calls it with the same error (each threw it at the same point), passing its rank in
// the job: rank 0 prints "<prefix><message>" on stderr, once for the job. Returns
// usage_error_status, for main to return after MPI_Finalize.
inline int report_usage_error(const UsageError& error, std::string_view prefix, int rank) {
  if (rank == 0) std::fprintf(stderr, "%.*s%s\n", static_cast<int>(prefix.size()), prefix.data(), error.what());
  return usage_error_status;
}

}  // namespace ghostwire_programs
