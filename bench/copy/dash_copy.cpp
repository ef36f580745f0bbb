// SPDX-License-Identifier: BSD-3-Clause
// dash-copy: dash::copy of the same range from a dash::Array<double> of the same size, BLOCKED,
// element i holding i. Compiled only with -DGHOSTWIRE_DASH_DIR=<DASH install>, at DASH's C++14
// (bench/copy/CMakeLists.txt), so it includes DASH and dash_source.hpp only.
#include <libdash.h>

#include "dash_source.hpp"

namespace copybench {

struct DashSource::State {
  dash::Array<double> array;
};

DashSource::DashSource(int* argc, char*** argv, std::int64_t total) {
  dash::init(argc, argv);  // MPI is already initialised by gw::World; DART uses it as it is
  state_ = std::make_unique<State>();
  state_->array.allocate(static_cast<std::size_t>(total), dash::BLOCKED);
  auto& local = state_->array.local;
  for (std::size_t i = 0; i < state_->array.lsize(); ++i)
    local[i] = static_cast<double>(state_->array.pattern().global(static_cast<dash::default_index_t>(i)));
  dash::barrier();
}

DashSource::~DashSource() {
  state_.reset();
  dash::finalize();
}

void DashSource::copy(std::int64_t first, std::size_t count, double* out) const {
  auto begin = state_->array.begin() + first;
  dash::copy(begin, begin + static_cast<std::int64_t>(count), out);
}

}  // namespace copybench
