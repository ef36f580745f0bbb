// SPDX-License-Identifier: BSD-3-Clause
// commfree: the same run without any halo exchange, so its time is the computation alone and the
// difference to another variant is what that variant's communication costs. Ghost cells facing
// other ranks stay 0, so with more than one rank heat is lost there and conservation cannot hold:
// it is reported, not enforced (one rank has no such cells and is checked as usual).
//
// See docs/minighost.md, "Code: what is shared, what a variant supplies".
#include "heap_variables.hpp"
#include "variant.hpp"

namespace minighost {
namespace {

class CommfreeVariant final : public Variant {
 public:
  explicit CommfreeVariant(const VariantSetup& setup)
      : variables_(setup.decomposition->block(), setup.num_vars), ranks_(setup.decomposition->ranks()) {}

  FieldView variable(int variable) override { return variables_.view(variable); }
  void exchange_all_variables() override {}
  void exchange_variable(int) override {}
  bool fills_halos() const override { return ranks_ == 1; }

 private:
  HeapVariables variables_;
  int ranks_;
};

std::unique_ptr<Variant> make(const VariantSetup& setup) { return std::make_unique<CommfreeVariant>(setup); }

const VariantRegistration registration{"commfree", "no halo exchange: computation time only, not verified", make};

}  // namespace
}  // namespace minighost
