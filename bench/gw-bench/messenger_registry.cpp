// SPDX-License-Identifier: BSD-3-Clause
// Which implementations apply to a path, and how to make them (their names: implementation_names.cpp).
#include <algorithm>
#include <stdexcept>

#include "messenger.hpp"
#include "run_context.hpp"

namespace gwbench {

std::string unavailable_reason(std::string_view name, const RunContext& context) {
  if ((name == "gw-p2p" || name == "gw-rma") && context.pair_on_one_ghostwire_node())
    return "ranks 0 and 1 are on one ghostwire node, so no inter-node transport is involved (use gw)";
  if (name == "raw" && !context.pair_shares_host())
    return "ranks 0 and 1 are on different hosts, so they share no memory";
  return "";
}

std::vector<std::string> default_implementations(const RunContext& context) {
  std::vector<std::string> chosen;
  for (const std::string& name : implementation_names()) {
    if (name == "gw" && !context.pair_on_one_ghostwire_node()) continue;  // gw-p2p and gw-rma instead
    if (unavailable_reason(name, context).empty()) chosen.push_back(name);
  }
  return chosen;
}

std::unique_ptr<Messenger> make_messenger(std::string_view name, RunContext& context, const SlotLayout& layout,
                                          Verify verify) {
  if (std::string why = unavailable_reason(name, context); !why.empty())
    throw std::runtime_error("implementation " + std::string(name) + " cannot run here: " + why);
  if (name == "gw" || name == "gw-p2p" || name == "gw-rma")
    return make_gw_messenger(context, std::string(name), layout, verify);
  if (name == "mpi-sendrecv") return make_mpi_sendrecv_messenger(context, layout, verify);
  if (name == "mpi-put-flag") return make_mpi_put_flag_messenger(context, layout, verify);
  if (name == "raw") return make_raw_messenger(context, layout, verify);
  throw std::runtime_error("unknown implementation " + std::string(name));
}

}  // namespace gwbench
