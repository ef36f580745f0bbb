// SPDX-License-Identifier: BSD-3-Clause
// Commit's choice phase (slot_choice.hpp). The registry's order is the automatic preference; a
// path named by GHOSTWIRE_INTRA_PATH comes first for every slot between node peers it can serve at
// all, and the others follow as the automatic choice would take them.
#include "halo/commit/slot_choice.hpp"

#include <algorithm>

#include "ghostwire/error.hpp"
#include "halo/commit/slot_pieces.hpp"
#include "halo/path_registry.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {
namespace {

std::string intra_path_setting(const Settings& settings) {
  switch (settings.intra_path) {
    case IntraPath::automatic: return "auto";
    case IntraPath::in_place: return "in-place";
    case IntraPath::staged: return "staged";
    case IntraPath::pushed: return "pushed";
    case IntraPath::named: break;
  }
  return settings.intra_path_name;
}

SlotSide side_of(const PlanState& p, std::size_t s, bool sending, const std::vector<PieceSpec>& pieces, bool split) {
  SlotSide side;
  side.plan = &p;
  side.slot = s;
  side.rank = p.neighbours[s / p.channels];
  side.sending = sending;
  side.between_nodes = slot_between_nodes(p, s);
  side.to_self = side.rank == p.w->rank;
  side.split_part = split;
  side.in_segments = all_in_segments(p, pieces);
  side.dense = dense(p, pieces);
  side.cores_shared = cores_shared(p);
  side.acknowledge_by_reply = p.acknowledge_by_reply;
  side.bytes = message_bytes(p, pieces);
  side.pieces = &pieces;
  return side;
}

const PathPlanState* state_of(const PlanState& p, std::size_t index) {
  return index < p.path_states.size() ? p.path_states[index].get() : nullptr;
}

// This side's candidates: the forced path first where it serves, then the registry's order, up
// to and including the first path that needs no consent from the other side.
std::vector<std::uint8_t> candidates_of(const PlanState& p, const SlotSide& side, const PathType* forced) {
  std::vector<std::uint8_t> list;
  auto consider = [&](const PathType& type, Choice how) {
    if (type.between_nodes() != side.between_nodes || (side.split_part && type.needs_receiver_consent())) return false;
    const std::size_t index = path_index(type);
    if (!type.offers(side, how, state_of(p, index))) return false;
    list.push_back(static_cast<std::uint8_t>(index));
    return !type.needs_receiver_consent();
  };
  if (forced != nullptr && !side.between_nodes && consider(*forced, Choice::forced)) return list;
  for (const PathType* type : registered_paths())
    if (type != forced && consider(*type, Choice::automatic)) break;
  return list;
}

void finish_side(const PlanState& p, SideChoice& choice, const PathType* forced) {
  choice.candidates = candidates_of(p, choice.side, forced);
  for (std::uint8_t index : choice.candidates) {
    const SlotMemory need = registered_paths()[index]->memory(choice.side);
    choice.memory.segment_bytes = std::max(choice.memory.segment_bytes, need.segment_bytes);
    choice.memory.private_bytes = std::max(choice.memory.private_bytes, need.private_bytes);
  }
}

}  // namespace

const PathType* forced_intra_path(const PlanState& p) {
  const std::string name = p.intra_path.empty() ? intra_path_setting(p.w->settings) : p.intra_path;
  if (name == "auto") return nullptr;
  const std::string source = p.intra_path.empty() ? "GHOSTWIRE_INTRA_PATH='" + name + "'"
                                                  : "Plan::intra_path(\"" + name + "\") of plan " + std::to_string(p.id);
  const PathType* type = find_path(name);
  if (type == nullptr)
    raise(Errc::invalid_argument, source + " names no message path (the paths: " + path_names() + ")");
  if (type->between_nodes())
    raise(Errc::invalid_argument, source + " names a path between nodes; it takes one between node peers (the paths: " +
                                      path_names() + ")");
  return type;
}

void choose_sides(const PlanState& p, SlotChoices& choices) {
  const PathType* forced = forced_intra_path(p);
  const std::size_t slots = p.send_pieces.size();
  choices.sends.assign(slots, std::nullopt);
  choices.receives.assign(slots, std::nullopt);
  for (std::size_t s = 0; s < slots; ++s) {
    if (!p.send_pieces[s].empty()) {
      SendChoice& send = choices.sends[s].emplace();
      const bool split = split_wanted(p, s);
      if (split) send.split = split_pieces(p, s);
      send.parts.resize(split ? 2 : 1);  // sized before the sides point into send.split
      for (std::size_t k = 0; k < send.parts.size(); ++k) {
        send.parts[k].side = side_of(p, s, true, split ? send.split.parts[k] : p.send_pieces[s], split);
        finish_side(p, send.parts[k], forced);
      }
    }
    if (!p.receive_pieces[s].empty()) {
      SideChoice& receive = choices.receives[s].emplace();
      receive.side = side_of(p, s, false, p.receive_pieces[s], false);
      finish_side(p, receive, forced);
    }
  }
}

std::vector<std::string> refusals(const PlanState& p, const SlotChoices& choices) {
  std::vector<std::string> problems;
  auto check = [&](const SideChoice& choice, const char* direction) {
    for (std::uint8_t index : choice.candidates) {
      const PathType& type = *registered_paths()[index];
      const std::string why = type.refuse(choice.side);
      if (!why.empty())
        problems.push_back(std::string(direction) + " " +
                           p.slot_name(choice.side.slot % p.channels, choice.side.rank) + " (" + type.name() +
                           "): " + why);
    }
  };
  for (std::size_t s = 0; s < choices.sends.size(); ++s) {
    if (choices.sends[s])
      for (const SideChoice& part : choices.sends[s]->parts) check(part, "send on");
    if (choices.receives[s]) check(*choices.receives[s], "receive on");
  }
  return problems;
}

const PathType* agree_on_path(std::span<const std::uint8_t> sender, std::span<const std::uint8_t> receiver,
                              std::string& problem) {
  const auto& paths = registered_paths();
  auto name = [&](std::uint8_t index) { return index < paths.size() ? paths[index]->name() : "an unknown path"; };
  for (std::uint8_t index : sender) {
    if (index >= paths.size()) break;
    const PathType* type = paths[index];
    const bool accepted = std::find(receiver.begin(), receiver.end(), index) != receiver.end();
    if (type->needs_receiver_consent() && !accepted) continue;
    if (type->receiver_prepares() && (receiver.empty() || receiver.back() != index)) {
      problem = std::string("the sender takes the ") + type->name() + " path but the receiver prepared for " +
                (receiver.empty() ? "none" : name(receiver.back())) +
                " (are GHOSTWIRE_TRANSPORT and GHOSTWIRE_AGGREGATE the same on every rank?)";
      return nullptr;
    }
    return type;
  }
  problem = "no path serves both sides (the sender offers";
  for (std::uint8_t index : sender) problem += std::string(" ") + name(index);
  problem += ", the receiver accepts";
  for (std::uint8_t index : receiver) problem += std::string(" ") + name(index);
  problem += ")";
  return nullptr;
}

}  // namespace ghostwire::detail
